"""What a sequence model costs in order: steps that must run one after another, and path length.

For a sentence of L tokens (positions t = 0 .. L - 1):

                  sequential steps    path length from x_t to h_(L-1)     longest path
    RNN/LSTM/GRU  L (per layer)       L - t cell steps                    L
    n-gram window 1                   1 (t inside the window), else none  1
    attention     1                   1                                   1

Sequential steps are read off the model's run (`SequenceOutput.sequential_steps`: the cell steps
the Python loop really ran, one after another); path lengths follow from the wiring: x_t enters
the chain at step t and is carried through every step to the last. `timed_steps` also times them
now: a Python loop of L cell steps against one masked matmul (Vaswani et al. 2017, Table 1).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import torch
from torch import nn

from explorer_core.sequence.attention import SelfAttentionLayer
from explorer_core.sequence.config import AttentionConfig, RecurrentConfig
from explorer_core.sequence.recurrent import RecurrentModel

TIMED = ("rnn", "lstm", "attention")  # our Python loops of cells, and one masked matmul


@dataclass(frozen=True)
class StepCount:
    model: str
    length: int  # L
    sequential_steps: int  # measured: steps the run made one after another
    longest_path: int  # layer applications between x_0 and h_(L-1)


def path_lengths(model: nn.Module, length: int) -> tuple[int, ...]:
    """Layer or cell applications from x_t to h_(L-1), per t; 0 where x_t cannot reach it.

    >>> from explorer_core.sequence.config import RecurrentConfig
    >>> rnn = RecurrentModel(RecurrentConfig(), torch.Generator().manual_seed(0))
    >>> path_lengths(rnn, 4)
    (4, 3, 2, 1)
    """
    if isinstance(model, RecurrentModel):
        layers = model.config.num_layers
        return tuple(length - t + layers - 1 for t in range(length))
    context = getattr(getattr(model, "config", None), "context", None)
    if context is not None:  # the n-gram window: only the n - 1 tokens before the last
        return tuple(1 if 1 <= length - 1 - t <= context else 0 for t in range(length))
    return tuple(1 for _ in range(length))


@torch.no_grad()
def count_steps(name: str, model: nn.Module, length: int, width: int) -> StepCount:
    """Run `model` on zeros (1, L, width) and count; the path from x_0 is the longest."""
    out = model(torch.zeros(1, length, width))
    return StepCount(name, length, out.sequential_steps, max(path_lengths(model, length)))


@dataclass(frozen=True)
class StepTiming:
    model: str  # one of TIMED
    length: int  # L
    sequential_steps: int  # counted from the run
    longest_path: int
    seconds: float  # the fastest of `repeat` forward passes (batch 1), measured now


def _fastest_seconds(run: Callable[[], object], repeat: int) -> float:
    """The fastest of `repeat` calls after one warm-up: on a shared, busy machine other work
    only ever adds time, so the minimum is the steadiest estimate of the call's own cost."""
    run()  # warm up: the first call allocates
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


@torch.inference_mode()
def timed_steps(
    lengths: Sequence[int] = (16, 64, 256), width: int = 64, repeat: int = 7, seed: int = 0
) -> list[StepTiming]:
    """Steps, longest path and time of one forward for each model of TIMED and each L.

    The RNN and LSTM run our own Python loop (L cell steps one after another); attention is one
    causal self-attention layer (one masked matmul for all L rows). Times depend on the machine
    and its load: compare the models within one call, not across calls.
    """
    if not lengths or min(lengths) < 1 or width < 2 or width % 2 or repeat < 1:
        raise ValueError("lengths must be positive, width even and >= 2, repeat at least 1")
    generator = torch.Generator().manual_seed(seed)
    models = {
        "rnn": RecurrentModel(RecurrentConfig("rnn", width, width), generator),
        "lstm": RecurrentModel(RecurrentConfig("lstm", width, width), generator),
        "attention": SelfAttentionLayer(AttentionConfig(width, 1, causal=True), generator),
    }
    rows = []
    for length in lengths:
        x = torch.randn(1, length, width, generator=generator)  # (1, L, width)
        for name, model in models.items():
            counted = count_steps(name, model, length, width)
            seconds = _fastest_seconds(lambda m=model, x=x: m(x), repeat)
            rows.append(StepTiming(name, length, counted.sequential_steps, counted.longest_path,
                                   seconds))  # fmt: skip
    return rows
