"""The simple (Elman) RNN: one hidden state carried from token to token.

    h_t = act(W_ih x_t + b_ih + W_hh h_(t-1) + b_hh)        h_0 = 0

The tutorial writes it h_i = σ(U h_(i-1) + V x_i + b): U is `weight_hh`, V is `weight_ih` and
b = b_ih + b_hh (torch keeps two biases; only their sum matters). torch.nn.RNN uses tanh (or
relu); `nonlinearity="sigmoid"` gives the tutorial's σ, which torch does not offer.

Worked example, d = 1, all weights 1, biases 0, tanh: x = (1, 0) gives h_1 = tanh(1) = 0.7616,
then h_2 = tanh(0 + 0.7616) = 0.6420 — the first token still echoes, a little fainter.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from explorer_core.sequence.base import RecurrentCell

ACTIVATIONS = {"tanh": torch.tanh, "relu": torch.relu, "sigmoid": torch.sigmoid}


@dataclass
class RNNStep:
    h: Tensor  # (B, d): the new hidden state
    pre: Tensor  # (B, d): before the nonlinearity, W_ih x + W_hh h + b


class RNNCell(RecurrentCell):
    """One step of the simple RNN; `nonlinearity` is "tanh" (torch's default), "relu" or "sigmoid".

    >>> cell = RNNCell(1, 1, torch.Generator().manual_seed(0))
    >>> _ = cell.requires_grad_(False)  # numbers to read, nothing to train
    >>> with torch.no_grad():
    ...     for w in cell.parameters():
    ...         _ = w.fill_(0.5)  # W_ih = W_hh = 0.5, b_ih + b_hh = 1
    >>> round(float(cell.step(torch.ones(1, 1)).h), 4)  # tanh(0.5 · 1 + 1)
    0.9051
    """

    gates = 1

    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        generator: torch.Generator,
        nonlinearity: str = "tanh",
    ) -> None:
        super().__init__(input_size, hidden_size, generator)
        if nonlinearity not in ACTIVATIONS:
            raise ValueError(f"nonlinearity must be one of {', '.join(ACTIVATIONS)}")
        self.nonlinearity = nonlinearity

    def step(self, x: Tensor, previous: RNNStep | None = None) -> RNNStep:
        """x (B, in) and the previous step (None at t = 1: h_0 = 0) -> the next step."""
        h = self.zeros(x) if previous is None else previous.h  # (B, d)
        from_x, from_h = self.projections(x, h)  # (B, d) each
        pre = from_x + from_h
        return RNNStep(h=ACTIVATIONS[self.nonlinearity](pre), pre=pre)
