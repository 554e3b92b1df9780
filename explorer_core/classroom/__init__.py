"""Class mode's store: a teacher's class with a room code, students who join with a nickname,
live polls answered once, "bring everyone here", a controlled tokenizer experiment (preset, steps
and seeds fixed: `training.controlled`) with a leaderboard, and a QR code for the join link. All
class state lives in SQL (a SQLite file by default, PostgreSQL shared by every replica when
EXPLORER_CLASS_DB is set), never in the process.

Read in this order:

1. `records`     the frozen dataclasses handed out, ClassError and its kinds, and the pure
                 helpers (clean_nickname, room codes, the experiment's round-robin cycle).
2. `migrations`  the schema's history, one frozen migration per version.
3. `schema`      the tables as they are now, and `upgrade` (safe when two processes start at once).
4. `database`    one engine per URL per process; SQLite's WAL, busy timeout and BEGIN IMMEDIATE.
5. `base`        StoreBase: settings, one small transaction per call, finding a live class,
                 checking the teacher's secret and a student's token; expiry and purging.
6. `polls`, `experiments`  the SQL of questions and of the experiment, given an open transaction.
7. `teacher`     TeacherStore: the teacher page's calls.
8. `store`       ClassStore: adds the students' calls; the one class pages use. Start with its
                 worked example.
9. `qr`          the join link and its QR code as SVG, drawn in memory.

How pages use it (`ClassStore.from_settings()` once per process, e.g. in st.cache_resource):
- teacher: `create_class()` -> (info, secret); keep the secret in the session. Then `ask`,
  `tally`, `reveal`, `scores`, `set_show_scores`, `bring_here`, `start_experiment` (with an
  `ExperimentSettings`), `experiment_settings`, `results`, `stop_experiment`, `close_class`;
  `roster` for the list of names.
- student: `info(code, client=...)` then `join` -> Member (keep its token); `member(code, token)`
  after a reload; every 3 s `pulse(code)` (one indexed query) and, when its poll_id or follow_seq
  changed, `poll(...).for_student()` (no "answer" before the reveal) or the follow target; then
  `answer`, `my_answer`, `assignment`, `post_result`, `leave`.
- errors: every call raises only ClassError (a ValueError); `kind` is one of KINDS: beyond
  unknown/closed/expired/full/nickname/secret/rate/poll/db, also "member" (the token is not in
  the class), "experiment" (none running, or no such experiment) and "input" (a payload, result,
  answer or follow target refused). str(error) is one English sentence.
- extras beyond the first sketch: `Pulse.show_scores`, `Poll.for_student()`, `RosterRow`,
  `purge_expired()`, `dispose()`, and `join_link(base, code, page=, param=)`.

Below: `runtime` only; nothing here draws or imports streamlit.
"""

from explorer_core.classroom.qr import join_link, qr_svg
from explorer_core.classroom.records import (
    KINDS,
    Assignment,
    ClassError,
    ClassInfo,
    Member,
    Poll,
    PollTally,
    Pulse,
    RosterRow,
    clean_nickname,
)
from explorer_core.classroom.store import ClassStore

__all__ = [
    "KINDS",
    "Assignment",
    "ClassError",
    "ClassInfo",
    "ClassStore",
    "Member",
    "Poll",
    "PollTally",
    "Pulse",
    "RosterRow",
    "clean_nickname",
    "join_link",
    "qr_svg",
]
