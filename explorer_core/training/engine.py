"""Training runs on an existing distributed engine (Dask distributed), when one is configured.

A classroom server's replicas draw pages; with `EXPLORER_ENGINE=<scheduler address>` (or
`[explorer] engine` in .streamlit/secrets.toml, see `ui.training.engine`) every replica sends its
students' runs to the workers of one Dask scheduler instead, on any machines::

    client = connect("tcp://10.0.0.5:8786")      # EngineUnreachable (one sentence) if not
    run = EngineRun(plan, client, expire_after=20)
    run.start(); run.status(); run.records(); run.stop(); run.result()   # as a TrainingRun

`EngineRun` is a `training.worker.TrainingRun` whose worker is a task on the engine
(`training.engine_tasks.train_on_worker`), so the Train page, the admission queue and the class
leaderboard use it unchanged. The messages are the local worker's; they travel through the
scheduler (a Dask `Queue` per run) and the final one is the task's return value. Stop and pause
go the other way through a Dask `Variable` the worker reads twice a second; a run that never
began (every worker busy) is cancelled instead. Why Dask: `bench/engine.py` measured it against
Ray on a 2-core machine (see the README, Benchmarks): it starts a scheduler and two workers in
seconds, needs no broker or database, and its workers are ordinary processes on any machine.

A worker that dies mid-run loses that run only: the task ends with `KilledWorker` (or, where the
scheduler would retry it, the retry refuses; see `engine_tasks`), and the run fails with
`engine_tasks.WORKER_LOST`. Nothing here imports `distributed` until a run or a connection
needs it: without the setting the app never loads it.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from explorer_core.runtime import start_thread
from explorer_core.training.engine_tasks import WORKER_LOST, train_on_worker
from explorer_core.training.run import TrainingPlan
from explorer_core.training.worker import ABANDONED, POLL_SECONDS, TrainingRun

SETTING = "EXPLORER_ENGINE"  # the scheduler's address, e.g. tcp://10.0.0.5:8786
CONNECT_SECONDS = 5.0  # how long a first connection may take before the engine counts as down
NOT_BEGUN = "Stopped before an engine worker took the run: nothing was trained"
__all__ = ["SETTING", "WORKER_LOST", "EngineRun", "EngineUnreachable", "connect"]


class EngineUnreachable(ValueError):
    """The configured engine cannot take runs now (down, wrong address, no workers)."""


def connect(address: str, timeout: float = CONNECT_SECONDS) -> Any:
    """A `distributed.Client` of the scheduler at `address` with at least one worker.

    Raises EngineUnreachable with one sentence (the address, and what went wrong)."""
    import logging
    import socket

    try:
        from distributed import Client
        from distributed.comm import get_address_host_port
    except ImportError:
        raise EngineUnreachable(
            f"{SETTING} is set but the package 'distributed' is not installed "
            "(pip install -r requirements.txt)"
        ) from None
    try:  # subtle: a Client that failed to connect logs tracebacks when it is collected (even
        # at exit): see first whether anything answers at the address, with a plain socket
        host, port = get_address_host_port(address)
        socket.create_connection((host, port), timeout=timeout).close()
    except (ValueError, OSError) as err:
        raise EngineUnreachable(
            f"The training engine at {address} cannot be reached: {_one_line(err)}"
        ) from None
    quiet = logging.getLogger("distributed")
    level, quiet.level = quiet.level, logging.CRITICAL  # subtle: a failed connect logs tracebacks
    try:
        client = Client(address, timeout=timeout, set_as_default=False)
    except Exception as err:  # noqa: BLE001 - any failure to connect is the same sentence
        reason = _one_line(err)
        raise EngineUnreachable(
            f"The training engine at {address} cannot be reached: {reason}"
        ) from None
    finally:
        quiet.setLevel(level)
    if not client.ncores():
        client.close()
        raise EngineUnreachable(f"The training engine at {address} has no workers")
    return client


class EngineRun(TrainingRun):
    """A TrainingRun whose worker is a task of the engine behind `client` (module docstring)."""

    def __init__(
        self,
        plan: TrainingPlan,
        client: Any,
        max_snapshots: int = 8,
        expire_after: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(plan, max_snapshots, expire_after, clock)
        self.client = client
        self.name = f"explorer-run-{uuid.uuid4().hex}"  # the task's key; its queue and variable
        self._future: Any = None
        self._messages: Any = None
        self._control: Any = None
        self._where: tuple[str, int] | None = None  # (host, pid) of the worker once it began

    def start(self) -> bool:
        """Submit the task; False (and nothing happens) if this run was started before."""
        import threading

        from distributed import Queue, Variable

        if not self._begin():
            return False
        self._stop = threading.Event()  # this side's record of Stop (stopped vs finished)
        try:
            self._control = Variable(f"{self.name}-control", self.client)
            self._control.set("pause" if self.paused else "go")
            self._messages = Queue(f"{self.name}-messages", self.client)
            # subtle: retries=0, and the task refuses a second start (engine_tasks): a run whose
            # worker died is reported, never silently trained again from scratch
            self._future = self.client.submit(
                train_on_worker, self.plan, self.name, key=self.name, pure=False, retries=0
            )
        except Exception as err:  # noqa: BLE001 - the engine went away: a failed run, said so
            self._end("failed", f"The training engine cannot take the run: {_one_line(err)}")
            return True
        self._reader = start_thread(self._read, name="engine-run-reader")
        return True

    def stop(self) -> None:
        """Ask the worker to stop after its current step; a run not begun yet is cancelled."""
        if self._stop is None or not self.running:
            return  # subtle: telling an ended run would create its variable again
        self._stop.set()
        self._tell("stop")  # subtle: also when not begun; a worker may take it meanwhile
        if not self.began and self._future is not None:
            self._future.cancel()
            self._end("failed", ABANDONED if self._abandoned else NOT_BEGUN)

    def pause(self) -> None:
        super().pause()
        self._tell("pause")

    def resume(self) -> None:
        super().resume()
        self._tell("stop" if self._stop is not None and self._stop.is_set() else "go")

    def kill(self) -> None:
        """Cancel the task now, without a result (its worker still ends at its Stop flag)."""
        if self.running:
            self._tell("stop")
        if self._future is not None:
            self._future.cancel()
        self.join(timeout=10)

    @property
    def began(self) -> bool:
        """A worker has taken the run (its first message arrived)."""
        with self._lock:
            return self._where is not None

    @property
    def pid(self) -> int | None:
        """The process id of the worker that trains the run, once it began (on its host)."""
        with self._lock:
            return self._where[1] if self._where is not None else None

    @property
    def host(self) -> str | None:
        with self._lock:
            return self._where[0] if self._where is not None else None

    # ---- the reader thread --------------------------------------------------------------------

    def _read(self) -> None:
        try:
            while True:
                done = self._future.done()  # subtle: before the drain: every put came before it
                for message in self._messages.get(batch=True):
                    self._handle(message)
                if done:
                    self._handle(self._outcome())
                    break
                self._watch()
                time.sleep(POLL_SECONDS)
        except Exception as err:  # noqa: BLE001 - the engine went away mid-run
            lost = f"The connection to the training engine was lost: {_one_line(err)}"
            self._end("failed", ABANDONED if self._abandoned else lost)
        finally:
            self._release()

    def _handle(self, message: tuple) -> None:
        if message[0] == "started":
            with self._lock:
                self._where = (message[1], message[2])
            return
        super()._handle(message)

    def _outcome(self) -> tuple:
        """The task's final message; a lost worker or a cancel as a ("failed", text) one."""
        from concurrent.futures import CancelledError

        from distributed.scheduler import KilledWorker

        try:
            return self._future.result()
        except KilledWorker:
            return ("failed", WORKER_LOST)
        except CancelledError:
            return ("failed", ABANDONED if self._abandoned else NOT_BEGUN)
        except Exception as err:  # noqa: BLE001 - e.g. a plan the worker could not unpickle
            return ("failed", f"{type(err).__name__}: {err}")

    def _launched(self) -> bool:
        return self._future is not None

    def _terminate(self) -> None:
        if self._future is not None:
            self._future.cancel()

    def _tell(self, wish: str) -> None:
        if self._control is None:
            return
        try:
            self._control.set(wish)
        except Exception:  # noqa: BLE001 - the engine is gone: the reader says so
            pass

    def _release(self) -> None:
        """Give back the run's queue and variables on the scheduler (best effort)."""
        from distributed import Variable

        for release in (
            lambda: self._messages.close(),
            lambda: self._control.delete(),
            lambda: Variable(f"{self.name}-began", self.client).delete(),
        ):
            try:
                release()
            except Exception:  # noqa: BLE001 - an engine that is gone holds nothing
                pass


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split()) or type(err).__name__
