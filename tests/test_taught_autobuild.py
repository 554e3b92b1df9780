"""MiniLM + 中文 without a button: when the server's own build starts (idle, after the warm-up),
that a session's run pre-empts it, that it stays off when asked, one build per install across
processes, a build killed mid-way, a full disk and a failing build.

The build itself is faked here (a job that writes the model's two files); the real worker runs
in the AppTest below (the tiny recipe) and in tests/test_browser_taught_build.py.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from explorer_core.files import taught_model
from explorer_core.files.taught_build import DISK_FULL, BuildLock, InstallBuild
from explorer_core.training.admission import Admission, FakeClock, FakeJob
from explorer_core.ui.taught import autobuild
from tests.conftest import ROOT, app_test


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch) -> Path:
    """A fresh install: nothing built, no lock held, no failure noted."""
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path))
    return tmp_path


def install_fake_model() -> None:
    """What `built_folder()` looks for: the two files of a finished install."""
    folder = taught_model.folder()
    folder.mkdir(parents=True)
    (folder / "config.json").write_text("{}")
    (folder / "model.safetensors").write_bytes(b"")


class FakeBuild:
    """The app's pieces for InstallBuild: a server that is busy `busy_for` looks, a build that
    lasts `lasts` looks and then installs (or fails with `error`)."""

    def __init__(self, busy_for: int = 0, lasts: int = 2, error: str = "") -> None:
        self.busy_for, self.lasts, self.error = busy_for, lasts, error
        self.submitted, self.looks = 0, 0

    def idle(self) -> bool:
        self.looks += 1
        return self.looks > self.busy_for

    def submit(self) -> FakeJob:
        self.submitted += 1
        self.job = FakeJob()
        self.job.start()
        return self.job

    def building(self) -> bool:
        self.lasts -= 1
        if self.lasts > 0:
            return True
        if not self.error:
            install_fake_model()
        self.job.running = False
        return False

    def make(self, **kwargs) -> InstallBuild:
        ready = threading.Event()
        ready.set()
        return InstallBuild(self.submit, self.building, self.idle, ready=ready, poll=0,
                            sleep=lambda s: None, **kwargs)  # fmt: skip


def test_starts_when_the_server_is_idle_and_installs():
    fake = FakeBuild(busy_for=3)
    build = fake.make()
    assert build.run() == "built" and build.error == ""
    assert fake.looks == 4 and fake.submitted == 1  # three busy looks, then it asked once
    assert taught_model.built_folder() is not None
    assert fake.make().run() == "built" and fake.submitted == 1  # built: never again


def test_waits_for_the_warm_up_at_most_start_after_seconds():
    fake = FakeBuild()
    never = threading.Event()  # a warm-up that does not end
    build = InstallBuild(fake.submit, fake.building, fake.idle, ready=never, start_after=0.2,
                         poll=0, sleep=lambda s: None)  # fmt: skip
    began = time.monotonic()
    assert build.run() == "built"
    assert 0.2 <= time.monotonic() - began < 5


def test_a_sessions_run_pre_empts_the_background_build_and_it_resumes_after():
    gate = Admission(max_runs=1, budget=100, expire_after=20, clock=(clock := FakeClock()))
    build, student, other = FakeJob(), FakeJob(), FakeJob()
    assert gate.submit("server", build, need=80, background=True) == 0 and build.running
    assert gate.submit("ann", student, need=60) == 0  # no wait: the build gave its slot
    assert student.running and build.paused and gate.place("server") == 1
    assert gate.submit("bob", other, need=10) == 1  # sessions queue first come, first served
    assert [gate.place(n) for n in ("bob", "server")] == [1, 2]  # the build after every session
    clock.advance(60)  # nobody touches the build: it never expires (bob's request does)
    assert gate.place("server") == 1 and gate.place("bob") is None
    student.running = False  # ann's run ends: the build goes on where it was
    assert gate.place("server") == 0 and not build.paused and build.started == 1
    assert gate.counts() == (1, 0, 80)


def test_a_background_request_waits_behind_sessions_and_never_starts_while_one_waits():
    gate = Admission(max_runs=1)
    ann, build = FakeJob(), FakeJob()
    gate.submit("ann", ann, need=1)
    assert gate.submit("server", build, need=1, background=True) == 1 and not build.started
    ann.running = False
    assert gate.place("server") == 0 and build.running


def test_cancel_wakes_a_paused_build_to_stop_it():
    gate = Admission(max_runs=1)
    build = FakeJob()
    gate.submit("server", build, need=1, background=True)
    gate.submit("ann", FakeJob(), need=1)
    assert build.paused
    assert gate.cancel("server") and build.stopped and not build.paused
    assert gate.place("server") is None


@pytest.mark.parametrize("value", ["off", "0", "OFF"])
def test_explorer_taught_off_keeps_it_off(monkeypatch, value):
    monkeypatch.setenv("EXPLORER_TAUGHT", value)
    autobuild.start.clear()
    try:
        assert autobuild.start() is None
        assert not any(t.name == "taught-build" for t in threading.enumerate())
    finally:
        autobuild.start.clear()


def test_a_training_worker_running_app_py_starts_no_build_of_its_own(monkeypatch):
    """multiprocessing runs app.py in every worker it starts (see runtime.in_worker_process)."""
    import multiprocessing

    from explorer_core.ui import warmup

    class Worker:
        name = "ForkServerProcess-3"

    monkeypatch.setenv("EXPLORER_TAUGHT", "on")
    monkeypatch.setenv("EXPLORER_WARMUP", "1")
    monkeypatch.setattr(multiprocessing, "current_process", lambda: Worker())
    autobuild.start.clear(), warmup.start.clear()
    try:
        assert autobuild.start() is None and warmup.start() is None
    finally:
        autobuild.start.clear(), warmup.start.clear()


def test_the_config_file_turns_it_off(monkeypatch):
    monkeypatch.delenv("EXPLORER_TAUGHT")
    monkeypatch.setattr(autobuild.st, "secrets", {"explorer": {"taught": "off"}})
    assert autobuild.setting() == "off"
    monkeypatch.setattr(autobuild.st, "secrets", {})
    assert autobuild.setting() == "on"  # the default: a fresh install builds it


def test_the_test_suite_has_it_off_by_default():
    assert os.environ["EXPLORER_TAUGHT"] == "off"  # tests/conftest.py


ONE_PROCESS = textwrap.dedent("""
    import sys, threading, time
    sys.path.insert(0, {root!r})
    from explorer_core.files import taught_model
    from explorer_core.files.taught_build import InstallBuild

    def install_fake_model():  # subtle: not imported from tests/: conftest would pick its own cache
        folder = taught_model.folder()
        folder.mkdir(parents=True)
        (folder / "config.json").write_text("{{}}")
        (folder / "model.safetensors").write_bytes(b"")

    looks = []
    def submit():
        with open({log!r}, "a") as log:
            log.write("build\\n")
    def building():
        looks.append(1)
        time.sleep(0.1)
        if len(looks) < 20:
            return True
        install_fake_model()
        return False
    ready = threading.Event(); ready.set()
    build = InstallBuild(submit, building, lambda: True, ready=ready, poll=0.1)
    print(build.run())
