"""Training runs on a real Dask engine: a scheduler and two worker processes on this machine.

What a classroom sees when EXPLORER_ENGINE is set (explorer_core/training/engine.py): the same
run as a local one, its progress while it trains, Stop, a worker killed mid-run (the student is
told; the next run trains on a worker still there), an address nobody answers, and the CLI's
`experiment tokenizers --engine`. Each test is a few seconds of a tiny model.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace

import pytest
import torch

from explorer_core.analysis.experiment import result_from_run
from explorer_core.inputs.datasets import builtin_sts_pairs, split_pairs
from explorer_core.training.admission import FakeClock
from explorer_core.training.engine import EngineRun, EngineUnreachable, connect
from explorer_core.training.engine_tasks import WORKER_LOST
from explorer_core.training.worker import ABANDONED, TrainingRun
from tests.browser import free_port
from tests.engine import ROOT, START_SECONDS, engine_cluster
from tests.models import tiny_plan

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cluster():
    with engine_cluster(workers=2) as running:
        yield running


def wait_for(condition, seconds: float = 30.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return False


def without_clock(records: list) -> list:
    return [replace(r, seconds=0.0) for r in records]


def test_a_run_on_the_engine_equals_the_same_run_here(cluster):
    """Same plan, same seed, one torch thread on both sides: every loss, every dev Spearman and
    every trained weight are equal to the last bit (only the records' seconds differ)."""
    plan = tiny_plan(fine_steps=12, pre_steps=4, snapshot_every=4)
    remote = EngineRun(plan, cluster.client)
    local = TrainingRun(plan)
    assert remote.start() and local.start()
    assert remote.join(60) and local.join(60)
    assert remote.status().state == local.status().state == "finished", remote.status().error
    assert without_clock(remote.records()) == without_clock(local.records())
    assert remote.status().last_eval.dev_spearman == local.status().last_eval.dev_spearman
    mine, theirs = remote.result().model.state_dict(), local.result().model.state_dict()
    assert mine.keys() == theirs.keys()
    assert all(torch.equal(mine[k], theirs[k]) for k in mine)
    assert remote.pid in cluster.worker_pids()  # it trained there, not here
    assert len(remote.snapshots()) >= 2
    # what a class run posts to the leaderboard (ui.training.class_run.post_result) is the same
    parts = split_pairs(builtin_sts_pairs())
    mine, theirs = result_from_run(remote, parts).to_row(), result_from_run(local, parts).to_row()
    assert {k: v for k, v in mine.items() if k != "seconds"} == {
        k: v for k, v in theirs.items() if k != "seconds"
    }


def test_a_run_nobody_polls_is_stopped_and_keeps_nothing(cluster):
    """A closed tab: after `expire_after` seconds without a touch the run is asked to stop on the
    worker, and ends as a local run does (ABANDONED, no model kept)."""
    clock = FakeClock()
    run = EngineRun(tiny_plan(fine_steps=5000), cluster.client, expire_after=20, clock=clock)
    run.start()
    assert wait_for(lambda: run.record_count() >= 2), run.status()
    clock.advance(21)
    assert run.join(30)
    assert run.status().state == "failed" and run.status().error == ABANDONED
    assert run.result() is None and run.snapshots() == []


def test_progress_arrives_while_it_trains_and_stop_stops_it(cluster):
    run = EngineRun(tiny_plan(fine_steps=5000), cluster.client)
    run.start()
    assert wait_for(lambda: run.record_count() >= 3), run.status()
    assert run.running and run.began  # progress before the end
    run.stop()
    assert run.join(30)
    status = run.status()
    assert status.state == "stopped", status.error
    assert 3 <= status.step < 5000
    assert run.result() is not None and "stopped early" in run.result().label


def test_a_worker_killed_mid_run_loses_that_run_only_and_the_next_run_trains(cluster):
    run = EngineRun(tiny_plan(fine_steps=5000), cluster.client)
    run.start()
    assert wait_for(lambda: run.record_count() >= 2), run.status()
    victim = run.pid
    os.kill(victim, signal.SIGKILL)
    assert run.join(30)
    assert run.status().state == "failed"
    assert run.status().error == WORKER_LOST
    again = EngineRun(tiny_plan(fine_steps=6), cluster.client)
    again.start()
    assert again.join(60)
    assert again.status().state == "finished", again.status().error
    assert again.pid != victim
    # the nanny restarts the killed worker: leave the module's cluster with both, as found (on a
    # busy machine the restart outlasts the next run, and the CLI test saw 1 worker thread)
    cluster.client.wait_for_workers(2, timeout=START_SECONDS)


def test_an_address_nobody_answers_is_one_sentence():
    began = time.perf_counter()
    with pytest.raises(EngineUnreachable) as err:
        connect(f"tcp://127.0.0.1:{free_port()}", timeout=2)
    assert time.perf_counter() - began < 15
    assert "cannot be reached" in str(err.value) and "\n" not in str(err.value)


def test_cli_experiment_runs_on_the_engine(cluster, tmp_path):
    out = tmp_path / "report.json"
    command = [sys.executable, "-m", "explorer_core", "experiment", "tokenizers",
               "--engine", cluster.address, "--algorithms", "char-bpe", "--seeds", "0", "1",
               "--steps", "4", "--json", str(out)]  # fmt: skip
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "on the engine's 2 worker thread(s)" in done.stderr
    report = json.loads(out.read_text())
    assert [r["seed"] for r in report["runs"]] == [0, 1]
    assert all(r["steps"] > 0 for r in report["runs"])


def test_cli_engine_at_a_bad_address_is_one_line_and_a_failure():
    command = [
        sys.executable,
        "-m",
        "explorer_core",
        "experiment",
        "tokenizers",
        "--engine",
        f"tcp://127.0.0.1:{free_port()}",
        "--seeds",
        "0",
        "--steps",
        "2",
    ]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: The training engine at"), done.stderr


def test_without_the_setting_no_engine_package_is_imported():
    """The Train page's modules and a local run load neither dask nor distributed."""
    code = (
        "import sys; import explorer_core.ui.training.run, explorer_core.training.engine; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    )
    env = {k: v for k, v in os.environ.items() if k != "EXPLORER_ENGINE"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_train_page_sends_its_run_to_the_engine(cluster, monkeypatch):
    """With EXPLORER_ENGINE set the Train page itself needs no other change: the run trains on
    a worker of the engine, and its model lands in the session as a local run's does."""
    from explorer_core.training.choices import SharedModel
    from explorer_core.ui.state import SHARED_MODEL
    from tests.conftest import app_test
    from tests.models import small, wait_for_end

    monkeypatch.setenv("EXPLORER_ENGINE", cluster.address)
    at = small(app_test("lessons/train_model.py"))
    at.button(key="train.start").click().run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    run = at.session_state["train.run"]
    assert isinstance(run, EngineRun)
    assert run.plan.device == "auto"  # planned on this GPU-less server: the worker's GPU if any
    wait_for_end(at)
    assert not at.exception
    assert run.status().state == "finished" and run.pid in cluster.worker_pids()
    shared = at.session_state[SHARED_MODEL]
    assert isinstance(shared, SharedModel) and "2 pre-training + 4 fine-tuning" in shared.label


def test_train_page_with_an_engine_nobody_answers_says_so_in_one_line(monkeypatch):
    from tests.conftest import app_test
    from tests.models import small

    monkeypatch.setenv("EXPLORER_ENGINE", f"tcp://127.0.0.1:{free_port()}")
    at = small(app_test("lessons/train_model.py"))
    at.button(key="train.start").click().run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "training engine cannot be reached" in errors[0], errors
    assert "\n" not in errors[0]
    assert "train.run" not in at.session_state  # nothing started, here or there
    assert not at.button(key="train.start").disabled  # Train can be pressed again


def test_one_worker_with_two_threads_trains_two_runs_at_once():
    """`engine.sh worker ADDRESS 2` (a bigger or GPU machine): two runs train side by side in one
    worker process, each with its progress and its own Stop."""
    with engine_cluster(workers=1, nthreads=2) as one:
        runs = [EngineRun(tiny_plan(fine_steps=5000, seed=s), one.client) for s in (1, 2)]
        for run in runs:
            run.start()
        assert wait_for(lambda: all(r.record_count() >= 3 for r in runs), 45)
        assert all(r.running for r in runs)  # both train now, neither waits for the other
        assert runs[0].pid == runs[1].pid == one.worker_pids()[0]
        runs[0].stop()
        assert runs[0].join(30) and runs[0].status().state == "stopped"
        count = runs[1].record_count()
        assert wait_for(lambda: runs[1].record_count() > count + 2)  # the other goes on
        runs[1].stop()
        assert runs[1].join(30) and runs[1].status().state == "stopped"


def test_a_device_chosen_on_a_server_with_a_gpu_stays_as_chosen(monkeypatch):
    from dataclasses import replace

    from explorer_core.ui.training import engine as page_engine

    plan = tiny_plan(fine_steps=5)
    assert page_engine.engine_plan(plan).device == "auto"  # this server: no GPU
    monkeypatch.setattr(page_engine, "_cuda_here", lambda: True)
    assert page_engine.engine_plan(plan).device == "cpu"  # the student chose the CPU there
    cuda = replace(plan, device="cuda")
    assert page_engine.engine_plan(cuda) is cuda
