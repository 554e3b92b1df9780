"""The server-wide admission of training runs: limit, first-come queue, cancel, one run per
session, memory budget, and sessions that went away (a fake clock, fake jobs)."""

from __future__ import annotations

import threading

import pytest

from explorer_core.training.admission import (
    Admission,
    FakeClock,
    FakeJob,
    Refused,
    budget_setting,
    max_runs_setting,
)


def gate(max_runs: int = 2, budget: int | None = None, expire_after: float = 20.0):
    clock = FakeClock()
    return Admission(max_runs, budget, expire_after, clock=clock), clock


def test_limit_then_first_come_first_served():
    adm, _ = gate(max_runs=2)
    jobs = {name: FakeJob() for name in "abcde"}
    places = [adm.submit(name, job, need=1) for name, job in jobs.items()]
    assert places == [0, 0, 1, 2, 3]
    assert [job.running for job in jobs.values()] == [True, True, False, False, False]
    assert adm.counts() == (2, 3, 2)
    jobs["b"].running = False  # b ends: c (the head of the queue) starts, d and e move up
    assert [adm.place(n) for n in "abcde"] == [0, None, 0, 1, 2]
    jobs["a"].running = jobs["c"].running = False
    assert [adm.place(n) for n in "de"] == [0, 0]
    assert all(job.started <= 1 for job in jobs.values())  # nobody is started twice


def test_one_run_per_session_and_again_after_it_ended():
    adm, _ = gate()
    first = FakeJob()
    adm.submit("ann", first, need=1)
    with pytest.raises(Refused) as refused:
        adm.submit("ann", FakeJob(), need=1)
    assert refused.value.reason == "busy"
    first.running = False
    assert adm.submit("ann", FakeJob(), need=1) == 0


def test_cancel_leaves_the_queue_and_stops_a_running_job():
    adm, _ = gate(max_runs=1)
    a, b, c = FakeJob(), FakeJob(), FakeJob()
    adm.submit("a", a, 1), adm.submit("b", b, 1), adm.submit("c", c, 1)
    assert adm.cancel("b") is True
    assert adm.place("b") is None and adm.place("c") == 1 and not b.started
    assert adm.cancel("a") is True and a.stopped  # a running job is asked to stop
    a.running = False
    assert adm.place("c") == 0 and c.running
    assert adm.cancel("nobody") is False


def test_the_start_estimate_fills_the_first_free_slot_with_each_request_ahead():
    adm, _ = gate(max_runs=2)
    done = FakeJob("tiny")
    adm.submit("x", done, 1)
    done.running, done.completed, done.so_far = False, True, 20.0  # a tiny run took 20 s
    a, b = FakeJob("tiny", so_far=15.0), FakeJob("tiny", so_far=2.0)
    adm.submit("a", a, 1), adm.submit("b", b, 1)
    waiting = {n: FakeJob("tiny") for n in "cdef"}
    for name, job in waiting.items():
        adm.submit(name, job, 1)
    # a ends in 20 - 15 = 5 s, b in 18 s; each run ahead then takes 20 s in the first free slot
    assert [adm.start_estimate(n) for n in "cdef"] == [5.0, 18.0, 25.0, 38.0]
    assert adm.start_estimate("a") is None and adm.start_estimate("nobody") is None
    waiting["c"].kind = "small"  # no small run has completed: its length is unknown
    assert adm.start_estimate("c") == 5.0 and adm.start_estimate("d") is None


def test_completed_runs_set_their_kinds_length_and_stopped_ones_do_not():
    adm, _ = gate(max_runs=1)
    first = FakeJob("tiny", so_far=50.0, left=70.0)
    adm.submit("a", first, 1)
    waiting = {n: FakeJob("tiny") for n in "bcd"}
    for name, job in waiting.items():
        adm.submit(name, job, 1)
    assert adm.start_estimate("b") == 70.0  # the run training says 70 s left
    assert adm.start_estimate("c") is None  # how long b takes is not known yet
    first.running, first.completed = False, True  # it took 50 s in the end
    waiting["b"].so_far = 2.0
    assert adm.place("b") == 0 and adm.start_estimate("c") == 48.0
    assert adm.start_estimate("d") == 48.0 + 50.0
    waiting["b"].running, waiting["b"].so_far = False, 1.0  # b is stopped: not a length
    waiting["c"].so_far = 10.0
    assert adm.place("c") == 0 and adm.start_estimate("d") == 40.0


