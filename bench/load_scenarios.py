"""The classroom scenarios of bench/classroom_load.py, as coroutines on a running server.

Each scenario takes a `Target` and the options and returns (numbers for JSON, rows for the table).
Training progress is read from what the Train page draws (in English, ``lang=en``): its status
line ("Finished after 21 s.") and its model label ("... 37 pre-training + 52 fine-tuning steps").
"""

from __future__ import annotations

import asyncio
import re
import statistics
import time
from dataclasses import dataclass
from pathlib import Path

from websockets.exceptions import ConnectionClosed

from bench.server_watch import (
    ProcessSnapshot,
    Watcher,
    describe_threads,
    os_threads,
    read_thread_log,
)
from bench.st_client import Session

ATTENTION, TRAIN = "attention", "train-model"
LANG = "lang=en"
BIG_STEPS = 100_000  # step counts out of reach: the time budget ends every run
ENDED = re.compile(r"^(Finished|Stopped) after (\d+) s|^Training failed")
LABEL_STEPS = re.compile(r"(\d+) (pre-training|fine-tuning)")  # the model's label
SCRIPT_THREAD = "ScriptRunner.scriptThread"  # Streamlit's name for the thread of a page script
PROGRESS = re.compile(r"^(pre-training|fine-tuning): step (\d+)")  # the status line


@dataclass(frozen=True)
class Target:
    url: str
    pid: int | None  # the server's process id when this machine can see it
    thread_log: Path | None = None  # the server's EXPLORER_THREAD_LOG, when it keeps one

    def snapshot(self) -> ProcessSnapshot | None:
        return ProcessSnapshot.of(self.pid) if self.pid is not None else None

    def threads(self) -> dict[int, str]:
        """The server's threads now (OS thread id -> OS name); empty when it is not visible."""
        return os_threads(self.pid) if self.pid is not None else {}

    def scripts_running(self) -> bool:
        """Whether a page script runs now (a Streamlit script thread is alive), as far as the
        thread log tells; False without one."""
        named = read_thread_log(self.thread_log)
        alive = self.threads()
        return any(named.get(tid, ("",))[0] == SCRIPT_THREAD for tid in alive)


def stats(values: list[float]) -> dict:
    """n, p50, p95 (nearest rank), max of a list of seconds."""
    if not values:
        return {"n": 0, "p50": None, "p95": None, "max": None}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]
    return {"n": len(values), "p50": statistics.median(ordered), "p95": p95, "max": ordered[-1]}


def fmt(summary: dict) -> str:
    if not summary["n"]:
        return "no samples"
    return "p50 {p50:6.2f} s   p95 {p95:6.2f} s   max {max:6.2f} s   (n={n})".format(**summary)


def mb(value: int | None) -> str:
    return "n/a" if value is None else f"{value / 2**20:,.0f} MB"


def proc_rows(before: ProcessSnapshot | None, after: ProcessSnapshot | None, peak: int) -> list:
    if before is None or after is None:
        return [("server process", "not visible (--url)")]
    return [
        ("RSS server+children", f"before {mb(before.rss)}  peak {mb(peak)}  after {mb(after.rss)}"),
        ("threads of server", f"before {before.threads}  after {after.threads}"),
        ("child processes", f"before {before.children}  after {after.children}"),
    ]


def proc_numbers(before, after, watcher: Watcher) -> dict:  # noqa: ANN001 - snapshots or None
    numbers = {"health": stats(watcher.health), "peak_rss": watcher.peak_rss or None}
    if before is not None and after is not None:
        numbers |= {"before": vars(before), "after": vars(after)}
        numbers |= {"peak_children": watcher.peak_children, "peak_threads": watcher.peak_threads}
    return numbers


def train_query(budget: float, steps: int = BIG_STEPS) -> str:
    """The Train page's link for a Tiny run of `budget` seconds (pre-training + fine-tuning)."""
    return f"{LANG}&train.preset=tiny&train.budget={budget:g}&train.pre_steps={steps}" + (
        f"&train.fine_steps={steps}"
    )


# ---- sessions doing things ---------------------------------------------------------------------


