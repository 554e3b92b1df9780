"""Fair under abuse: a session asking for reruns faster than a person can click waits its turn.

Every script run of a session starts in `app.py`, which calls `throttle_reruns()` first. Each
session has its own token bucket, `BURST` runs at once, refilled at `EXPLORER_RERUNS_PER_SECOND`
(default 2) per second. The buckets live in one server-wide table keyed by session id, not in
`st.session_state`: every read of Session State is a point where Streamlit stops a run for a newer
rerun request, so under load a flood's runs were cut off there, before they spent a token, and
each next run found the bucket as full as before (32 runs in 3 s instead of at most 26).
A run that finds the bucket empty sleeps in the session's own script thread until its token is
due. Sleeping releases the interpreter lock, so the other sessions' pages run meanwhile, and the
reruns the flooding client asks for during the sleep are folded by Streamlit into one pending
rerun. So a client sending 100 reruns a second gets about 2 runs a second, each cut short by the
next, and the server stays free for everyone else (bench/classroom_load.py --flood measures it).

A person stays far below the limit: clicking, stepping a number, dragging a slider or typing give
a few reruns a second in short bursts (tests/test_throttle.py replays such sequences and checks
that none waits). Fragment polls (`st.fragment(run_every=...)`) do not run app.py and are not
counted. `EXPLORER_RERUNS_PER_SECOND=0` switches the throttle off.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from explorer_core.runtime import whole_number_setting

SWITCH_INTERVAL = 0.001  # seconds a thread may hold the interpreter lock while others wait
BUCKET_IDLE = 600.0  # seconds after which a session's bucket is full again anyway: forgotten
BURST = 20.0  # runs a session may have back to back: a quick learner's clicks, with room to spare
DEFAULT_RATE = 2.0  # runs per second a session may keep up for ever (a person averages under 1)


@dataclass
class RerunBucket:
    """A token bucket: `burst` runs at once, then `rate` runs per second.

    `take(now)` spends one token and returns the seconds to wait before the run may go on. A run
    that has to wait borrows its token, so waiting that long always pays the debt back:

    >>> bucket = RerunBucket(burst=2, rate=2)
    >>> [bucket.take(0.0), bucket.take(0.0), bucket.take(0.0)]  # two at once, the third waits
    [0.0, 0.0, 0.5]
    >>> bucket.take(0.5)  # after waiting 0.5 s the next run waits another 1 / rate
    0.5
    >>> bucket.take(10.0)  # a pause refills the bucket (up to `burst`)
    0.0
    """

    burst: float = BURST
    rate: float = DEFAULT_RATE
    tokens: float | None = None  # None: full
    stamp: float | None = None  # clock of the last take

    def take(self, now: float) -> float:
        tokens = self.burst if self.tokens is None else self.tokens
        if self.stamp is not None:
            tokens = min(self.burst, tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp, self.tokens = now, tokens - 1
        return 0.0 if self.tokens >= 0 else -self.tokens / self.rate


def rerun_rate() -> float:
    """Runs per second a session may keep up: `EXPLORER_RERUNS_PER_SECOND`, else 2; 0: no limit."""
    raw = os.environ.get("EXPLORER_RERUNS_PER_SECOND", "")
    try:
        rate = float(raw) if raw else DEFAULT_RATE
    except ValueError as err:
        raise ValueError(f"EXPLORER_RERUNS_PER_SECOND must be a number, got {raw!r}") from err
    if rate < 0:
        raise ValueError(f"EXPLORER_RERUNS_PER_SECOND must be 0 or more, got {rate:g}")
    return rate


def throttle_reruns(
    sleep: Callable[[float], None] = time.sleep, clock: Callable[[], float] = time.monotonic
) -> float:
    """Call first in every run: waits (in this session's thread) when the session floods.

    Returns the seconds waited (0 for a person's clicks).
    """
    rate = rerun_rate()
    ctx = get_script_run_ctx()
    if rate == 0 or ctx is None:
        return 0.0
    wait = _buckets().take(ctx.session_id, rate, clock())
    if wait > 0:
        sleep(wait)
    return wait


@dataclass
class Buckets:
    """Every session's RerunBucket, by session id (see the module docstring for why not in
    Session State). A bucket idle for BUCKET_IDLE seconds would be full again: it is dropped."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    by_session: dict[str, RerunBucket] = field(default_factory=dict)

    def take(self, session: str, rate: float, now: float) -> float:
        with self.lock:
            bucket = self.by_session.get(session)
            if bucket is None or bucket.rate != rate:
                bucket = self.by_session[session] = RerunBucket(BURST, rate)
            wait = bucket.take(now)
            idle = [k for k, b in self.by_session.items() if now - (b.stamp or now) > BUCKET_IDLE]
            for key in idle:
                del self.by_session[key]
            return wait


@st.cache_resource(max_entries=1, show_spinner=False)
def _buckets() -> Buckets:
    return Buckets()


def share_the_interpreter() -> None:
    """Let the server's event loop get the interpreter lock sooner when many scripts run at once.

    Every session's script runs in a thread of the one server process, beside the event loop that
    answers `/_stcore/health` and forwards every message. A thread waiting for the lock gets it
    only after the holder has had it for the switch interval (Python's default: 5 ms), and with
    thirty sessions pressing Train in the same second the event loop waited its turn behind all
    of them: a health check took up to 1.9 s (bench/classroom_load.py --train --sessions 30). With
    1 ms every waiting thread gets its turn five times sooner; the price is more switches.
    """
    if sys.getswitchinterval() > SWITCH_INTERVAL:
        sys.setswitchinterval(SWITCH_INTERVAL)


# ---- script slots: how many sessions' page scripts run at once -----------------------------------
# A page script is pure Python most of the time, so scripts share one interpreter lock with each
# other and with the event loop that answers health checks and sends every page. Thirty sessions
# whose training runs ended in the same second each reran the Train page (scoring their model on
# every split) at once: the event loop got one turn in thirty-one and a health check waited up to
# 1.4-1.5 s (bench/classroom_load.py --train --sessions 30). Past the slots a script waits,
# asleep, in its own thread: the work is the same, done a few scripts at a time, and the event
# loop gets its turn at once. A slot is waited for at most SLOT_WAIT seconds (a script that holds
# one for long, e.g. a large tokenizer training, delays the others by no more than that).
SLOT_WAIT = 15.0
_HOLDING = threading.local()  # .held: this thread is inside script_slot (a fragment in a page run)


def script_slots_setting() -> int:
    """EXPLORER_SCRIPT_SLOTS, or the number of cores plus one (at least 2); 0: no limit."""
    default = max(2, (os.cpu_count() or 1) + 1)
    return whole_number_setting("EXPLORER_SCRIPT_SLOTS", default, minimum=0)


@st.cache_resource(max_entries=1, show_spinner=False)
def _slots(count: int) -> threading.BoundedSemaphore:
    return threading.BoundedSemaphore(count)


@contextmanager
def script_slot(wait: float = SLOT_WAIT) -> Iterator[bool]:
    """Hold one of the server's script slots while the block runs (app.py: the page; the Train
    page's progress fragment, which does not pass through app.py). Yields whether a slot was
    taken (False: none was free after `wait` seconds, the limit is off, or this thread holds one
    already: a fragment drawn inside its page's run does not wait for a second slot)."""
    count = script_slots_setting()
    if count == 0 or getattr(_HOLDING, "held", False):
        yield False
        return
    slots = _slots(count)
    taken = slots.acquire(timeout=wait)
    _HOLDING.held = taken
    try:
        yield taken
    finally:
        if taken:
            _HOLDING.held = False
            slots.release()
