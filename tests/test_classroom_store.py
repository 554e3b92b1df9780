"""The class store on a SQLite file and on a real PostgreSQL (tests/postgres.py): a whole lesson,
nicknames, follow, experiment, leaving, closing, expiry, limits, migrations and two replicas.

Every test gets an empty database and a fake clock (`Clock`), so expiry and the rate limit are
tested without waiting.
"""

from __future__ import annotations

import pytest
from sqlalchemy import func, inspect, select, text

from explorer_core.classroom import (
    Assignment,
    ClassError,
    ClassStore,
    PollTally,
    experiments,
    schema,
)
from explorer_core.classroom.base import digest
from explorer_core.classroom.database import engine_for
from explorer_core.training.admission import FakeClock
from explorer_core.training.controlled import ExperimentSettings
from tests.postgres import DATABASES, database_url


@pytest.fixture(params=DATABASES)
def url(request, tmp_path) -> str:
    return database_url(request, tmp_path)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_800_000_000.0)  # a clock the test moves by hand


@pytest.fixture
def make(url, clock):
    """make(**settings) -> a ClassStore on this test's database, with the fake clock."""
    made = []

    def build(**settings) -> ClassStore:
        made.append(ClassStore(url, clock=clock, **settings))
        return made[-1]

    yield build
    for store in made:
        store.dispose()


def kind_of(call, *args, **kwargs) -> str:
    with pytest.raises(ClassError) as caught:
        call(*args, **kwargs)
    message = str(caught.value)
    assert message and "\n" not in message and "Traceback" not in message
    return caught.value.kind


def test_a_whole_lesson(make):
    store = make()
    info, secret = store.create_class()
    assert len(info.code) == 5 and set(info.code) <= set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    assert store.info(info.code.lower()) == info and store.check_teacher(info.code, secret) == info
    assert kind_of(store.check_teacher, info.code, secret + "x") == "secret"
    ada, bob, cy = (store.join(info.code, n) for n in ("Ada", "Bob", "Cy"))
    assert [r.nickname for r in store.roster(info.code)] == ["Ada", "Bob", "Cy"]

    poll = store.ask(info.code, secret, {"question": "Which word splits?", "answer": "B "})
    assert store.pulse(info.code).poll_id == poll.poll_id and not store.pulse(info.code).revealed
    assert store.poll(info.code, poll.poll_id).for_student() == {"question": "Which word splits?"}
    assert store.poll(info.code, poll.poll_id).payload["answer"] == "B "  # stored as given
    assert store.answer(info.code, ada.token, poll.poll_id, "B") is True
    assert store.answer(info.code, bob.token, poll.poll_id, " A ") is True
    assert store.answer(info.code, bob.token, poll.poll_id, "B") is False  # refused: A stands
    assert store.my_answer(info.code, bob.token, poll.poll_id) == "A"
    assert store.my_answer(info.code, cy.token, poll.poll_id) is None
    assert store.tally(info.code, poll.poll_id) == PollTally(poll.poll_id, {"A": 1, "B": 1}, 2, 3)
    assert store.scores(info.code) == [("Ada", 0), ("Bob", 0), ("Cy", 0)]  # nothing before reveal

    store.reveal(info.code, secret, poll.poll_id)
    assert store.pulse(info.code).revealed and store.poll(info.code, poll.poll_id).revealed
    assert kind_of(store.answer, info.code, cy.token, poll.poll_id, "B") == "poll"
    assert store.scores(info.code) == [("Ada", 1), ("Bob", 0), ("Cy", 0)]

    second = store.ask(info.code, secret, {"question": "Again?", "answer": "yes"})
    assert kind_of(store.answer, info.code, cy.token, poll.poll_id, "B") == "poll"
    for member in (cy, bob):
        store.answer(info.code, member.token, second.poll_id, "yes")
    store.reveal(info.code, secret, second.poll_id)
    assert store.scores(info.code) == [("Ada", 1), ("Bob", 1), ("Cy", 1)]  # ties by nickname
    assert kind_of(store.poll, info.code, 999_999) == "poll"

    assert not store.pulse(info.code).show_scores
    store.set_show_scores(info.code, secret, True)
    assert store.pulse(info.code).show_scores and store.info(info.code).show_scores


