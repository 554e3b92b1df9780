"""torchrun with 2 CPU processes (gloo): the global batch is split, the loss curve and the dev and
test Spearman are a single process's for every loss (the vectors are gathered across ranks), only
rank 0 writes; a time budget stops both ranks at the same step."""

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
LOSSES = {
    "default": [],  # from scratch: CoSENT plus in-batch negatives, across the global batch
    "cosine": ["--loss", "cosine", "--no-in-batch-negatives"],
    "cosine+negatives": ["--loss", "cosine"],
}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return write_pairs_table(tmp_path_factory.mktemp("data") / "pairs.tsv")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def train(root, table, out, extra: list[str], processes: int) -> subprocess.CompletedProcess:
    args = ["train", "sts", "--train", str(table), "--vocab-size", "800", "--dropout", "0",
            "--device", "cpu", "--out", str(out), "--json", *extra]  # fmt: skip
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


def losses(out, phase: str = "finetune") -> list[float]:
    log = json.loads((out / "training_log.json").read_text(encoding="utf-8"))
    return [step["loss"] for step in log[phase]["steps"]]


@pytest.mark.slow
@pytest.mark.parametrize("loss", sorted(LOSSES))
def test_two_processes_equal_one_process_for_every_loss(root, table, tmp_path, loss):
    """Dropout 0, same seed: equal loss curves, and dev and test Spearman within 1e-3."""
    extra = ["--steps", "6", *LOSSES[loss]]
    one = train(root, table, tmp_path / "one", extra, 1)
    two = train(root, table, tmp_path / "two", extra, 2)
    assert losses(tmp_path / "two") == pytest.approx(losses(tmp_path / "one"), abs=TOLERANCE)
    assert len(losses(tmp_path / "two")) == 6
    report, single = json.loads(two.stdout), json.loads(one.stdout)  # one JSON object: rank 0's
    assert report["processes"] == 2 and single["processes"] == 1
    for split in ("dev_spearman", "test_spearman"):
        assert report[split] == pytest.approx(single[split], abs=1e-3), split
    progress = [line for line in two.stderr.splitlines() if line.startswith("[finetune] step 1/")]
    assert len(progress) == 1  # only rank 0 prints


@pytest.mark.slow
def test_mlm_pretraining_follows_the_single_process_curve(root, table, tmp_path):
    """MLM + NSP: each rank's means are weighted by its share of masked tokens and rows, so their
    average over ranks is the global batch's mean even when the ranks mask unequally many."""
    from explorer_core.inputs.datasets import builtin_corpus

    corpus = tmp_path / "corpus.txt"
    corpus.write_text(builtin_corpus("mixed"), encoding="utf-8")
    extra = ["--steps", "4", "--pretrain-corpus", str(corpus)]
    train(root, table, tmp_path / "one", extra, 1)
    train(root, table, tmp_path / "two", extra, 2)
    for phase in ("pretrain", "finetune"):
        one, two = losses(tmp_path / "one", phase), losses(tmp_path / "two", phase)
        assert len(two) == 4 and two == pytest.approx(one, abs=TOLERANCE), phase


@pytest.mark.slow
def test_a_time_budget_stops_both_ranks_at_the_same_step(root, table, tmp_path):
    """Ranks agree on the clock every step (all_reduce); unequal steps would hang DDP."""
    done = train(root, table, tmp_path / "m", ["--time-budget", "3"], 2)
    report = json.loads(done.stdout)
    assert report["finetune_steps"] >= 1 and report["processes"] == 2
    log = json.loads((tmp_path / "m" / "training_log.json").read_text(encoding="utf-8"))
    assert log["finetune"]["stop_reason"] == "time"


def two_ranks(code: str, tmp_path, root) -> list[dict]:  # noqa: ANN001
    """Run `code` as a script under torchrun, 2 CPU processes (its argv[1]: `tmp_path`, where each
    rank writes `<rank>.json`); what ranks 0 and 1 wrote."""
    script = tmp_path / "worker.py"
    script.write_text(code, encoding="utf-8")
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2",
               "--master-addr", "127.0.0.1", "--master-port", str(free_port()), str(script),
               str(tmp_path)]  # fmt: skip
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(root)}
    done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads((tmp_path / f"{rank}.json").read_text()) for rank in (0, 1)]


