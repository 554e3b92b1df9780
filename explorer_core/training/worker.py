"""A training run in its own process: what the Train page starts, polls, stops and collects.

Why a process and not a thread: a Streamlit server runs every session's script in one Python
process. Training in a thread of that process shares its interpreter lock with every page rerun of
every user, so runs and pages stall each other, and the memory a run used stays in the server.
A child process trains on its own core and gives all its memory back when it exits::

    run = TrainingRun(plan, max_snapshots=6, expire_after=20)
    run.start()                 # forks the worker; True (a second start() returns False)
    run.touch()                 # "the page is still here" (the page's poll, once a second)
    run.status()                # RunStatus(state="running", phase="finetune", step=40, ...)
    run.records()               # [TrainStep(...), EvalRecord(...), ...] so far, for the curves
    run.snapshots()             # [ModelSnapshot(phase, step, ...)]: the encoder at intervals
    run.pause()                 # waits after the current step (no CPU; its memory stays)
    run.resume()                # goes on where it was
    run.stop()                  # finishes the current step, keeps the model as it is
    run.result()                # the Checkpoint once state is "finished" or "stopped"
    run.kill()                  # ends the process now (no result)

The channel is one `multiprocessing` pipe, child to parent, carrying tuples:

    ("record", TrainStep | EvalRecord)              one per optimiser step / evaluation
    ("snapshot", phase, step, BertConfig, bytes)    the encoder's weights (safetensors bytes)
    ("result", BertConfig, {field: value}, bytes, bytes | None)
                                                    the final Checkpoint, its weights and its
                                                    MLM head's (if any) as bytes
    ("done",)                                       the end of a plan that keeps its model
                                                    itself (`plan.returns_model` False)
    ("failed", "ValueError: ...")                   the run raised; the process then exits

and two `multiprocessing.Event`s, one for Stop and one that is clear while paused. Weights
travel as safetensors bytes rather than tensors, because torch would pass tensors as
shared-memory handles that die with the child.
A small reader thread in the parent receives the messages into lists behind a lock (the page's
polls only read those lists) and watches the run: with `expire_after`, a run whose page has not
touched it for that many seconds belongs to a closed tab, so it is stopped, and terminated
`KILL_GRACE` seconds later if it has not ended; it ends "failed" (`ABANDONED`) and keeps no
model or snapshot (nobody will look at them). The worker uses `runtime.configure()`'s torch
thread count (one by default) and runs at niceness `nice` (default EXPLORER_WORKER_NICE, 10);
the server's own background work asks for `BACKGROUND_NICE` and one thread.
It takes the EXPLORER_* settings of the process that starts it, as they are at `start()`.

A pause is cooperative: the worker waits before it reports its next step or evaluation, so it
holds no core while paused, and a Stop (or its server going away) wakes it. # subtle: not
SIGSTOP: a stopped process does not act on SIGTERM until continued, and multiprocessing's exit
handler terminates and then joins its daemon workers: the server would hang on its way out.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import time
import types
from collections.abc import Callable
from dataclasses import fields
from typing import Any

import torch
from safetensors.torch import load as load_weights
from safetensors.torch import save as save_weights

from explorer_core import runtime
from explorer_core.bert.model import BertModel
from explorer_core.runtime import start_thread
from explorer_core.training.checkpoint import Checkpoint
from explorer_core.training.loop import EvalRecord, Record, TrainStep
from explorer_core.training.run import (
    ModelSnapshot,
    RunStatus,
    TrainingPlan,
    fraction_done,
)

TENSORS = ("model", "mlm_head")  # Checkpoint fields that travel as safetensors bytes
KILL_GRACE = 5.0  # seconds between asking a silent run to stop and terminating its process
POLL_SECONDS = 0.5  # how often the reader thread looks at the clock when no message arrives
ABANDONED = "Stopped: this page stopped asking for the run's progress (closed tab?)"
SETTINGS_PREFIX = "EXPLORER_"  # the environment a worker takes from the process that starts it


def worker_context() -> multiprocessing.context.BaseContext:
    """Where workers come from: a fork server that has imported torch and the training code.

    Forking a threaded process (a Streamlit server) is unsafe, and spawning a fresh interpreter
    costs every run seconds of imports; a fork server is a clean single-threaded process,
    started once, that forks each worker with everything already imported. Spawn where there is
    no fork server (not Linux).
    """
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(["explorer_core.training.fork_server"])
    return ctx


def warm_up() -> None:
    """Start the fork server in the background, so the first run does not wait for its imports."""
    start_thread(_warm, name="training-warm-up")


def _warm() -> None:
    process = worker_context().Process(target=_idle, daemon=True)
    start_process(process)  # returns once the fork server has imported torch and forked
    process.join()


_MAIN_LOCK = threading.Lock()


def start_process(process: multiprocessing.process.BaseProcess) -> None:
    """`process.start()`, without the server's main script in the new process.

    # subtle: multiprocessing runs the parent's `__main__` file in every process it starts
    # (as `__mp_main__`, before the target), and Streamlit makes each page script `__main__`
    # while it runs (and leaves the last one there): every worker ran app.py (its warm-up and
    # home page, in bare mode), and after an AppTest of one page that page, which failed there.
    # A bare module without a file stands in for `__main__` while the process starts (Streamlit
    # only ever assigns `sys.modules["__main__"]`, never reads it). This covers the spawn start
    # method too; under the fork server, its children skip the step anyway (training.fork_server).
    # A page run that began meanwhile installed its own script there: that one stays.
    """
    with _MAIN_LOCK:
        main, bare = sys.modules.get("__main__"), types.ModuleType("__main__")
        sys.modules["__main__"] = bare
        try:
            process.start()
        finally:
            if main is not None and sys.modules.get("__main__") is bare:
                sys.modules["__main__"] = main


def _idle() -> None:
    """A worker that does nothing (see warm_up)."""


WORKER_NICE = 10  # niceness of a training worker: pages first (0 = the server's own priority)
BACKGROUND_NICE = 19  # the server's own background work: after pages and every session's run
PAUSE_POLL = 1.0  # seconds between a paused worker's looks at its stop flag and its server


def background_nice() -> int:
    """The niceness of the server's own background work: EXPLORER_BACKGROUND_NICE, default 19
    (a server that wants MiniLM + 中文 sooner, or a test on a busy machine, may give it more)."""
    value = runtime.whole_number_setting("EXPLORER_BACKGROUND_NICE", BACKGROUND_NICE, minimum=0)
    if value > BACKGROUND_NICE:
        raise ValueError(f"EXPLORER_BACKGROUND_NICE must be at most 19, got {value}")
    return value


def weights_bytes(model: torch.nn.Module) -> bytes:
    """A module's state_dict as safetensors bytes (copies; nothing shared with the module)."""
    return save_weights({k: v.detach().contiguous() for k, v in model.state_dict().items()})