def test_the_start_estimate_counts_only_the_runs_training_when_memory_holds_the_queue():
    adm, _ = gate(max_runs=5, budget=100)
    done = FakeJob("tiny")
    adm.submit("x", done, 1)
    done.running, done.completed, done.so_far = False, True, 10.0
    adm.submit("a", FakeJob("tiny", so_far=4.0), 60)
    adm.submit("b", FakeJob("tiny"), 60)
    adm.submit("c", FakeJob("tiny"), 60)
    assert adm.start_estimate("b") == 6.0 and adm.start_estimate("c") == 16.0


def test_memory_budget_refuses_what_never_fits_and_queues_what_fits_later():
    adm, _ = gate(max_runs=5, budget=100)
    with pytest.raises(Refused) as refused:
        adm.submit("big", FakeJob(), need=101)
    assert refused.value.reason == "budget" and "for all runs together" in str(refused.value)
    a, b, c = FakeJob(), FakeJob(), FakeJob()
    assert adm.submit("a", a, 60) == 0
    assert adm.submit("b", b, 50) == 1  # 60 + 50 > 100: waits although slots are free
    assert adm.submit("c", c, 10) == 2  # fits, but does not overtake b
    assert adm.counts() == (1, 2, 60)
    a.running = False
    assert adm.place("b") == 0 and adm.place("c") == 0 and adm.counts() == (2, 0, 60)


def test_a_gone_session_leaves_the_queue_and_one_still_polling_keeps_its_place():
    adm, clock = gate(max_runs=1, expire_after=20)
    running, gone, here = FakeJob(), FakeJob(), FakeJob()
    adm.submit("running", running, 1)
    adm.submit("gone", gone, 1)
    adm.submit("here", here, 1)
    for _ in range(5):  # 25 s: "here" polls every 5 s, "gone" never does
        clock.advance(5)
        assert adm.touch("here") in (1, 2)
    assert adm.place("gone") is None and adm.place("here") == 1
    # a running job is not expired by admission (it stops itself when silent, see the worker)
    assert adm.place("running") == 0
    running.running = False
    assert adm.touch("here") == 0 and here.running and not gone.started


def test_concurrent_submits_never_exceed_the_limit():
    adm = Admission(max_runs=3)
    jobs = [FakeJob() for _ in range(40)]
    threads = [threading.Thread(target=adm.submit, args=(f"s{i}", job, 1))
               for i, job in enumerate(jobs)]  # fmt: skip
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sum(job.running for job in jobs) == 3
    assert adm.counts()[:2] == (3, 37)


def test_settings_from_the_environment(monkeypatch):
    monkeypatch.setenv("EXPLORER_MAX_RUNS", "3")
    monkeypatch.setenv("EXPLORER_TRAIN_MEMORY_MB", "512")
    assert max_runs_setting() == 3 and budget_setting() == 512 * 2**20
    adm = Admission.from_env()
    assert (adm.max_runs, adm.budget) == (3, 512 * 2**20)
    monkeypatch.delenv("EXPLORER_MAX_RUNS")
    monkeypatch.delenv("EXPLORER_TRAIN_MEMORY_MB")
    import os

    assert max_runs_setting() == (os.cpu_count() or 1)
    budget = budget_setting()
    assert budget is None or 0 < budget < 2**50
    for name, bad in (("EXPLORER_MAX_RUNS", "two"), ("EXPLORER_MAX_RUNS", "0"),
                      ("EXPLORER_TRAIN_MEMORY_MB", "-5")):  # fmt: skip
        monkeypatch.setenv(name, bad)
        with pytest.raises(ValueError, match=name):
            Admission.from_env()
        monkeypatch.delenv(name)


def test_the_app_config_turns_streamlits_post_script_gc_off():
    """A full gc.collect(2) after every poll of every session starved the server (issue 13)."""
    import tomllib
    from pathlib import Path

    config = Path(__file__).resolve().parents[1] / ".streamlit" / "config.toml"
    assert tomllib.loads(config.read_text(encoding="utf-8"))["runner"]["postScriptGC"] is False
