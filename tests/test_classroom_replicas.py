"""The class store as a server uses it: several processes on one database, many students at once,
cheap indexed queries for the pages that poll, settings, and a database that is not there.

Runs on a SQLite file and on a real PostgreSQL (tests/postgres.py), like test_classroom_store.py.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import textwrap
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from sqlalchemy import event, func, select

from explorer_core.classroom import ClassError, ClassStore, schema
from explorer_core.classroom.database import engine_for
from explorer_core.classroom.migrations import schema_version
from tests.browser import free_port
from tests.postgres import DATABASES, database_url, running_postgres

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(params=DATABASES)
def url(request, tmp_path) -> str:
    return database_url(request, tmp_path)


@pytest.fixture
def store(url):
    made = ClassStore(url)
    yield made
    made.dispose()


def in_other_process(url: str, body: str, start_at: float = 0.0) -> subprocess.Popen:
    """Runs `body` with `store` (a ClassStore on `url`) in a new Python process: a replica.
    It waits until `start_at` (wall clock) first, so several start their work together."""
    code = (
        "import json, sys, time\n"
        "from explorer_core.classroom import ClassStore\n"
        f"store = ClassStore({url!r})\n"
        f"time.sleep(max(0.0, {start_at!r} - time.time()))\n" + textwrap.dedent(body)
    )
    return subprocess.Popen(
        [sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


def finish(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    return out


def test_two_processes_migrate_at_once_and_see_each_others_writes(url, store):
    start_at = time.time() + 1.5  # both have imported everything by then
    racing = [in_other_process(url, "store.ping()\nprint('ok')", start_at) for _ in range(2)]
    assert [finish(p).strip() for p in racing] == ["ok", "ok"]
    with engine_for(url).connect() as conn:
        versions = conn.execute(select(schema_version.c.version)).scalars().all()
    assert sorted(versions) == list(range(1, schema.LATEST + 1))  # each migration once

    info, secret = store.create_class()
    joined = in_other_process(
        url,
        f"""
        ada = store.join({info.code!r}, "Ada")
        print(json.dumps([ada.member_id, ada.token]))
        """,
    )
    member_id, token = json.loads(finish(joined))
    assert [r.nickname for r in store.roster(info.code)] == ["Ada"]  # at once, no cache
    poll = store.ask(info.code, secret, {"question": "?", "answer": "yes"})
    store.bring_here(info.code, secret, "attention?head=2")
    student = in_other_process(
        url,
        f"""
        pulse = store.pulse({info.code!r})
        print(pulse.poll_id, pulse.follow_target, pulse.follow_seq)
        print(store.answer({info.code!r}, {token!r}, pulse.poll_id, "yes"))
        """,
    )
    assert finish(student).split() == [str(poll.poll_id), "attention?head=2", "1", "True"]
    assert store.tally(info.code, poll.poll_id).counts == {"yes": 1}
    assert store.member(info.code, token).member_id == member_id


def test_a_class_answering_at_once(store):
    info, secret = store.create_class()
    poll = store.ask(info.code, secret, {"question": "?", "answer": "b"})
    store.start_experiment(info.code, secret, ["bpe", "wordpiece", "unigram"], [None])

    def student(i: int) -> tuple[list[bool], str]:
        kid = store.join(info.code, f"kid {i}")
        answers = [store.answer(info.code, kid.token, poll.poll_id, v) for v in "ab"]
        return answers, store.assignment(info.code, kid.token).algorithm

    with ThreadPoolExecutor(8) as pool:
        done = list(pool.map(student, range(30)))
    assert all(answers == [True, False] for answers, _ in done)
    assert store.tally(info.code, poll.poll_id).counts == {"a": 30}
    assert Counter(a for _, a in done) == {"bpe": 10, "wordpiece": 10, "unigram": 10}


def statements_of(store: ClassStore, action) -> list[tuple[str, object]]:
    """The SQL statements (and parameters) `action()` sends, BEGIN/SAVEPOINT left out."""
    engine, seen = engine_for(store.url), []

    def record(_conn, _cursor, statement, parameters, _context, _many) -> None:
        if statement.lstrip().upper().startswith(("SELECT", "INSERT", "UPDATE", "DELETE")):
            seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", record)
    try:
        action()
    finally:
        event.remove(engine, "before_cursor_execute", record)
    return seen


def plan(store: ClassStore, statement: str, parameters) -> str:
    """The database's plan for a statement; PostgreSQL is told to avoid sequential scans, so a
    "Seq Scan" left in the plan means no index can answer the query."""
    with engine_for(store.url).connect() as conn:
        if conn.dialect.name == "sqlite":
            rows = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {statement}", parameters).all()
            return "\n".join(str(r[-1]) for r in rows)
        conn.exec_driver_sql("SET enable_seqscan = off")
        rows = conn.exec_driver_sql(f"EXPLAIN {statement}", parameters).all()
        return "\n".join(r[0] for r in rows)


def test_a_students_page_costs_a_few_indexed_queries(store):
    info, secret = store.create_class()
    kid = store.join(info.code, "kid")
    poll = store.ask(info.code, secret, {"question": "?"})
    pulse = statements_of(store, lambda: store.pulse(info.code))
    assert len(pulse) == 1  # ONE query every 3 s per student
    calls = [
        lambda: store.pulse(info.code),
        lambda: store.member(info.code, kid.token),
        lambda: store.answer(info.code, kid.token, poll.poll_id, "x"),
        lambda: store.my_answer(info.code, kid.token, poll.poll_id),
    ]
    for call in calls:
        for statement, parameters in statements_of(store, call):
            if statement.lstrip().upper().startswith("SELECT"):
                text = plan(store, statement, parameters)
                assert "Seq Scan" not in text and not text.startswith("SCAN"), (statement, text)
                assert "\nSCAN" not in text, (statement, text)


def test_an_unreachable_database_is_one_sentence():
    port = free_port()  # nothing listens there
    store = ClassStore(f"postgresql+psycopg://ann:hunter2@127.0.0.1:{port}/explorer")
    assert store.describe() == f"PostgreSQL 127.0.0.1:{port}/explorer"
    for call in (store.ping, lambda: store.info("ABCDE"), lambda: store.pulse("ABCDE")):
        with pytest.raises(ClassError) as caught:
            call()
        message = str(caught.value)
        assert caught.value.kind == "db" and "\n" not in message and "hunter2" not in message
        assert f"127.0.0.1:{port}" in message
    store.dispose()
    for bad in ("not a url at all", "sqlite:////proc/no-such-folder/classes.db", "nosuchdb://x/y"):
        with pytest.raises(ClassError) as caught:
            ClassStore(bad).ping()
        assert caught.value.kind == "db" and "\n" not in str(caught.value), bad


def test_settings_choose_the_database_and_the_limits(monkeypatch, tmp_path):
    monkeypatch.delenv("EXPLORER_CLASS_DB", raising=False)
    monkeypatch.setenv("EXPLORER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("EXPLORER_CLASS_HOURS", "2")
    monkeypatch.setenv("EXPLORER_CLASS_LIMIT", "30")
    store = ClassStore.from_settings()
    assert store.describe() == f"SQLite {tmp_path / 'data' / 'classes.db'}"
    assert (store.lifetime_s, store.member_limit) == (7200.0, 30)
    info, _ = store.create_class()  # the folder and the file are made on first use
    assert (tmp_path / "data" / "classes.db").is_file() and info.member_limit == 30
    store.dispose()
    assert ClassStore.from_settings(tmp_path / "here").describe().endswith("here/classes.db")
    monkeypatch.setenv("EXPLORER_CLASS_DB", "postgresql://ann:pw@db.school/explorer")
    assert ClassStore.from_settings().describe() == "PostgreSQL db.school:5432/explorer"
    monkeypatch.setenv("EXPLORER_CLASS_HOURS", "soon")
    with pytest.raises(ValueError, match="EXPLORER_CLASS_HOURS"):
        ClassStore.from_settings()


def test_the_schema_version_is_recorded(store, url):
    store.ping()
    with engine_for(url).connect() as conn:
        assert conn.execute(select(func.max(schema_version.c.version))).scalar() == schema.LATEST


def test_a_postgres_that_cannot_start_fails_with_its_log():
    """The fixture never skips: a server that cannot start raises with its log's last lines."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        with pytest.raises(RuntimeError, match="(?s)server log.*could not bind"):
            with running_postgres(port=taken.getsockname()[1]):
                pass


def test_switching_a_sqlite_file_to_wal_tries_again_while_it_is_locked():
    """Switching a file to WAL needs it alone, and when two processes race for that SQLite can
    refuse at once, without its busy timeout ("database is locked": two replicas starting on a
    fresh file, seen in a CI run of test_two_processes_migrate_at_once_...): the switch is tried
    again; any other error, or a lock that outlasts the wait, still fails."""
    import sqlite3

    from explorer_core.classroom import database

    class Cursor:
        def __init__(self, refusals: list[str]):
            self.refusals, self.tries = refusals, 0

        def execute(self, sql: str) -> None:
            self.tries += 1
            if self.refusals:
                raise sqlite3.OperationalError(self.refusals.pop(0))

    racing = Cursor(["database is locked", "database is locked"])
    database._write_ahead_log(racing)
    assert racing.tries == 3
    with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
        database._write_ahead_log(Cursor(["disk I/O error"]))
