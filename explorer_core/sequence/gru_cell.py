"""The GRU (Cho et al. 2014): an LSTM's idea with two gates and no separate cell state.

    r = σ(W_ir x + b_ir + W_hr h + b_hr)              reset gate: how much of h the candidate sees
    z = σ(W_iz x + b_iz + W_hz h + b_hz)              update gate: how much of h to keep
    n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))     the candidate
    h_t = (1 - z) ⊙ n + z ⊙ h_(t-1)

Blocks stacked in torch's order r, z, n. # subtle: r multiplies W_hn h + b_hn *with* its bias
(torch's and cuDNN's form), not h before the matmul as in Cho et al.'s paper; only this form
matches torch.nn.GRU.

Worked example, d = 1, every weight and bias 0: r = z = 0.5 and n = tanh(0) = 0, so
h_1 = 0.5 · 0 + 0.5 · h_0 = 0.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from explorer_core.sequence.base import RecurrentCell


@dataclass
class GRUStep:
    h: Tensor  # (B, d): the new hidden state
    r: Tensor  # (B, d): reset gate, in [0, 1]
    z: Tensor  # (B, d): update gate, in [0, 1]
    n: Tensor  # (B, d): candidate, in [-1, 1]


class GRUCell(RecurrentCell):
    """One GRU step that returns its gates.

    >>> cell = GRUCell(1, 1, torch.Generator().manual_seed(0))
    >>> _ = cell.requires_grad_(False)  # numbers to read, nothing to train
    >>> with torch.no_grad():
    ...     for w in cell.parameters():
    ...         _ = w.zero_()
    >>> step = cell.step(torch.ones(1, 1))
    >>> [round(float(v), 2) for v in (step.r, step.z, step.n, step.h)]
    [0.5, 0.5, 0.0, 0.0]
    """

    gates = 3

    def step(self, x: Tensor, previous: GRUStep | None = None) -> GRUStep:
        """x (B, in) and the previous step (None: h_0 = 0) -> the next step."""
        h = self.zeros(x) if previous is None else previous.h  # (B, d)
        from_x, from_h = self.projections(x, h)  # (B, 3d) each
        x_r, x_z, x_n = from_x.chunk(3, dim=-1)  # (B, d) each
        h_r, h_z, h_n = from_h.chunk(3, dim=-1)
        r = torch.sigmoid(x_r + h_r)
        z = torch.sigmoid(x_z + h_z)
        n = torch.tanh(x_n + r * h_n)  # subtle: r scales W_hn h + b_hn, bias included
        return GRUStep(h=(1 - z) * n + z * h, r=r, z=z, n=n)
