"""The class experiment: each student trains the tokenizer and seed they are assigned (round-robin
over the teacher's seeds × algorithms × vocabulary sizes) with the settings the experiment fixes
(`training.controlled.ExperimentSettings`: preset, steps), and posts the result to a leaderboard.

Functions of an open transaction and the class's row, called by `store.ClassStore`. Assignments
are stored, so a student keeps theirs after a reload or on another replica; the n-th student to
ask gets `records.nth_run(combinations(...), n)`: the grid's n-th run, and past the grid the
tokenizers again with new seeds.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import Connection, Row, func, insert, select, update

from explorer_core.classroom.records import (
    RESULT_BYTES,
    Assignment,
    ClassError,
    combinations,
    nth_run,
    to_json,
)
from explorer_core.classroom.schema import assignments, classes, experiments, results
from explorer_core.training.controlled import ExperimentSettings

NAME_LENGTH = 64
RESULTS_PER_STUDENT = 50  # per experiment: plenty of runs, and a bound on a stuck button's rows


def start(
    conn: Connection,
    klass: Row,
    algorithms: Sequence[str],
    vocab_sizes: Sequence[int | None],
    settings: ExperimentSettings,
    now: float,
) -> int:
    """A new experiment, made the class's running one; returns its id."""
    names = [str(a).strip() for a in algorithms]
    if any(not name or len(name) > NAME_LENGTH for name in names):
        raise ClassError("input", f"Algorithm names must be 1 to {NAME_LENGTH} characters long.")
    grid = combinations(names, list(vocab_sizes), settings.seeds)
    cycle = [[c.algorithm, c.vocab_size, c.seed] for c in grid]
    experiment_id = conn.execute(
        insert(experiments).values(
            class_id=klass.id,
            combinations=json.dumps(cycle),
            started_at=now,
            preset=settings.preset,
            steps=settings.steps,
            seeds=json.dumps(settings.seeds),
        )  # fmt: skip
    ).inserted_primary_key[0]
    conn.execute(
        update(classes).where(classes.c.id == klass.id).values(experiment_id=experiment_id)
    )
    return experiment_id


def stop(conn: Connection, klass: Row) -> None:
    """No experiment runs any more; its results stay on the leaderboard."""
    conn.execute(update(classes).where(classes.c.id == klass.id).values(experiment_id=None))


def settings_of(conn: Connection, klass: Row, experiment_id: int) -> ExperimentSettings | None:
    """What the class's experiment fixes; None for an experiment of another class, or one started
    before schema version 3 (it fixed the tokenizer only)."""
    row = conn.execute(
        select(experiments.c.preset, experiments.c.steps, experiments.c.seeds).where(
            experiments.c.id == int(experiment_id), experiments.c.class_id == klass.id
        )
    ).first()
    if row is None or row.steps is None:
        return None
    return ExperimentSettings(row.preset, row.steps, tuple(json.loads(row.seeds)))


def assignment(conn: Connection, klass: Row, member_id: int) -> Assignment | None:
    """The member's cell (tokenizer, seed) in the running experiment with its fixed settings
    (None when none runs), given on first ask.

    The caller holds the class row locked (SELECT ... FOR UPDATE on PostgreSQL, BEGIN IMMEDIATE
    on SQLite), so two students asking at once get consecutive places in the cycle.
    """
    if klass.experiment_id is None:
        return None
    settings = settings_of(conn, klass, klass.experiment_id)
    fixed = (settings.preset, settings.steps) if settings is not None else (None, None)
    key = (assignments.c.experiment_id == klass.experiment_id) & (
        assignments.c.member_id == member_id
    )
    columns = (assignments.c.algorithm, assignments.c.vocab_size, assignments.c.seed)
    row = conn.execute(select(*columns).where(key)).first()
    if row is not None:
        return Assignment(row.algorithm, row.vocab_size, row.seed, *fixed)
    cycle = json.loads(
        conn.execute(
            select(experiments.c.combinations).where(experiments.c.id == klass.experiment_id)
        ).scalar_one()
    )
    seq = conn.execute(
        select(func.count())
        .select_from(assignments)
        .where(assignments.c.experiment_id == klass.experiment_id)
    ).scalar_one()
    algorithm, vocab_size, seed = nth_run(cycle, seq)
    conn.execute(
        insert(assignments).values(
            experiment_id=klass.experiment_id,
            member_id=member_id,
            seq=seq,
            algorithm=algorithm,
            vocab_size=vocab_size,
            seed=seed,
        )
    )
    return Assignment(algorithm, vocab_size, seed, *fixed)


def post(conn: Connection, klass: Row, member: Row, result: dict, now: float) -> None:
    """One leaderboard row for the running experiment, under the member's nickname."""
    text = to_json(result, RESULT_BYTES, "A result")
    if klass.experiment_id is None:
        raise ClassError("experiment", "No experiment is running in this class right now.")
    mine = (results.c.experiment_id == klass.experiment_id) & (results.c.member_id == member.id)
    if conn.execute(select(func.count()).where(mine)).scalar_one() >= RESULTS_PER_STUDENT:
        raise ClassError("input", f"You have posted {RESULTS_PER_STUDENT} results already.")
    conn.execute(
        insert(results).values(
            experiment_id=klass.experiment_id,
            member_id=member.id,
            nickname=member.nickname,
            payload=text,
            posted_at=now,
        )
    )


def newest(conn: Connection, klass: Row) -> int | None:
    """The id of the class's latest experiment (running or stopped), None before any."""
    return conn.execute(
        select(func.max(experiments.c.id)).where(experiments.c.class_id == klass.id)
    ).scalar()


def leaderboard(conn: Connection, klass: Row, experiment_id: int | None) -> list[dict]:
    """The experiment's results in the order they came (the newest experiment by default).

    Each row is the posted dict plus "nickname" and "posted_at" (the store's, not the client's).
    """
    if experiment_id is None:
        experiment_id = newest(conn, klass)
        if experiment_id is None:
            return []
    owned = conn.execute(
        select(experiments.c.id).where(
            experiments.c.id == int(experiment_id), experiments.c.class_id == klass.id
        )
    ).first()
    if owned is None:
        raise ClassError("experiment", f"Class {klass.code} has no experiment {experiment_id}.")
    rows = conn.execute(
        select(results.c.nickname, results.c.payload, results.c.posted_at)
        .where(results.c.experiment_id == int(experiment_id))
        .order_by(results.c.id)
    ).all()
    return [
        {**json.loads(payload), "nickname": nickname, "posted_at": posted_at}
        for nickname, payload, posted_at in rows
    ]
