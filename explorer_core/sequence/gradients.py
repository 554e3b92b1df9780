"""How strongly the last position still feels each earlier token: ‖∂h_L/∂x_t‖ by distance.

For one sentence x_1 ... x_L (embeddings (1, L, E)) and a model's last hidden state h_L (width d),
autograd gives the Jacobian J_t = ∂h_L/∂x_t, a (d, E) matrix, for every position t; its
Frobenius norm ‖J_t‖ = √(Σ_ij (∂h_L,i / ∂x_t,j)²) says how much a small change to token t moves
h_L. Listed by distance L - t = 0, 1, ..., L - 1. An RNN's product of L - t step Jacobians tends
to shrink (or blow up) with distance; attention reaches every token in one step.

Worked example: for h = tanh(w·x) at one position (L = 1, E = d = 1, w = 1, x = 0) the only
distance is 0 and ‖J‖ = 1 - tanh(0)² = 1.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
from torch import Tensor

from explorer_core.sequence.base import SequenceOutput


@dataclass(frozen=True)
class GradientOverDistance:
    distances: tuple[int, ...]  # 0, 1, ..., L - 1
    norms: tuple[float, ...]  # ‖∂h_L/∂x_(L - distance)‖, one per distance


def last_state_jacobian(model: Callable[[Tensor], SequenceOutput], embeddings: Tensor) -> Tensor:
    """∂h_L/∂x for embeddings (1, L, E): (d, L, E), one backward pass per output unit."""
    if embeddings.dim() != 3 or embeddings.shape[0] != 1 or embeddings.shape[1] < 1:
        raise ValueError(
            f"embeddings must be (1, tokens >= 1, width), got {tuple(embeddings.shape)}"
        )
    x = embeddings.detach().clone().requires_grad_(True)  # (1, L, E)
    with torch.enable_grad():
        last = model(x).hidden_states[0, -1]  # (d,): h_L
        rows = []
        for unit in range(last.shape[0]):  # one row of the Jacobian per unit of h_L
            (grad,) = torch.autograd.grad(last[unit], x, retain_graph=True, allow_unused=True)
            rows.append(torch.zeros_like(x[0]) if grad is None else grad[0])  # (L, E)
    return torch.stack(rows)  # (d, L, E)


def gradient_over_distance(
    model: Callable[[Tensor], SequenceOutput], embeddings: Tensor
) -> GradientOverDistance:
    """‖∂h_L/∂x_t‖ for every t of embeddings (1, L, E), listed by distance L - t.

    >>> from explorer_core.sequence.config import RecurrentConfig
    >>> from explorer_core.sequence.recurrent import RecurrentModel
    >>> rnn = RecurrentModel(RecurrentConfig(input_size=4, hidden_size=3),
    ...                      torch.Generator().manual_seed(0))
    >>> result = gradient_over_distance(rnn, torch.randn(1, 6, 4, generator=torch.Generator()))
    >>> result.distances
    (0, 1, 2, 3, 4, 5)
    """
    jacobian = last_state_jacobian(model, embeddings)  # (d, L, E)
    norms = jacobian.pow(2).sum(dim=(0, 2)).sqrt()  # (L,): position t's ‖J_t‖
    by_distance = norms.flip(0)  # index L - 1 - t: distance 0 is the last position itself
    return GradientOverDistance(tuple(range(len(by_distance))), tuple(by_distance.tolist()))
