"""Class mode's store: a teacher's class with a room code, students who join with a nickname,
live polls answered once, "bring everyone here", a tokenizer experiment with a leaderboard, and a
QR code for the join link. All class state lives in SQL (a SQLite file by default, PostgreSQL
shared by every replica when EXPLORER_CLASS_DB is set), never in the process.

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