async def open_sessions(url: str, page: str, n: int, query: str = LANG, **kw) -> list[Session]:
    sessions = [Session(url, page, query, **kw) for _ in range(n)]
    await asyncio.gather(*(s.open() for s in sessions))
    return sessions


async def close_all(sessions: list[Session]) -> None:
    await asyncio.gather(*(s.close() for s in sessions))


def exceptions_of(sessions: list[Session]) -> list[str]:
    return [text for s in sessions for text in s.exceptions]


async def rerun_loop(session: Session, stop: asyncio.Event, out: list[float], pause=0.5) -> None:
    """Rerun the session's page until `stop`, a human-like pause between; seconds into `out`."""
    while not stop.is_set():
        try:
            out.append((await session.rerun(timeout=120)).seconds)
        except TimeoutError:
            out.append(120.0)
        except ConnectionClosed:
            session.dropped = True
            return
        await asyncio.sleep(pause)


def _steps(label: str, texts: list[str]) -> dict[str, int]:
    """Steps per phase from the model's label, else the last status lines seen."""
    steps = {"pre-training": 0, "fine-tuning": 0}
    found = LABEL_STEPS.findall(label)
    for count, phase in found:
        steps[phase] = int(count)
    for text in texts if not found else ():
        if match := PROGRESS.search(text):
            steps[match.group(1)] = max(steps[match.group(1)], int(match.group(2)))
    return steps


async def train_run(session: Session, timeout: float) -> dict:
    """Press Train and wait until the page says the run ended; what the page reported."""
    start = time.perf_counter()
    seen = len(session.seen.texts)
    await session.press("train.start", timeout)  # a busy server draws the press's run late
    ended = None
    while time.perf_counter() - start < timeout and not session.closed.is_set():
        ended = next((m for t in session.seen.texts[seen:] if (m := ENDED.search(t))), None)
        if ended:
            break
        await asyncio.sleep(0.5)
    label = ""
    for _ in range(20):  # the page redraws once more with the model's label
        texts = session.seen.texts[seen:]
        label = next((t for t in reversed(texts) if "trained in this session: " in t), "")
        if label or not ended:
            break
        await asyncio.sleep(0.5)
    steps = _steps(label, texts)
    return {
        "ended": ended.group(0) if ended else None,
        "server_seconds": int(ended.group(2)) if ended and ended.group(2) else None,
        "client_seconds": time.perf_counter() - start,
        "pre_steps": steps["pre-training"],
        "fine_steps": steps["fine-tuning"],
        "queued": any("in the queue" in t for t in texts),
    }


# ---- scenarios ---------------------------------------------------------------------------------


async def storm(target: Target, options) -> tuple[dict, list]:  # noqa: ANN001 - Options
    """N sessions open the Attention page at once (after one opened it alone, cold)."""
    first = Session(target.url, ATTENTION, LANG)
    cold = await first.open()
    await first.close()
    before = target.snapshot()
    sessions = [Session(target.url, ATTENTION, LANG) for _ in range(options.sessions)]
    with Watcher(target.pid, target.url) as watcher:
        opened = await asyncio.gather(*(s.open() for s in sessions), return_exceptions=True)
    times = [x for x in opened if isinstance(x, float)]
    failed = len(opened) - len(times)
    errors = exceptions_of([first, *sessions])
    await close_all(sessions)
    after = target.snapshot()
    numbers = {
        "sessions": options.sessions,
        "cold_open": cold,
        "open": stats(times),
        "failed": failed,
        "exceptions": errors,
        **proc_numbers(before, after, watcher),
    }
    rows = [
        ("first open, alone (cold)", f"{cold:.2f} s"),
        (f"{options.sessions} opening at once", fmt(numbers["open"])),
        ("failed / exception elements", f"{failed} / {len(errors)}"),
        ("/_stcore/health", fmt(numbers["health"])),
        *proc_rows(before, after, watcher.peak_rss),
    ]
    return numbers, rows


