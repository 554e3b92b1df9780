"""Training on a distributed engine: start-up, idle memory, one run here against on the engine.

    python bench/engine.py [--steps 60] [--ray-python /path/to/venv-with-ray/bin/python]

1. Dask distributed: a scheduler and two worker processes (each under its nanny, as
   scripts/serve_cluster.sh starts them), timed from the first process start until both workers
   have run a no-op task; then the resident memory (VmRSS) of the scheduler, each nanny and each
   idle worker, and of each worker again after it trained once (torch and the training code
   loaded: what an idle worker of a classroom holds).
2. With --ray-python (an interpreter that has `ray`; it needs no torch): the same for Ray, the
   alternative that needs no broker or database: `ray.init(num_cpus=2)` until two workers ran a
   no-op, then the RSS of every process it started (GCS server, raylet, workers, helpers).
3. One training run (a small seeded plan, pre-training then fine-tuning, `--steps` fine-tuning
   steps) as a local worker process (`TrainingRun`, the app's default) and then twice on the
   engine (`EngineRun`: a cold worker that imports torch first, then a warm one): wall time from
   start() to the result in hand, as ratios against the local run measured in this invocation.

Other work on the machine changes every number: `uptime`'s load is printed first and last.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explorer_core import runtime  # noqa: E402
from tests.engine import children, engine_cluster, rss_bytes  # noqa: E402
from tests.models import tiny_plan  # noqa: E402

MB = 2**20
RAY_SNIPPET = r"""
import json, os, time
began = time.perf_counter()
import ray
ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
@ray.remote(num_cpus=1)
def pid():
    time.sleep(0.5)  # both workers busy at once: two processes, not one twice
    return os.getpid()
workers = ray.get([pid.remote(), pid.remote()])
seconds = time.perf_counter() - began - 0.5  # the tasks' own sleep left out
time.sleep(2)
def tree(p):
    try:
        kids = open(f"/proc/{p}/task/{p}/children").read().split()
    except OSError:
        return []
    return [int(k) for k in kids] + [g for k in kids for g in tree(int(k))]
def rss(p):
    for line in open(f"/proc/{p}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
def name(p):
    return open(f"/proc/{p}/comm").read().strip()
procs = {p: (name(p), rss(p)) for p in tree(os.getpid())}
print(json.dumps({"seconds": seconds, "workers": sorted(set(workers)),
                  "driver": rss(os.getpid()), "procs": procs}))
ray.shutdown()
"""


def dask_part(steps: int) -> dict:
    from explorer_core.training.engine import EngineRun
    from explorer_core.training.worker import TrainingRun

    out: dict = {}
    with engine_cluster(workers=2, preload=False) as cluster:  # cold and warm runs below
        began = time.perf_counter()
        cluster.client.run(os.getpid)  # every worker runs a call
        out["start_seconds"] = cluster.seconds + time.perf_counter() - began
        time.sleep(2)
        procs = cluster.processes
        workers = cluster.worker_pids()
        out["scheduler_mb"] = rss_bytes(procs[0].pid) / MB
        out["nanny_mb"] = [rss_bytes(p.pid) / MB for p in procs[1:]]
        out["idle_worker_mb"] = [rss_bytes(p) / MB for p in workers]
        assert set(workers) <= {c for p in procs[1:] for c in children(p.pid)}  # nanny's child

        plan = tiny_plan(fine_steps=steps, pre_steps=max(steps // 4, 1), snapshot_every=10)
        times = {}
        for label, make in (
            ("local", lambda: TrainingRun(plan)),
            ("engine, cold worker", lambda: EngineRun(plan, cluster.client)),
            ("engine, warm worker", lambda: EngineRun(plan, cluster.client)),
        ):
            run = make()
            began = time.perf_counter()
            run.start()
            run.join(600)
            assert run.result() is not None, run.status().error
            times[label] = time.perf_counter() - began
        out["run_seconds"] = times
        out["trained_worker_mb"] = [rss_bytes(p) / MB for p in workers]
    return out


def ray_part(python: str) -> dict:
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    done = subprocess.run([python, "-c", RAY_SNIPPET], capture_output=True, text=True, env=env,
                          timeout=300)  # fmt: skip
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=60, help="fine-tuning steps of the run")
    parser.add_argument("--ray-python", help="an interpreter with ray installed")
    args = parser.parse_args()
    runtime.configure()
    print("load:", os.getloadavg(), "cores:", os.cpu_count())

    dask = dask_part(args.steps)
    print("\nDask distributed (scheduler + 2 workers under nannies)")
    print(f"  start-up until both workers ran a call: {dask['start_seconds']:.1f} s")
    print(f"  scheduler {dask['scheduler_mb']:.0f} MB, nannies "
          + ", ".join(f"{m:.0f}" for m in dask["nanny_mb"]) + " MB")  # fmt: skip
    print("  idle worker (fresh): " + ", ".join(f"{m:.0f}" for m in dask["idle_worker_mb"])
          + " MB; after one run (torch loaded): "
          + ", ".join(f"{m:.0f}" for m in dask["trained_worker_mb"]) + " MB")  # fmt: skip

    if args.ray_python:
        ray = ray_part(args.ray_python)
        print("\nRay (ray.init(num_cpus=2), 2 workers)")
        if "error" in ray:
            print("  failed:", ray["error"])
        else:
            procs = ray["procs"].values()
            print(f"  start-up until both workers ran a call: {ray['seconds']:.1f} s")
            workers = [mb for name, mb in procs if name == "ray::IDLE"]
            total = sum(mb for _, mb in procs) + ray["driver"]
            print(f"  {len(ray['procs'])} processes besides the driver, "
                  f"{total / MB:.0f} MB together with it")  # fmt: skip
            for name, mb in sorted(procs, key=lambda x: -x[1]):
                print(f"    {name:<24}{mb / MB:>7.0f} MB")
            if workers:
                print("  idle workers: " + ", ".join(f"{m / MB:.0f}" for m in workers) + " MB")

    local = dask["run_seconds"]["local"]
    print(f"\nOne run ({args.steps} fine-tuning steps): wall time, ratio against the local run")
    for label, seconds in dask["run_seconds"].items():
        print(f"  {label:<22}{seconds:>7.1f} s  x{seconds / local:.2f}")
    print("\nload:", os.getloadavg())


if __name__ == "__main__":
    main()
