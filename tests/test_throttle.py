"""The rerun throttle (explorer_core/ui/throttle.py): a person is never slowed, a flood is.

Sequences are replayed on a simulated clock: each list holds the moments (seconds) at which a
session's runs start. The real-server check (a flood folded into a few runs) is in
tests/test_classroom_load.py.
"""

from __future__ import annotations

import time
import tomllib
from pathlib import Path

import pytest

from explorer_core.ui.throttle import BURST, DEFAULT_RATE, RerunBucket, rerun_rate


def _waits(starts: list[float]) -> list[float]:
    bucket = RerunBucket()
    return [bucket.take(now) for now in starts]


def _every(step: float, count: int, start: float = 0.0) -> list[float]:
    return [start + i * step for i in range(count)]


HUMAN = {
    # a click every 0.5 s for ten minutes: faster than anyone keeps up
    "steady clicking, 2 a second": _every(0.5, 1200),
    # stepping a number input as fast as a finger goes, then reading the chart, ten times over
    "bursts of 12 at 8 a second": [
        t for burst in range(10) for t in _every(0.125, 12, start=burst * 8.0)
    ],
    # 20 quick clicks at 5 a second (a slider nudged with the arrow keys, each a rerun)
    "20 clicks at 5 a second": _every(0.2, 20),
    # every click also reruns once from the script (st.rerun after a callback): 2 runs per click
    "click + st.rerun, a click a second": sorted(_every(1.0, 300) + _every(1.0, 300, 0.05)),
    # typing: a rerun per committed field, a few seconds apart
    "typing in fields": _every(2.5, 100),
}


@pytest.mark.parametrize("name", HUMAN)
def test_a_person_is_never_throttled(name):
    assert max(_waits(HUMAN[name])) == 0.0, name


def _flood(rate: float, seconds: float, run: float = 0.01) -> tuple[int, float]:
    """A client asking for `rate` reruns a second: runs started and seconds slept in `seconds`.

    Each run starts, waits what the bucket says, and is cut short after `run` s by the next
    request (Streamlit folds the requests sent meanwhile into one, so a run starts at the end of
    the previous one, not once per request).
    """
    bucket, now, runs, slept = RerunBucket(), 0.0, 0, 0.0
    while now < seconds:
        wait = bucket.take(now)
        runs, slept = runs + 1, slept + wait
        now += wait + max(run, 1 / rate)
    return runs, slept


def test_a_flood_gets_the_rate_after_its_burst():
    """100 reruns a second for 20 s: 20 at once, then 2 a second: about 60 runs, not 2,000."""
    runs, slept = _flood(rate=100, seconds=20)
    assert runs <= BURST + DEFAULT_RATE * 20 + 1
    assert runs >= BURST + DEFAULT_RATE * 20 - 2  # the limit still lets it run, slowly
    assert slept > 15  # most of the 20 s spent asleep, in the flooder's own thread


def test_a_wait_is_never_longer_than_one_token():
    """However hard the flood, one run waits at most 1 / rate (the debt is paid by waiting)."""
    bucket, now = RerunBucket(burst=3, rate=2), 0.0
    for _ in range(200):
        wait = bucket.take(now)
        assert wait <= 0.5 + 1e-9
        now += wait
    assert bucket.take(now + 100) == 0.0  # and a pause gives the full burst back


def test_rate_setting(monkeypatch):
    monkeypatch.delenv("EXPLORER_RERUNS_PER_SECOND", raising=False)
    assert rerun_rate() == DEFAULT_RATE
    monkeypatch.setenv("EXPLORER_RERUNS_PER_SECOND", "0")
    assert rerun_rate() == 0.0
    monkeypatch.setenv("EXPLORER_RERUNS_PER_SECOND", "fast")
    with pytest.raises(ValueError, match="must be a number"):
        rerun_rate()
    monkeypatch.setenv("EXPLORER_RERUNS_PER_SECOND", "-1")
    with pytest.raises(ValueError, match="0 or more"):
        rerun_rate()


def test_the_app_throttles_every_run_and_folds_reruns(root):
    """app.py calls the throttle first, and the server folds reruns instead of a thread each.

    Without `fastReruns = false` Streamlit starts a new script thread per rerun request, so the
    throttle's sleep would not hold a flood back (tests/test_classroom_load.py shows it live).
    """
    source = (root / "app.py").read_text(encoding="utf-8")
    first_call = source.index("throttle_reruns()")
    assert first_call < source.index("st.set_page_config(")
    config = tomllib.loads((root / ".streamlit" / "config.toml").read_text(encoding="utf-8"))
    assert config["runner"]["fastReruns"] is False


