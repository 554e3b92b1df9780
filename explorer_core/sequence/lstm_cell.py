"""The LSTM (Hochreiter & Schmidhuber 1997, with the forget gate of Gers et al. 2000).

Besides h_t it carries a cell state c_t that is changed only by adding and scaling, never squashed
on the way — so a gradient can travel far along it when the forget gate stays near 1:

    i = σ(W_ii x + b_ii + W_hi h + b_hi)      input gate: how much of the candidate to write
    f = σ(W_if x + b_if + W_hf h + b_hf)      forget gate: how much of c_(t-1) to keep
    g = tanh(W_ig x + b_ig + W_hg h + b_hg)   the candidate values
    o = σ(W_io x + b_io + W_ho h + b_ho)      output gate: how much of the cell to show
    c_t = f ⊙ c_(t-1) + i ⊙ g
    h_t = o ⊙ tanh(c_t)

The four blocks are stacked in torch's order i, f, g, o in `weight_ih` (4d, in) and `weight_hh`.

Worked example, d = 1, every weight and bias 0: i = f = o = σ(0) = 0.5 and g = tanh(0) = 0, so
c_1 = 0.5 · 0 + 0.5 · 0 = 0 and h_1 = 0.5 · tanh(0) = 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from explorer_core.sequence.base import RecurrentCell


@dataclass
class LSTMStep:
    h: Tensor  # (B, d): the hidden state, what the next layer reads
    c: Tensor  # (B, d): the cell state
    i: Tensor  # (B, d): input gate, in [0, 1]
    f: Tensor  # (B, d): forget gate, in [0, 1]
    g: Tensor  # (B, d): candidate, in [-1, 1]
    o: Tensor  # (B, d): output gate, in [0, 1]


class LSTMCell(RecurrentCell):
    """One LSTM step that returns every gate.

    >>> cell = LSTMCell(1, 1, torch.Generator().manual_seed(0))
    >>> _ = cell.requires_grad_(False)  # numbers to read, nothing to train
    >>> with torch.no_grad():
    ...     for w in cell.parameters():
    ...         _ = w.zero_()
    >>> step = cell.step(torch.ones(1, 1))
    >>> [round(float(v), 2) for v in (step.i, step.f, step.g, step.o, step.c, step.h)]
    [0.5, 0.5, 0.0, 0.5, 0.0, 0.0]
    """

    gates = 4

    def step(self, x: Tensor, previous: LSTMStep | None = None) -> LSTMStep:
        """x (B, in) and the previous step (None: h_0 = c_0 = 0) -> the next step."""
        h = self.zeros(x) if previous is None else previous.h  # (B, d)
        c = self.zeros(x) if previous is None else previous.c  # (B, d)
        from_x, from_h = self.projections(x, h)  # (B, 4d) each
        i, f, g, o = (from_x + from_h).chunk(4, dim=-1)  # (B, d) each, torch's order
        i, f, g, o = torch.sigmoid(i), torch.sigmoid(f), torch.tanh(g), torch.sigmoid(o)
        c = f * c + i * g  # keep some of the old cell, write some of the candidate
        return LSTMStep(h=o * torch.tanh(c), c=c, i=i, f=f, g=g, o=o)
