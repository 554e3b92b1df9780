"""A training run in a real worker process: same losses as in place, snapshots and checkpoint come
back, a silent (abandoned) run stops by itself, a killed or crashed worker is gone and reported.

The stop button, a second start and a failing plan are tested in test_training_loop.py.
"""

from __future__ import annotations

import os
import signal
import sys
import time
import types
from dataclasses import replace

import pytest
import torch

from explorer_core.tokenization import new_tokenizer
from explorer_core.training.choices import SharedModel
from explorer_core.training.finetune import FinetuneConfig
from explorer_core.training.loop import EvalRecord, TrainStep
from explorer_core.training.pretrain import PretrainConfig
from explorer_core.training.run import TrainingPlan, run_plan
from explorer_core.training.worker import ABANDONED, BACKGROUND_NICE, TrainingRun
from tests.models import tiny_parts

FAST = {"batch_size": 4, "max_length": 16, "eval_every": 2}


@pytest.fixture(scope="module")
def plan_parts():
    return tiny_parts()


def make_plan(plan_parts, fine_steps: int, pre_steps: int = 0, snapshot_every: int = 0):
    tokenizer, config, parts = plan_parts
    lines = tuple(p.sentence1 + "\t" + p.sentence2 for p in parts["train"][:40])
    pretrain = (
        PretrainConfig(steps=pre_steps, snapshot_every=snapshot_every, **FAST)
        if pre_steps
        else None
    )
    return TrainingPlan(
        tokenizer, config, corpus=lines, pretrain=pretrain,
        train_pairs=tuple(parts["train"][:60]), dev_pairs=tuple(parts["dev"][:8]),
        finetune=FinetuneConfig(steps=fine_steps, snapshot_every=snapshot_every, **FAST), seed=3,
    )  # fmt: skip


