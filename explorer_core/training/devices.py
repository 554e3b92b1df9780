"""Where training runs: one device, or several processes started by `torchrun`.

Devices: ``auto`` picks CUDA when torch sees a GPU, else the CPU; ``cpu`` and ``cuda`` (or
``cuda:1``) are taken as asked, and ``cuda`` on a machine without one is a ValueError with a
sentence a user can act on (the command line turns it into one line and exit code 2).

Several processes (DistributedDataParallel): ``torchrun --nproc-per-node N -m explorer_core train
sts ...`` sets RANK / WORLD_SIZE / LOCAL_RANK in each process's environment. `setup` joins the
process group (gloo on the CPU, nccl on GPUs, one GPU per process), and then:

- every rank draws the same global batch from the same seeded generator and keeps its slice
  ``batch[rank::size]`` (`shard`), so the global batch is split, never duplicated;
- a loss that compares pairs across the batch (CoSENT, in-batch negatives) sees every rank's
  vectors: `gather_rows` collects them with their gradients (`gathered_order` says which item
  each row is), so every rank computes the global batch's loss;
- DDP averages the gradients, so each optimiser step sees the whole global batch;
- `agree` makes all ranks take the same stop decision at the same step (a time budget or a Stop
  on one rank stops them all) and share one clock, so the learning-rate schedule stays identical;
- logged losses are averaged over the ranks (`mean_over_ranks`), and only rank 0 prints or saves.

Without torchrun, `world()` is ``World(rank=0, size=1)`` and every helper is a no-op.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

import torch
from torch import nn

DEVICES = ("auto", "cpu", "cuda")
T = TypeVar("T")


def resolve_device(name: str) -> str:
    """`auto` -> "cuda" or "cpu"; "cpu" / "cuda" / "cuda:N" checked against this machine.

    >>> resolve_device("cpu")
    'cpu'
    """
    if name not in DEVICES and not (name.startswith("cuda:") and name[5:].isdigit()):
        raise ValueError(f"device must be one of {', '.join(DEVICES)} (or cuda:N), got {name!r}")
    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name.startswith("cuda") and not torch.cuda.is_available():
        raise ValueError(
            "CUDA was asked for, but this torch sees no GPU (torch.cuda.is_available() is False): "
            "use --device cpu or auto, or install a CUDA build of torch (README, 'GPU')"
        )
    return name


def module_device(module: nn.Module) -> torch.device:
    """The device of a module's first parameter (the CPU for a module without any)."""
    for param in module.parameters():
        return param.device
    return torch.device("cpu")


@dataclass(frozen=True)
class World:
    rank: int = 0
    size: int = 1

    @property
    def main(self) -> bool:
        """True on the one process that prints, logs and saves (rank 0)."""
        return self.rank == 0


def world() -> World:
    """This process's rank and the number of processes (1 without a process group)."""
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        return World(torch.distributed.get_rank(), torch.distributed.get_world_size())
    return World()


def launched_by_torchrun() -> bool:
    """True when torchrun started this process as one of several."""
    return int(os.environ.get("WORLD_SIZE", "1")) > 1


def setup(device: str) -> str:
    """Join torchrun's process group; return this rank's device (its own GPU, or the CPU)."""
    if not launched_by_torchrun() or torch.distributed.is_initialized():
        return device
    cuda = device.startswith("cuda")
    if cuda:
        device = f"cuda:{int(os.environ.get('LOCAL_RANK', '0'))}"
        torch.cuda.set_device(device)
    torch.distributed.init_process_group(backend="nccl" if cuda else "gloo")
    return device


def teardown() -> None:
    if torch.distributed.is_available() and torch.distributed.is_initialized():
        torch.distributed.destroy_process_group()


def shard(items: Sequence[T], w: World) -> list[T]:
    """This rank's slice of a global batch: every `size`-th item from `rank`.

    >>> shard([0, 1, 2, 3, 4], World(rank=1, size=2))
    [1, 3]
    """
    return list(items[w.rank :: w.size])


def gathered_order(items: Sequence[T], w: World) -> list[T]:
    """The global batch in the order `gather_rows` returns its rows: rank 0's slice, rank 1's...

    >>> gathered_order([0, 1, 2, 3, 4], World(rank=0, size=2))
    [0, 2, 4, 1, 3]
    """
    return [item for rank in range(w.size) for item in items[rank :: w.size]]


def gather_rows(rows: torch.Tensor, total: int) -> torch.Tensor:
    """Every rank's `rows` (its slice of a global batch of `total` items, `shard` order) stacked
    rank by rank, (total, ...), with gradients flowing back to each rank's own rows.

    # subtle: each rank then computes the same global loss L; the gather's backward sums the
    # `size` ranks' gradients for a rank's rows (size · dL/drows), and DDP's average over ranks
    # divides by size again: the optimiser gets exactly dL/dθ, as in one process.
    """
    w = world()
    if w.size == 1:
        return rows
    from torch.distributed.nn.functional import all_gather

    counts = [len(range(rank, total, w.size)) for rank in range(w.size)]
    pad = max(counts) - rows.shape[0]  # all_gather needs equal shapes: pad the short slices
    padded = torch.cat([rows, rows.new_zeros((pad, *rows.shape[1:]))]) if pad else rows
    parts = all_gather(padded)
    return torch.cat([part[:count] for part, count in zip(parts, counts, strict=True)])


def wrap(module: nn.Module) -> nn.Module:
    """`module` in DistributedDataParallel when there are several processes, else itself."""
    if world().size == 1:
        return module
    from torch.nn.parallel import DistributedDataParallel

    device = module_device(module)
    ids = [device.index] if device.type == "cuda" else None
    # subtle: the pooler of a BertModel takes no part in a sentence-embedding loss; DDP has to
    # be told, or it waits forever for those gradients.
    return DistributedDataParallel(module, device_ids=ids, find_unused_parameters=True)


def agree(elapsed: float, stop: bool) -> tuple[float, bool]:
    """(the largest elapsed time, whether any rank wants to stop), the same on every rank."""
    if world().size == 1:
        return elapsed, stop
    flags = torch.tensor([elapsed, float(stop)], dtype=torch.float64, device=_comm_device())
    torch.distributed.all_reduce(flags, op=torch.distributed.ReduceOp.MAX)
    return float(flags[0]), bool(flags[1] > 0)


def mean_over_ranks(values: dict[str, float]) -> dict[str, float]:
    """Each value averaged over the ranks (the loss of the whole global batch)."""
    if world().size == 1 or not values:
        return values
    keys = sorted(values)
    data = torch.tensor([values[k] for k in keys], dtype=torch.float64, device=_comm_device())
    torch.distributed.all_reduce(data)
    return {k: float(v) / world().size for k, v in zip(keys, data.tolist(), strict=True)}


def _comm_device() -> torch.device:
    if torch.distributed.get_backend() == "nccl":
        return torch.device("cuda", torch.cuda.current_device())
    return torch.device("cpu")
