"""A real Dask engine for tests and the benchmark: a scheduler and workers as processes here.

    with engine_cluster(workers=2) as cluster:
        cluster.address      # "tcp://127.0.0.1:PORT"
        cluster.client       # a distributed.Client of it, connected once both workers are in

Unprivileged, on a free local port, no dashboard. The scheduler fails a task at once when its
worker dies (`allowed-failures` 0, as scripts/serve_cluster.sh starts it). Workers run under a
nanny (a dead worker process is restarted, as on a real server) from the project root, one
thread each unless `nthreads` says more, and import the training code at start (`preload`, as
scripts/engine.sh does).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.browser import free_port

ROOT = Path(__file__).resolve().parents[1]
DASK = Path(sys.executable).with_name("dask")
START_SECONDS = 60.0  # scheduler and workers up on a busy 2-core machine


@dataclass
class Cluster:
    address: str
    client: Any
    processes: list[subprocess.Popen] = field(default_factory=list)
    seconds: float = 0.0  # from the scheduler's start to both workers connected

    def worker_pids(self) -> list[int]:
        """The worker processes' ids (the nannies' children), as the scheduler knows them."""
        return sorted(self.client.run(os.getpid).values())


def engine_env() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES="0")
    env.setdefault("EXPLORER_TORCH_THREADS", "1")
    return env


@contextlib.contextmanager
def engine_cluster(workers: int = 2, nthreads: int = 1, preload: bool = True) -> Iterator[Cluster]:
    from distributed import Client

    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    began = time.perf_counter()
    procs = [_start([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                     "--no-dashboard"])]  # fmt: skip
    client = None
    warm = ["--preload", "explorer_core.training.worker"] if preload else []
    try:
        procs += [_start([str(DASK), "worker", address, "--nthreads", str(nthreads),
                          "--no-dashboard", "--memory-limit", "0", "--host", "127.0.0.1",
                          "--name", f"w{i}", *warm]) for i in range(workers)]  # fmt: skip
        client = Client(address, timeout=START_SECONDS, set_as_default=False)
        client.wait_for_workers(workers, timeout=START_SECONDS)
        yield Cluster(address, client, procs, time.perf_counter() - began)
    finally:
        if client is not None:
            client.close()
        for proc in reversed(procs):
            stop_process(proc)


def _start(command: list[str]) -> subprocess.Popen:
    return subprocess.Popen(
        command, cwd=ROOT, env=engine_env(), stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip


def stop_process(proc: subprocess.Popen) -> None:
    """SIGTERM the process's group (a nanny and its worker), then SIGKILL after 10 s."""
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def rss_bytes(pid: int) -> int:
    """Resident memory of one process (VmRSS), 0 when it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def children(pid: int) -> list[int]:
    """The direct children of a process (e.g. a nanny's worker and resource tracker).

    # subtle: not /proc/PID/task/PID/children: that lists only the main thread's children, and
    # a nanny starts its worker from another thread."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return sorted(found)
