"""The project's threads carry their name down to the OS, and say where they were started."""

from __future__ import annotations

import os
import sys
import threading

import pytest

from bench.server_watch import describe_threads, os_threads
from explorer_core import runtime


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and prctl are Linux's")
def test_a_started_thread_is_named_for_the_os_and_logged_with_its_site(tmp_path, monkeypatch):
    log = tmp_path / "threads.log"
    monkeypatch.setenv(runtime.THREAD_LOG, str(log))
    seen, release = {}, threading.Event()

    def work() -> None:
        seen.update(os_threads(os.getpid()))
        seen["me"] = threading.get_native_id()
        release.wait(10)

    thread = runtime.start_thread(work, name="explorer-test-thread")
    for _ in range(100):
        if "me" in seen:
            break
        threading.Event().wait(0.05)
    me = seen["me"]
    assert seen[me] == "explorer-test-t"  # Linux keeps 15 bytes of the name
    (line,) = describe_threads({me: seen[me]}, log)
    assert "explorer-test-thread, started at" in line
    assert "test_runtime_threads.py" in line  # this file, the caller of start_thread
    release.set()
    thread.join(10)


def test_a_thread_the_project_did_not_start_is_told_apart(tmp_path, monkeypatch):
    log = tmp_path / "threads.log"
    monkeypatch.setenv(runtime.THREAD_LOG, str(log))
    runtime.log_threads()
    main = threading.main_thread().native_id
    (python,) = describe_threads({main: "python"}, log)
    assert "MainThread (a Python thread not the project's" in python
    (native,) = describe_threads({1: "jemalloc_bg_thd"}, log)
    assert "native library's thread" in native
