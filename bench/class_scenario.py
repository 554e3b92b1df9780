"""The class scenario of bench/classroom_load.py (``--class``): one teacher and N students.

The class is made and its poll asked through `ClassStore` on the servers' own database (what the
teacher's "Ask the class" button calls); everything a person sees goes through the websockets:

1. N students open ``/?class=CODE&name=sNN`` spread over `join_window` seconds (a room scanning
   the QR code); the teacher's tab has the teacher link and its panel (a fragment, every second, as
   the browser sends it) must say "Joined: N". With two or more replicas students alternate
   between them and the teacher is on the first.
2. With `kill`: the last replica is killed (SIGKILL, a crash) after the join; each of its
   students reconnects to the first with the seat URL the app wrote (``?class=CODE&seat=TOKEN``)
   and must be back in the class (its bar says "Class CODE · sNN").
3. `polls` times: a poll is asked; once every student's bar (a fragment, every 3 s) shows it, all
   answer at once (a rerun of that fragment with the radio's value and the send button's
   trigger). Measured: seconds from the last answer sent until the teacher's panel reads "N of N
   answered" (its 1 s cadence included, as a teacher sees it), and until the database's tally
   has N; how many answers the database counted; how many students were told theirs is in.
4. 30 results are posted to a class experiment at once (`ClassStore.post_result`, what the Train
   page calls); seconds until the teacher's board reads "Leaderboard · runs: 30".

Throughout: ``/_stcore/health`` of each replica every 0.5 s, probe sessions rerunning the
Attention page on the first replica, and each replica's peak memory.
"""

from __future__ import annotations

import asyncio
import os
import signal
import tempfile
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.exceptions import ConnectionClosed

from bench.load_scenarios import (
    ATTENTION,
    LANG,
    Target,
    close_all,
    exceptions_of,
    fmt,
    mb,
    open_sessions,
    rerun_loop,
    stats,
)
from bench.server_watch import Watcher, cpu_seconds, start_server
from bench.st_client import Session
from explorer_core.analysis.quiz import MergeQuestion
from explorer_core.analysis.quiz_poll import merge_poll
from explorer_core.classroom import ClassStore
from explorer_core.runtime import THREAD_LOG
from explorer_core.ui.classroom.texts import EN

ANSWER_IN = EN["class.poll.sent"].split(":")[0]  # "Your answer is in", the bar's own words

RESULTS = 30  # experiment results posted at once
RESULT = {"algorithm": "char-bpe", "vocab_size": 300, "preset": "tiny", "steps": 40,
          "seconds": 12.5, "seed": 0, "test_spearman_en": 0.58}  # fmt: skip


@dataclass(frozen=True)
class Room:
    """The servers of one class (the first also holds the teacher) and their class database."""

    targets: tuple[Target, ...]
    db_url: str


@contextmanager
def start_room(ports: list[int], *options: str, logs: Path | None = None) -> Iterator[Room]:
    """One ``streamlit run app.py`` per port, all on one class database: a SQLite file in a
    temporary folder for one server, a private PostgreSQL (tests/postgres.py) for more; each
    server's output goes to `logs`/server-PORT.log when given. Everything stops at the end of
    the block (a replica killed on purpose included)."""
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="explorer-class-")))
        if len(ports) > 1:
            from tests.postgres import running_postgres

            db = stack.enter_context(running_postgres())
        else:
            db = f"sqlite:///{folder}/classes.db"
        if logs is not None:
            logs.mkdir(parents=True, exist_ok=True)
        targets = []
        for p in ports:  # each server writes down its threads (named in the walk-away tables)
            env = {"EXPLORER_CLASS_DB": db, THREAD_LOG: str(folder / f"threads-{p}.log")}
            log = logs and logs / f"server-{p}.log"
            url, pid = stack.enter_context(start_server(p, *options, env=env, log=log))
            targets.append(Target(url, pid, folder / f"threads-{p}.log"))
        yield Room(tuple(targets), db)


def the_poll() -> dict:
    """A merge question as the Tokenizer Lab asks it (two choices, "1" is right)."""
    return merge_poll(MergeQuestion(step=12, options=(("t", "h"), ("e", "r")), answer=1,
                                    count=9, runner_up=7))  # fmt: skip