async def train(target: Target, options) -> tuple[dict, list]:  # noqa: ANN001 - Options
    """One run alone, then N at once beside a probe rerunning the Attention page."""
    query, timeout = train_query(options.budget), options.budget * (options.sessions + 2) + 300
    probe = Session(target.url, ATTENTION, LANG)
    await probe.open()
    idle: list[float] = []
    for _ in range(10):
        idle.append((await probe.rerun()).seconds)
        await asyncio.sleep(0.3)
    alone_session = (await open_sessions(target.url, TRAIN, 1, query))[0]
    alone = await train_run(alone_session, timeout)
    await alone_session.close()
    alone_steps = alone["pre_steps"] + alone["fine_steps"]

    before = target.snapshot()
    trainers = await open_sessions(target.url, TRAIN, options.sessions, query)
    stop, busy = asyncio.Event(), []
    with Watcher(target.pid, target.url) as watcher:
        probing = asyncio.create_task(rerun_loop(probe, stop, busy))
        runs = await asyncio.gather(*(train_run(s, timeout) for s in trainers))
        stop.set()
        await probing
    errors = exceptions_of([probe, alone_session, *trainers])
    await close_all([probe, *trainers])
    await asyncio.sleep(3)
    after = target.snapshot()
    steps = [r["pre_steps"] + r["fine_steps"] for r in runs]
    ratios = [s / alone_steps if alone_steps else 0.0 for s in steps]
    overshoot = [r["server_seconds"] / options.budget - 1 for r in runs if r["server_seconds"]]
    numbers = {
        "sessions": options.sessions,
        "budget": options.budget,
        "alone": alone,
        "runs": runs,
        "steps_vs_alone": ratios,
        "overshoot": overshoot,
        "probe_idle": stats(idle),
        "probe_busy": stats(busy),
        "exceptions": errors,
        **proc_numbers(before, after, watcher),
    }
    ended = sum(r["ended"] is not None for r in runs)
    rows = [
        (
            "run alone",
            f"{alone['pre_steps']} + {alone['fine_steps']} steps in "
            f"{alone['server_seconds']} s (budget {options.budget:g} s)",
        ),
        (f"{options.sessions} runs at once: steps", " ".join(map(str, steps))),
        ("  steps vs alone", " ".join(f"{r:.2f}" for r in ratios)),
        ("  ended / queued", f"{ended} / {sum(r['queued'] for r in runs)}"),
        ("  run seconds (server)", " ".join(str(r["server_seconds"]) for r in runs)),
        ("  worst budget overshoot", f"{max(overshoot):+.0%}" if overshoot else "n/a"),
        ("probe rerun, idle", fmt(numbers["probe_idle"])),
        ("probe rerun, during runs", fmt(numbers["probe_busy"])),
        ("/_stcore/health", fmt(numbers["health"])),
        ("exception elements", str(len(errors))),
        *proc_rows(before, after, watcher.peak_rss),
    ]
    return numbers, rows


async def walkaway(target: Target, options, wait_back: float = 120.0) -> tuple[dict, list]:  # noqa: ANN001
    """N sessions start runs and vanish; how long until workers and memory are back."""
    warm_errors: list = []
    before = None
    if target.pid is not None:
        _, before, warm_errors = await warm_baseline(target, wait_back)
    sessions = await open_sessions(target.url, TRAIN, options.sessions, train_query(600))
    await asyncio.gather(*(s.press("train.start") for s in sessions))
    await asyncio.sleep(options.walk_after)
    errors = warm_errors + exceptions_of(sessions)
    during = target.snapshot()
    await close_all(sessions)
    gone_at, workers_back, threads_back = time.perf_counter(), None, None
    after = during
    while before is not None and time.perf_counter() - gone_at < wait_back:
        after = target.snapshot()
        elapsed = time.perf_counter() - gone_at
        if workers_back is None and after.children <= before.children:
            workers_back = elapsed
        if threads_back is None and after.threads <= before.threads:
            threads_back = elapsed
        if workers_back is not None and threads_back is not None:
            break
        await asyncio.sleep(0.5)
    await asyncio.sleep(20)
    later = target.snapshot()
    numbers = {
        "sessions": options.sessions,
        "walk_after": options.walk_after,
        "workers_back_s": workers_back,
        "threads_back_s": threads_back,
        "before": before and vars(before),
        "during": during and vars(during),
        "at_back": after and vars(after),
        "later": later and vars(later),
        "exceptions": errors,
    }
    if before is None:
        return numbers, [("walk-away", "needs the server's process (not with --url)")]

    def seconds(value: float | None) -> str:
        return f"{value:.1f} s" if value is not None else f"not within {wait_back:.0f} s"

    rows = [
        ("sessions vanished after", f"{options.walk_after:g} s of training"),
        (
            "child processes",
            f"before {before.children}  during {during.children}  after {later.children}",
        ),
        ("threads", f"before {before.threads}  during {during.threads}  after {later.threads}"),
        ("workers back to baseline", seconds(workers_back)),
        ("threads back to baseline", seconds(threads_back)),
        (
            "RSS server+children",
            f"before {mb(before.rss)}  during {mb(during.rss)}  "
            f"when back {mb(after.rss)}  20 s later {mb(later.rss)} "
            f"({later.rss / before.rss - 1:+.0%})",
        ),
        ("exception elements", str(len(errors))),
    ]
    return numbers, rows


