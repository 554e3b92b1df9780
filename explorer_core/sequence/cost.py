"""What a sequence model costs in order: steps that must run one after another, and path length.

For a sentence of L tokens (positions t = 0 .. L - 1):

                  sequential steps    path length from x_t to h_(L-1)     longest path
    RNN/LSTM/GRU  L (per layer)       L - t cell steps                    L
    n-gram window 1                   1 (t inside the window), else none  1
    attention     1                   1                                   1

Sequential steps are read off the model's run (`SequenceOutput.sequential_steps`: the cell steps
the Python loop really ran, one after another); path lengths follow from the wiring: x_t enters
the chain at step t and is carried through every step to the last.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn

from explorer_core.sequence.recurrent import RecurrentModel


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