def test_nicknames_are_cleaned_and_unique_ignoring_case(make):
    store = make()
    info, _ = store.create_class()
    code = info.code
    assert store.join(code, "  Zo\u200be\u200d  \t Q ").nickname == "Zoe Q"
    assert kind_of(store.join, code, "ZOE q") == "nickname"
    assert kind_of(store.join, code, "zo\u200bE Q") == "nickname"
    html = store.join(code, "<img src=x onerror=f(1)>")
    assert html.nickname == "<img src=x onerror=f(1)>"  # literal text: escaping is the page's job
    long = store.join(code, "<img src=x onerror=alert(1)>")
    assert long.nickname == "<img src=x onerror=alert"  # cut at 24 characters
    assert store.member(code, html.token).nickname == html.nickname
    assert kind_of(store.join, code, "\u200b\u2028 \x00") == "nickname"
    assert [r.nickname for r in store.roster(code)] == ["Zoe Q", html.nickname, long.nickname]


def test_bring_everyone_here(make):
    store = make()
    info, secret = store.create_class()
    pulse = store.pulse(info.code)
    assert (pulse.follow_seq, pulse.follow_target, pulse.closed) == (0, None, False)
    assert store.bring_here(info.code, secret, "/attention?layer=2&head=3") == 1
    assert store.bring_here(info.code, secret, "embed_tokens") == 2
    assert store.pulse(info.code).follow_target == "embed_tokens"
    for bad in ("https://evil.example/", "//evil.example/x", "javascript:alert(1)", "a b"):
        assert kind_of(store.bring_here, info.code, secret, bad) == "input"
    assert kind_of(store.bring_here, info.code, "wrong", "attention") == "secret"
    assert store.pulse(info.code).follow_seq == 2


def test_experiment_assigns_round_robin_and_keeps_each_students_tokenizer(make, monkeypatch):
    store, replica = make(), make()
    info, secret = store.create_class()
    code = info.code
    kids = [store.join(code, f"kid{i}") for i in range(5)]
    assert store.assignment(code, kids[0].token) is None and store.results(code) == []
    assert kind_of(store.post_result, code, kids[0].token, {"loss": 1.0}) == "experiment"
    fixed = ExperimentSettings("tiny", 30, (0, 1))
    first = store.start_experiment(code, secret, ["bpe", "wordpiece"], [500, None], fixed)
    assert store.pulse(code).experiment_id == first
    assert store.experiment_settings(code) == fixed == replica.experiment_settings(code, first)
    order = [kids[i] for i in (3, 0, 4, 1, 2)]  # the order they ask in
    got = [store.assignment(code, k.token) for k in order]
    # every tokenizer once with seed 0, then again with seed 1
    cycle = [("bpe", 500, 0), ("bpe", None, 0), ("wordpiece", 500, 0), ("wordpiece", None, 0),
             ("bpe", 500, 1)]  # fmt: skip
    assert got == [Assignment(a, v, seed, "tiny", 30) for a, v, seed in cycle]
    assert all(a.controlled for a in got)
    assert [replica.assignment(code, k.token) for k in order] == got  # stored, same everywhere

    store.post_result(code, kids[3].token, {"loss": 2.5, "nickname": "spoofed"})
    replica.post_result(code, kids[0].token, {"loss": 2.1})
    board = store.results(code)
    assert [(r["nickname"], r["loss"]) for r in board] == [("kid3", 2.5), ("kid0", 2.1)]
    assert kind_of(store.post_result, code, kids[1].token, {"x": "y" * 5000}) == "input"
    monkeypatch.setattr(experiments, "RESULTS_PER_STUDENT", 3)
    for _ in range(3):
        store.post_result(code, kids[1].token, {"loss": 3.0})
    assert kind_of(store.post_result, code, kids[1].token, {"loss": 3.0}) == "input"
    assert len(store.results(code)) == 5

    second = store.start_experiment(code, secret, ["unigram"], [])  # the default settings
    default = ExperimentSettings()
    assert store.experiment_settings(code) == default
    assert store.assignment(code, kids[3].token) == Assignment(
        "unigram", None, default.seeds[0], default.preset, default.steps
    )
    assert store.results(code) == [] and len(store.results(code, first)) == 5
    store.stop_experiment(code, secret)
    assert store.pulse(code).experiment_id is None and store.assignment(code, kids[0].token) is None
    assert kind_of(store.post_result, code, kids[0].token, {"loss": 1}) == "experiment"
    assert second != first and kind_of(store.results, code, 999_999) == "experiment"
    assert kind_of(store.start_experiment, code, secret, [], [100]) == "input"
    assert kind_of(store.start_experiment, code, secret, ["bpe"], [0]) == "input"