def test_throttle_keeps_one_bucket_per_session(run_page):
    """A run of the app spends one token of its own session's bucket; idle buckets are dropped."""
    from explorer_core.ui.throttle import BUCKET_IDLE, _buckets

    table = _buckets()  # the server's: earlier app runs of this test process left theirs here
    table.by_session.clear()
    at = run_page("app.py")
    assert not at.exception
    (bucket,) = table.by_session.values()  # AppTest: one session
    assert bucket.tokens == pytest.approx(BURST - 1, abs=0.1)
    tokens, stamp = bucket.tokens, bucket.stamp
    at.run()  # the same session: one more token spent, less what the pause refilled
    refill = (bucket.stamp - stamp) * bucket.rate
    assert bucket.tokens == pytest.approx(min(BURST, tokens + refill) - 1)
    assert table.take("another", DEFAULT_RATE, bucket.stamp + BUCKET_IDLE + 1) == 0.0
    assert list(table.by_session) == ["another"]


def test_the_server_switches_threads_every_millisecond():
    """Thirty scripts at once must not keep the event loop (health checks) waiting for seconds."""
    import sys

    from explorer_core.ui import throttle

    before = sys.getswitchinterval()
    try:
        sys.setswitchinterval(0.005)
        throttle.share_the_interpreter()
        assert sys.getswitchinterval() <= throttle.SWITCH_INTERVAL
        app = (Path(__file__).parents[1] / "app.py").read_text(encoding="utf-8")
        assert "share_the_interpreter()" in app
    finally:
        sys.setswitchinterval(before)


def _slot_holders(count: int, workers: int, hold: float, monkeypatch) -> tuple[int, list[bool]]:
    """Run `workers` threads that each hold a script slot for `hold` seconds, and until as many
    as the slots allow hold one (threads start slowly on a busy machine: a fixed sleep let the
    first leave before the last came in); returns the most that held one at the same time and
    whether each got one."""
    import threading

    from explorer_core.ui import throttle

    monkeypatch.setenv("EXPLORER_SCRIPT_SLOTS", str(count))
    throttle._slots.clear()
    inside, done, peak, taken = 0, 0, 0, []
    changed = threading.Condition()
    limit = count or workers

    def work() -> None:
        nonlocal inside, done, peak
        with throttle.script_slot(wait=10) as got:
            with changed:
                inside += 1
                peak = max(peak, inside)
                taken.append(got)
                changed.notify_all()
                changed.wait_for(lambda: inside >= min(limit, workers - done), timeout=10)
            time.sleep(hold)
            with changed:
                inside, done = inside - 1, done + 1
                changed.notify_all()

    threads = [threading.Thread(target=work) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    throttle._slots.clear()
    return peak, taken


def test_script_slots_bound_the_scripts_running_at_once(monkeypatch):
    peak, taken = _slot_holders(count=3, workers=12, hold=0.05, monkeypatch=monkeypatch)
    assert peak == 3 and taken == [True] * 12
    peak, taken = _slot_holders(count=0, workers=6, hold=0.05, monkeypatch=monkeypatch)
    assert peak == 6 and taken == [False] * 6  # 0: no limit


def test_a_slot_is_waited_for_at_most_the_limit_and_never_twice(monkeypatch):
    """A fragment drawn inside its page's run (the Train page's progress) takes no second slot;
    a script that finds none free goes on after `wait` seconds."""
    import threading

    from explorer_core.ui import throttle

    monkeypatch.setenv("EXPLORER_SCRIPT_SLOTS", "1")
    throttle._slots.clear()
    with throttle.script_slot() as outer:
        began = time.monotonic()
        with throttle.script_slot() as inner:  # the same thread: no wait, no second slot
            assert outer is True and inner is False
        assert time.monotonic() - began < 0.5
        waited = []

        def other() -> None:
            start = time.monotonic()
            with throttle.script_slot(wait=0.3) as got:
                waited.append((got, time.monotonic() - start))

        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    assert waited[0][0] is False and 0.25 < waited[0][1] < 2
    with throttle.script_slot(wait=0.1) as again:  # released: free again
        assert again is True
    throttle._slots.clear()


def test_the_app_runs_each_page_inside_a_script_slot(root):
    source = (root / "app.py").read_text(encoding="utf-8")
    run = source.index("page.run()")
    opening = source.rindex("with ", 0, run)  # the with statement right around the page's run
    statement = source[opening : source.index(":\n", opening)]
    assert "script_slot()" in statement, statement
    assert "warmup.visitor_script()" in statement, statement  # the warm-up gives way to it
    panels = (root / "explorer_core" / "ui" / "training" / "panels.py").read_text(encoding="utf-8")
    assert "with script_slot():" in panels  # the progress fragment does not pass through app.py
