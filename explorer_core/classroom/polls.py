"""Live questions: ask, answer once, tally, reveal, and the scoreboard that counts right answers.

Functions of an open transaction (`conn`) and the class's row, called by `store.ClassStore`,
which checks who is asking first. The class row names the current poll and whether it is
revealed, so a student's page learns both from its one pulse query.
"""

from __future__ import annotations

import json

from sqlalchemy import Connection, Row, and_, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from explorer_core.classroom.records import (
    ANSWER_LENGTH,
    PAYLOAD_BYTES,
    ClassError,
    Poll,
    PollTally,
    to_json,
)
from explorer_core.classroom.schema import answers, classes, members, polls


def ask(conn: Connection, klass: Row, payload: dict, now: float) -> Poll:
    """A new poll, made the class's current one (unrevealed); older polls stay for the scores."""
    text = to_json(payload, PAYLOAD_BYTES, "A poll")
    right = payload.get("answer")
    poll_id = conn.execute(
        insert(polls).values(
            class_id=klass.id,
            payload=text,
            answer=None if right is None else str(right).strip(),  # as answers are stored
            asked_at=now,
            revealed=False,
        )
    ).inserted_primary_key[0]
    conn.execute(
        update(classes).where(classes.c.id == klass.id).values(poll_id=poll_id, revealed=False)
    )
    return Poll(poll_id, json.loads(text), now, False)


def find(conn: Connection, klass: Row, poll_id: int) -> Row:
    """The poll's row, if it belongs to this class; else ClassError("poll")."""
    row = conn.execute(
        select(polls).where(polls.c.id == int(poll_id), polls.c.class_id == klass.id)
    ).first()
    if row is None:
        raise ClassError("poll", f"Class {klass.code} has no question number {poll_id}.")
    return row


def as_poll(row: Row) -> Poll:
    return Poll(row.id, json.loads(row.payload), row.asked_at, bool(row.revealed))


def reveal(conn: Connection, klass: Row, poll_id: int) -> None:
    """Marks the poll revealed (answers close); the class row too when it is the current one."""
    find(conn, klass, poll_id)
    conn.execute(update(polls).where(polls.c.id == poll_id).values(revealed=True))
    if klass.poll_id == poll_id:
        conn.execute(update(classes).where(classes.c.id == klass.id).values(revealed=True))


def tally(conn: Connection, klass: Row, poll_id: int) -> PollTally:
    """How many students gave each answer, how many answered, how many are in the class."""
    find(conn, klass, poll_id)
    counts = dict(
        conn.execute(
            select(answers.c.value, func.count())
            .where(answers.c.poll_id == poll_id)
            .group_by(answers.c.value)
        ).all()
    )
    joined = conn.execute(
        select(func.count()).select_from(members).where(members.c.class_id == klass.id)
    ).scalar_one()
    return PollTally(poll_id, counts, sum(counts.values()), joined)


def scores(conn: Connection, klass: Row) -> list[tuple[str, int]]:
    """(nickname, right answers to revealed polls) for every member, best first, then by name.

    A right answer is one equal to the poll payload's "answer"; unrevealed polls score nothing
    yet, so the board gives nothing away while students can still answer.
    """
    right = and_(
        polls.c.id == answers.c.poll_id, polls.c.revealed, polls.c.answer == answers.c.value
    )
    rows = conn.execute(
        select(members.c.nickname, func.count(polls.c.id))
        .select_from(members)
        .outerjoin(answers, answers.c.member_id == members.c.id)
        .outerjoin(polls, right)
        .where(members.c.class_id == klass.id)
        .group_by(members.c.id, members.c.nickname)
    ).all()
    return sorted(((n, int(p)) for n, p in rows), key=lambda r: (-r[1], r[0].casefold(), r[0]))


def clean_answer(value: str) -> str:
    """An answer as stored: text, stripped, not empty, at most ANSWER_LENGTH characters.

    >>> clean_answer("  B ")
    'B'
    """
    text = str(value).strip()
    if not text or len(text) > ANSWER_LENGTH:
        raise ClassError("input", f"An answer must be 1 to {ANSWER_LENGTH} characters long.")
    return text


def answer(conn: Connection, klass: Row, member_id: int, poll_id: int, value: str, now: float):
    """Records the member's answer to the open poll: True, or False when they already answered.

    Only the class's current, unrevealed poll takes answers (ClassError("poll") otherwise). The
    primary key (poll_id, member_id) refuses a second answer even when two arrive at once.
    """
    text = clean_answer(value)
    poll = find(conn, klass, poll_id)
    if poll.revealed:
        raise ClassError(
            "poll", "The answer has been revealed: this question takes no more answers."
        )
    if klass.poll_id != poll.id:
        raise ClassError("poll", "This question is closed: the teacher has asked a newer one.")
    key = (answers.c.poll_id == poll.id) & (answers.c.member_id == member_id)
    if conn.execute(select(answers.c.value).where(key)).first() is not None:
        return False
    try:
        with conn.begin_nested():  # a savepoint: a lost race rolls back this insert only
            conn.execute(
                insert(answers).values(
                    poll_id=poll.id, member_id=member_id, value=text, answered_at=now
                )
            )
    except IntegrityError:
        return False
    return True


def my_answer(conn: Connection, code: str, token_hash: str, poll_id: int) -> str | None:
    """The member's answer to the poll, or None (one indexed query through the token)."""
    return conn.execute(
        select(answers.c.value)
        .join(members, members.c.id == answers.c.member_id)
        .join(classes, classes.c.id == members.c.class_id)
        .where(
            answers.c.poll_id == int(poll_id),
            members.c.token_hash == token_hash,
            classes.c.code == code,
        )
    ).scalar()
