"""What a training engine's worker runs (Dask distributed; see `training.engine` for the why).

Two tasks, both importable by name, so a worker started from a checkout of this project (same
version, its own `.venv`) runs them without any of the server's state:

- `train_on_worker(plan, name)`: one Train-page run. It speaks the same messages as a local
  worker process (`training.worker`), over the engine instead of a pipe:

      Queue(f"{name}-messages")   ("started", host, pid), then ("record", ...) and
                                  ("snapshot", ...) as the run goes (the page's progress)
      Variable(f"{name}-control") "go" | "pause" | "stop", set by the page; a small thread
                                  here reads it every CONTROL_POLL seconds into the loop's flags
      the task's return value     the final ("result", ...) / ("done",) / ("failed", text)

- `pack_files(job)` / `unpack_files(job, files, folder)`: a `train sts` job's files (pairs,
  tokenizer folder) as bytes, since the worker may be another machine; the CLI's `experiment
  tokenizers --engine` sends each run as `analysis.experiment.run_job_from_files(job, files)`.

# subtle: a run happens once. A worker that dies mid-run loses its run; the scheduler then
# either fails the task (`allowed-failures` 0, as scripts/serve_cluster.sh starts it: the page
# sees `KilledWorker`) or, on a scheduler with the default of 3, starts it again elsewhere. The
# second start finds `Variable(f"{name}-began")` already set and returns WORKER_LOST at once:
# the student hears what happened instead of a run that silently starts over.
"""

from __future__ import annotations

import os
import socket
import threading
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

CONTROL_POLL = 0.5  # seconds between the worker's looks at the page's Stop / pause
WORKER_LOST = (
    "The engine worker that trained this run stopped (its process or machine went away), so "
    "the run is lost: press Train to start it again"
)
JOB_FILES = ("train", "dev", "test", "tokenizer", "pretrain_corpus")  # StsJob's path fields


def train_on_worker(plan: Any, name: str) -> tuple:
    """Run `plan` here, streaming records and snapshots; the final message (see the docstring)."""
    from distributed import Queue, Variable, get_client

    from explorer_core import runtime
    from explorer_core.training.worker import final_message, weights_bytes

    runtime.configure()  # offline hubs, one torch thread per run (EXPLORER_TORCH_THREADS)
    client = get_client()  # the worker's own; the control thread uses it too
    began = Variable(f"{name}-began", client)
    if _is_set(began):
        return ("failed", WORKER_LOST)
    began.set(f"{socket.gethostname()}:{os.getpid()}")
    messages = Queue(f"{name}-messages", client)
    messages.put(("started", socket.gethostname(), os.getpid()))
    stop, go, done = threading.Event(), threading.Event(), threading.Event()
    go.set()
    watcher = runtime.start_thread(
        _watch_control,
        name="engine-control",
        args=(Variable(f"{name}-control", client), stop, go, done),
    )

    def report(record: Any) -> None:
        while not go.wait(CONTROL_POLL) and not stop.is_set():
            pass  # paused: wait after the step, holding no core
        messages.put(("record", record))

    def snapshot(phase: str, step: int, model: Any) -> None:
        messages.put(("snapshot", phase, step, model.config, weights_bytes(model)))

    try:
        ckpt = plan.run(callback=report, stop=stop, on_snapshot=snapshot)
        return final_message(plan, ckpt)
    except Exception as err:  # noqa: BLE001 - reported to the page like a local run's failure
        return ("failed", f"{type(err).__name__}: {err}")
    finally:
        done.set()
        watcher.join(CONTROL_POLL * 4)
        messages.close()  # the page's side releases it too (a queue lives while anyone holds it)


def _is_set(variable: Any) -> bool:
    try:
        variable.get(timeout=0.05)
    except TimeoutError:
        return False
    return True


def _watch_control(
    control: Any, stop: threading.Event, go: threading.Event, done: threading.Event
) -> None:
    """The page's wishes into the loop's flags, until the run is done (or Stop)."""
    while not done.is_set() and not stop.is_set():
        try:
            wish = control.get(timeout=5)
        except TimeoutError:  # the page's side let the run go (it deletes it only at the end)
            wish = "stop"
        except Exception:  # noqa: BLE001 - the engine is busy or going away: look again later
            wish = "pause" if not go.is_set() else "go"
        if wish == "stop":
            stop.set()
        elif wish == "pause":
            go.clear()
        else:
            go.set()
        done.wait(CONTROL_POLL)
    go.set()  # subtle: a paused loop waits on go or stop; never leave it waiting


# ---- the CLI's experiment runs ------------------------------------------------------------------


def pack_files(job: Any) -> dict[str, dict[str, bytes]]:
    """The job's input files as bytes, by field: {"train": {"": b"..."}, "tokenizer": {"vocab.txt":
    b"..."}} ("" is a file itself; a folder's files are keyed by their relative paths)."""
    out: dict[str, dict[str, bytes]] = {}
    for field in JOB_FILES:
        path = getattr(job, field)
        if path is None:
            continue
        path = Path(path)
        if path.is_dir():
            out[field] = {str(p.relative_to(path)): p.read_bytes()
                          for p in sorted(path.rglob("*")) if p.is_file()}  # fmt: skip
        else:
            out[field] = {"": path.read_bytes()}
    return out


def unpack_files(job: Any, files: dict[str, dict[str, bytes]], folder: Path) -> Any:
    """`job` with its file fields pointing at copies written under `folder` (see pack_files)."""
    changes: dict[str, Path] = {}
    for field, members in files.items():
        original = Path(getattr(job, field))
        if "" in members:  # one file: keep its name (the format is detected from it)
            target = folder / field / original.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(members[""])
        else:
            target = folder / field / original.name
            for relative, data in members.items():
                (target / relative).parent.mkdir(parents=True, exist_ok=True)
                (target / relative).write_bytes(data)
        changes[field] = target
    assert set(changes) <= {f.name for f in fields(job)}
    return replace(job, **changes)
