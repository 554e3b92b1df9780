"""torchrun with 2 CPU processes (gloo): the global batch is split, the loss curve is a single
process's, only rank 0 writes; a time budget stops both ranks at the same step."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys

import pytest

from tests.models import write_pairs_table

# Same seed and global batch: the two curves differ only by float summation order (the gradient
# is averaged over two halves instead of summed over one batch), well under this tolerance.
TOLERANCE = 1e-4


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return write_pairs_table(tmp_path_factory.mktemp("data") / "pairs.tsv")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def train(root, table, out, extra: list[str], processes: int) -> subprocess.CompletedProcess:
    # CoSENT and in-batch negatives compare pairs within a rank's slice: the cosine loss alone is
    # the one whose gradient is the whole batch's under torchrun
    args = ["train", "sts", "--train", str(table), "--vocab-size", "800", "--dropout", "0",
            "--no-in-batch-negatives", "--loss", "cosine", "--device", "cpu", "--out", str(out),
            "--json", *extra]  # fmt: skip
    command = [sys.executable, "-m", "explorer_core"]
    if processes > 1:
        command = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node",
                   str(processes), "--master-addr", "127.0.0.1", "--master-port",
                   str(free_port()), "-m", "explorer_core"]  # fmt: skip
    env = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([*command, *args], cwd=root, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip
    errors = [line for line in done.stderr.splitlines() if line.startswith("error: ")]
    assert done.returncode == 0, "\n".join(errors) + "\n" + done.stderr[-2000:]
    return done


def losses(out) -> list[float]:
    log = json.loads((out / "training_log.json").read_text(encoding="utf-8"))
    return [step["loss"] for step in log["finetune"]["steps"]]


@pytest.mark.slow
def test_two_processes_follow_the_single_process_loss_curve(root, table, tmp_path):
    one = train(root, table, tmp_path / "one", ["--steps", "6"], 1)
    two = train(root, table, tmp_path / "two", ["--steps", "6"], 2)
    assert losses(tmp_path / "two") == pytest.approx(losses(tmp_path / "one"), abs=TOLERANCE)
    assert len(losses(tmp_path / "two")) == 6
    report = json.loads(two.stdout)  # exactly one JSON object: rank 0's
    assert report["processes"] == 2 and json.loads(one.stdout)["processes"] == 1
    assert report["test_spearman"] == pytest.approx(json.loads(one.stdout)["test_spearman"],
                                                    abs=1e-3)  # fmt: skip
    progress = [line for line in two.stderr.splitlines() if line.startswith("[finetune] step 1/")]
    assert len(progress) == 1  # only rank 0 prints


@pytest.mark.slow
def test_a_time_budget_stops_both_ranks_at_the_same_step(root, table, tmp_path):
    """Ranks agree on the clock every step (all_reduce); unequal steps would hang DDP."""
    done = train(root, table, tmp_path / "m", ["--time-budget", "3"], 2)
    report = json.loads(done.stdout)
    assert report["finetune_steps"] >= 1 and report["processes"] == 2
    log = json.loads((tmp_path / "m" / "training_log.json").read_text(encoding="utf-8"))
    assert log["finetune"]["stop_reason"] == "time"