async def cycles(target: Target, options) -> tuple[dict, list]:  # noqa: ANN001 - Options
    """`options.cycles` times: N sessions press Train and vanish after `walk_after` s; once the
    server's workers and threads are back (or 120 s passed) and 10 s later, its memory and
    threads. An all-day class in small: memory that still grows after a few cycles is kept per
    session that left."""
    if target.pid is None:
        return {}, [("walk-away cycles", "needs the server's process (not with --url)")]
    _, before, errors = await warm_baseline(target, 120.0)
    baseline_threads = target.threads()
    rows, numbers = [("before the first cycle", f"{mb(before.rss)}, {before.threads} threads")], []
    for cycle in range(1, options.cycles + 1):
        sessions = await open_sessions(target.url, TRAIN, options.sessions, train_query(600))
        await asyncio.gather(*(s.press("train.start") for s in sessions))
        await asyncio.sleep(options.walk_after)
        errors += exceptions_of(sessions)
        await close_all(sessions)
        back = await settle(target, before, 120.0)
        await asyncio.sleep(10)
        now = target.snapshot()
        extra = await threads_beyond(target, baseline_threads)
        numbers.append({"cycle": cycle, "back_s": back, **vars(now), "extra_threads": extra})
        rows.append((
            f"cycle {cycle}: RSS server+children",
            f"{mb(now.rss)} (server {mb(now.server_rss)}), {now.threads} threads, "
            f"{now.children} children, back after "
            + (f"{back:.0f} s" if back is not None else "more than 120 s"),
        ))  # fmt: skip
        rows += [("  beyond the baseline", line) for line in extra]
    rows.append(("exception elements", str(len(errors))))
    return {"before": vars(before), "cycles": numbers, "exceptions": errors}, rows


async def flood(target: Target, options) -> tuple[dict, list]:  # noqa: ANN001 - Options
    """One session sends reruns at `flood_rate`/s while `others` sessions rerun the page."""
    others = await open_sessions(target.url, ATTENTION, options.others)
    flooder = (await open_sessions(target.url, ATTENTION, 1))[0]
    phases: dict[str, list[float]] = {"idle": [], "flood": [], "after": []}
    before = target.snapshot()
    with Watcher(target.pid, target.url) as watcher:
        for phase, seconds in (("idle", 10.0), ("flood", options.flood_seconds), ("after", 10.0)):
            stop = asyncio.Event()
            loops = [asyncio.create_task(rerun_loop(s, stop, phases[phase])) for s in others]
            start, sent = time.perf_counter(), 0
            if phase == "flood":
                runs_before = flooder.started
                while (elapsed := time.perf_counter() - start) < seconds:
                    await flooder.send_rerun()
                    sent += 1
                    await asyncio.sleep(max(0.0, sent / options.flood_rate - elapsed))
                flood_runs, flood_sent = flooder.started - runs_before, sent
            else:
                await asyncio.sleep(seconds)
            stop.set()
            await asyncio.gather(*loops)
    errors = exceptions_of([*others, flooder])
    await close_all([*others, flooder])
    after = target.snapshot()
    numbers = {
        "others": options.others,
        "rate": options.flood_rate,
        "sent": flood_sent,
        "flooder_runs_started": flood_runs,
        "exceptions": errors,
        **{f"others_{phase}": stats(v) for phase, v in phases.items()},
        **proc_numbers(before, after, watcher),
    }
    rows = [
        (f"{options.others} others, idle", fmt(numbers["others_idle"])),
        (
            f"  during {flood_sent / options.flood_seconds:.0f} reruns/s",
            fmt(numbers["others_flood"]),
        ),
        ("  10 s after the flood", fmt(numbers["others_after"])),
        ("flooder: reruns sent / runs started", f"{flood_sent} / {flood_runs}"),
        ("/_stcore/health", fmt(numbers["health"])),
        ("exception elements", str(len(errors))),
        *proc_rows(before, after, watcher.peak_rss),
    ]
    return numbers, rows


