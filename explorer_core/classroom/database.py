"""One SQLAlchemy engine per database URL per process, and the translation of database failures
into `ClassError("db")`.

The engine is a connection pool, not class state: every replica keeps its own and reads all class
state from the database. SQLite gets WAL (readers never wait for the writer), a 5 s busy timeout
and foreign keys on each new connection; a write transaction opens with BEGIN IMMEDIATE, so two
writers queue at the start instead of failing half-way (SQLITE_BUSY_SNAPSHOT) when both read
first and then write. Reads open a plain deferred BEGIN.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

from explorer_core.classroom.records import ClassError

_ENGINES: dict[str, Engine] = {}
_LOCK = threading.Lock()
CONNECT_TIMEOUT_S = 5  # an unreachable server says so in seconds, not after the OS's minutes
WAL_WAIT_S = 10.0  # how long a new connection retries switching a SQLite file to WAL
WRITE = {"class_write": True}  # execution option: this transaction writes (BEGIN IMMEDIATE)


def parse_url(url: str) -> URL:
    """The URL, or ClassError("db") with a sentence when SQLAlchemy cannot read it. PostgreSQL
    without a driver name ("postgresql://", "postgres://") means psycopg 3, the one installed.

    >>> parse_url("postgres://ann@db/explorer").drivername
    'postgresql+psycopg'
    """
    if url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+psycopg://" + url.split("://", 1)[1]
    try:
        return make_url(url)
    except ArgumentError as err:
        raise ClassError(  # the URL itself is not repeated: it may hold a password
            "db",
            "The class database setting is not a database URL"
            " (expected e.g. postgresql+psycopg://user@host:5432/db).",
        ) from err


def describe_url(url: str) -> str:
    """Where the classes live, for the teacher's settings page; never shows a password.

    >>> describe_url("sqlite:////srv/app/classes.db")
    'SQLite /srv/app/classes.db'
    >>> describe_url("postgresql+psycopg://ann:hunter2@db.school:5433/explorer")
    'PostgreSQL db.school:5433/explorer'
    >>> describe_url("postgresql+psycopg://ann@localhost/explorer")
    'PostgreSQL localhost:5432/explorer'
    """
    parsed = parse_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        return f"SQLite {parsed.database or ':memory:'}"
    if backend == "postgresql":
        return f"PostgreSQL {parsed.host or 'localhost'}:{parsed.port or 5432}/{parsed.database}"
    return f"{backend} {parsed.host or ''}/{parsed.database or ''}"


def _write_ahead_log(cursor) -> None:  # noqa: ANN001 - a sqlite3.Cursor
    """Put the file in WAL mode (kept in the file: later connections find it already set).

    # subtle: switching a file to WAL needs it to itself, and SQLite answers "database is
    # locked" at once, without its busy timeout, while another process holds it (two replicas
    # starting on a fresh file, found by tests/test_classroom_replicas.py): so try again.
    """
    deadline = time.monotonic() + WAL_WAIT_S
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as err:
            if "locked" not in str(err) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def _sqlite_events(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record) -> None:  # noqa: ANN001 - sqlite3.Connection
        dbapi_connection.isolation_level = None  # we send BEGIN ourselves (below)
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA busy_timeout=5000")
        _write_ahead_log(cursor)
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")  # WAL's safe setting: no fsync per commit
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(conn) -> None:  # noqa: ANN001 - sqlalchemy Connection
        write = conn.get_execution_options().get("class_write", False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def engine_for(url: str) -> Engine:
    """The process's engine for `url`, made on first use (a SQLite file's folder included)."""
    with _LOCK:
        engine = _ENGINES.get(url)
        if engine is not None:
            return engine
        parsed = parse_url(url)
        try:
            if parsed.get_backend_name() == "sqlite":
                if parsed.database and parsed.database != ":memory:":
                    Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
                engine = create_engine(parsed, pool_pre_ping=True)
                _sqlite_events(engine)
            else:
                postgres = parsed.get_backend_name() == "postgresql"
                engine = create_engine(
                    parsed,
                    pool_pre_ping=True,
                    pool_size=5,
                    max_overflow=10,
                    connect_args={"connect_timeout": CONNECT_TIMEOUT_S} if postgres else {},
                )
        except (ArgumentError, NoSuchModuleError, ImportError, OSError) as err:
            raise ClassError(
                "db", f"Cannot open the class database {describe_url(url)}: {err}"
            ) from err
        _ENGINES[url] = engine
        return engine


def dispose(url: str) -> None:
    """Close the pooled connections to `url` and forget its engine (tests, shutdown)."""
    with _LOCK:
        engine = _ENGINES.pop(url, None)
    if engine is not None:
        engine.dispose()


def one_line(err: BaseException) -> str:
    """The first line of a driver's message, short enough for a status line."""
    original = getattr(err, "orig", None) or err
    lines = [line.strip() for line in str(original).splitlines() if line.strip()]
    line = lines[0] if lines else type(original).__name__
    return line if len(line) <= 200 else line[:197] + "..."
