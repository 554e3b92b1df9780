"""`ClassStore`: every class-mode call of the teacher's and the students' pages, one small
transaction each, all state in SQL (a SQLite file or PostgreSQL), none in the process.

A worked example (a SQLite file in a temporary folder, a fake clock):

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> store = ClassStore(f"sqlite:///{folder / 'classes.db'}", clock=lambda: 1000.0)
>>> info, secret = store.create_class()
>>> ada = store.join(info.code.lower(), " Ada\\u200b ")
>>> ada.nickname
'Ada'
>>> poll = store.ask(info.code, secret, {"question": "2+2?", "answer": "4"})
>>> store.answer(info.code, ada.token, poll.poll_id, "4")
True
>>> store.answer(info.code, ada.token, poll.poll_id, "5")  # one answer per student
False
>>> store.reveal(info.code, secret, poll.poll_id)
>>> store.scores(info.code)
[('Ada', 1)]
>>> store.close_class(info.code, secret)
>>> store.pulse(info.code).closed
True
>>> store.dispose()
>>> import shutil; shutil.rmtree(folder)
"""

from __future__ import annotations

import secrets

from sqlalchemy import delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from explorer_core.classroom import experiments, polls
from explorer_core.classroom.base import RATE_WINDOW_S, call, digest
from explorer_core.classroom.records import (
    Assignment,
    ClassError,
    ClassInfo,
    Member,
    Poll,
    Pulse,
    RosterRow,
    clean_nickname,
    nickname_key,
    normalise_code,
)
from explorer_core.classroom.schema import classes, join_attempts, members
from explorer_core.classroom.teacher import TeacherStore

GONE = Pulse(None, False, 0, None, None, closed=True)