async def threads_beyond(target: Target, baseline: dict[int, str]) -> list[str]:
    """The server's threads that were not there at the baseline, one line each (`describe_threads`:
    name and where it was started)."""
    if not [tid for tid in target.threads() if tid not in baseline]:
        return []
    await close_all(await open_sessions(target.url, "", 1))  # a page run lists the threads now
    extra = {tid: name for tid, name in target.threads().items() if tid not in baseline}
    return describe_threads(extra, target.thread_log)


async def settle(target: Target, baseline: ProcessSnapshot, timeout: float) -> float | None:
    """Seconds until the server has no more threads and child processes than `baseline`."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        now = target.snapshot()
        if now.children <= baseline.children and now.threads <= baseline.threads:
            return time.perf_counter() - start
        await asyncio.sleep(0.5)
    return None


async def steady(target: Target, timeout: float, quiet: float = 3.0) -> ProcessSnapshot:
    """The server once its thread and process counts have not changed for `quiet` seconds and no
    page script runs (a closed tab's last run may still be drawing for seconds)."""
    start, last, since = time.perf_counter(), None, time.perf_counter()
    while time.perf_counter() - start < timeout:
        now = target.snapshot()
        counts = (now.threads, now.children)
        if counts != last or target.scripts_running():
            last, since = counts, time.perf_counter()
        elif time.perf_counter() - since >= quiet:
            return now
        await asyncio.sleep(0.5)
    return target.snapshot()


async def warm_baseline(target: Target, timeout: float) -> tuple[dict, ProcessSnapshot, list]:
    """One short run to its end (the caches it fills stay), then the server at rest.

    Returns what the run reported, the baseline snapshot and its exception elements. A first run
    may leave helpers for good (multiprocessing's resource tracker): they belong to the baseline.
    """
    warm = (await open_sessions(target.url, TRAIN, 1, train_query(2, steps=2)))[0]
    run = await train_run(warm, timeout)
    await warm.close()
    return run, await steady(target, timeout), warm.exceptions


async def cleanup(target: Target, n: int = 3, budget: float = 10.0, timeout: float = 150.0) -> dict:
    """The short version for the test suite: n sessions start short runs and go.

    After a warm run (see `warm_baseline`), `n` sessions press Train and vanish 2 s later.
    Returns the snapshots (baseline, during, back), the seconds until threads and workers were
    back, and every exception element seen.
    """
    warm_run, baseline, errors = await warm_baseline(target, timeout)
    baseline_threads = target.threads()
    sessions = await open_sessions(target.url, TRAIN, n, train_query(budget))
    await asyncio.gather(*(s.press("train.start") for s in sessions))
    await asyncio.sleep(2.0)
    during = target.snapshot()
    errors += exceptions_of(sessions)
    await close_all(sessions)
    back_after = await settle(target, baseline, timeout)
    await asyncio.sleep(3)
    extra = await threads_beyond(target, baseline_threads)
    return {
        "warm_run": warm_run,
        "baseline": baseline,
        "during": during,
        "back": target.snapshot(),
        "back_after": back_after,
        "extra_threads": extra,
        "exceptions": errors,
    }


SCENARIOS = {
    "storm": storm, "train": train, "walkaway": walkaway, "flood": flood, "cycles": cycles,
}  # fmt: skip