""")


def test_one_build_per_install_across_two_processes(tmp_path):
    log = tmp_path / "builds.log"
    script = ONE_PROCESS.format(root=str(ROOT), log=str(log))
    procs = [subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                              env=os.environ.copy()) for _ in range(2)]  # fmt: skip
    outs = [p.communicate(timeout=120)[0].strip() for p in procs]
    assert outs == ["built", "built"]
    assert log.read_text().splitlines() == ["build"]  # one of them built; the other watched


def test_a_build_killed_mid_way_leaves_nothing_and_the_next_start_builds(tmp_path):
    holder = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT)!r})
        from explorer_core.files import taught_model
        from explorer_core.files.taught_build import BuildLock
        assert BuildLock(taught_model.lock_path()).acquire()
        aside = taught_model.folder().parent / ".{taught_model.PREFIX}half-written"
        aside.mkdir(parents=True)
        (aside / "model.safetensors").write_bytes(b"half")
        print("holding", flush=True)
        time.sleep(600)
    """)], stdout=subprocess.PIPE, text=True, env=os.environ.copy())  # fmt: skip
    try:
        assert holder.stdout.readline().strip() == "holding"
        assert not BuildLock(taught_model.lock_path()).acquire()  # it builds
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
    assert taught_model.built_folder() is None  # the install never happened
    fake = FakeBuild()
    assert fake.make().run() == "built" and fake.submitted == 1  # the next start begins again
    assert list(taught_model.folder().parent.glob(".*")) == []  # the half-written copy is gone


def test_a_full_disk_stops_the_build_in_one_line_and_is_checked_again(monkeypatch):
    monkeypatch.setattr(taught_model, "disk_free", lambda: 3 * 2**20)
    fake = FakeBuild()
    build = fake.make()
    assert build.run() == "failed" and fake.submitted == 0
    assert build.error.startswith(DISK_FULL) and "\n" not in build.error
    assert taught_model.last_failure() is None  # not noted: the next start looks again
    assert "disk is full" in autobuild.failed_line(build.error)
    assert BuildLock(taught_model.lock_path()).acquire()  # and the lock was let go