BUDGET_WORKER = """
import json, os, sys, time
from dataclasses import replace
import torch
import explorer_core.training.run as run
from tests.models import tiny_plan

torch.distributed.init_process_group("gloo")
rank = torch.distributed.get_rank()
if rank == 1:  # this rank's setup takes 1.5 s longer (a busy machine)
    build = run.build_model
    run.build_model = lambda plan, **kw: (time.sleep(1.5), build(plan, **kw))[1]
plan = tiny_plan(fine_steps=1)
plan = replace(plan, finetune=replace(plan.finetune, steps=None, time_budget=3.0, eval_every=0))
ckpt = run.run_plan(plan)
log = ckpt.log["finetune"]
with open(os.path.join(sys.argv[1], f"{rank}.json"), "w") as out:
    json.dump({"steps": len(log.steps), "stop_reason": log.stop_reason}, out)
torch.distributed.barrier()
torch.distributed.destroy_process_group()
sys.stdout.flush()
os._exit(0)  # as GATHER_WORKER below
"""


@pytest.mark.slow
def test_ranks_whose_setup_takes_unequal_time_get_the_same_budget(tmp_path, root):
    """The fine-tuning budget is what is left of the run's after setup; each rank measured its
    own setup, so a slower rank got a shorter budget, stopped a step early, and the other rank
    waited for it in DDP ("Connection closed by peer", seen under load in the test above)."""
    ranks = two_ranks(BUDGET_WORKER, tmp_path, root)  # before the fix: a hang till the timeout
    assert ranks[0] == ranks[1] and ranks[0]["stop_reason"] == "time", ranks
    assert ranks[0]["steps"] >= 1


GATHER_WORKER = """
import json, os, sys
import torch
from explorer_core.training.devices import World, gather_rows, gathered_order, shard

torch.distributed.init_process_group("gloo")
rank = torch.distributed.get_rank()
items = [0, 1, 2, 3, 4]  # 5 items: rank 0 holds 3, rank 1 holds 2
x = torch.tensor([[float(i)] for i in shard(items, World(rank, 2))], requires_grad=True)
rows = gather_rows(x * 1.0, len(items))  # (5, 1)
(rows.squeeze(1) * torch.arange(1.0, 6.0)).sum().backward()  # d/drow j = j + 1
result = {"rows": rows.squeeze(1).tolist(), "grad": x.grad.squeeze(1).tolist(),
          "order": gathered_order(items, World(rank, 2))}
with open(os.path.join(sys.argv[1], f"{rank}.json"), "w") as out:
    json.dump(result, out)
torch.distributed.barrier()
torch.distributed.destroy_process_group()
sys.stdout.flush()
os._exit(0)  # see the test's docstring: no C++ static destructors at interpreter exit
"""


@pytest.mark.slow
def test_gather_rows_of_unequal_slices_keeps_gradients(tmp_path, root):
    """An odd global batch: the short slice is padded for all_gather and cut again; each rank's
    gradient is the sum over ranks (2 · dL/drow), which DDP's average turns into dL/drow.

    # subtle: two ranks under torchrun, as the app's own runs: torch.multiprocessing.spawn's
    # children aborted now and then at exit in the full suite ("terminate called without an
    # active exception", SIGABRT in two fresh-clone CI runs), never when run alone. Under
    # torchrun rank 0 still aborted once (third fresh-clone run), after writing its result,
    # the barrier and destroy_process_group: in the interpreter's teardown, after the backward
    # through all_gather. The worker ends with os._exit(0) there. The app's own torchrun runs
    # (the train tests above, which gather too) never showed it.
    """
    for rank, result in enumerate(two_ranks(GATHER_WORKER, tmp_path, root)):
        assert result["order"] == [0, 2, 4, 1, 3]
        assert result["rows"] == [0.0, 2.0, 4.0, 1.0, 3.0]
        position = {item: j for j, item in enumerate(result["order"])}
        mine = [0, 2, 4] if rank == 0 else [1, 3]
        assert result["grad"] == [2.0 * (position[i] + 1) for i in mine]
