"""The teacher's calls: create and close a class, ask and reveal polls, the scoreboard, "bring
everyone here", and the class experiment. Every call but the read-only ones (`tally`, `scores`,
`results`) checks the teacher's secret first.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence

from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError

from explorer_core.classroom import experiments, polls
from explorer_core.classroom.base import StoreBase, call, digest
from explorer_core.classroom.records import (
    ClassError,
    ClassInfo,
    Poll,
    PollTally,
    check_target,
    new_code,
    normalise_code,
)
from explorer_core.classroom.schema import classes, ended
from explorer_core.training.controlled import ExperimentSettings

CODE_TRIES = 20


class TeacherStore(StoreBase):
    """What the teacher's page calls (`store.ClassStore` adds the students' calls)."""

    @call
    def create_class(self) -> tuple[ClassInfo, str]:
        """A new class with a free code; returns its info and the teacher's secret (keep it in
        the teacher's session: every teacher call needs it)."""
        self.purge_expired()
        for _ in range(CODE_TRIES):
            code, secret, now = new_code(), secrets.token_urlsafe(24), self.clock()
            values = dict(
                code=code, secret_hash=digest(secret), created=now, expires=now + self.lifetime_s,
                show_scores=False, member_limit=self.member_limit, poll_id=None, revealed=False,
                follow_seq=0, follow_target=None, experiment_id=None,
            )  # fmt: skip
            try:
                with self._write() as conn:
                    if conn.execute(select(ended.c.code).where(ended.c.code == code)).first():
                        continue  # a recently ended class's code: its students would be confused
                    conn.execute(insert(classes).values(**values))
            except IntegrityError:
                continue  # another class took this code a moment ago
            return ClassInfo(code, now, now + self.lifetime_s, False, self.member_limit), secret
        raise ClassError("db", "No free class code was found; please try again.")

    @call
    def check_teacher(self, code: str, secret: str) -> ClassInfo:
        """The class's info when `secret` is its teacher's; ClassError("secret") otherwise."""
        with self._read() as conn:
            return self._info(self._teacher(conn, code, secret))

    @call
    def close_class(self, code: str, secret: str) -> None:
        """Ends the class: every row of it is deleted; students see "closed"."""
        with self._read() as conn:
            row = self._teacher(conn, code, secret)
        self._end(row.code, "closed")

    @call
    def ask(self, code: str, secret: str, payload: dict) -> Poll:
        """Puts a question to the class (the previous one stays in the history and the scores)."""
        with self._write() as conn:
            return polls.ask(
                conn, self._teacher(conn, code, secret, lock=True), payload, self.clock()
            )

    @call
    def reveal(self, code: str, secret: str, poll_id: int) -> None:
        """Shows the poll's answer; it takes no more answers and now counts in the scores."""
        with self._write() as conn:
            polls.reveal(conn, self._teacher(conn, code, secret, lock=True), int(poll_id))

    @call
    def tally(self, code: str, poll_id: int) -> PollTally:
        """How the class answered so far: counts per answer, answered, joined."""
        with self._read() as conn:
            return polls.tally(conn, self._find(conn, normalise_code(code)), int(poll_id))

    @call
    def set_show_scores(self, code: str, secret: str, show: bool) -> None:
        """Whether students may see the scoreboard (their pulse says so)."""
        with self._write() as conn:
            row = self._teacher(conn, code, secret)
            conn.execute(update(classes).where(classes.c.id == row.id).values(show_scores=show))

    @call
    def scores(self, code: str) -> list[tuple[str, int]]:
        """(nickname, right answers to revealed polls), best first, ties by nickname."""
        with self._read() as conn:
            return polls.scores(conn, self._find(conn, normalise_code(code)))

    @call
    def bring_here(self, code: str, secret: str, target: str) -> int:
        """Asks every student's page to open `target` ("attention?layer=2&head=3", a page of this
        app); returns the new follow_seq, which pages compare with the last one they followed."""
        page = check_target(target)
        with self._write() as conn:
            row = self._teacher(conn, code, secret)
            conn.execute(
                update(classes)
                .where(classes.c.id == row.id)
                .values(follow_seq=classes.c.follow_seq + 1, follow_target=page)
            )
            query = select(classes.c.follow_seq).where(classes.c.id == row.id)
            return conn.execute(query).scalar_one()

    @call
    def start_experiment(
        self, code: str, secret: str, algorithms: Sequence[str], vocab_sizes: Sequence[int | None],
        settings: ExperimentSettings | None = None,
    ) -> int:  # fmt: skip
        """Starts an experiment over seeds × algorithms × vocab_sizes (None: the student's
        choice) that fixes `settings` (default: `ExperimentSettings()`) for every run; returns
        its id. A running one is replaced (its results stay)."""
        settings = ExperimentSettings() if settings is None else settings
        with self._write() as conn:
            row = self._teacher(conn, code, secret, lock=True)
            return experiments.start(conn, row, algorithms, vocab_sizes, settings, self.clock())

    @call
    def experiment_settings(
        self, code: str, experiment_id: int | None = None
    ) -> ExperimentSettings | None:
        """What the experiment (default: the newest) fixes; None before any experiment, or for
        one started before the controlled settings existed (it fixed the tokenizer only)."""
        with self._read() as conn:
            row = self._find(conn, normalise_code(code))
            found = experiments.newest(conn, row) if experiment_id is None else int(experiment_id)
            return None if found is None else experiments.settings_of(conn, row, found)

    @call
    def stop_experiment(self, code: str, secret: str) -> None:
        """Stops the running experiment: no more assignments or results; the board stays."""
        with self._write() as conn:
            experiments.stop(conn, self._teacher(conn, code, secret))

    @call
    def results(self, code: str, experiment_id: int | None = None) -> list[dict]:
        """Leaderboard rows (posted dict + "nickname", "posted_at"), oldest first; the newest
        experiment's when `experiment_id` is None, [] before any experiment."""
        with self._read() as conn:
            row = self._find(conn, normalise_code(code))
            return experiments.leaderboard(conn, row, experiment_id)
