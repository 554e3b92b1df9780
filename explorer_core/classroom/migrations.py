"""The class store's schema history: an ordered list of migrations, each applied once per database.

A migration is frozen once released: it creates the tables *as they were then* (its own Table
copies, on a private MetaData), so a database at version 1 upgrades the same way next year. To
change the schema, append a migration and update `schema.py` to the new shape; the test
`test_upgraded_schema_matches_the_tables` compares the two.

Version numbers are positions in MIGRATIONS, from 1; `schema_version` holds one row per migration
applied (the primary key stops two processes from recording the same one twice).
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    text,
)

schema_version = Table(
    "schema_version",
    MetaData(),
    Column("version", Integer, primary_key=True, autoincrement=False),
    Column("name", String(100), nullable=False),
    Column("applied_at", Float, nullable=False),
)
SQLITE = {"sqlite_autoincrement": True}
CASCADE = {"ondelete": "CASCADE"}


def classes_members_polls(conn: Connection) -> None:
    """Version 1: classes, members, polls and answers; the ended codes and the rate limit."""
    m = MetaData()
    Table(
        "classes",
        m,
        Column("id", Integer, primary_key=True),
        Column("code", String(8), nullable=False, unique=True),
        Column("secret_hash", String(64), nullable=False),
        Column("created", Float, nullable=False),
        Column("expires", Float, nullable=False, index=True),
        Column("show_scores", Boolean, nullable=False),
        Column("member_limit", Integer, nullable=False),
        Column("poll_id", Integer),
        Column("revealed", Boolean, nullable=False),
        Column("follow_seq", Integer, nullable=False),
        Column("follow_target", Text),
        **SQLITE,
    )
    Table(
        "members",
        m,
        Column("id", Integer, primary_key=True),
        Column("class_id", Integer, ForeignKey("classes.id", **CASCADE), nullable=False),
        Column("nickname", String(64), nullable=False),
        Column("nickname_key", String(128), nullable=False),
        Column("token_hash", String(64), nullable=False, unique=True),
        Column("joined_at", Float, nullable=False),
        UniqueConstraint("class_id", "nickname_key"),
        **SQLITE,
    )
    Table(
        "polls",
        m,
        Column("id", Integer, primary_key=True),
        Column(
            "class_id", Integer, ForeignKey("classes.id", **CASCADE), nullable=False, index=True
        ),
        Column("payload", Text, nullable=False),
        Column("answer", Text),
        Column("asked_at", Float, nullable=False),
        Column("revealed", Boolean, nullable=False),
        **SQLITE,
    )
    Table(
        "answers",
        m,
        Column("poll_id", Integer, ForeignKey("polls.id", **CASCADE), primary_key=True),
        Column("member_id", Integer, ForeignKey("members.id", **CASCADE), primary_key=True),
        Column("value", Text, nullable=False),
        Column("answered_at", Float, nullable=False),
        Index("ix_answers_member", "member_id"),
    )
    Table(
        "ended",
        m,
        Column("code", String(8), primary_key=True),
        Column("reason", String(16), nullable=False),
        Column("until", Float, nullable=False, index=True),
    )
    Table(
        "join_attempts",
        m,
        Column("id", Integer, primary_key=True),
        Column("client", String(200), nullable=False),
        Column("at", Float, nullable=False),
        Index("ix_join_attempts_client_at", "client", "at"),
        **SQLITE,
    )
    m.create_all(conn)


def experiments(conn: Connection) -> None:
    """Version 2: the class experiment (tokenizer per student) and its leaderboard."""
    m = MetaData()
    Table("classes", m, Column("id", Integer, primary_key=True))  # for the foreign keys only
    Table("members", m, Column("id", Integer, primary_key=True))
    Table(
        "experiments",
        m,
        Column("id", Integer, primary_key=True),
        Column(
            "class_id", Integer, ForeignKey("classes.id", **CASCADE), nullable=False, index=True
        ),
        Column("combinations", Text, nullable=False),
        Column("started_at", Float, nullable=False),
        **SQLITE,
    )
    Table(
        "assignments",
        m,
        Column("experiment_id", Integer, ForeignKey("experiments.id", **CASCADE), primary_key=True),
        Column("member_id", Integer, ForeignKey("members.id", **CASCADE), primary_key=True),
        Column("seq", Integer, nullable=False),
        Column("algorithm", String(64), nullable=False),
        Column("vocab_size", Integer),
        UniqueConstraint("experiment_id", "seq"),
    )
    Table(
        "results",
        m,
        Column("id", Integer, primary_key=True),
        Column("experiment_id", Integer, ForeignKey("experiments.id", **CASCADE), nullable=False),
        Column("member_id", Integer, ForeignKey("members.id", ondelete="SET NULL")),
        Column("nickname", String(64), nullable=False),
        Column("payload", Text, nullable=False),
        Column("posted_at", Float, nullable=False),
        Index("ix_results_experiment", "experiment_id", "id"),
        **SQLITE,
    )
    for name in ("experiments", "assignments", "results"):
        m.tables[name].create(conn)
    conn.execute(text("ALTER TABLE classes ADD COLUMN experiment_id INTEGER"))


def controlled_experiments(conn: Connection) -> None:
    """Version 3: an experiment fixes the preset, the steps and the seeds (issue 30); the
    round-robin gives each student a seed too. Experiments from before keep NULL there: they
    fixed the tokenizer only, and the board says so."""
    for statement in (
        "ALTER TABLE experiments ADD COLUMN preset VARCHAR(32)",
        "ALTER TABLE experiments ADD COLUMN steps INTEGER",
        "ALTER TABLE experiments ADD COLUMN seeds TEXT",
        "ALTER TABLE assignments ADD COLUMN seed INTEGER",
    ):
        conn.execute(text(statement))


MIGRATIONS: list[tuple[str, Callable[[Connection], None]]] = [
    ("classes, members, polls", classes_members_polls),
    ("experiments", experiments),
    ("controlled experiments", controlled_experiments),
]
