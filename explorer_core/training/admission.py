"""Admission: how many training runs one server lets train at once, and who waits for a turn.

A classroom server has a few cores and thirty learners who may all press Train within a minute.
`Admission` is the server-wide gatekeeper (one object per server process; the UI keeps it in
`st.cache_resource`). Every run asks it first:

- at most `max_runs` runs train at once (default: the number of cores), and together they may
  need at most `budget` bytes of memory (default: half of the machine's memory);
- a run asked for beyond that waits in a first-come queue; when a slot and enough memory are
  free, the head of the queue starts (a big run at the head is not overtaken by smaller ones);
- a run that needs more than the whole budget is refused at once (`Refused("budget")`), and so
  is a second run of the same session (`Refused("busy")`): one run per session;
- a session proves it is still there by `touch`-ing its entry (the Train page's poll does, once
  a second). A queued entry not touched for `expire_after` seconds leaves the queue; a running
  job sees the same silence itself (`training.worker.TrainingRun(expire_after=...)`) and stops;
- a *background* request (`submit(..., background=True)`: the server's own work, e.g. building
  MiniLM + 中文 once per install) comes after every session's request, whenever it arrived, and
  never makes a session wait: when a session's request cannot start, the background jobs that
  train are paused (`job.pause()`; they keep their work, and their memory is not counted while
  they are paused) and go back to the queue, to `resume()` once nobody else waits. Nobody
  touches a background request: it never expires.

It holds jobs, not models: anything with `start()`, `stop()` and a `running` property. A job
whose `running` turned False (finished, stopped, failed) leaves at the next call and frees its
slot; the session keeps its own reference to the job and its results.

    >>> clock = FakeClock()
    >>> gate = Admission(max_runs=1, budget=100, expire_after=20, clock=clock)
    >>> a, b = FakeJob(), FakeJob()
    >>> gate.submit("ann", a, need=60), gate.submit("bob", b, need=30)
    (0, 1)
    >>> a.running, b.running, gate.place("bob")
    (True, False, 1)
    >>> a.running = False          # ann's run ends: bob's turn
    >>> gate.place("bob"), b.running
    (0, True)
    >>> build = FakeJob()          # the server's own work: only when nobody else waits
    >>> gate.submit("server", build, need=10, background=True), build.running
    (1, False)
    >>> b.running = False
    >>> gate.place("server"), build.running
    (0, True)
    >>> gate.submit("cy", FakeJob(), need=60)   # a session asks: the build pauses at once
    0
    >>> build.paused, gate.place("server")
    (True, 1)

Thread-safe: every public method holds one lock (Streamlit runs each session in its own thread).
"""

from __future__ import annotations

import collections
import heapq
import os
import statistics
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Protocol

from explorer_core.runtime import meminfo_bytes, whole_number_setting

DEFAULT_EXPIRE_AFTER = 20.0  # seconds without a poll after which a session counts as gone
BUDGET_SHARE = 0.5  # of the machine's memory, when EXPLORER_TRAIN_MEMORY_MB is not set
LENGTHS_KEPT = 8  # completed runs per kind whose seconds the queue's start estimate averages


class Job(Protocol):
    """What admission needs of a run (a background job also needs `pause` and `resume`)."""

    @property
    def running(self) -> bool: ...

    def start(self) -> bool: ...

    def stop(self) -> None: ...


class Timed(Job, Protocol):
    """A job that can say how long it takes (`training.worker.TrainingRun`): what the queue's
    start estimate needs. Jobs of one `kind` take about as long as each other."""

    kind: Hashable

    @property
    def completed(self) -> bool: ...  # ended after all its steps (not stopped, not failed)

    def seconds_so_far(self) -> float: ...

    def seconds_left(self) -> float | None: ...


class Pausable(Job, Protocol):
    """A background job: it can wait, keeping its work, while sessions' runs train."""

    def pause(self) -> None: ...

    def resume(self) -> None: ...


class Refused(ValueError):
    """A run that is not admitted, not even to the queue.

    `reason` is "budget" (needs more than the whole memory budget) or "busy" (the session already
    has a run training or waiting); `need` and `budget` are in bytes, for the message.
    """

    def __init__(self, reason: str, need: int = 0, budget: int = 0) -> None:
        self.reason, self.need, self.budget = reason, need, budget
        if reason == "budget":
            text = (
                f"This run needs about {need // 2**20} MB but the server's training budget is "
                f"{budget // 2**20} MB for all runs together: choose a smaller model"
            )
        else:
            text = "This session already has a run training or waiting"
        super().__init__(text)


@dataclass
class _Entry:
    owner: str  # the session that asked
    job: Job
    need: int  # bytes
    touched: float  # clock() of the session's last sign of life
    started: bool = False  # holds a slot now
    background: bool = False  # the server's own work: after every session, paused for them
    paused: bool = False  # a background job that was started, then paused for a session


