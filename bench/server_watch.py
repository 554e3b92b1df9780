"""Start a Streamlit server the README's way and watch it from outside: memory, threads, workers.

`start_server` runs ``streamlit run app.py`` from the project folder (so the repo's
``.streamlit/config.toml`` applies) on a given port and waits for ``/_stcore/health``.
`ProcessSnapshot.of(pid)` reads Linux's ``/proc`` for the server and all its descendants (training
workers included): resident memory, thread count, child processes. `Watcher` samples that and the
health endpoint's latency in the background while a scenario runs.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def _children() -> dict[int, list[int]]:
    """Parent pid -> child pids, for every process visible in /proc."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read().decode(errors="replace")
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (children, grandchildren, ...)."""
    tree, found, todo = _children(), [], [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _rss_threads(pid: int) -> tuple[int, int]:
    """(resident bytes, threads) of one process; (0, 0) once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().decode(errors="replace").rsplit(")", 1)[1].split()
    except OSError:
        return 0, 0
    return int(fields[21]) * PAGE_SIZE, int(fields[17])  # rss (pages), num_threads


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds the process has used so far (0.0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().decode(errors="replace").rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime


@dataclass(frozen=True)
class ProcessSnapshot:
    """The server and its descendants at one moment."""

    rss: int  # bytes, server + descendants
    server_rss: int
    threads: int  # of the server process
    children: int  # descendant processes (training workers, resource trackers, ...)

    @classmethod
    def of(cls, pid: int) -> ProcessSnapshot:
        server_rss, threads = _rss_threads(pid)
        kids = descendants(pid)
        rss = server_rss + sum(_rss_threads(kid)[0] for kid in kids)
        return cls(rss=rss, server_rss=server_rss, threads=threads, children=len(kids))


def os_threads(pid: int) -> dict[int, str]:
    """The process's threads now: OS thread id -> OS thread name (Linux keeps 15 bytes of it;
    the project's own threads carry theirs, see `explorer_core.runtime.start_thread`)."""
    found = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/comm", encoding="utf-8", errors="replace") as f:
                found[int(tid)] = f.read().strip()
        except OSError:
            continue
    return found


def read_thread_log(path: Path | None) -> dict[int, tuple[str, str]]:
    """EXPLORER_THREAD_LOG's lines: OS thread id -> (Python name, where it was started or "")."""
    found: dict[int, tuple[str, str]] = {}
    if path is None or not path.is_file():
        return found
    for line in path.read_text(encoding="utf-8").splitlines():
        tid, name, site = (line.split("\t") + ["", ""])[:3]
        if tid.isdigit() and (site or int(tid) not in found):  # a start line beats a listing
            found[int(tid)] = (name, site)
    return found


def describe_threads(threads: dict[int, str], log: Path | None) -> list[str]:
    """One line per thread (`os_threads` entries): its OS name, its Python name and where the
    project started it (from the thread log), or why that is not known."""
    named = read_thread_log(log)
    lines = []
    for tid, comm in sorted(threads.items()):
        name, site = named.get(tid, ("", ""))
        if site:
            where = f"{name}, started at {site}"
        elif name:
            where = f"{name} (a Python thread not the project's: Streamlit's or a library's)"
        else:
            where = "no Python thread of this id was seen: a native library's thread"
        lines.append(f"thread {tid} {comm!r}: {where}")
    return lines


def health_seconds(base_url: str, timeout: float = 5.0) -> float:
    """Seconds for ``/_stcore/health`` to answer ok (``timeout`` when it does not)."""
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(f"{base_url}/_stcore/health", timeout=timeout) as reply:
            if reply.read().strip() != b"ok":
                return timeout
    except OSError:
        return timeout
    return time.perf_counter() - start


@dataclass
class Watcher:
    """Samples memory/threads (every `every` s) and health latency in a background thread."""

    pid: int | None
    base_url: str
    every: float = 0.25
    peak_rss: int = 0
    peak_children: int = 0
    peak_threads: int = 0
    health: list[float] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)

    def __enter__(self) -> Watcher:
        self._threads = [threading.Thread(target=self._health_loop, daemon=True)]
        if self.pid is not None:
            self._threads.append(threading.Thread(target=self._proc_loop, daemon=True))
        for thread in self._threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=10)

    def _proc_loop(self) -> None:
        while not self._stop.is_set():
            snap = ProcessSnapshot.of(self.pid)
            self.peak_rss = max(self.peak_rss, snap.rss)
            self.peak_children = max(self.peak_children, snap.children)
            self.peak_threads = max(self.peak_threads, snap.threads)
            self._stop.wait(self.every)

    def _health_loop(self) -> None:
        while not self._stop.is_set():
            self.health.append(health_seconds(self.base_url))
            self._stop.wait(0.5)


def port_free(port: int) -> bool:
    """Whether nothing listens on 127.0.0.1:`port` (closed connections lingering there do not
    count: the server binds with SO_REUSEADDR too)."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def wait_healthy(base_url: str, timeout: float = 90, proc: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server for {base_url} exited ({proc.returncode})")
        if health_seconds(base_url, timeout=2) < 2:
            return
        time.sleep(0.3)
    raise RuntimeError(f"{base_url} did not answer /_stcore/health within {timeout:.0f} s")


@contextmanager
def start_server(
    port: int, *options: str, log: Path | None = None, env: dict[str, str] | None = None
) -> Iterator[tuple[str, int]]:
    """``streamlit run app.py`` on 127.0.0.1:`port`; yields (base URL, server pid), then stops it
    (also when the block killed it on purpose).

    `options` are extra ``streamlit run`` options (e.g. ``--runner.postScriptGC=false``); `env`
    adds environment variables (e.g. ``EXPLORER_CLASS_DB``, the class database of a replica).
    """
    if not port_free(port):  # another server there would answer our health checks
        raise RuntimeError(f"port {port} is taken: pick another with --port")
    env = {**os.environ, "HF_HUB_OFFLINE": "1", **(env or {})}
    command = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        "app.py",
        "--server.port",
        str(port),
        "--server.address",
        "127.0.0.1",
        "--server.headless",
        "true",
        *options,
    ]
    out = open(log, "wb") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    proc = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc=proc)
        yield url, proc.pid
    finally:
        kids = descendants(proc.pid)
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        for kid in kids:  # workers the server left behind, if any
            try:
                os.kill(kid, 9)
            except OSError:
                pass
        if log:
            out.close()
