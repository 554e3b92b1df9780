"""Process-wide runtime settings that every entry point (app, CLI, tests, benchmarks) applies.

On a 2-core machine torch's default of one intra-op thread per core turns 10-30x slower as soon as
anything else holds a core (OpenMP workers spin-wait for each other). One thread stays steady, so it
is the default; set ``EXPLORER_TORCH_THREADS`` to choose another count deliberately.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path

DEFAULT_TORCH_THREADS = 1


def whole_number_setting(name: str, default: int, minimum: int = 1) -> int:
    """The environment variable `name` as a whole number of at least `minimum`; `default` when
    unset. A bad value raises ValueError with a sentence that names the variable."""
    raw = os.environ.get(name, "")
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError as err:
        raise ValueError(f"{name} must be a whole number, got {raw!r}") from err
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


def meminfo_bytes(field: str) -> int | None:
    """A field of Linux's /proc/meminfo ("MemTotal", "MemAvailable") in bytes; None where it
    cannot be read (another system)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith(f"{field}:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def cache_root() -> Path:
    """Where the install's built files go (tokenizers, MiniLM + 中文): EXPLORER_CACHE_DIR, else
    `$XDG_CACHE_HOME/embedding-explorer`, else `~/.cache/embedding-explorer`."""
    if os.environ.get("EXPLORER_CACHE_DIR"):
        return Path(os.environ["EXPLORER_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "embedding-explorer"


def in_worker_process() -> bool:
    """Whether this is a process `multiprocessing` started (a training worker), not the server.

    # subtle: multiprocessing runs the parent's main script in every worker it starts (as
    # `__mp_main__`, before the worker's own target), and in a Streamlit server that script is
    # app.py: without this check each training worker started its own warm-up and its own
    # background build. `prepare` names the process before it runs that script.
    """
    import multiprocessing

    return multiprocessing.current_process().name != "MainProcess"


def torch_threads() -> int:
    """The intra-op thread count to use: ``EXPLORER_TORCH_THREADS`` if set, else 1."""
    return whole_number_setting("EXPLORER_TORCH_THREADS", DEFAULT_TORCH_THREADS)


def configure_environment() -> None:
    """The settings that need no import: offline model hubs, quiet tokenizers.

    The app's shell applies only these (importing torch takes seconds; the home page needs none
    of it) and leaves `configure` to its background warm-up (explorer_core/ui/warmup.py).
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def configure() -> None:
    """Apply the settings: offline model hubs, quiet tokenizers, a steady torch thread count."""
    configure_environment()
    import torch

    threads = torch_threads()
    if torch.get_num_threads() != threads:
        torch.set_num_threads(threads)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass  # subtle: only allowed before the first parallel op; later calls are harmless to skip


# ---- threads the project starts ------------------------------------------------------------------
# Every long- or short-lived thread of ours starts through `start_thread`, with a name. The name is
# also given to the operating system's thread (Linux keeps 15 bytes of it), so that
# /proc/<pid>/task/<tid>/comm, `ps -L` and `top -H` tell our threads apart from "python" (the
# interpreter's own, Streamlit's and native libraries' threads). With EXPLORER_THREAD_LOG set (the
# tests and benchmarks that watch a server from outside), each start is written there as one line,
# "<tid>\t<name>\t<file:line of the caller>", and `log_threads` adds the Python threads nobody
# started through here (Streamlit's), so a thread left behind can be named with where it began.
THREAD_LOG = "EXPLORER_THREAD_LOG"
_PR_SET_NAME = 15  # prctl(2)


def start_thread(
    target: Callable[..., object], *, name: str, args: tuple = (), daemon: bool = True
) -> threading.Thread:
    """Start `target(*args)` in a daemon thread called `name` (OS thread name too); returns it."""
    caller = sys._getframe(1)  # noqa: SLF001 - the documented way to read the caller's frame
    site = f"{caller.f_code.co_filename}:{caller.f_lineno} in {caller.f_code.co_name}"

    def run() -> None:
        _name_os_thread(name)
        _log_thread(threading.get_native_id(), name, site)
        target(*args)

    thread = threading.Thread(target=run, name=name, daemon=daemon)
    thread.start()
    return thread


def log_threads() -> None:
    """With EXPLORER_THREAD_LOG set: write down every Python thread alive now (what it is called,
    its OS thread id), for threads that did not start through `start_thread` (Streamlit's)."""
    if os.environ.get(THREAD_LOG):
        for thread in threading.enumerate():
            _log_thread(thread.native_id, thread.name, "")


def _name_os_thread(name: str) -> None:
    """Give the calling thread's OS thread `name` (Linux; elsewhere nothing happens)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # subtle: here, not at the top: the app's first page imports this module

    try:
        libc = ctypes.CDLL(None)
        libc.prctl(_PR_SET_NAME, name.encode()[:15], 0, 0, 0)
    except (OSError, AttributeError):
        pass  # a libc without prctl: the name stays Python-side only


def _log_thread(tid: int | None, name: str, site: str) -> None:
    path = os.environ.get(THREAD_LOG)
    if path and tid is not None:
        with open(path, "a", encoding="utf-8") as log:
            log.write(f"{tid}\t{name}\t{site}\n")
