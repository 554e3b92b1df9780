"""A class on one server: N browser-less sessions speaking Streamlit's websocket protocol.

Starts the app the README's way (``streamlit run app.py`` with the repo's config, on 127.0.0.1:PORT)
unless ``--url`` names a running server (or nginx in front of replicas; then the server's memory
and threads cannot be read and are left out). Scenarios, each by flag (default: all):

- ``--storm``: N sessions open the Attention page at once; seconds from connecting to the end of
  the first run (``script_finished``), p50/p95, after one session opened it alone (cold).
- ``--train``: one run alone (its steps are the reference), then N sessions press Train at once
  with a short time budget while a probe session reruns the Attention page; steps per run against
  the run alone, run time against the budget, probe rerun p50/p95 against idle, and the
  ``/_stcore/health`` latency sampled every 0.5 s throughout.
- ``--walkaway``: N sessions start runs and vanish; seconds until the server's worker processes
  and threads are back to the baseline, memory then and 20 s later against the baseline.
- ``--cycles``: ``--cycle-count`` times (default 4), N sessions press Train and vanish; the
  server's RSS and threads after each cycle (memory kept per session that left keeps growing).
- ``--flood``: one session sends 100 reruns a second for 20 s while 3 others rerun the Attention
  page; their p50/p95 idle, during the flood and after it.
- ``--class``: a teacher and N students join, answer a poll at once and post 30 experiment
  results (bench/class_scenario.py). With ``--replicas 2`` it starts a private PostgreSQL and two
  replicas sharing it, runs the class once, then again killing the second replica after the join
  (its students reopen their seat URL on the first).
- ``--experiment``: a teacher starts a controlled class experiment (``--exp-steps``,
  ``--exp-seeds``, ``--exp-algos``, ``--exp-vocabs``; default: the teacher form's), N students
  join, open the Train page with their seat and press Train over ``--join-window`` s: real runs,
  queued by the server; seconds from the first press to the last result in the class database,
  each run's wall time and what its student saw (queue place, time estimate), the probe's reruns,
  health, peak RSS, and the spread per tokenizer over seeds with each seed's ranking
  (bench/experiment_scenario.py). With ``--engine-workers N`` a Dask scheduler and N workers
  start here first and the servers send their runs to them (``EXPLORER_ENGINE``); their memory
  is reported after the run (the server's own figures leave them out).

Each prints a table (latencies p50/p95/max, peak RSS of the server and its children, threads and
child processes before and after); ``--json PATH`` writes every number. Numbers are only comparable
within one invocation on a quiet machine: each table carries the load average at its end.

    python bench/classroom_load.py --storm --sessions 30
    python bench/classroom_load.py --train --sessions 5 --budget 20
    python bench/classroom_load.py --flood --url http://127.0.0.1:8501
    python bench/classroom_load.py --cycles --cycle-count 8 --sessions 4
    python bench/classroom_load.py --class --sessions 60
    python bench/classroom_load.py --class --sessions 60 --replicas 2
    python bench/classroom_load.py --experiment --sessions 30
    python bench/classroom_load.py --experiment --sessions 30 --engine-workers 2
    python bench/classroom_load.py --experiment --sessions 4 --exp-steps 20 --exp-seeds 0,1 \
        --exp-algos char-bpe,wordpiece --exp-vocabs 2000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.class_scenario import Room, class_scenario, start_room  # noqa: E402
from bench.experiment_scenario import experiment_scenario  # noqa: E402
from bench.load_scenarios import SCENARIOS, Target  # noqa: E402
from explorer_core.training.controlled import DEFAULT_SEEDS, DEFAULT_STEPS, parse_seeds  # noqa: E402
from explorer_core.ui.classroom.board import DEFAULT_ALGOS, DEFAULT_VOCABS, parse_vocabs  # noqa: E402
from tests.engine import engine_cluster, rss_bytes  # noqa: E402


@dataclass(frozen=True)
class Options:
    sessions: int = 10
    budget: float = 20.0  # seconds of each training run (steps set high: the budget decides)
    walk_after: float = 5.0  # seconds of training before the walk-away sessions vanish
    flood_rate: float = 100.0  # reruns per second from the flooding session
    flood_seconds: float = 20.0
    others: int = 3  # sessions rerunning a page beside the flood (and the class)
    join_window: float = 10.0  # seconds over which the class's students join
    polls: int = 3  # polls the class answers, one after the other
    idle_s: float = 10.0  # seconds the class sits still (server CPU of the polling alone)
    teacher_every: float = 0.0  # > 0: rerun the teacher's panel this often, not every 2 s
    cycles: int = 4  # walk-away cycles (--cycles)
    exp_steps: int = DEFAULT_STEPS  # the experiment's fine-tuning steps per run (--experiment)
    exp_seeds: tuple[int, ...] = DEFAULT_SEEDS
    exp_algos: tuple[str, ...] = DEFAULT_ALGOS  # the teacher form's defaults
    exp_vocabs: tuple[int | None, ...] = tuple(parse_vocabs(DEFAULT_VOCABS) or ())


def _table(name: str, rows: list[tuple[str, object]]) -> None:
    print(f"\n== {name}  (load average {' '.join(f'{x:.2f}' for x in os.getloadavg())})")
    width = max(len(label) for label, _ in rows)
    for label, value in rows:
        print(f"  {label:<{width}}  {value}")


async def run_all(room: Room, chosen: list[str], options: Options) -> dict:
    results = {}
    for name in chosen:
        runs = [(name, False)]
        if name == "class" and len(room.targets) > 1:
            runs = [("class", False), ("class, the last replica killed after the join", True)]
        for title, kill in runs:
            if name == "experiment":
                numbers, rows = await experiment_scenario(room, options)
            elif name == "class":
                numbers, rows = await class_scenario(room, options, kill=kill)
                title = f"{title} ({len(room.targets)} replica(s), {_db_kind(room.db_url)})"
            else:
                numbers, rows = await SCENARIOS[name](room.targets[0], options)
            numbers["load_average"] = list(os.getloadavg())
            results[title] = numbers
            _table(title, rows)
    return results


def engine_numbers(cluster) -> dict:  # noqa: ANN001 - a tests.engine.Cluster
    """The engine's processes after the run: how many workers, and their memory (MB)."""
    pids = [p.pid for p in cluster.processes]
    workers = cluster.worker_pids()
    mb = {pid: round(rss_bytes(pid) / 2**20) for pid in [*pids, *workers]}
    return {"address": cluster.address, "workers": len(workers),
            "scheduler_mb": mb[pids[0]], "nannies_mb": [mb[p] for p in pids[1:]],
            "workers_mb_after": [mb[p] for p in workers]}  # fmt: skip


