"""The controlled class experiment of bench/classroom_load.py (``--experiment``): real training.

1. A class is made and its teacher starts a controlled experiment through `ClassStore` (what the
   panel's Start button calls): `ExperimentSettings(preset, steps, seeds)` over algorithms ×
   vocabulary sizes. The teacher's tab has its panel open (the live leaderboard).
2. N students join over `join_window` s (`class_scenario.join`); each then opens the Train page
   with the seat URL the app wrote (``train-model?class=CODE&seat=TOKEN``) and must be told its
   assignment; its first tab goes (the student switched pages).
3. All press Train, spread over `join_window` s; each waits until its page says the run ended
   (`train_run`) and the toast "Your result is on the class leaderboard". Every 0.25 s a follower
   notes what the student sees: the first queue or progress line, while queued the first start
   estimate ("should start in about N s"), the first time estimate ("about N s left"), when the
   run left the queue, made its first step and ended, and when the toast came.

Meanwhile a probe session reruns the Attention page, ``/_stcore/health`` is sampled and the
server's memory (its training workers included) is watched. At the end the results in the class
database are summarised per tokenizer over seeds (`viz.experiment.spread_frame`, as the teacher's
board shows it) and ranked per seed: is the tokenizers' order the same for every seed?
"""

from __future__ import annotations

import asyncio
import math
import os
import re
import time
from collections.abc import Sequence

from bench.class_scenario import Room, join, says, seat_token, wait_for
from bench.load_scenarios import (
    ATTENTION,
    ENDED,
    LANG,
    TRAIN,
    close_all,
    exceptions_of,
    fmt,
    proc_numbers,
    proc_rows,
    rerun_loop,
    stats,
    train_run,
)
from bench.server_watch import Watcher
from bench.st_client import Session
from explorer_core.analysis.experiment import ExperimentResult, head_to_head
from explorer_core.classroom import ClassStore
from explorer_core.training.admission import max_runs_setting
from explorer_core.training.controlled import ExperimentSettings
from explorer_core.ui.classroom.texts import EN
from explorer_core.ui.training.texts import EN as TRAIN_EN
from explorer_core.viz.experiment import spread_frame, tokenizer_label

POSTED = EN["class.student.posted"]  # the toast when a result reached the board
ASSIGNED = EN["class.exp.assigned"].split(":")[0]  # "Assigned by the class experiment"
QUEUE = re.compile(r"number (\d+) in the queue")
TRAINING = re.compile(r"^(pre-training|fine-tuning|starting): step \d+")  # admitted: a worker
STEPPING = re.compile(r"^(pre-training|fine-tuning): step [1-9]")  # its first step is done
ETA = re.compile(r"about (\d+) s left")
START_ETA = re.compile(r"should start in about (\d+) s")  # a queued run's start estimate
DROPPED = TRAIN_EN["train.queue.dropped"].split(":")[0]  # the page asked for news too late
# A generous ceiling per run for the timeouts (measured: 200 Tiny steps take 21-30 s of CPU,
# training.controlled); the waits end as soon as what they wait for is seen.
RUN_CEILING = (60.0, 0.5)  # seconds: fixed + per step


def run_timeout(n: int, steps: int, max_runs: int) -> float:
    """Seconds a student may wait for its run: `n` runs queue `max_runs` at a time."""
    fixed, per_step = RUN_CEILING
    return 120.0 + math.ceil(n / max(max_runs, 1)) * (fixed + per_step * steps)


async def follow(session: Session, since: int, out: dict, stop: asyncio.Event) -> None:
    """Note, with perf_counter times, what the student's page shows from text `since` on."""
    while not stop.is_set() and not session.closed.is_set():
        now = time.perf_counter()
        for text in session.seen.texts[since:]:
            if out.get("first_text") is None and (QUEUE.search(text) or TRAINING.search(text)):
                out["first_text"], out["first_text_at"] = text, now
            if (m := QUEUE.search(text)) and out.get("first_place") is None:
                out["first_place"] = int(m.group(1))
            if TRAINING.search(text) and out.get("started_at") is None:
                out["started_at"] = now
            if STEPPING.search(text) and out.get("stepping_at") is None:
                out["stepping_at"] = now
            if (m := START_ETA.search(text)) and out.get("start_eta") is None:
                out["start_eta"], out["start_eta_at"] = int(m.group(1)), now
            if (m := ETA.search(text)) and out.get("eta") is None:
                out["eta"], out["eta_at"] = int(m.group(1)), now
            if ENDED.search(text) and out.get("ended_at") is None:
                out["ended_at"] = now
            if DROPPED in text:
                out["dropped"] = True
            if POSTED in text and out.get("posted_at") is None:
                out["posted_at"] = now
        since = len(session.seen.texts)
        await asyncio.sleep(0.25)