def test_leaving_and_resuming(make):
    store, replica = make(), make()
    info, _ = store.create_class()
    ada = store.join(info.code, "Ada")
    assert replica.member(info.code, ada.token) == ada  # after a reload, on another replica
    assert store.member(info.code, "not-a-token") is None
    store.leave(info.code, ada.token)
    store.leave(info.code, ada.token)  # twice is harmless
    assert store.member(info.code, ada.token) is None and store.roster(info.code) == []
    assert store.join(info.code, "ada").nickname == "ada"  # the name is free again


def row_counts(url: str) -> dict[str, int]:
    engine = engine_for(url)
    with engine.connect() as conn:
        return {
            name: conn.execute(select(func.count()).select_from(table)).scalar_one()
            for name, table in schema.metadata.tables.items()
        }


def test_closing_deletes_every_row_of_the_class(make, url):
    store = make()
    keep, keep_secret = store.create_class()
    store.join(keep.code, "Stays")
    info, secret = store.create_class()
    ada = store.join(info.code, "Ada")
    poll = store.ask(info.code, secret, {"question": "?", "answer": "x"})
    store.answer(info.code, ada.token, poll.poll_id, "x")
    store.start_experiment(info.code, secret, ["bpe"], [100])
    store.assignment(info.code, ada.token)
    store.post_result(info.code, ada.token, {"loss": 1})
    assert kind_of(store.close_class, info.code, "wrong") == "secret"
    store.close_class(info.code, secret)
    counts = row_counts(url)
    assert counts["classes"] == 1 and counts["members"] == 1  # only the other class's
    assert all(
        counts[t] == 0 for t in ("polls", "answers", "experiments", "assignments", "results")
    )
    assert counts["ended"] == 1  # the code, so latecomers read "closed"
    assert (
        kind_of(store.info, info.code) == "closed"
        and kind_of(store.join, info.code, "B") == "closed"
    )
    assert store.pulse(info.code).closed and kind_of(store.member, info.code, ada.token) == "closed"
    assert store.check_teacher(keep.code, keep_secret) == keep


def test_classes_expire_and_are_deleted(make, clock, url):
    store = make(lifetime_s=3600)
    info, secret = store.create_class()
    other, _ = store.create_class()
    ada = store.join(info.code, "Ada")
    clock.advance(3599)
    assert store.member(info.code, ada.token) == ada
    clock.advance(2)
    assert store.pulse(info.code).closed
    assert kind_of(store.info, info.code) == "expired"
    assert kind_of(store.ask, info.code, secret, {"q": 1}) == "expired"
    assert row_counts(url)["members"] == 0  # deleted lazily by the calls above
    assert row_counts(url)["classes"] == 1  # the other one, expired too but not yet purged
    fresh, _ = store.create_class()  # purges every expired class on the way
    assert row_counts(url)["classes"] == 1 and kind_of(store.info, other.code) == "expired"
    assert store.info(fresh.code).expires == clock.now + 3600


def test_a_full_class_refuses_more_students(make):
    store = make(member_limit=2)
    info, _ = store.create_class()
    store.join(info.code, "one")
    two = store.join(info.code, "two")
    assert kind_of(store.join, info.code, "three") == "full"
    store.leave(info.code, two.token)
    assert store.join(info.code, "three").nickname == "three"


def test_guessing_codes_is_rate_limited_per_client(make, clock):
    store, replica = make(join_tries_per_minute=3), make(join_tries_per_minute=3)
    info, _ = store.create_class()
    for guess in ("AAAAA", "BBBBB", "CCCCC"):
        assert kind_of(store.info, guess, client="10.0.0.7") == "unknown"
    assert kind_of(replica.info, info.code, client="10.0.0.7") == "rate"  # shared via the DB
    assert kind_of(store.join, info.code, "Eve", client="10.0.0.7") == "rate"
    assert store.join(info.code, "Ann", client="10.0.0.8").nickname == "Ann"
    clock.advance(61)
    assert store.info(info.code, client="10.0.0.7") == info