class Admission:
    """The server-wide limit on concurrent runs, with a first-come queue (see module docstring)."""

    def __init__(
        self,
        max_runs: int,
        budget: int | None = None,
        expire_after: float = DEFAULT_EXPIRE_AFTER,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_runs < 1:
            raise ValueError(f"At least one run must be allowed at a time, got {max_runs}")
        if expire_after <= 0:
            raise ValueError(f"expire_after must be positive seconds, got {expire_after}")
        self.max_runs, self.budget, self.expire_after = int(max_runs), budget, float(expire_after)
        self._clock = clock
        self._lock = threading.Lock()
        self._entries: list[_Entry] = []  # in arrival order; `_queue()` orders the waiting ones
        # seconds of the last runs of each kind that completed: what the next one should take
        self._lengths: dict[Hashable, collections.deque[float]] = {}

    @classmethod
    def from_env(cls) -> Admission:
        """Settings from EXPLORER_MAX_RUNS and EXPLORER_TRAIN_MEMORY_MB (see README, Settings)."""
        return cls(max_runs=max_runs_setting(), budget=budget_setting())

    # ---- what a session calls ------------------------------------------------------------------

    def submit(self, owner: str, job: Job, need: int, background: bool = False) -> int:
        """Queue `job` for `owner`; its place (0: started now). Raises Refused.

        `background`: the job (a `Pausable`) waits behind every session's request and is paused
        whenever one of them would have to wait (see the module docstring)."""
        with self._lock:
            self._sweep()
            if self.budget is not None and need > self.budget:
                raise Refused("budget", need, self.budget)
            if any(e.owner == owner for e in self._entries):
                raise Refused("busy")
            self._entries.append(_Entry(owner, job, int(need), self._clock(), False, background))
            self._admit()
            return self._place(owner)

    def touch(self, owner: str) -> int | None:
        """The session is still here; returns its place like `place`."""
        with self._lock:
            for entry in self._entries:
                if entry.owner == owner:
                    entry.touched = self._clock()
            self._sweep()
            return self._place(owner)

    def place(self, owner: str) -> int | None:
        """0 while the session's run trains, k >= 1 for the k-th place in the queue, else None."""
        with self._lock:
            self._sweep()
            return self._place(owner)

    def cancel(self, owner: str) -> bool:
        """Take the session's waiting request out of the queue (a running job is asked to stop)."""
        with self._lock:
            for entry in self._entries:
                if entry.owner == owner:
                    if entry.started or entry.paused:
                        entry.job.stop()  # subtle: a paused job wakes up to stop
                    if entry.paused:
                        entry.job.resume()
                    if not entry.started:
                        self._entries.remove(entry)
                        self._admit()
                    return True
            return False

    def start_estimate(self, owner: str) -> float | None:
        """Seconds until the session's waiting run should start; None when it does not wait, or
        before a run of each kind it waits for has completed on this server.

        A kind's length is the mean of its last LENGTHS_KEPT completed runs. Each run training
        ends after that length less its seconds so far (a run of a kind not completed yet: after
        its own estimate, `seconds_left`); each request ahead then takes its kind's length in
        the first slot to come free, first come, first served. Measured (bench/classroom_load.py
        --experiment): the estimates of runs a few seconds old, projected, came out 2-3 times
        too long, so they are not used for the runs ahead. Memory is left out: when the budget,
        not the slots, holds the queue, only the slots of the runs training count. A job that
        is not `Timed` gives None.

        >>> clock = FakeClock()
        >>> gate = Admission(max_runs=2, clock=clock)
        >>> jobs = [FakeJob(kind="tiny", so_far=10.0, left=30.0) for _ in range(5)]
        >>> [gate.submit(name, job, need=1) for name, job in zip("abcde", jobs)]
        [0, 0, 1, 2, 3]
        >>> gate.start_estimate("d") is None   # no tiny run has completed yet
        True
        >>> jobs[0].completed, jobs[0].running = True, False   # a's run took 10 s in all...
        >>> jobs[2].so_far = 4.0                               # ...c started in its slot
        >>> gate.start_estimate("d"), gate.start_estimate("e")  # b and c end in 0 and 6 s
        (0.0, 6.0)
        """
        with self._lock:
            self._sweep()
            queue = self._queue()
            ahead = next((queue[:i] for i, e in enumerate(queue) if e.owner == owner), None)
            running = [e for e in self._entries if e.started]
            if ahead is None or not running:
                return None
            lengths = {kind: statistics.fmean(done) for kind, done in self._lengths.items()}
            ends: list[float] = []
            for entry in running:
                kind = getattr(entry.job, "kind", None)
                if kind in lengths:
                    so_far = _timed(entry.job, "seconds_so_far") or 0.0
                    left: float | None = max(lengths[kind] - so_far, 0.0)
                else:
                    left = _timed(entry.job, "seconds_left")
                if left is None:
                    return None
                ends.append(left)
            heapq.heapify(ends)
            for entry in ahead:
                kind = getattr(entry.job, "kind", None)
                if kind is None or kind not in lengths:
                    return None
                heapq.heappush(ends, heapq.heappop(ends) + lengths[kind])
            return ends[0]

    def counts(self) -> tuple[int, int, int]:
        """(runs training, requests waiting, bytes held by the runs training)."""
        with self._lock:
            self._sweep()
            running = [e for e in self._entries if e.started]
            return len(running), len(self._entries) - len(running), sum(e.need for e in running)

    # ---- inside the lock -----------------------------------------------------------------------

    def _queue(self) -> list[_Entry]:
        """The waiting entries in the order they start: sessions first come, first served, then
        the background requests."""
        waiting = [e for e in self._entries if not e.started]
        return [e for e in waiting if not e.background] + [e for e in waiting if e.background]

    def _place(self, owner: str) -> int | None:
        for entry in self._entries:
            if entry.owner == owner and entry.started:
                return 0
        for place, entry in enumerate(self._queue(), start=1):
            if entry.owner == owner:
                return place
        return None

    def _sweep(self) -> None:
        """Drop ended jobs and queued requests of gone sessions, then admit who fits."""
        now = self._clock()

        def keep(e: _Entry) -> bool:
            if e.started or e.paused:  # a paused job that ended meanwhile (killed) leaves too
                return e.job.running
            return e.background or now - e.touched <= self.expire_after

        for entry in self._entries:
            if entry.started and not entry.job.running and getattr(entry.job, "completed", False):
                kind = getattr(entry.job, "kind", None)
                done = self._lengths.setdefault(kind, collections.deque(maxlen=LENGTHS_KEPT))
                done.append(_timed(entry.job, "seconds_so_far") or 0.0)
        self._entries = [e for e in self._entries if keep(e)]
        self._admit()

    def _admit(self) -> None:
        running = [e for e in self._entries if e.started]
        used = sum(e.need for e in running)
        for entry in self._queue():
            fits = self.budget is None or used + entry.need <= self.budget
            if (len(running) >= self.max_runs or not fits) and not entry.background:
                # a session would wait: the background jobs give their slots and memory back
                for job in [e for e in running if e.background]:
                    job.job.pause()
                    job.started, job.paused = False, True
                    running.remove(job)
                    used -= job.need
                fits = self.budget is None or used + entry.need <= self.budget
            if len(running) >= self.max_runs or not fits:
                return  # first come, first served: nobody overtakes the head of the queue
            entry.started = True
            if entry.paused:
                entry.paused = False
                entry.job.resume()
            else:  # a job that cannot start is not running: the next sweep drops it
                entry.job.start()
            running.append(entry)
            used += entry.need


def _timed(job: Job, name: str) -> float | None:
    """A `Timed` job's `name()`, None for a job that cannot tell."""
    method = getattr(job, name, None)
    return method() if callable(method) else None


def max_runs_setting() -> int:
    """EXPLORER_MAX_RUNS, or the number of cores."""
    return whole_number_setting("EXPLORER_MAX_RUNS", os.cpu_count() or 1)


def budget_setting() -> int | None:
    """EXPLORER_TRAIN_MEMORY_MB in bytes, or half of MemTotal; None where neither is known."""
    if os.environ.get("EXPLORER_TRAIN_MEMORY_MB", ""):
        return whole_number_setting("EXPLORER_TRAIN_MEMORY_MB", 0) * 2**20
    total = meminfo_bytes("MemTotal")
    return int(total * BUDGET_SHARE) if total else None


class FakeClock:
    """A clock for tests and examples: `clock()` reads it, `clock.advance(s)` moves it."""

    def __init__(self, now: float = 0.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class FakeJob:
    """A job for tests and examples: `running` is set by start() and may be set by hand;
    `paused` by pause() and resume(). With a `kind` it is `Timed`: once started it has trained
    `so_far` seconds and says `left` more (both may be set by hand, and `completed` too)."""

    def __init__(self, kind: Hashable = None, so_far: float = 0.0, left: float | None = None):
        self.running, self.started, self.stopped, self.paused = False, 0, False, False
        self.kind, self.so_far, self.left, self.completed = kind, so_far, left, False

    def seconds_so_far(self) -> float:
        return self.so_far if self.running or self.completed else 0.0

    def seconds_left(self) -> float | None:
        return self.left if self.running else None

    def start(self) -> bool:
        self.started += 1
        self.running = True
        return True

    def stop(self) -> None:
        self.stopped = True

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False