def _db_kind(url: str) -> str:
    return "PostgreSQL" if url.startswith("postgresql") else "SQLite"


def _names(text: str) -> tuple[str, ...]:
    names = tuple(n.strip() for n in text.split(",") if n.strip())
    if not names:
        raise argparse.ArgumentTypeError("name at least one tokenizer algorithm")
    return names


def _vocabs(text: str) -> tuple[int | None, ...]:
    sizes = parse_vocabs(text)
    if sizes is None:
        raise argparse.ArgumentTypeError(f"vocabulary sizes as the teacher types them: {text!r}")
    return tuple(sizes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name in SCENARIOS:
        parser.add_argument(f"--{name}", action="store_true", help=f"run the {name} scenario")
    parser.add_argument("--class", action="store_true", help="run the class scenario")
    parser.add_argument(
        "--experiment", action="store_true", help="run the class experiment (real training)"
    )
    parser.add_argument("--exp-steps", type=int, default=Options.exp_steps, help="steps per run")
    parser.add_argument("--exp-seeds", type=parse_seeds, default=Options.exp_seeds, help="0,1,2")
    parser.add_argument("--exp-algos", type=_names, default=Options.exp_algos, help="a,b,c")
    parser.add_argument("--exp-vocabs", type=_vocabs, default=Options.exp_vocabs, help="2000,4000")
    parser.add_argument(
        "--replicas", type=int, default=1, help="servers sharing one class database (PostgreSQL)"
    )
    parser.add_argument("--join-window", type=float, default=Options.join_window)
    parser.add_argument("--polls", type=int, default=Options.polls, help="polls in the class")
    parser.add_argument("--idle", type=float, default=Options.idle_s, help="seconds sitting still")
    parser.add_argument(
        "--teacher-every",
        type=float,
        default=Options.teacher_every,
        help="rerun the teacher's panel every S seconds instead of the app's 2 s (what a shorter "
        "interval would give)",
    )
    parser.add_argument("--class-db", help="with --url: the servers' class database URL")
    parser.add_argument("--sessions", type=int, default=Options.sessions, help="N sessions")
    parser.add_argument("--budget", type=float, default=Options.budget, help="run budget (s)")
    parser.add_argument("--walk-after", type=float, default=Options.walk_after)
    parser.add_argument("--flood-rate", type=float, default=Options.flood_rate)
    parser.add_argument("--cycle-count", type=int, default=Options.cycles, help="with --cycles")
    parser.add_argument("--flood-seconds", type=float, default=Options.flood_seconds)
    parser.add_argument("--others", type=int, default=Options.others)
    parser.add_argument("--url", help="an already running server (or nginx); default: start one")
    parser.add_argument("--port", type=int, default=8650, help="port of the server it starts")
    parser.add_argument(
        "--server-option",
        action="append",
        default=[],
        help="extra `streamlit run` option, e.g. --runner.postScriptGC=false",
    )
    parser.add_argument(
        "--engine-workers",
        type=int,
        default=0,
        help="start a Dask scheduler and N one-thread workers here; the servers send their "
        "training runs to them (EXPLORER_ENGINE)",
    )
    parser.add_argument("--json", type=Path, help="write all numbers to this file")
    parser.add_argument("--logs", type=Path, help="write each server's output to this folder")
    args = parser.parse_args(argv)
    chosen = [name for name in [*SCENARIOS, "class", "experiment"] if getattr(args, name)] or [
        name for name in SCENARIOS if name != "cycles"
    ]
    options = Options(
        args.sessions,
        args.budget,
        args.walk_after,
        args.flood_rate,
        args.flood_seconds,
        args.others,
        args.join_window,
        args.polls,
        args.idle,
        args.teacher_every,
        args.cycle_count,
        args.exp_steps,
        tuple(args.exp_seeds),
        tuple(args.exp_algos),
        tuple(args.exp_vocabs),
    )
    with contextlib.ExitStack() as stack:
        cluster = None
        if args.engine_workers:  # before the servers start: they take EXPLORER_ENGINE from here
            cluster = stack.enter_context(engine_cluster(workers=args.engine_workers))
            os.environ["EXPLORER_ENGINE"] = cluster.address
        if args.url:
            db = args.class_db or os.environ.get("EXPLORER_CLASS_DB", "")
            room = Room((Target(args.url.rstrip("/"), None),), db)
            results = asyncio.run(run_all(room, chosen, options))
        else:
            ports = [args.port + i for i in range(max(1, args.replicas))]
            with start_room(ports, *args.server_option, logs=args.logs) as room:
                results = asyncio.run(run_all(room, chosen, options))
        if cluster is not None:
            results["engine"] = engine_numbers(cluster)
            _table("engine", [(k, v) for k, v in results["engine"].items()])
    if args.json:
        args.json.write_text(json.dumps({"options": vars(options), **results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