def alive(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


def test_a_runs_kind_leaves_out_the_seed_and_changes_with_steps_and_tokenizer(plan_parts):
    plan = make_plan(plan_parts, fine_steps=5)
    other_seed = replace(plan, seed=7, finetune=replace(plan.finetune, seed=7))
    longer = make_plan(plan_parts, fine_steps=6)
    assert TrainingRun(plan).kind == TrainingRun(other_seed).kind != TrainingRun(longer).kind
    bytes_ = replace(plan, tokenizer=new_tokenizer("byte-bpe"))  # another tokenizer: other lengths
    assert TrainingRun(bytes_).kind != TrainingRun(plan).kind
    assert TrainingRun(plan).seconds_left() is None  # not started: no estimate of its own
    assert not TrainingRun(plan).completed


def test_a_run_in_a_process_gives_the_same_losses_snapshots_and_model_as_in_place(plan_parts):
    plan = make_plan(plan_parts, fine_steps=4, pre_steps=3, snapshot_every=2)
    here = run_plan(plan)
    run = TrainingRun(plan, max_snapshots=8)
    assert run.start()
    assert run.join(timeout=180), run.status()
    assert run.status().state == "finished", run.status().error
    assert run.completed and run.seconds_so_far() > 0  # a length the queue's estimate can use
    records = run.records()
    losses = [r.loss for r in records if isinstance(r, TrainStep)]
    expected = [s.loss for phase in ("pretrain", "finetune") for s in here.log[phase].steps]
    assert losses == pytest.approx(expected, rel=1e-6) and len(losses) == 7
    assert [r.step for r in records if isinstance(r, EvalRecord)] == [2, 3, 2, 4]
    ckpt = run.result()
    assert ckpt.label == here.label and ckpt.pooling == here.pooling
    assert ckpt.log["finetune"].steps[-1].loss == pytest.approx(expected[-1], rel=1e-6)
    for name, tensor in here.model.state_dict().items():
        torch.testing.assert_close(ckpt.model.state_dict()[name], tensor, rtol=1e-5, atol=1e-6)
    snaps = run.snapshots()
    assert [(s.phase, s.step) for s in snaps] == [
        ("pretrain", 0), ("pretrain", 2), ("finetune", 0), ("finetune", 2), ("finetune", 4),
        ("final", 7),
    ]  # fmt: skip
    for name, tensor in ckpt.model.state_dict().items():  # the final snapshot is the result
        assert torch.equal(snaps[-1].state[name], tensor), name
    assert not alive(run.pid)  # the worker exited and gave its memory back


def test_a_pre_trained_model_keeps_its_mlm_head_through_the_process(plan_parts):
    """Pre-trained with no fine-tuning step after, the head still reads the encoder: it comes back
    from the worker and predicts exactly what the in-place run's head predicts."""
    plan = replace(make_plan(plan_parts, fine_steps=1, pre_steps=3), finetune=None)
    here = run_plan(plan)
    run = TrainingRun(plan)
    assert run.start() and run.join(timeout=180), run.status()
    ckpt = run.result()
    assert ckpt.mlm_head is not None and "predictions.decoder.weight" not in ckpt.mlm_head
    ids = torch.tensor([[2, 7, 9, 11, 3]])
    with torch.no_grad():
        theirs = here.pretraining_model()(ids).prediction_logits
        ours = SharedModel(ckpt).mlm(ids).prediction_logits
    torch.testing.assert_close(ours, theirs, rtol=1e-5, atol=1e-5)
    # a fine-tuning step moves the encoder away from its head: none is kept
    assert run_plan(make_plan(plan_parts, fine_steps=1, pre_steps=2)).mlm_head is None
    assert run_plan(make_plan(plan_parts, fine_steps=2)).mlm_head is None  # never pre-trained


def test_a_worker_never_runs_the_parents_main_script(plan_parts, tmp_path, monkeypatch):
    """Streamlit installs the page it runs as `__main__`; multiprocessing would run that file again
    in the worker (a page outside Streamlit raises there: exit code 1 before any training)."""
    page = tmp_path / "page.py"
    page.write_text("raise SystemExit('the page ran again in the worker')\n", encoding="utf-8")
    script = types.ModuleType("__main__")
    script.__file__ = str(page)
    monkeypatch.setitem(sys.modules, "__main__", script)
    run = TrainingRun(make_plan(plan_parts, fine_steps=1))
    assert run.start() and run.join(timeout=180), run.status()
    assert run.status().state == "finished", run.status().error


class SettingPlan:
    """A plan that fails with the value of EXPLORER_PROBE in the process that runs it."""

    phases = ()
    returns_model = False

    def run(self, callback, stop, on_snapshot):  # noqa: ANN001, ANN201, ARG002
        raise ValueError(os.environ.get("EXPLORER_PROBE", "unset"))


def probe() -> str:
    run = TrainingRun(SettingPlan())
    assert run.start() and run.join(timeout=120), run.status()
    return run.status().error


def test_a_worker_takes_the_settings_of_its_server_as_they_are_when_it_starts(monkeypatch):
    """The fork server keeps the environment it was started with; a run takes the server's
    EXPLORER_* settings of now (with the old EXPLORER_CACHE_DIR, a run looked for MiniLM + 中文
    in the wrong cache)."""
    monkeypatch.delenv("EXPLORER_PROBE", raising=False)
    assert probe() == "ValueError: unset"  # the fork server runs from here on
    monkeypatch.setenv("EXPLORER_PROBE", "set after the fork server started")
    assert probe() == "ValueError: set after the fork server started"
    monkeypatch.delenv("EXPLORER_PROBE")
    assert probe() == "ValueError: unset"


def test_a_run_nobody_polls_stops_by_itself_and_its_process_ends(plan_parts):
    run = TrainingRun(make_plan(plan_parts, fine_steps=100_000), expire_after=1.0)
    run.start()
    assert run.join(timeout=120), "an abandoned run went on"
    status = run.status()
    assert status.state == "failed" and status.error == ABANDONED
    # nobody will see its model: none is built or kept in the server (a closed tab's session
    # state, with this run, stays in Streamlit's memory for minutes)
    assert run.result() is None and run.snapshots() == []
    assert not alive(run.pid)


def niceness(pid: int) -> int:
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        return int(stat.read().split(") ")[1].split()[16])


def test_a_paused_run_waits_without_counting_time_and_goes_on_when_resumed(plan_parts):
    """The server's background build gives its slot to a session's run this way: it waits after
    its current step (no CPU) and its clock and time-left estimate leave the pause out."""
    run = TrainingRun(make_plan(plan_parts, fine_steps=100_000), nice=BACKGROUND_NICE)
    run.start()
    while run.status().step < 3:
        assert run.join(timeout=0.05) is False, run.status().error
    assert niceness(run.pid) == BACKGROUND_NICE
    run.pause()
    time.sleep(1.0)  # the step under way ends and reports; then nothing more
    count, seconds = run.record_count(), run.status().seconds
    time.sleep(2.0)
    assert run.record_count() == count and run.paused and run.running
    assert run.status().seconds == pytest.approx(seconds, abs=0.05)  # a pause is not training
    run.resume()
    while run.record_count() <= count + 2:
        assert run.join(timeout=0.05) is False, run.status().error
    status = run.status()
    assert not run.paused and status.eta_seconds is not None and status.seconds < seconds + 60
    run.pause()
    run.stop()  # a stop wakes a paused run: it ends after its step, keeping its model
    assert run.join(timeout=120) and run.status().state == "stopped"
    assert not run.completed  # a stopped run's seconds say nothing of its kind's length
    assert run.result() is not None


class _ResetPipe:
    """The parent's end of the pipe after its worker was terminated in the middle of a message:
    Linux reports ECONNRESET on recv (not EOF)."""

    def send(self, obj) -> None:  # noqa: ANN001 - the plan
        pass

    def poll(self, timeout: float) -> bool:
        return True

    def recv(self):  # noqa: ANN201
        raise ConnectionResetError(104, "Connection reset by peer")

    def close(self) -> None:
        pass


def test_a_pipe_reset_by_an_abandoned_run_still_says_closed_tab(plan_parts):
    """An abandoned run's worker is terminated; if that cuts a message in half, the reader saw
    'ConnectionResetError' and reported it instead of ABANDONED (seen under load)."""
    run = TrainingRun(make_plan(plan_parts, fine_steps=1), expire_after=1.0)
    run._state, run._abandoned = "running", True  # as start() and then _watch() leave them
    run._read(_ResetPipe())
    assert run.status().state == "failed" and run.status().error == ABANDONED


def test_touching_keeps_a_run_alive_and_kill_ends_it_now(plan_parts):
    run = TrainingRun(make_plan(plan_parts, fine_steps=100_000), expire_after=3.0)
    run.start()
    deadline = time.monotonic() + 120
    while run.status().step < 2 and time.monotonic() < deadline:
        run.touch()
        time.sleep(0.3)
    for _ in range(15):  # 4.5 s of polls, longer than expire_after
        run.touch()
        time.sleep(0.3)
    assert run.running, run.status().error
    # pages first: the worker trains at a lower priority than the server (EXPLORER_WORKER_NICE)
    assert os.getpriority(os.PRIO_PROCESS, run.pid) == min(
        os.getpriority(os.PRIO_PROCESS, 0) + 10, 19
    )
    run.kill()
    status = run.status()
    assert status.state == "failed" and "exit code -15" in status.error
    assert run.result() is None and not alive(run.pid)


@pytest.mark.slow
def test_a_worker_killed_from_outside_is_reported_not_hung(plan_parts):
    run = TrainingRun(make_plan(plan_parts, fine_steps=100_000))
    run.start()
    deadline = time.monotonic() + 120
    while not run.records() and time.monotonic() < deadline:
        time.sleep(0.2)
    os.kill(run.pid, signal.SIGKILL)  # what the kernel's OOM killer would do
    assert run.join(timeout=30)
    status = run.status()
    assert status.state == "failed" and "exit code -9" in status.error, status.error
    assert run.records()  # what arrived before stays for the curves


@pytest.mark.parametrize(
    ("value", "nice"), [("", BACKGROUND_NICE), ("0", 0), ("5", 5), ("20", None), ("low", None)]
)
def test_the_background_niceness_setting(monkeypatch, value, nice):
    from explorer_core.training.worker import background_nice

    monkeypatch.setenv("EXPLORER_BACKGROUND_NICE", value)
    if nice is None:
        with pytest.raises(ValueError, match="EXPLORER_BACKGROUND_NICE must be"):
            background_nice()
    else:
        assert background_nice() == nice