def seat_token(session: Session) -> str | None:
    """The seat token the app wrote into the student's address bar, if any."""
    return (parse_qs(session.query).get("seat") or [None])[0]


async def wait_for(check, timeout: float, every: float = 0.05) -> float | None:  # noqa: ANN001
    """Seconds until `check()` is true (polled every `every` s); None if not within `timeout`."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        if check():
            return time.perf_counter() - start
        await asyncio.sleep(every)
    return None


def says(session: Session, text: str, since: int = 0) -> bool:
    return any(text in t for t in session.seen.texts[since:])


async def join(targets, code: str, n: int, window: float) -> tuple[list[Session], list]:  # noqa: ANN001
    """N students open their join links spread over `window` s; (sessions, open seconds)."""

    async def one(i: int) -> float | BaseException:
        await asyncio.sleep(window * i / max(n, 1))
        target = targets[i % len(targets)]
        session = Session(target.url, "", f"class={code}&name=s{i:02d}&{LANG}")
        students[i] = session
        try:
            return await session.open()
        except (TimeoutError, OSError) as err:
            return err

    students: list[Session] = [None] * n  # type: ignore[list-item]
    opened = await asyncio.gather(*(one(i) for i in range(n)))
    return students, list(opened)


async def move(students: list[Session], dead: Target, alive: Target, code: str) -> dict:
    """Students of the killed replica reopen their seat URL on the live one."""
    moved, times, back = [], [], 0
    for i, s in enumerate(students):
        if s.url != dead.url:
            continue
        await asyncio.wait_for(s.closed.wait(), 30)  # the browser notices the socket is gone
        students[i] = Session(alive.url, "", s.query)
        moved.append(i)
    opened = await asyncio.gather(*(students[i].open() for i in moved), return_exceptions=True)
    for i, seconds in zip(moved, opened, strict=True):
        if isinstance(seconds, float):
            times.append(seconds)
        name = f"s{i:02d}"
        back += says(students[i], f"Class {code} · {name}") and seat_token(students[i]) is not None
    return {"moved": len(moved), "back_in_class": back, "reopen": stats(times)}


async def answer_all(students: list[Session], poll: dict, poll_id: int) -> float:
    """Every student presses Send with a choice at once; returns perf_counter of the last send."""
    key = f"class.s.answer.{poll_id}"
    labels = [label for _, label in poll["choices"]]

    async def one(i: int, s: Session) -> float:
        value = WidgetState(id=s.widget_id(key), string_value=labels[i % len(labels)])
        try:
            await s.press_in_fragment(f"{key}.send", [value])
        except ConnectionClosed:  # the server went away: the counts say who is missing
            s.dropped = True
            return 0.0
        return time.perf_counter()

    sent = await asyncio.gather(*(one(i, s) for i, s in enumerate(students)))
    return max(sent)


async def tally_reaches(store: ClassStore, code: str, poll_id: int, n: int, timeout: float):  # noqa: ANN201
    """(perf_counter when the database's tally first had `n` answers or None, last count)."""
    start, answered = time.perf_counter(), 0
    while time.perf_counter() - start < timeout:
        answered = (await asyncio.to_thread(store.tally, code, poll_id)).answered
        if answered >= n:
            return time.perf_counter(), answered
        await asyncio.sleep(0.1)
    return None, answered


async def _poll_round(store, teacher, students, code, secret) -> dict:  # noqa: ANN001
    """Ask, wait until every bar shows it, all answer at once; what the teacher and DB saw."""
    n, poll = len(students), the_poll()
    asked_at = time.perf_counter()
    poll_id = (await asyncio.to_thread(store.ask, code, secret, poll)).poll_id
    send = f"class.s.answer.{poll_id}.send"
    reach = await wait_for(lambda: all(send in s.seen.widgets for s in students), 60)
    ready = [s for s in students if send in s.seen.widgets]  # all, unless some never saw it
    out = {"poll_reached_all_s": None if reach is None else time.perf_counter() - asked_at}
    if not ready:
        return out | {"answered_db": 0, "told": 0}
    since = len(teacher.seen.texts)
    mine = {id(s): len(s.seen.texts) for s in ready}
    last = await answer_all(ready, poll, poll_id)
    db = asyncio.create_task(tally_reaches(store, code, poll_id, n, 60))
    all_in = EN["class.teacher.poll.count"].format(answered=n, joined=n)
    shown = await wait_for(lambda: says(teacher, all_in, since), 60)
    shown_at = time.perf_counter()
    db_at, answered = await db

    def told() -> int:
        return sum(says(s, ANSWER_IN, mine[id(s)]) for s in ready)

    await wait_for(lambda: told() == len(ready), 15)
    return out | {
        "teacher_sees_all_s": None if shown is None else shown_at - last,
        "db_all_s": None if db_at is None else db_at - last,
        "answered_db": answered,
        "told": told(),
    }


async def _idle_cost(room: Room, students: list[Session], seconds: float) -> dict:
    """Server CPU while the class sits still (only the students' bars and the teacher's panel
    polling), and the bar reruns sent in that time."""
    alive = [t for t in room.targets if t.pid is not None and cpu_seconds(t.pid) > 0]
    before, runs = [cpu_seconds(t.pid) for t in alive], sum(s.fragment_reruns for s in students)
    await asyncio.sleep(seconds)
    cpu = sum(cpu_seconds(t.pid) for t in alive) - sum(before)
    runs = sum(s.fragment_reruns for s in students) - runs
    return {"seconds": seconds, "server_cpu_s": cpu, "bar_reruns": runs}


async def _results_round(store, teacher, students, code, secret) -> dict:  # noqa: ANN001
    """RESULTS students' results posted at once; seconds until the teacher's board has them."""
    await asyncio.to_thread(store.start_experiment, code, secret, ["char-bpe"], [300])
    tokens = [seat_token(s) for s in students[:RESULTS]]
    since = len(teacher.seen.texts)
    posts = [asyncio.to_thread(store.post_result, code, tok, RESULT) for tok in tokens if tok]
    await asyncio.gather(*posts)
    posted = time.perf_counter()
    board = EN["class.exp.board"].format(n=len(posts))
    shown = await wait_for(lambda: says(teacher, board, since), 120)
    return {
        "posted": len(posts),
        "board_s": None if shown is None else time.perf_counter() - posted,
        "in_db": len(await asyncio.to_thread(store.results, code)),
    }


def _kill(target: Target, watcher: Watcher) -> None:
    watcher.__exit__(None, None, None)  # its health would read as timeouts from now on
    os.kill(target.pid, signal.SIGKILL)


async def class_scenario(room: Room, options, kill: bool = False) -> tuple[dict, list]:  # noqa: ANN001
    """One teacher, options.sessions students: join, (kill a replica), a poll, results."""
    store, cpu = ClassStore(room.db_url), time.process_time()
    info, secret = await asyncio.to_thread(store.create_class)
    code, n, first = info.code, options.sessions, room.targets[0]
    probes = await open_sessions(first.url, ATTENTION, options.others)
    idle = [(await probes[0].rerun()).seconds for _ in range(5)]
    watchers = [Watcher(t.pid, t.url).__enter__() for t in room.targets]
    stop, busy, numbers = asyncio.Event(), [], {"sessions": n, "replicas": len(room.targets)}
    loops = [asyncio.create_task(rerun_loop(p, stop, busy)) for p in probes]
    every = options.teacher_every or None  # None: the panel's own run_every, as a browser
    teacher = Session(first.url, "", f"class={code}&teacher={secret}&{LANG}", fragment_every=every)
    everyone = [teacher, *probes]
    try:
        await teacher.open()
        students, opened = await join(room.targets, code, n, options.join_window)
        everyone += students
        numbers["open"] = stats([x for x in opened if isinstance(x, float)])
        numbers["seated"] = sum(seat_token(s) is not None for s in students)
        numbers["roster_s"] = await wait_for(lambda: says(teacher, f"Joined: {n}*"), 60)
        if kill and len(room.targets) > 1:
            _kill(room.targets[-1], watchers[-1])
            numbers["moved"] = await move(students, room.targets[-1], first, code)
            everyone += students
        stop.set()  # the probes pause while the class sits still
        await asyncio.gather(*loops)
        numbers["idle"] = await _idle_cost(room, students, options.idle_s)
        stop = asyncio.Event()
        loops = [asyncio.create_task(rerun_loop(p, stop, busy)) for p in probes]
        numbers["polls"] = [
            await _poll_round(store, teacher, students, code, secret) for _ in range(options.polls)
        ]
        numbers["results"] = await _results_round(store, teacher, students, code, secret)
    finally:
        stop.set()
        await asyncio.gather(*loops)
        for watcher in watchers:
            watcher.__exit__(None, None, None)
        numbers["exceptions"] = exceptions_of(list(dict.fromkeys(everyone)))
        pupils = [s for s in dict.fromkeys(everyone) if s is not teacher and s not in probes]
        numbers["student_fragment_reruns"] = sum(s.fragment_reruns for s in pupils)
        numbers["student_bar_runs"] = stats([x for s in pupils for x in s.fragment_runs])
        numbers["teacher_panel_runs"] = stats(teacher.fragment_runs)
        await close_all(everyone)
        await asyncio.to_thread(store.dispose)
    numbers["probe_idle"], numbers["probe_busy"] = stats(idle), stats(busy)
    numbers["health"] = [stats(w.health) for w in watchers]
    numbers["peak_rss"] = [w.peak_rss or None for w in watchers]
    numbers["load_average"] = list(os.getloadavg())
    numbers["client_cpu_s"] = time.process_time() - cpu  # this process: it shares the cores
    return numbers, class_rows(numbers, options)


def _s(value: float | None) -> str:
    return "not seen" if value is None else f"{value:.2f} s"


def _each(polls: list[dict], name: str) -> str:
    return " / ".join(_s(p.get(name)) for p in polls)


def class_rows(numbers: dict, options) -> list[tuple[str, str]]:  # noqa: ANN001 - Options
    n, polls, res = numbers["sessions"], numbers.get("polls", []), numbers.get("results", {})
    rows = [
        (f"{n} students join over {options.join_window:g} s", fmt(numbers.get("open", stats([])))),
        ("  seated (seat token in the URL)", f"{numbers.get('seated')} / {n}"),
        (f"  teacher's roster says Joined: {n}", f"{_s(numbers.get('roster_s'))} after the last"),
    ]
    if "moved" in numbers:
        moved = numbers["moved"]
        rows += [
            ("replica killed after the join", f"{moved['moved']} students reopened their seat URL"),
            ("  back in the class on the other", f"{moved['back_in_class']} / {moved['moved']}"),
            ("  reopen (connect to first run)", fmt(moved["reopen"])),
        ]
    idle = numbers.get("idle")
    if idle and idle["server_cpu_s"]:
        rows.append((
            f"class sitting still {idle['seconds']:g} s: server CPU",
            f"{idle['server_cpu_s'] / idle['seconds']:.0%} of a core "
            f"({idle['bar_reruns']} bar reruns and the teacher's panel)",
        ))  # fmt: skip
    counted = " / ".join(str(p.get("answered_db")) for p in polls)
    told = " / ".join(str(p.get("told")) for p in polls)
    board = f"{_s(res.get('board_s'))} (in the database: {res.get('in_db')})"
    rows += [
        (f"{len(polls)} polls: on every bar, after asked", _each(polls, "poll_reached_all_s")),
        ("  after the last answer sent:", ""),
        (f"    teacher's panel says {n} of {n}", _each(polls, "teacher_sees_all_s")),
        ("    database tally complete", _each(polls, "db_all_s")),
        ("  answers counted in the database", f"{counted} of {n}"),
        ("  students told 'your answer is in'", f"{told} of {n}"),
        (f"{res.get('posted')} results posted at once", f"on the teacher's board after {board}"),
        ("probe reruns (Attention), idle", fmt(numbers["probe_idle"])),
        ("  during the class", fmt(numbers["probe_busy"])),
    ]  # fmt: skip
    for i, (health, peak) in enumerate(zip(numbers["health"], numbers["peak_rss"], strict=True)):
        rows.append((f"replica {i + 1} /_stcore/health", fmt(health)))
        rows.append((f"replica {i + 1} peak RSS", mb(peak)))
    every = f"every {options.teacher_every:g} s" if options.teacher_every else "its own tick"
    rows.append((f"teacher's panel run ({every})", fmt(numbers["teacher_panel_runs"])))
    rows.append(("students' bar runs (every 3 s)", fmt(numbers["student_bar_runs"])))
    rows.append(("student fragment reruns sent", str(numbers["student_fragment_reruns"])))
    rows.append(("exception elements", str(len(numbers["exceptions"]))))
    rows.append(("the load client's own CPU", f"{numbers['client_cpu_s']:.1f} s"))
    return rows
