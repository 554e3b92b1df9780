"""One class across two replicas: two real `streamlit run app.py` processes on one real PostgreSQL
started here (bench/class_scenario.py's `start_room`; if PostgreSQL cannot start, the test fails
with its log, never skips). Sessions speak Streamlit's websocket protocol (bench/st_client.py).

A student sits on replica A, the teacher on replica B: B's roster shows the student (and one of
two students who took one nickname on A and on B at the same moment), a poll asked on B reaches
the student's bar on A, the answer shows in B's tally, B's Reveal button grades it on A, and when
A dies the student reopens the seat URL on B and is still in the class, answer and verdict kept.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket

import pytest

pytestmark = pytest.mark.slow


def two_ports() -> list[int]:
    from tests.browser import free_port

    first = free_port()
    with socket.socket() as held:  # keep the first taken while the second is found
        held.bind(("127.0.0.1", first))
        return [first, free_port()]


async def seen(check, timeout: float = 20) -> bool:  # noqa: ANN001
    from bench.class_scenario import wait_for

    return await wait_for(check, timeout) is not None


async def one_class_two_replicas(a, b, store) -> None:  # noqa: ANN001 - Targets, ClassStore
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    from bench.class_scenario import says, seat_token, the_poll
    from bench.st_client import Session

    info, secret = await asyncio.to_thread(store.create_class)
    code = info.code
    ann = Session(a.url, "", f"class={code}&name=Ann&lang=en")
    teacher = Session(b.url, "", f"class={code}&teacher={secret}&lang=en")
    # one nickname taken on A and on B at the same moment: one seat, one "pick another"
    twins = [Session(t.url, "", f"class={code}&name={name}&lang=en") for t, name in
             ((a, "Bea"), (b, "bea"))]  # fmt: skip
    try:
        await asyncio.gather(ann.open(), *(twin.open() for twin in twins))
        assert seat_token(ann) and says(ann, f"Class {code} · Ann"), ann.seen.texts[:3]
        assert sorted(bool(seat_token(twin)) for twin in twins) == [False, True]
        assert any(says(twin, "already called") for twin in twins)
        await asyncio.gather(*(twin.close() for twin in twins))
        await teacher.open()
        assert says(teacher, "Joined: 2*")
        names = {name.strip() for text in teacher.seen.texts for name in text.split(",")}
        assert {"Ann", "Bea"} <= names or {"Ann", "bea"} <= names, teacher.seen.texts
        poll = the_poll()
        poll_id = (await asyncio.to_thread(store.ask, code, secret, poll)).poll_id
        key = f"class.s.answer.{poll_id}"
        assert await seen(lambda: f"{key}.send" in ann.seen.widgets), "the poll never reached A"
        assert says(ann, "Which pair merges next (merge 13)?")
        right = dict(map(tuple, poll["choices"]))[poll["answer"]]  # the label the radio shows
        await ann.press_in_fragment(f"{key}.send", [WidgetState(id=ann.widget_id(key),
                                                                string_value=right)])  # fmt: skip
        assert await seen(lambda: says(ann, "Your answer is in: e + r"))
        since = len(teacher.seen.texts)
        assert await seen(lambda: says(teacher, "1 of 2 answered", since)), "B's tally"
        assert (await asyncio.to_thread(store.tally, code, poll_id)).counts == {"1": 1}
        # the teacher's Reveal button on B (inside the panel's fragment) grades the bar on A
        assert await seen(lambda: "class.t.reveal" in teacher.seen.widgets)
        since = len(ann.seen.texts)
        await teacher.press_in_fragment("class.t.reveal")
        assert await seen(lambda: says(ann, "Right! Your answer: e + r", since)), "no verdict on A"

        os.kill(a.pid, signal.SIGKILL)  # replica A dies mid-class
        await asyncio.wait_for(ann.closed.wait(), 30)
        again = Session(b.url, "", ann.query)  # the browser reopens its address: the seat URL
        await again.open()
        assert says(again, f"Class {code} · Ann"), again.seen.texts[:3]
        assert await seen(lambda: says(again, "Right! Your answer: e + r")), "the answer is kept"
        roster = [r.nickname for r in await asyncio.to_thread(store.roster, code)]
        assert "Ann" in roster and len(roster) == 2
        errors = [e for s in (ann, *twins, teacher, again) for e in s.exceptions]
        assert not errors, errors
        await again.close()
    finally:
        await asyncio.gather(*(s.close() for s in (ann, *twins, teacher)))


def test_one_class_across_two_replicas_survives_losing_one():
    from bench.class_scenario import start_room
    from explorer_core.classroom import ClassStore

    with start_room(two_ports()) as room:
        store = ClassStore(room.db_url)
        try:
            asyncio.run(one_class_two_replicas(*room.targets, store))
        finally:
            store.dispose()