async def student(session: Session, delay: float, timeout: float, post_wait: float) -> dict:
    """Press Train after `delay` s; what the run and the page reported, with the follower's
    times relative to the press (the toast may take `post_wait` s more than a minute)."""
    await asyncio.sleep(delay)
    seen, stop = {}, asyncio.Event()
    since = len(session.seen.texts)
    pressed = time.perf_counter()
    watching = asyncio.create_task(follow(session, since, seen, stop))
    try:
        run = await train_run(session, timeout)
    except (TimeoutError, KeyError, OSError) as err:  # no Train button, or the press timed out
        run = {"ended": None, "error": f"{type(err).__name__}: {err}"}
    await wait_for(lambda: "posted_at" in seen or session.closed.is_set(), 60 + post_wait)
    stop.set()
    await watching
    since_press = {k: seen[k] - pressed for k in seen if k.endswith("_at")}
    errors = [t for t in session.seen.texts[since:] if t.startswith("Training failed")]
    return {**run, **{k: v for k, v in seen.items() if not k.endswith("_at")},
            **{k.replace("_at", "_s"): v for k, v in since_press.items()},
            "pressed": pressed, "failed": errors}  # fmt: skip


async def board_arrivals(store: ClassStore, code: str, n: int, stop: asyncio.Event) -> list:
    """perf_counter of each result's arrival in the class database (polled every 0.5 s) until
    it holds `n` or `stop` is set."""
    arrivals: list[float] = []
    while not stop.is_set() and len(arrivals) < n:
        count = len(await asyncio.to_thread(store.results, code))
        arrivals += [time.perf_counter()] * (count - len(arrivals))
        await asyncio.sleep(0.5)
    return arrivals


async def seat_on_train(students: list[Session], code: str, timeout: float) -> list[Session]:
    """Each seated student opens the Train page with its seat URL; its join tab closes."""
    tabs = [Session(s.url, TRAIN, f"class={code}&seat={seat_token(s)}&{LANG}")
            for s in students if seat_token(s)]  # fmt: skip
    await asyncio.gather(*(t.open(timeout) for t in tabs), return_exceptions=True)
    await close_all(students)
    return tabs


async def experiment_scenario(room: Room, options) -> tuple[dict, list]:  # noqa: ANN001
    """A controlled experiment: N students train their assignment at once (see module doc)."""
    settings = ExperimentSettings(steps=options.exp_steps, seeds=tuple(options.exp_seeds))
    n, target, store = options.sessions, room.targets[0], ClassStore(room.db_url)
    timeout = run_timeout(n, settings.steps, max_runs_setting())
    info, secret = await asyncio.to_thread(store.create_class)
    code = info.code
    probe = await _open(target.url, ATTENTION, LANG)
    idle = [(await probe.rerun()).seconds for _ in range(10)]
    teacher = await _open(target.url, "", f"class={code}&teacher={secret}&{LANG}")
    numbers = {"sessions": n, "settings": settings.to_dict(), "algorithms": options.exp_algos,
               "vocab_sizes": options.exp_vocabs, "run_timeout_s": timeout}  # fmt: skip
    students, opened = await join(room.targets[:1], code, n, options.join_window)
    await asyncio.to_thread(store.start_experiment, code, secret, list(options.exp_algos),
                            list(options.exp_vocabs), settings)  # fmt: skip
    tabs = await seat_on_train(students, code, 60 + 3 * n)
    numbers["join_open"] = stats([x for x in opened if isinstance(x, float)])
    numbers["on_train_page"] = len(tabs)
    numbers["told_assignment"] = sum(says(t, ASSIGNED) for t in tabs)
    before, stop, busy = target.snapshot(), asyncio.Event(), []
    with Watcher(target.pid, target.url) as watcher:
        arriving = asyncio.create_task(board_arrivals(store, code, len(tabs), stop))
        probing = asyncio.create_task(rerun_loop(probe, stop, busy))
        board, watched_from = EN["class.exp.board"].format(n=len(tabs)), time.perf_counter()
        shown = asyncio.create_task(wait_for(lambda: says(teacher, board), timeout + 60))
        spread = options.join_window / max(len(tabs), 1)
        runs = await asyncio.gather(
            *(student(t, i * spread, timeout, len(tabs)) for i, t in enumerate(tabs))
        )
        await asyncio.wait([shown], timeout=30)  # the panel's next tick after the last result
        shown.cancel()
        teacher_at = shown.result() if shown.done() and not shown.cancelled() else None
        stop.set()
        arrivals = await arriving
        await probing
    after, everyone = target.snapshot(), [probe, teacher, *tabs]
    numbers["exceptions"] = exceptions_of(everyone)
    await close_all(everyone)
    rows = await asyncio.to_thread(store.results, code)
    await asyncio.to_thread(store.dispose)
    first_press = min((r["pressed"] for r in runs), default=time.perf_counter())
    numbers |= {
        "runs": [{k: v for k, v in r.items() if k != "pressed"} for r in runs],
        "results": rows, "in_db": len(rows),
        "first_press_to_last_result_s": arrivals[-1] - first_press if arrivals else None,
        "first_press_to_first_result_s": arrivals[0] - first_press if arrivals else None,
        "teacher_board_s": None if teacher_at is None else teacher_at + watched_from - first_press,
        "probe_idle": stats(idle), "probe_busy": stats(busy),
        **proc_numbers(before, after, watcher),
        "load_average": list(os.getloadavg()),
    }  # fmt: skip
    numbers |= ranking_numbers([ExperimentResult.from_row(r) for r in rows])
    return numbers, experiment_rows(numbers, options, (before, after, watcher.peak_rss))