def final_message(plan: TrainingPlan, ckpt: Checkpoint | None) -> tuple:
    """The last message of a run that ended normally: ("result", ...) or ("done",) (see above).

    Also what a training engine's worker returns (`training.engine_tasks`)."""
    if not plan.returns_model:  # the plan put its model where it belongs (e.g. on disk)
        return ("done",)
    rest = {f.name: getattr(ckpt, f.name) for f in fields(ckpt) if f.name not in TENSORS}
    head = None if ckpt.mlm_head is None else save_weights(ckpt.mlm_head)
    return ("result", ckpt.model.config, rest, weights_bytes(ckpt.model), head)


def settings() -> dict[str, str]:
    """The app's settings in this process's environment (EXPLORER_*), for a worker to take."""
    return {k: v for k, v in os.environ.items() if k.startswith(SETTINGS_PREFIX)}


def take_settings(wanted: dict[str, str]) -> None:
    """Make this process's EXPLORER_* environment exactly `wanted` (see `_child`)."""
    for name in [k for k in os.environ if k.startswith(SETTINGS_PREFIX)]:
        if name not in wanted:
            del os.environ[name]
    os.environ.update(wanted)


def _child(conn: Any, stop: Any, go: Any, nice: int | None, env: dict[str, str]) -> None:
    """The worker process: receive the plan, run it, send every record, snapshot and the result."""
    # subtle: a fork server's child inherits the fork server's environment, as it was when the
    # server's first run started it, not the server's now: a run started after a setting changed
    # (EXPLORER_CACHE_DIR, in a test) looked for MiniLM + 中文 in the old cache and failed
    take_settings(env)
    # subtle: training is batch work and a page rerun is someone waiting; a lower priority lets
    # the server take a core at once while every core trains (EXPLORER_WORKER_NICE). First thing:
    # before it, the worker competes with the pages at their own priority.
    if nice is None:
        nice = runtime.whole_number_setting("EXPLORER_WORKER_NICE", WORKER_NICE, minimum=0)
    os.nice(nice)
    runtime.configure()  # offline hubs, one torch thread (EXPLORER_TORCH_THREADS)
    if nice >= BACKGROUND_NICE:  # the server's background work: one thread, whatever the setting
        torch.set_num_threads(1)

    def wait_while_paused() -> None:
        while not go.wait(PAUSE_POLL) and not stop.is_set():
            if conn.poll():  # subtle: the server sends nothing after the plan; EOF: it is gone
                raise SystemExit(0)

    def report(record: Record) -> None:
        wait_while_paused()
        conn.send(("record", record))

    def snapshot(phase: str, step: int, model: torch.nn.Module) -> None:
        conn.send(("snapshot", phase, step, model.config, weights_bytes(model)))

    try:
        plan = conn.recv()
        ckpt = plan.run(callback=report, stop=stop, on_snapshot=snapshot)
        conn.send(final_message(plan, ckpt))
    except Exception as err:  # noqa: BLE001 - reported to the page, never raised in the worker
        conn.send(("failed", f"{type(err).__name__}: {err}"))
    finally:
        conn.close()


