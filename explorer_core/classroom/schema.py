"""The class store's tables as they are now (what the queries use), and `upgrade`, which brings a
database to that shape by applying `migrations.MIGRATIONS` in order.

Rows of one class hang off `classes.id` with ON DELETE CASCADE, so deleting the class row deletes
its members, polls, answers, experiments, assignments and results in the same statement.

Indexes, one per question a student's page asks every few seconds:
  pulse    classes.code (unique)
  member   members.token_hash (unique)
  answer   answers (poll_id, member_id) primary key: also what makes a second answer fail
"""

from __future__ import annotations

import time

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    func,
    insert,
    select,
    text,
)

from explorer_core.classroom.migrations import MIGRATIONS, schema_version

metadata = MetaData()
SQLITE = {"sqlite_autoincrement": True}  # never reuse the id of a deleted row
CASCADE = {"ondelete": "CASCADE"}

classes = Table(
    "classes",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("code", String(8), nullable=False, unique=True),
    Column("secret_hash", String(64), nullable=False),  # sha256 hex of the teacher's secret
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False, index=True),
    Column("show_scores", Boolean, nullable=False),
    Column("member_limit", Integer, nullable=False),
    Column("poll_id", Integer),  # the current poll (no foreign key: polls point here already)
    Column("revealed", Boolean, nullable=False),
    Column("follow_seq", Integer, nullable=False),
    Column("follow_target", Text),
    Column("experiment_id", Integer),  # migration 2
    **SQLITE,
)
members = Table(
    "members",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id", **CASCADE), nullable=False),
    Column("nickname", String(64), nullable=False),
    Column("nickname_key", String(128), nullable=False),  # casefold(): unique per class
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("joined_at", Float, nullable=False),
    UniqueConstraint("class_id", "nickname_key"),
    **SQLITE,
)
polls = Table(
    "polls",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id", **CASCADE), nullable=False, index=True),
    Column("payload", Text, nullable=False),  # JSON
    Column("answer", Text),  # payload["answer"], kept apart for the scoreboard's query
    Column("asked_at", Float, nullable=False),
    Column("revealed", Boolean, nullable=False),
    **SQLITE,
)
answers = Table(
    "answers",
    metadata,
    Column("poll_id", Integer, ForeignKey("polls.id", **CASCADE), primary_key=True),
    Column("member_id", Integer, ForeignKey("members.id", **CASCADE), primary_key=True),
    Column("value", Text, nullable=False),
    Column("answered_at", Float, nullable=False),
    Index("ix_answers_member", "member_id"),
)
ended = Table(  # codes of closed or expired classes, so a late student reads why
    "ended",
    metadata,
    Column("code", String(8), primary_key=True),
    Column("reason", String(16), nullable=False),  # "closed" or "expired"
    Column("until", Float, nullable=False, index=True),  # then forgotten; the code is free again
)
join_attempts = Table(  # failed code lookups, for the rate limit
    "join_attempts",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("client", String(200), nullable=False),
    Column("at", Float, nullable=False),
    Index("ix_join_attempts_client_at", "client", "at"),
    **SQLITE,
)
experiments = Table(
    "experiments",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("class_id", Integer, ForeignKey("classes.id", **CASCADE), nullable=False, index=True),
    Column("combinations", Text, nullable=False),  # JSON [[algorithm, vocab_size, seed], ...]
    Column("started_at", Float, nullable=False),
    Column("preset", String(32)),  # migration 3; NULL: an experiment that fixed the tokenizer only
    Column("steps", Integer),  # migration 3: fine-tuning steps of every run
    Column("seeds", Text),  # migration 3: JSON [0, 1, 2]
    **SQLITE,
)
assignments = Table(
    "assignments",
    metadata,
    Column("experiment_id", Integer, ForeignKey("experiments.id", **CASCADE), primary_key=True),
    Column("member_id", Integer, ForeignKey("members.id", **CASCADE), primary_key=True),
    Column("seq", Integer, nullable=False),  # 0, 1, 2 ... in the order students asked
    Column("algorithm", String(64), nullable=False),
    Column("vocab_size", Integer),
    Column("seed", Integer),  # migration 3
    UniqueConstraint("experiment_id", "seq"),
)
results = Table(
    "results",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("experiment_id", Integer, ForeignKey("experiments.id", **CASCADE), nullable=False),
    Column("member_id", Integer, ForeignKey("members.id", ondelete="SET NULL")),
    Column("nickname", String(64), nullable=False),
    Column("payload", Text, nullable=False),  # JSON
    Column("posted_at", Float, nullable=False),
    Index("ix_results_experiment", "experiment_id", "id"),
    **SQLITE,
)

LATEST = len(MIGRATIONS)
ADVISORY_LOCK = 7_245_001  # any constant shared by every replica: "the class store migrates"


def upgrade(engine: Engine, target: int = LATEST, now: float | None = None) -> int:
    """Apply the migrations the database lacks, up to `target`; returns the version reached.

    Safe when several processes start at once: PostgreSQL takes a transaction-scoped advisory
    lock, SQLite a write lock (BEGIN IMMEDIATE, see database.py) before reading the version, so
    the second process waits, then finds the work done. Each migration and its version row
    commit together (DDL is transactional in both databases).
    """
    now = time.time() if now is None else now
    with engine.connect().execution_options(class_write=True) as conn, conn.begin():
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": ADVISORY_LOCK})
        schema_version.create(conn, checkfirst=True)
        current = conn.execute(select(func.max(schema_version.c.version))).scalar() or 0
        for version, (name, migrate) in enumerate(MIGRATIONS[current:target], start=current + 1):
            migrate(conn)
            conn.execute(insert(schema_version).values(version=version, name=name, applied_at=now))
        return max(current, target)


def version_of(conn: Connection) -> int:
    """The schema version a database is at (0 when the store never ran on it)."""
    if not conn.dialect.has_table(conn, "schema_version"):
        return 0
    return conn.execute(select(func.max(schema_version.c.version))).scalar() or 0
