"""The feed-forward n-gram window model (Bengio et al. 2003): a fixed window, no memory.

To predict token t, concatenate the embeddings of the n - 1 tokens before it and apply one tanh
layer:

    h_t = tanh(W [x_(t-n+1) ; ... ; x_(t-1)] + b)          W: (d, (n - 1)·E)

Positions before the sentence's start are zero vectors. Nothing before x_(t-n+1) can reach h_t:
a hard limit of n - 1 tokens of context, whatever the weights. # subtle: h_t does not read x_t
itself — it is the state *for predicting* x_t — so its gradient at distance 0 is exactly 0.

Worked example, n = 3: h_4 reads [x_2 ; x_3], h_1 reads [0 ; 0] (only b matters there).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from explorer_core.sequence.base import SequenceOutput, init_linear_
from explorer_core.sequence.config import NGramConfig


def windows(embeddings: Tensor, context: int) -> Tensor:
    """(B, T, E) -> (B, T, context·E): row t = [x_(t-context) ; ... ; x_(t-1)], zeros before 1.

    >>> windows(torch.tensor([[[1.0], [2.0], [3.0]]]), 2)[0].tolist()
    [[0.0, 0.0], [0.0, 1.0], [1.0, 2.0]]
    """
    length = embeddings.shape[1]
    padded = F.pad(embeddings, (0, 0, context, 0))  # (B, context + T, E): zeros in front
    # padded row t + j is x_(t - context + j); j = 0 .. context - 1 stops just before x_t
    pieces = [padded[:, j : j + length] for j in range(context)]  # context × (B, T, E)
    return torch.cat(pieces, dim=-1)  # (B, T, context·E), oldest token first


class NGramWindowModel(nn.Module):
    """embeddings (B, T, E) -> hidden states (B, T, d); records "window" (B, T, (n-1)·E)."""

    def __init__(self, config: NGramConfig, generator: torch.Generator) -> None:
        super().__init__()
        self.config = config
        with torch.random.fork_rng():  # nn.Linear draws from the global RNG: leave it untouched
            self.dense = nn.Linear(config.context * config.input_size, config.hidden_size)
        init_linear_(self.dense, generator)

    def forward(self, embeddings: Tensor) -> SequenceOutput:
        if embeddings.dim() != 3 or embeddings.shape[-1] != self.config.input_size:
            raise ValueError(
                f"embeddings must be (batch, tokens, {self.config.input_size}), "
                f"got {tuple(embeddings.shape)}"
            )
        window = windows(embeddings, self.config.context)  # (B, T, (n-1)·E)
        hidden = torch.tanh(self.dense(window))  # (B, T, d)
        return SequenceOutput(hidden, {"window": window})


def readable(length: int, context: int) -> list[list[bool]]:
    """Which tokens each position's h_t can read: row t, column s is True when 1 <= t - s <=
    context. The hard limit drawn: nothing further back, whatever the weights.

    >>> [[int(x) for x in row] for row in readable(4, 2)]
    [[0, 0, 0, 0], [1, 0, 0, 0], [1, 1, 0, 0], [0, 1, 1, 0]]
    """
    if length < 1 or context < 1:
        raise ValueError("length and context must be at least 1")
    return [[1 <= t - s <= context for s in range(length)] for t in range(length)]
