"""The server's own build of MiniLM + 中文, in the background, once per install.

A fresh install has no Chinese-reading MiniLM (`files.taught_model`); building it takes minutes of
CPU. `InstallBuild.run` (a thread the app starts once per server process) builds it without anyone
pressing a button, and without making anyone wait:

1. it waits until the server has warmed up (`ready`) or `start_after` seconds have passed;
2. it takes the install's lock (`BuildLock`, an `flock` on a file beside the model folder): one
   build per install, however many server processes share the folder. Another process holding
   it builds; this one watches until the model is there, or the lock comes free because that
   process died (then it builds itself);
3. with the lock, it removes what a killed build left (hidden half-written folders), checks the
   disk, and waits until the server is idle (`idle`: no run trains or waits, no page is drawn);
4. it asks for the build (`submit`): in the app, a worker process admitted by the server's
   `Admission` as a *background* request (behind every session's run, paused whenever one of
   them would wait; see `training.admission`), niced to `worker.BACKGROUND_NICE`, one thread;
5. it watches until the build has ended (`building`), notes a failure beside the model
   (`taught_model.note_failure`: later starts show it and do not try again by themselves), and
   lets the lock go. A process killed mid-way holds the lock no more (the system lets go of it)
   and installed nothing (the install is one rename): the next start begins again.

    >>> import tempfile
    >>> lock = BuildLock(Path(tempfile.mkdtemp()) / "x.lock")
    >>> lock.acquire(), BuildLock(lock.path).acquire()   # a second holder is refused
    (True, False)

`state` says where it is, for the pages: "waiting", "other" (another process builds), "building",
"built", "failed" (with `error`) or "off".
"""

from __future__ import annotations

import fcntl
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

from explorer_core.files import taught_model

START_AFTER = 45.0  # seconds: at most this long after the server started, the build may begin
POLL = 2.0  # seconds between looks at the server (idle?) and at the build (ended?)
OFF_VALUES = ("off", "0", "false", "no")
DISK_FULL = "DiskFull"  # the start of `error` when the disk had no room for the model


def wanted(value: str) -> bool:
    """Whether a setting's text (EXPLORER_TAUGHT, or the config file's `taught`) allows the
    background build: anything but off/0/false/no.

    >>> wanted(""), wanted("on"), wanted("OFF"), wanted("0")
    (True, True, False, False)
    """
    return value.strip().lower() not in OFF_VALUES


class BuildLock:
    """An exclusive lock on `path` (Linux `flock`), taken without waiting; the system lets go of
    it when the process that holds it ends, however it ends."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> bool:
        """True when this object holds the lock now (also when it already did)."""
        if self._fd is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._fd = fd
        return True

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file lets go of the lock
            self._fd = None


class InstallBuild:
    """Builds the taught model once in the background (module docstring): `run` is the thread."""

    def __init__(
        self,
        submit: Callable[[], object],
        building: Callable[[], bool],
        idle: Callable[[], bool],
        *,
        ready: threading.Event | None = None,
        start_after: float | None = None,
        poll: float | None = None,
        sleep: Callable[[float], None] = time.sleep,
        lock: BuildLock | None = None,
    ) -> None:
        self.submit, self.building, self.idle = submit, building, idle
        self.ready = ready or threading.Event()
        self.start_after = START_AFTER if start_after is None else start_after
        self.poll, self.sleep = POLL if poll is None else poll, sleep
        self.lock = lock or BuildLock(taught_model.lock_path())
        self.state, self.error = "waiting", ""
        self.job: object = None  # the build it asked for (the app's TrainingRun)

    def run(self) -> str:
        """Build unless the model is there or the last build failed; returns the final state."""
        if taught_model.built_folder() is None and (failed := taught_model.last_failure()):
            return self._end("failed", failed)  # no retry: the Train page can try again
        self.ready.wait(self.start_after)
        while taught_model.built_folder() is None:
            if not self.lock.acquire():
                self.state = "other"  # another process builds: watch for its model or its end
                self.sleep(self.poll)
                continue
            try:
                if taught_model.built_folder() is None:
                    return self._build()
            finally:
                self.lock.release()
        return self._end("built")

    def _build(self) -> str:
        """With the lock: clean up, check the disk, wait for a quiet server, build, watch."""
        self.state = "waiting"
        taught_model.remove_leftovers()
        free = taught_model.disk_free()
        if free is not None and free < taught_model.DISK_NEED:
            need, have = taught_model.DISK_NEED // 2**20, free // 2**20
            return self._end("failed", f"{DISK_FULL}: {have} MB free, the model needs {need} MB")
        while not self.idle():
            self.sleep(self.poll)
        try:
            self.job = self.submit()
        except ValueError as err:  # e.g. admission.Refused: more memory than the whole budget
            return self._fail(f"{type(err).__name__}: {err}")
        self.state = "building"
        while self.building():
            self.sleep(self.poll)
        if taught_model.built_folder() is not None:
            taught_model.clear_failure()
            return self._end("built")
        status = getattr(self.job, "status", None)
        error = status().error if status is not None else ""
        return self._fail(error or "The build ended without installing the model")

    def _fail(self, error: str) -> str:
        if DISK_FULL not in error and "No space left" not in error:
            taught_model.note_failure(error)  # a full disk is checked again at the next start
        return self._end("failed", error)

    def _end(self, state: str, error: str = "") -> str:
        self.state, self.error = state, error
        return state