async def _open(url: str, page: str, query: str) -> Session:
    session = Session(url, page, query)
    await session.open()
    return session


def rankings(results: Sequence[ExperimentResult], split: str = "test") -> dict:
    """lang -> seed -> tokenizer labels, best `split` Spearman first (ties: label order)."""
    scores: dict[str, dict[int, list[tuple[float, str]]]] = {}
    for r in results:
        for lang, rho in getattr(r, f"{split}_spearman").items():
            if rho is not None:
                label = tokenizer_label(r.algorithm, r.vocab_size)
                scores.setdefault(lang, {}).setdefault(r.seed, []).append((-rho, label))
    return {lang: {seed: [label for _, label in sorted(pairs)]
                   for seed, pairs in sorted(by.items())}
            for lang, by in scores.items()}  # fmt: skip


def stable(by_seed: dict[int, list[str]]) -> bool | None:
    """Whether every seed orders the tokenizers they share alike; None with fewer than two seeds
    or two shared tokenizers (nothing to compare).

    >>> stable({0: ["a", "b", "c"], 1: ["a", "b"]}), stable({0: ["a", "b"], 1: ["b", "a"]})
    (True, False)
    """
    common = set.intersection(*(set(labels) for labels in by_seed.values())) if by_seed else set()
    if len(by_seed) < 2 or len(common) < 2:
        return None
    return len({tuple(x for x in labels if x in common) for labels in by_seed.values()}) == 1


def halves(results: Sequence[ExperimentResult], split: str = "test") -> dict:
    """lang -> the tokenizers by mean Spearman over the first half of the seeds and over the
    second half: does the class's answer depend on which seeds it drew?"""
    seeds = sorted({r.seed for r in results})
    cut = len(seeds) // 2
    out: dict[str, list[list[str]]] = {}
    for part in (seeds[:cut], seeds[cut:]):
        scores: dict[str, dict[str, list[float]]] = {}
        for r in results:
            for lang, rho in getattr(r, f"{split}_spearman").items():
                if r.seed in part and rho is not None:
                    label = tokenizer_label(r.algorithm, r.vocab_size)
                    scores.setdefault(lang, {}).setdefault(label, []).append(rho)
        for lang, by in scores.items():
            order = sorted(by, key=lambda label: -sum(by[label]) / len(by[label]))
            out.setdefault(lang, []).append(order)
    return out


def ranking_numbers(results: list[ExperimentResult]) -> dict:
    frame = spread_frame(results)
    ranks = rankings(results)
    return {"spread": frame.to_dict(orient="records"), "ranking_by_seed": ranks,
            "ranking_stable": {lang: stable(by) for lang, by in ranks.items()},
            "wins": [(h.lang, tokenizer_label(*h.first), tokenizer_label(*h.second), h.wins,
                      h.seeds) for h in head_to_head(results)],
            "halves": halves(results)}  # fmt: skip


def _s(value: float | None) -> str:
    return "not seen" if value is None else f"{value:.1f} s"


def _eta_errors(runs: list[dict]) -> list[float]:
    """Predicted minus real end (s) of each run's first estimate: positive is pessimistic."""
    return [r["eta_s"] + r["eta"] - r["ended_s"] for r in runs if {"eta", "ended_s"} <= set(r)]


def _start_errors(runs: list[dict]) -> list[float]:
    """Predicted minus real start (s) of each queued run's first start estimate."""
    return [r["start_eta_s"] + r["start_eta"] - r["started_s"] for r in runs
            if {"start_eta", "started_s"} <= set(r)]  # fmt: skip


