"""The rerun throttle (explorer_core/ui/throttle.py): a person is never slowed, a flood is.

Sequences are replayed on a simulated clock: each list holds the moments (seconds) at which a
session's runs start. The real-server check (a flood folded into a few runs) is in
tests/test_classroom_load.py.
"""

from __future__ import annotations

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


def test_throttle_keeps_its_bucket_in_the_session(run_page):
    """A run of the app leaves this session's bucket in session_state, one token spent."""
    from explorer_core.ui.throttle import BUCKET_KEY

    at = run_page("app.py")
    assert not at.exception
    bucket = at.session_state[BUCKET_KEY]
    assert isinstance(bucket, RerunBucket)
    assert bucket.tokens == pytest.approx(BURST - 1, abs=0.1)


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
