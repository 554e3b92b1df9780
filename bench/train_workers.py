"""Training runs in worker processes behind admission: one alone, two at once, five asked at once.

    python bench/train_workers.py [--budget 60] [--max-runs N]

Each run is the Train page's default (Tiny, WordPiece 2,000, length 48, pre-training then
fine-tuning) with a time budget and no step limit, so the steps it gets in that time measure its
speed. Prints, per scenario: steps per run against the run alone (measured in the same
invocation), when each run was admitted (queue wait), its wall time against its budget (the
overshoot, process start included), the peak memory of the server-side object plus all workers,
and the admission's budget against what it held. `uptime`'s load average is printed at the start
and the end: other work on the machine changes every number here.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explorer_core import runtime  # noqa: E402
from explorer_core.inputs.datasets import builtin_corpus, builtin_sts_pairs, split_pairs  # noqa: E402
from explorer_core.tokenization import new_tokenizer  # noqa: E402
from explorer_core.training.admission import Admission, budget_setting  # noqa: E402
from explorer_core.training.choices import (  # noqa: E402
    TrainChoices,
    build_plan,
    model_config,
    run_memory_bytes,
)
from explorer_core.training.loop import TrainStep  # noqa: E402
from explorer_core.training.worker import TrainingRun  # noqa: E402


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return 0
    return 0


def make_plan(budget: float):
    parts = split_pairs(builtin_sts_pairs())
    corpus = builtin_corpus("mixed")
    text = corpus + "\n" + "\n".join(s for p in parts["train"] for s in (p.sentence1, p.sentence2))
    tokenizer = new_tokenizer("wordpiece")
    tokenizer.train(text, 2000)
    choices = TrainChoices(max_length=48, pretrain_steps=100_000, finetune_steps=100_000,
                           time_budget=budget)  # fmt: skip
    config = model_config(choices, tokenizer)
    need = run_memory_bytes(config, choices.batch_size, choices.max_length, 6)
    return build_plan(choices, tokenizer, parts, corpus), need


def scenario(name: str, n: int, plan, need: int, max_runs: int, budget: float) -> list[dict]:
    gate = Admission(max_runs=max_runs, budget=budget_setting())
    runs = [TrainingRun(plan, max_snapshots=6) for _ in range(n)]
    t0 = time.perf_counter()
    for i, run in enumerate(runs):
        gate.submit(f"s{i}", run, need)
    admitted: dict[int, float] = {}
    peak = peak_held = 0
    waiting = True
    while waiting or any(run.running for run in runs):
        places = [gate.touch(f"s{i}") for i in range(n)]
        for i, place in enumerate(places):
            if place == 0 and i not in admitted:
                admitted[i] = time.perf_counter() - t0
        waiting = any(place for place in places)
        held = gate.counts()[2]
        memory = rss(os.getpid()) + sum(rss(r.pid) for r in runs if r.pid and r.running)
        peak, peak_held = max(peak, memory), max(peak_held, held)
        time.sleep(0.5)
    rows = []
    for i, run in enumerate(runs):
        run.join(30)
        steps = [r for r in run.records() if isinstance(r, TrainStep)]
        status = run.status()
        pre = sum(s.phase == "pretrain" for s in steps)
        ckpt = run.result()
        loop = sum(log.seconds for log in ckpt.log.values()) if ckpt else float("nan")
        rows.append({"run": i, "admitted_s": admitted.get(i, float("nan")),
                     "wall_s": status.seconds, "loop_s": loop, "pre": pre,
                     "fine": len(steps) - pre, "state": status.state})  # fmt: skip
    print(f"\n== {name}: {n} asked, limit {max_runs}; peak memory {peak / 2**20:.0f} MB "
          f"(server + workers), admission held at most {peak_held / 2**20:.0f} MB of "
          f"{(gate.budget or 0) / 2**20:.0f} MB; load {load()}")  # fmt: skip
    return rows


def show(rows: list[dict], alone: dict | None, budget: float) -> None:
    for row in rows:
        ratio = ""
        if alone is not None:
            total = row["pre"] + row["fine"]
            ratio = f"  steps vs alone {total / max(1, alone['pre'] + alone['fine']):.2f}x"
        wall = row["wall_s"]
        print(f"  run {row['run']}: admitted at {row['admitted_s']:5.1f} s, wall {wall:5.1f}"
              f" s ({wall / budget - 1:+.0%} vs budget; training loops {row['loop_s']:.1f} s), "
              f"{row['pre']} pre-training + "
              f"{row['fine']} fine-tuning steps, {row['state']}{ratio}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=float, default=60.0, help="seconds per run")
    parser.add_argument("--max-runs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    runtime.configure()
    print(f"load at start: {load()}; cores {os.cpu_count()}; torch threads per worker "
          f"{runtime.torch_threads()}; budget {args.budget:.0f} s per run")  # fmt: skip
    plan, need = make_plan(args.budget)
    print(f"each run holds about {need / 2**20:.0f} MB (admission's estimate)")
    alone = scenario("alone", 1, plan, need, args.max_runs, args.budget)
    show(alone, None, args.budget)
    for name, n in (("two at once", 2), ("five asked at once", 5)):
        show(scenario(name, n, plan, need, args.max_runs, args.budget), alone[0], args.budget)
    print(f"\nload at end: {load()}")


if __name__ == "__main__":
    main()