def test_a_failed_build_is_noted_once_and_not_tried_again():
    fake = FakeBuild(error="x")
    fake.submit = lambda: (_ for _ in ()).throw(ValueError("no memory budget for it"))
    build = fake.make()
    assert build.run() == "failed"
    assert build.error == "ValueError: no memory budget for it"
    again = FakeBuild()
    later = again.make()
    assert later.run() == "failed" and again.submitted == 0  # no retry storm across starts
    assert later.error == build.error
    line = autobuild.failed_line("RuntimeError: boom\nTraceback (most recent call last): ...")
    assert "boom" in line and "Traceback" not in line
    taught_model.clear_failure()  # what a press of Build does
    assert again.make().run() == "built" and again.submitted == 1


# ---- the home page while the real (tiny) build runs ---------------------------------------------


@pytest.fixture
def tiny_build(monkeypatch):
    """The server's background build turned on, with the tiny recipe, starting at once."""
    from explorer_core.files import taught_build as background
    from explorer_core.ui.training import chinese
    from explorer_core.ui.training import run as runs

    monkeypatch.setenv("EXPLORER_TAUGHT", "on")
    monkeypatch.setenv("EXPLORER_TAUGHT_RECIPE", "tiny")
    monkeypatch.setattr(background, "START_AFTER", 0.0)
    monkeypatch.setattr(background, "POLL", 0.2)
    autobuild.start.clear()
    yield
    build = autobuild.start()
    shared = chinese.board()
    if shared.run is not None:
        shared.run.kill()
        runs.admission().cancel(chinese.OWNER)
        shared.run, shared.starter = None, ""
    deadline = time.monotonic() + 30
    while build is not None and build.state in ("waiting", "building") and \
            time.monotonic() < deadline:  # fmt: skip
        time.sleep(0.2)
    autobuild.start.clear()


def wait_for(at, condition, timeout: float = 240) -> None:
    """Rerun the page until `condition()`. # subtle: the build starts only while no page is being
    drawn, and a rerun here is a page drawn: on a busy machine (three test processes) reruns 0.3 s
    apart left the scheduler too few quiet moments, so the pause between them is a second."""
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(1.0)
        at.run()
    assert condition()


@pytest.mark.slow
def test_home_page_shows_the_builds_progress_in_both_languages_at_the_lowest_priority(tiny_build):
    from explorer_core.ui.training import chinese

    at = app_test("app.py", state={"lang": "en"}, timeout=120)  # the home page, at /
    assert not at.exception, [e.message for e in at.exception]
    wait_for(at, lambda: chinese.building() and at.get("progress"))
    bar = at.get("progress")[0].proto
    assert bar.text.startswith("Building MiniLM + 中文 on this server (once per install) · ")
    assert "lowest priority" in "\n".join(c.value for c in at.caption)
    zh = app_test("app.py", state={"lang": "zh"}, timeout=120)
    assert zh.get("progress")[0].proto.text.startswith("本服务器正在构建 MiniLM + 中文")
    run = chinese.current_build()
    deadline = time.monotonic() + 60  # the worker's first act (it may be starting still)
    while niceness(run.pid) != 19 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert niceness(run.pid) == 19  # the worker yields to the server's pages and every other run


@pytest.mark.slow
def test_home_page_shows_nothing_once_the_build_has_landed(tiny_build, monkeypatch):
    """# subtle: at niceness 19 the build gets next to no CPU while the other test processes
    work (it starved past four minutes under three busy loops): the build here runs at the
    tests' own priority (EXPLORER_BACKGROUND_NICE=0); the test above checks the default's 19."""
    from explorer_core.ui.training import chinese

    monkeypatch.setenv("EXPLORER_BACKGROUND_NICE", "0")
    at = app_test("app.py", state={"lang": "en"}, timeout=120)
    assert not at.exception, [e.message for e in at.exception]
    wait_for(at, lambda: chinese.building() and at.get("progress"))
    run = chinese.current_build()
    assert run.nice == 0
    wait_for(at, lambda: taught_model.built_folder() is not None and not chinese.building())
    at.run()
    assert not at.exception and not at.get("progress")
    assert run.status().state == "finished" and autobuild.start().state == "built"


def niceness(pid: int) -> int:
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        return int(stat.read().split(") ")[1].split()[16])