def experiment_rows(numbers: dict, options, procs: tuple) -> list[tuple[str, str]]:  # noqa: ANN001
    n, runs, s = numbers["sessions"], numbers["runs"], numbers["settings"]
    walls = [r["ended_s"] for r in runs if "ended_s" in r]
    waits = [r["started_s"] for r in runs if "started_s" in r]
    warm = [r["stepping_s"] - r["started_s"] for r in runs if {"started_s", "stepping_s"} <= set(r)]
    posts = [r["posted_s"] - r["ended_s"] for r in runs if {"ended_s", "posted_s"} <= set(r)]
    places = [r["first_place"] for r in runs if "first_place" in r]
    firsts = sorted({QUEUE.sub("number # in the queue", r.get("first_text") or "none")[:70]
                     for r in runs})  # fmt: skip
    ended = sum(r.get("ended") is not None and not r["failed"] for r in runs)
    rows = [
        ("experiment", f"{', '.join(numbers['algorithms'])} × vocab "
         f"{', '.join(map(str, numbers['vocab_sizes']))}; {s['preset']}, {s['steps']} steps, "
         f"seeds {', '.join(map(str, s['seeds']))}"),
        (f"{n} students join over {options.join_window:g} s", fmt(numbers["join_open"])),
        ("  on the Train page / told their assignment",
         f"{numbers['on_train_page']} / {numbers['told_assignment']} of {n}"),
        (f"press Train over {options.join_window:g} s: first press to", ""),
        ("  first result in the class database", _s(numbers["first_press_to_first_result_s"])),
        ("  last result in the class database", _s(numbers["first_press_to_last_result_s"])),
        ("  teacher's board shows them all", _s(numbers["teacher_board_s"])),
        ("results on the board", f"{numbers['in_db']} of {n}"),
        ("runs ended / failed / never ended", f"{ended} / {sum(bool(r['failed']) for r in runs)}"
         f" / {sum(r.get('ended') is None for r in runs)}"),
        ("students told 'your result is on the board'", f"{sum('posted_s' in r for r in runs)}"),
        ("students dropped from the queue", f"{sum(r.get('dropped', False) for r in runs)}"),
        ("press to end of run (wall)", fmt(stats(walls))),
        ("  press to admitted (queue wait)", fmt(stats(waits))),
        ("  admitted to first step (worker start)", fmt(stats(warm))),
        ("  run ended to 'result is on the board'", fmt(stats(posts))),
        ("  queued (saw a place in the queue)", f"{len(places)} of {len(runs)}, the furthest "
         f"back at place {max(places, default='-')}"),
        ("  queued: first start estimate minus real start", fmt_signed(_start_errors(runs))),
        ("  training: first estimate minus real end", fmt_signed(_eta_errors(runs))),
        *[("  first line seen" if i == 0 else "", text) for i, text in enumerate(firsts)],
        ("probe reruns (Attention), idle", fmt(numbers["probe_idle"])),
        ("  during the experiment", fmt(numbers["probe_busy"])),
        ("/_stcore/health", fmt(numbers["health"])),
        *proc_rows(*procs),
        ("exception elements", str(len(numbers["exceptions"]))),
    ]  # fmt: skip
    rows += [("spread over seeds (test Spearman)", "mean ± sd   n   min..max   seeds")]
    rows += [(f"  {r['tokenizer']} {r['lang']}",
              f"{r['mean_sd']}   {r['n']}   {r['min']}..{r['max']}   {r['seeds']}")
             for r in numbers["spread"]]  # fmt: skip
    for lang, by_seed in numbers["ranking_by_seed"].items():
        rows += [(f"ranking {lang}, seed {seed}", " > ".join(labels))
                 for seed, labels in by_seed.items()]  # fmt: skip
        verdict = {True: "yes", False: "no", None: "n/a (needs 2 seeds × 2 tokenizers)"}
        rows.append((f"  same order for every seed ({lang})",
                     verdict[numbers["ranking_stable"][lang]]))  # fmt: skip
        rows += [(f"  {a} above {b}", f"in {k} of {n} seeds")
                 for where, a, b, k, n in numbers["wins"] if where == lang]  # fmt: skip
        first, *second = numbers["halves"].get(lang, [[]])
        if second:
            rows.append((f"  by mean, first / second half of the seeds ({lang})",
                         f"{' > '.join(first)}  /  {' > '.join(second[0])}"))  # fmt: skip
    return rows


def fmt_signed(values: list[float]) -> str:
    if not values:
        return "no estimate seen"
    ordered = sorted(values)
    return (f"median {ordered[len(ordered) // 2]:+.1f} s, from {ordered[0]:+.1f} to "
            f"{ordered[-1]:+.1f} s (n={len(values)}; + is pessimistic)")  # fmt: skip