class TrainingRun:
    """Runs a plan in a child process; every public method is safe to call any time.

    A plan is a `training.run.TrainingPlan` or anything with its `phases`, `run(callback=,
    stop=, on_snapshot=)` and `returns_model` (e.g. `training.multilingual.DistillPlan`).
    """

    def __init__(
        self,
        plan: TrainingPlan,
        max_snapshots: int = 8,
        expire_after: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        nice: int | None = None,
    ) -> None:
        self.plan = plan
        self.nice = nice  # None: EXPLORER_WORKER_NICE; else this niceness and one torch thread
        self.max_snapshots = max(2, max_snapshots)
        self.expire_after = expire_after  # None: never stopped for silence (CLI, tests)
        self._clock = clock
        self._lock = threading.Lock()
        self._records: list[Record] = []
        self._snapshots: list[ModelSnapshot] = []
        self._result: Checkpoint | None = None
        self._state, self._error = "idle", ""
        self._started, self._finished = 0.0, None
        self._touched = clock()
        self._abandoned = False
        self._stop: Any = None  # a multiprocessing Event once started
        self._go: Any = None  # set while the worker may train (clear: paused)
        self._paused_at: float | None = None  # perf_counter() of the pause, while paused
        self._paused_for = 0.0  # seconds paused before, taken out of the run's seconds
        self._first_step: tuple[float, TrainStep] | None = None  # (seconds, record) on arrival
        self._process: multiprocessing.process.BaseProcess | None = None
        self._reader: threading.Thread | None = None

    # ---- control ----------------------------------------------------------------------------

    def start(self) -> bool:
        """Start the worker process; False (and nothing happens) if this run was started before."""
        if not self._begin():
            return False
        ctx = worker_context()
        here, there = ctx.Pipe()
        self._stop, self._go = ctx.Event(), ctx.Event()
        if self._paused_at is None:
            self._go.set()
        process = ctx.Process(
            target=_child, args=(there, self._stop, self._go, self.nice, settings()), daemon=True
        )
        try:
            start_process(process)
        except Exception as err:  # noqa: BLE001 - reported like any failure of the run
            here.close()
            self._end("failed", f"{type(err).__name__}: {err}")
            return True
        finally:
            there.close()  # the child's end: the parent sees EOF once the child is gone
        self._process = process
        # subtle: the plan goes through the pipe from the reader thread, not as an argument of
        # Process: start() would block until the new interpreter had read it (seconds).
        self._reader = start_thread(self._read, name="training-run-reader", args=(here,))
        return True

    def _begin(self) -> bool:
        """Idle -> running, once: the clocks start; False when the run was started before."""
        with self._lock:
            if self._state != "idle":
                return False
            self._state, self._started = "running", time.perf_counter()
            self._touched = self._clock()
        return True

    def stop(self) -> None:
        """Ask the worker to stop after the current step; the model is kept as it is."""
        if self._stop is not None:
            self._stop.set()

    def pause(self) -> None:
        """Let the worker wait after its current step (its memory stays; see the docstring)."""
        with self._lock:
            if self._paused_at is None:
                self._paused_at = time.perf_counter()
        if self._go is not None:
            self._go.clear()

    def resume(self) -> None:
        """Let a paused worker go on."""
        with self._lock:
            if self._paused_at is not None:
                self._paused_for += time.perf_counter() - self._paused_at
                self._paused_at = None
        if self._go is not None:
            self._go.set()

    @property
    def paused(self) -> bool:
        with self._lock:
            return self._paused_at is not None

    def kill(self) -> None:
        """End the worker process now, without a result (a gone session's run)."""
        if self._process is not None and self._process.is_alive():
            self._process.terminate()
        self.join(timeout=10)

    def touch(self) -> None:
        """The page is still polling: postpones the stop of a silent run (see `expire_after`)."""
        with self._lock:
            self._touched = self._clock()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the run to end and all its messages to arrive; True when it has."""
        if self._reader is not None:
            self._reader.join(timeout)
        return not self.running

    @property
    def running(self) -> bool:
        with self._lock:
            return self._state == "running"

    @property
    def pid(self) -> int | None:
        """The worker process's id once started (for tests and the load benchmark)."""
        return self._process.pid if self._process is not None else None

    # ---- what the page polls ----------------------------------------------------------------

    def records(self) -> list[Record]:
        with self._lock:
            return list(self._records)

    def record_count(self) -> int:
        """How many records arrived so far (cheap: the page redraws only when it grows)."""
        with self._lock:
            return len(self._records)

    def snapshots(self) -> list[ModelSnapshot]:
        with self._lock:
            return list(self._snapshots)

    def result(self) -> Checkpoint | None:
        """The trained Checkpoint once the run has finished or was stopped, else None."""
        with self._lock:
            return self._result

    def _seconds(self) -> float:
        """Seconds the run has trained so far, pauses left out (call with the lock held)."""
        if not self._started:
            return 0.0
        end = self._finished if self._finished is not None else time.perf_counter()
        end = min(end, self._paused_at or end)
        return end - self._started - self._paused_for

    @property
    def kind(self) -> tuple:
        """What a run's length depends on, and no more (not the seed, not the data's order):
        the model's shape, the phases' steps, budgets, batches and lengths, and the tokenizer's
        algorithm and size (WordPiece's sentences are 40% longer than byte-level BPE's at 1,000
        tokens: its runs take twice as long). The queue's start estimate takes runs of one kind
        to last alike (`admission.Timed`): a class experiment's runs are one kind per tokenizer.
        """
        config = getattr(self.plan, "model_config", None)  # a DistillPlan has none
        shape = (config.num_hidden_layers, config.hidden_size, config.intermediate_size,
                 config.num_attention_heads) if config is not None else None  # fmt: skip
        tokenizer = getattr(self.plan, "tokenizer", None)
        words = (tokenizer.algo, len(tokenizer.vocab)) if tokenizer is not None else None
        return (type(self.plan).__name__, getattr(self.plan, "init", ""),
                getattr(self.plan, "device", ""), shape, words,
                tuple((name, c.steps, c.time_budget, c.batch_size, c.max_length)
                      for name, c in self.plan.phases))  # fmt: skip

    @property
    def completed(self) -> bool:
        """True once the run ended after all its steps (not stopped, not failed)."""
        with self._lock:
            return self._state == "finished"

    def seconds_so_far(self) -> float:
        """Seconds trained so far, pauses left out (0 before the start)."""
        with self._lock:
            return self._seconds()

    def seconds_left(self) -> float | None:
        """The run's own estimate of the seconds left while it trains, else None."""
        status = self.status()
        return status.eta_seconds if status.state == "running" else None

    def status(self) -> RunStatus:
        with self._lock:
            records, state, error = list(self._records), self._state, self._error
            seconds, first = self._seconds(), self._first_step
        steps = [r for r in records if isinstance(r, TrainStep)]
        evals = [r for r in records if isinstance(r, EvalRecord)]
        last = steps[-1] if steps else None
        phase = last.phase if last else ""
        config = dict(self.plan.phases).get(phase)
        names = [n for n, _ in self.plan.phases]
        fraction = fraction_done(names, phase, last, config, state)
        eta = None
        if state == "running" and first is not None:
            # subtle: the pace since the first step, not since start(): loading the model and the
            # teacher's vectors come once, and counted in they tripled the first estimates
            began, step = first
            done_then = fraction_done(names, step.phase, step, dict(self.plan.phases).get(
                step.phase), state)  # fmt: skip
            if fraction > done_then:
                eta = (seconds - began) * (1.0 - fraction) / (fraction - done_then)
        return RunStatus(
            state=state, phase=phase, step=last.step if last else 0,
            total_steps=config.steps if config else None, seconds=seconds, fraction=fraction,
            eta_seconds=eta, last_step=last, last_eval=evals[-1] if evals else None, error=error,
        )  # fmt: skip

    # ---- the parent's reader thread -----------------------------------------------------------

    def _read(self, conn: Any) -> None:
        try:
            conn.send(self.plan)  # a plan that cannot be pickled fails here, as a failed run
            while True:
                if conn.poll(POLL_SECONDS):
                    try:
                        message = conn.recv()
                    except (EOFError, ConnectionResetError):
                        # the worker has closed its end: it is done or gone. subtle: a worker
                        # terminated mid-send (an abandoned run) resets the pipe instead
                        break
                    self._handle(message)
                self._watch()
        except Exception as err:  # noqa: BLE001 - a message that cannot be read ends the run
            self._end("failed", ABANDONED if self._abandoned else f"{type(err).__name__}: {err}")
        finally:
            conn.close()
            self._reap()

    def _handle(self, message: tuple) -> None:
        kind = message[0]
        if self._abandoned and kind in ("snapshot", "result"):
            # subtle: nobody will look at a closed tab's model, yet Streamlit keeps a closed
            # session's state (and this run in it) for minutes in case the tab comes back:
            # decoded, every walk-away run left its model and snapshots in the server's memory.
            if kind == "result":
                self._end("failed", ABANDONED)
            return
        if kind == "record":
            with self._lock:
                self._records.append(message[1])
                if self._first_step is None and isinstance(message[1], TrainStep):
                    self._first_step = (self._seconds(), message[1])
        elif kind == "snapshot":
            _, phase, step, config, blob = message
            self._keep(ModelSnapshot(phase, step, config, load_weights(blob)))
        elif kind == "result":
            _, config, rest, blob, head = message
            state = load_weights(blob)
            model = BertModel(config, initialize=False)
            model.load_state_dict(state)  # strict: every weight is set
            mlm_head = None if head is None else load_weights(head)
            ckpt = Checkpoint(model=model, mlm_head=mlm_head, **rest)
            self._keep(ModelSnapshot("final", sum(len(g.steps) for g in ckpt.log.values()),
                                     config, state))  # fmt: skip
            with self._lock:
                self._result = ckpt
            self._end("stopped" if self._stop.is_set() else "finished")
        elif kind == "done":  # a plan that keeps its model itself: nothing to collect
            self._end("stopped" if self._stop.is_set() else "finished")
        elif kind == "failed":
            self._end("failed", message[1])

    def _keep(self, snap: ModelSnapshot) -> None:
        with self._lock:
            self._snapshots.append(snap)
            if len(self._snapshots) > self.max_snapshots:  # thin out, keep first and last
                self._snapshots = self._snapshots[:-1:2] + self._snapshots[-1:]

    def _watch(self) -> None:
        """Stop a run nobody polls any more; terminate it if it does not stop in KILL_GRACE s."""
        if self.expire_after is None or not self._launched():
            return
        with self._lock:
            silent = self._clock() - self._touched
        if silent > self.expire_after and not self._abandoned:
            self._abandoned = True
            self.stop()
            with self._lock:
                self._snapshots = []  # see _handle
        if self._abandoned and silent > self.expire_after + KILL_GRACE:
            self._terminate()

    def _launched(self) -> bool:
        """The worker was started (a training engine's run: its task was submitted)."""
        return self._process is not None

    def _terminate(self) -> None:
        """End the worker without waiting for it (a silent run that did not stop)."""
        if self._process is not None and self._process.is_alive():
            self._process.terminate()

    def _reap(self) -> None:
        """After the pipe closed: wait for the process and name an unexpected end."""
        process = self._process
        if process is not None:
            process.join(KILL_GRACE)
            if process.is_alive():
                process.kill()
                process.join(KILL_GRACE)
            code = process.exitcode
        if self._abandoned:
            self._end("failed", ABANDONED)
        else:
            self._end("failed", f"The training process ended unexpectedly (exit code {code})")

    def _end(self, state: str, error: str = "") -> None:
        """Set the final state once (later calls change nothing)."""
        with self._lock:
            if self._state != "running":
                return
            self._state, self._error = state, error
            self._finished = time.perf_counter()
