"""Sentence vectors from a decoder, whose token i has seen only tokens 1 .. i.

An encoder's mean pooling weighs every token's vector equally, and every vector has read the whole
sentence. A decoder's vector at position i has read only the first i tokens, so the modes differ:

    mean            (1/L) Σ_i h_i: every position counts once; early positions know little
    weighted_mean   Σ_i w_i h_i with w_i ∝ i (1-based; SGPT, Muennighoff 2022): later
                    positions, which have read more, count more
    last            h_L of the last real token: the only position that has read everything

`causal_mean_shares(L)` says how much each *input token* can shape a causal mean: token j is
seen by positions j .. L, that is L - j + 1 of the L vectors averaged, so its share is
(L - j + 1) / L before normalising; the shares are then divided by their sum, L(L + 1) / 2 / L
= (L + 1) / 2, so they add up to 1: share_j = 2 (L - j + 1) / (L (L + 1)). Worked example, L = 4:
seen by 4, 3, 2, 1 positions -> 4/10, 3/10, 2/10, 1/10. The first token shapes the mean most.

>>> causal_mean_shares(4)
[0.4, 0.3, 0.2, 0.1]
"""

from __future__ import annotations

import torch
from torch import Tensor

DECODER_POOLING_MODES = ("mean", "weighted_mean", "last")


def causal_mean_shares(length: int) -> list[float]:
    """Each 1-based token j's share of a causal mean over `length` tokens (they sum to 1)."""
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise ValueError(f"length must be a whole number of at least 1, got {length!r}")
    total = length * (length + 1) / 2  # Σ_j (L - j + 1)
    return [(length - j + 1) / total for j in range(1, length + 1)]


def position_weights(mask: Tensor) -> Tensor:
    """SGPT's weights (B, T): w_i ∝ i over the real tokens (1-based), 0 on padding, rows sum to 1.

    >>> position_weights(torch.tensor([[1, 1, 1, 0]])).tolist()
    [[0.16666666666666666, 0.3333333333333333, 0.5, 0.0]]
    """
    mask = mask.double()
    ranks = mask.cumsum(dim=1) * mask  # (B, T): 1, 2, 3, ... on real tokens, 0 on pads
    return ranks / ranks.sum(dim=1, keepdim=True).clamp(min=1.0)


def decoder_pooling(hidden: Tensor, mask: Tensor, mode: str = "mean") -> Tensor:
    """One vector per row (B, H) from token vectors (B, T, H) and the attention mask (B, T),
    1 for a real token (padding on the right or anywhere: the "last" real token is the one
    with the highest index whose mask is 1)."""
    if mode not in DECODER_POOLING_MODES:
        raise ValueError(f"mode must be one of {', '.join(DECODER_POOLING_MODES)}, got {mode!r}")
    if hidden.dim() != 3 or mask.shape != hidden.shape[:2]:
        raise ValueError(f"hidden (B, T, H) and mask (B, T) do not fit: {tuple(hidden.shape)}, "
                         f"{tuple(mask.shape)}")  # fmt: skip
    if not bool(mask.bool().any(dim=1).all()):
        raise ValueError("every row needs at least one real token (mask 1)")
    if mode == "last":
        index = torch.arange(mask.shape[1], device=mask.device)  # (T,)
        last = (mask.bool() * index).amax(dim=1)  # (B,): the highest real position
        return hidden[torch.arange(hidden.shape[0]), last]  # (B, H)
    if mode == "mean":
        weights = mask.double() / mask.double().sum(dim=1, keepdim=True)  # (B, T)
    else:
        weights = position_weights(mask)  # (B, T)
    return (hidden * weights.to(hidden.dtype)[:, :, None]).sum(dim=1)  # (B, H)
