"""What every sequence model here shares: its output, the seeded initialisation, a cell's weights.

Every model maps embeddings (B, T, E) to one hidden state per token (B, T, width) and returns a
`SequenceOutput`: the hidden states plus, per name, whatever a page may want to show (an LSTM's
gates, attention's weights), each (B, T, ...). Weights are drawn like torch's defaults,
U(-1/√fan, 1/√fan), but from an explicit `torch.Generator`, never the global RNG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields

import torch
from torch import Tensor, nn


@dataclass
class SequenceOutput:
    hidden_states: Tensor  # (B, T, width): one row per token
    records: dict[str, Tensor] = field(default_factory=dict)  # e.g. "l0.i": (B, T, d)
    sequential_steps: int = 1  # steps that ran one after another (a recurrent loop: T per layer)


def uniform_(tensor: Tensor, bound: float, generator: torch.Generator) -> Tensor:
    """Fill `tensor` in place with U(-bound, bound) drawn from `generator`."""
    with torch.no_grad():
        tensor.uniform_(-bound, bound, generator=generator)
    return tensor


def init_linear_(linear: nn.Linear, generator: torch.Generator) -> None:
    """nn.Linear's default, U(-1/√in, 1/√in) for weight and bias, from `generator`."""
    bound = 1.0 / math.sqrt(linear.in_features)
    uniform_(linear.weight, bound, generator)
    if linear.bias is not None:
        uniform_(linear.bias, bound, generator)


class RecurrentCell(nn.Module):
    """One step of a recurrent model: torch's four tensors, `gates` blocks of d rows each.

    weight_ih (G·d, in), weight_hh (G·d, d), bias_ih (G·d,), bias_hh (G·d,): G = 1 (RNN),
    4 (LSTM: i, f, g, o) or 3 (GRU: r, z, n), stacked in torch's order, so torch's
    `weight_ih_l0` copies in as it is. All four start U(-1/√d, 1/√d), as in torch.
    """

    gates = 1

    def __init__(self, input_size: int, hidden_size: int, generator: torch.Generator) -> None:
        super().__init__()
        self.input_size, self.hidden_size = input_size, hidden_size
        rows = self.gates * hidden_size
        self.weight_ih = nn.Parameter(torch.empty(rows, input_size))
        self.weight_hh = nn.Parameter(torch.empty(rows, hidden_size))
        self.bias_ih = nn.Parameter(torch.empty(rows))
        self.bias_hh = nn.Parameter(torch.empty(rows))
        for weight in (self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh):
            uniform_(weight, 1.0 / math.sqrt(hidden_size), generator)

    def zeros(self, x: Tensor) -> Tensor:
        """h_0 = 0 for a batch of inputs x (B, in): (B, d)."""
        return x.new_zeros(x.shape[0], self.hidden_size)

    def projections(self, x: Tensor, h: Tensor) -> tuple[Tensor, Tensor]:
        """(W_ih x + b_ih, W_hh h + b_hh), each (B, G·d): every gate's two halves at once."""
        return x @ self.weight_ih.T + self.bias_ih, h @ self.weight_hh.T + self.bias_hh


def stack_steps(steps: list) -> dict[str, Tensor]:
    """One record per time step (dataclasses of (B, d) tensors) -> {field: (B, T, d)}."""
    return {
        f.name: torch.stack([getattr(s, f.name) for s in steps], dim=1) for f in fields(steps[0])
    }