def insert_old_class(conn, code: str, clock, secret: str = "") -> None:  # noqa: ANN001
    """A class row as version 1 wrote it (no experiment column yet)."""
    conn.execute(
        text(
            "INSERT INTO classes (code, secret_hash, created, expires, show_scores,"
            " member_limit, poll_id, revealed, follow_seq, follow_target)"
            " VALUES (:code, :h, :now, :later, false, 30, NULL, false, 0, NULL)"
        ),
        {"code": code, "h": digest(secret), "now": clock.now, "later": clock.now + 600},
    )


def test_an_older_schema_is_upgraded_and_keeps_its_classes(url, clock):
    engine = engine_for(url)  # the process's engine: the store below reuses it
    assert schema.upgrade(engine, target=1) == 1
    with engine.begin() as conn:
        insert_old_class(conn, "OLD23", clock)
    store = ClassStore(url, clock=clock)
    try:
        assert store.info("OLD23").member_limit == 30
        kid = store.join("OLD23", "kid")
        with engine_for(url).connect() as conn:
            assert schema.version_of(conn) == schema.LATEST == 3
            conn.execute(text("UPDATE classes SET experiment_id = NULL"))  # the column exists
        assert store.assignment("OLD23", kid.token) is None
    finally:
        store.dispose()


def test_a_version_2_experiment_is_upgraded_and_still_assigns(url, clock):
    """An experiment running when the server is upgraded fixed only the tokenizer: its grid has
    no seeds, so its students get seed/preset/steps None (their own Train settings), and the
    class's next experiment is controlled."""
    engine = engine_for(url)
    assert schema.upgrade(engine, target=2) == 2
    with engine.begin() as conn:
        insert_old_class(conn, "OLD45", clock, secret="s3cret")
        conn.execute(text("UPDATE classes SET id = 7, experiment_id = 5 WHERE code = 'OLD45'"))
        conn.execute(
            text(
                "INSERT INTO experiments (id, class_id, combinations, started_at)"
                " VALUES (5, 7, :cycle, :now)"
            ),
            {"cycle": '[["bpe", 500], ["wordpiece", 500]]', "now": clock.now},
        )
    store = ClassStore(url, clock=clock)
    try:
        kids = [store.join("OLD45", f"kid{i}") for i in range(3)]
        got = [store.assignment("OLD45", k.token) for k in kids]
        assert got == [Assignment("bpe", 500), Assignment("wordpiece", 500), Assignment("bpe", 500)]
        assert not got[0].controlled and store.experiment_settings("OLD45") is None
        with engine.connect() as conn:
            assert schema.version_of(conn) == 3
            seeds = conn.execute(select(schema.assignments.c.seed)).scalars().all()
        assert seeds == [None, None, None]
        store.start_experiment("OLD45", "s3cret", ["bpe"], [500])
        assert store.assignment("OLD45", kids[0].token).controlled
    finally:
        store.dispose()


def test_a_class_larger_than_the_grid_gets_new_seeds_not_repeats(make):
    store = make()
    info, secret = store.create_class()
    kids = [store.join(info.code, f"kid{i}") for i in range(7)]
    fixed = ExperimentSettings("tiny", 30, (2, 0))
    store.start_experiment(info.code, secret, ["bpe", "wordpiece"], [500], fixed)
    got = [store.assignment(info.code, k.token) for k in kids]
    runs = [(a.algorithm, a.seed) for a in got]
    assert runs == [("bpe", 2), ("wordpiece", 2), ("bpe", 0), ("wordpiece", 0),
                    ("bpe", 3), ("wordpiece", 3), ("bpe", 4)]  # fmt: skip
    assert len(set(runs)) == len(runs) and all(a.controlled and a.steps == 30 for a in got)


def test_upgraded_schema_matches_the_tables(make, url):
    make().ping()
    found = inspect(engine_for(url))
    for name, table in schema.metadata.tables.items():
        columns = {c["name"] for c in found.get_columns(name)}
        assert columns == {c.name for c in table.columns}, name