class ClassStore(TeacherStore):
    """Classes, members, polls, experiments and results in one database (see the package doc)."""

    @call
    def info(self, code: str, *, client: str = "") -> ClassInfo:
        """The class a student typed the code of; ClassError unknown/closed/expired otherwise.

        Each failed lookup counts against `client` (an address or browser id the page passes):
        after join_tries_per_minute failures within a minute, ClassError("rate") until the
        minute has passed, even for a right code. Kept in the database (every replica sees it);
        an empty `client` is not counted.
        """
        code, client, now = normalise_code(code), str(client)[:200], self.clock()
        with self._read() as conn:
            if client:
                tries = conn.execute(
                    select(func.count())
                    .select_from(join_attempts)
                    .where(
                        join_attempts.c.client == client, join_attempts.c.at > now - RATE_WINDOW_S
                    )
                ).scalar_one()
                if tries >= self.join_tries_per_minute:
                    raise ClassError(
                        "rate", "Too many wrong class codes: wait a minute, then retry."
                    )
            try:
                return self._info(self._find(conn, code))
            except ClassError as err:
                failure = err
        if client:
            self._count_failure(client, now)
        raise failure

    def _count_failure(self, client: str, now: float) -> None:
        with self._write() as conn:
            old = (join_attempts.c.client == client) & (join_attempts.c.at <= now - RATE_WINDOW_S)
            conn.execute(delete(join_attempts).where(old))
            conn.execute(insert(join_attempts).values(client=client, at=now))

    @call
    def join(self, code: str, nickname: str, *, client: str = "") -> Member:
        """Joins the class under a cleaned nickname (`records.clean_nickname`), unique in the
        class ignoring case; ClassError "nickname" (empty or taken) or "full" otherwise.
        Keep the returned token in the student's session: it resumes, answers and leaves."""
        info = self.info(code, client=client)
        name = clean_nickname(nickname)
        token, now = secrets.token_urlsafe(24), self.clock()
        taken = ClassError(
            "nickname", f"Someone in this class is already called {name}: pick another."
        )
        try:
            with self._write() as conn:
                row = self._find(conn, info.code, lock=True)
                count = (
                    select(func.count()).select_from(members).where(members.c.class_id == row.id)
                )
                if conn.execute(count).scalar_one() >= row.member_limit:
                    raise ClassError(
                        "full", f"Class {row.code} is full ({row.member_limit} students)."
                    )
                same = (members.c.class_id == row.id) & (
                    members.c.nickname_key == nickname_key(name)
                )
                if conn.execute(select(members.c.id).where(same)).first() is not None:
                    raise taken
                member_id = conn.execute(
                    insert(members).values(
                        class_id=row.id,
                        nickname=name,
                        nickname_key=nickname_key(name),
                        token_hash=digest(token),
                        joined_at=now,
                    )
                ).inserted_primary_key[0]
        except IntegrityError:
            raise taken from None  # the same name, joined a moment ago on another replica
        return Member(member_id, name, token)

    @call
    def member(self, code: str, token: str) -> Member | None:
        """The student's membership after a reload or on another replica; None when the token is
        not (or no longer) in the class. ClassError when the class itself is gone."""
        code = normalise_code(code)
        with self._read() as conn:
            row = conn.execute(
                select(members.c.id, members.c.nickname, classes.c.expires)
                .join(classes, classes.c.id == members.c.class_id)
                .where(members.c.token_hash == digest(token), classes.c.code == code)
            ).first()
            if row is None or row.expires <= self.clock():
                self._find(conn, code)  # raises when the class is gone
                return None
        return Member(row.id, row.nickname, str(token))

    @call
    def leave(self, code: str, token: str) -> None:
        """The student leaves: their membership and answers are deleted (nothing if unknown)."""
        with self._write() as conn:
            klass = select(classes.c.id).where(classes.c.code == normalise_code(code))
            conn.execute(
                delete(members).where(
                    members.c.token_hash == digest(token),
                    members.c.class_id == klass.scalar_subquery(),
                )
            )

    @call
    def roster(self, code: str) -> list[RosterRow]:
        """Who is in the class, in joining order (no tokens)."""
        with self._read() as conn:
            row = self._find(conn, normalise_code(code))
            rows = conn.execute(
                select(members.c.id, members.c.nickname, members.c.joined_at)
                .where(members.c.class_id == row.id)
                .order_by(members.c.joined_at, members.c.id)
            ).all()
        return [RosterRow(*r) for r in rows]

    @call
    def pulse(self, code: str) -> Pulse:
        """What a student's page reads every few seconds: one SELECT on the unique code index.
        A class that is gone (closed, expired, unknown) reads as closed=True."""
        with self._read() as conn:
            row = conn.execute(
                select(
                    classes.c.poll_id,
                    classes.c.revealed,
                    classes.c.follow_seq,
                    classes.c.follow_target,
                    classes.c.experiment_id,
                    classes.c.show_scores,
                    classes.c.expires,
                ).where(classes.c.code == normalise_code(code))
            ).first()
        if row is None:
            return GONE
        if row.expires <= self.clock():
            self._end(normalise_code(code), "expired")
            return GONE
        return Pulse(
            row.poll_id,
            bool(row.revealed),
            row.follow_seq,
            row.follow_target,
            row.experiment_id,
            closed=False,
            show_scores=bool(row.show_scores),
        )

    @call
    def poll(self, code: str, poll_id: int) -> Poll:
        """The poll, payload and all ("answer" included: show `Poll.for_student()` to students)."""
        with self._read() as conn:
            return polls.as_poll(polls.find(conn, self._find(conn, normalise_code(code)), poll_id))

    @call
    def answer(self, code: str, token: str, poll_id: int, value: str) -> bool:
        """Records the student's answer to the open poll: True, or False for a second answer
        (refused, the first stands). ClassError("poll") once revealed or replaced."""
        with self._write() as conn:
            klass = self._find(conn, normalise_code(code))
            member = self._member(conn, klass, token)
            return polls.answer(conn, klass, member.id, int(poll_id), value, self.clock())

    @call
    def my_answer(self, code: str, token: str, poll_id: int) -> str | None:
        """The student's answer to the poll, or None."""
        with self._read() as conn:
            return polls.my_answer(conn, normalise_code(code), digest(token), int(poll_id))

    @call
    def assignment(self, code: str, token: str) -> Assignment | None:
        """The student's tokenizer in the running experiment (None when none runs): round-robin
        over the teacher's algorithms × sizes in the order students ask; stored, so stable."""
        with self._write() as conn:
            klass = self._find(conn, normalise_code(code), lock=True)
            member = self._member(conn, klass, token)
            return experiments.assignment(conn, klass, member.id)

    @call
    def post_result(self, code: str, token: str, result: dict) -> None:
        """Adds the student's result (a small JSON dict) to the running experiment's board."""
        with self._write() as conn:
            klass = self._find(conn, normalise_code(code))
            member = self._member(conn, klass, token)
            experiments.post(conn, klass, member, result, self.clock())
