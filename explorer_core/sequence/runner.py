"""Running a cell along a sentence: a plain Python loop, one step per token, every state kept.

    forward:        h_1 = cell(x_1, h_0), h_2 = cell(x_2, h_1), ..., h_T        (B, T, d)
    backward:       the same cell type reading x_T, ..., x_1; its row t has read x_t ... x_T
    bidirectional:  row t = [forward h_t ; backward h_t]                          (B, T, 2d)

Step t cannot start before step t - 1 has finished: T steps one after another, however many
cores there are (attention computes all T rows in one matmul). `Unrolled.sequential_steps`
counts the steps the loop really ran.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor

from explorer_core.sequence.base import RecurrentCell, stack_steps


@dataclass
class Unrolled:
    hidden_states: Tensor  # (B, T, d), or (B, T, 2d) bidirectional; row t is position t
    steps: dict[str, Tensor]  # every field of the cell's step ("h", "c", "i", ...), (B, T, d)
    sequential_steps: int  # how many cell steps ran one after another


def unroll(cell: RecurrentCell, inputs: Tensor, reverse: bool = False) -> Unrolled:
    """Run `cell` over inputs (B, T, in) from h_0 = 0; reverse=True reads right to left.

    >>> from explorer_core.sequence.rnn_cell import RNNCell
    >>> cell = RNNCell(3, 2, torch.Generator().manual_seed(0))
    >>> out = unroll(cell, torch.zeros(5, 4, 3))
    >>> tuple(out.hidden_states.shape), out.sequential_steps
    ((5, 4, 2), 4)
    """
    if inputs.dim() != 3 or inputs.shape[1] < 1:
        raise ValueError(f"inputs must be (batch, tokens >= 1, width), got {tuple(inputs.shape)}")
    order = range(inputs.shape[1] - 1, -1, -1) if reverse else range(inputs.shape[1])
    records, previous = [], None
    for t in order:  # subtle: a real loop; step t needs step t - 1's output
        previous = cell.step(inputs[:, t], previous)  # (B, d) fields
        records.append(previous)
    if reverse:
        records.reverse()  # row t again holds position t (having read x_t ... x_T)
    steps = stack_steps(records)  # {name: (B, T, d)}
    return Unrolled(steps["h"], steps, sequential_steps=len(records))


def unroll_bidirectional(
    forward_cell: RecurrentCell, backward_cell: RecurrentCell, inputs: Tensor
) -> Unrolled:
    """Both directions over inputs (B, T, in): hidden states (B, T, 2d), forward half first
    (torch's layout); steps are named "name" (forward) and "name_reverse"."""
    ahead = unroll(forward_cell, inputs)
    behind = unroll(backward_cell, inputs, reverse=True)
    hidden = torch.cat([ahead.hidden_states, behind.hidden_states], dim=-1)  # (B, T, 2d)
    steps = dict(ahead.steps) | {f"{k}_reverse": v for k, v in behind.steps.items()}
    # the two chains could run side by side: the longer one sets the count
    return Unrolled(hidden, steps, max(ahead.sequential_steps, behind.sequential_steps))
