"""Which key each query may look at, as booleans, and the additive mask attention adds.

Three things block a key: padding (a whole key column), the causal mask (everything after the
query) and, in a local layer (ModernBERT), the window (keys farther than `window` positions).
They are combined as booleans, then turned into one additive mask: 0 where allowed, the dtype's
most negative number where not.
"""

from __future__ import annotations

import torch
from torch import Tensor


def allowed_keys(
    attention_mask: Tensor | None, length: int, *, causal: bool = False
) -> Tensor | None:
    """Which key each query may look at, as booleans (B or 1, T or 1, T); None when all may.

    `attention_mask` is (B, T) with 1 for a real token and 0 for padding (transformers' convention).
    Padding removes key *columns*; the causal mask removes everything above the diagonal.

    >>> allowed_keys(torch.tensor([[1, 1, 0]]), 3).int().tolist()
    [[[1, 1, 0]]]
    >>> allowed_keys(None, 3, causal=True).int().tolist()
    [[[1, 0, 0], [1, 1, 0], [1, 1, 1]]]
    """
    allowed = None
    if attention_mask is not None:
        if attention_mask.dim() != 2 or attention_mask.shape[-1] != length:
            raise ValueError(
                f"attention_mask must be (batch, {length}), got {tuple(attention_mask.shape)}"
            )
        allowed = attention_mask.bool()[:, None, :]  # (B, 1, T): one row shared by every query
    if causal:
        lower = torch.ones(length, length, dtype=torch.bool).tril()[None]  # (1, T, T)
        if attention_mask is not None:
            lower = lower.to(attention_mask.device)
        allowed = lower if allowed is None else allowed & lower  # (B, T, T)
    return allowed


def window_keys(length: int, window: int, device: torch.device | None = None) -> Tensor:
    """A local layer's keys, (1, T, T): query i sees key j when |i - j| <= window.

    ModernBERT's local layers use window = local_attention // 2 (transformers'
    `sliding_window_bidirectional_overlay`: `abs(q_idx - kv_idx) <= sliding_window`).

    >>> window_keys(4, 1).int().tolist()
    [[[1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 1]]]
    """
    index = torch.arange(length, device=device)
    return ((index[:, None] - index[None, :]).abs() <= window)[None]  # (1, T, T)


def layer_mask(
    allowed: Tensor | None, length: int, window: int | None, dtype: torch.dtype = torch.float32
) -> Tensor | None:
    """The additive mask (B, 1, T|1, T) of one layer: `allowed_keys`, and for a local layer
    (`window` not None) only the keys within its window. Combined as booleans first."""
    if window is not None:
        device = allowed.device if allowed is not None else None
        near = window_keys(length, window, device)  # (1, T, T)
        allowed = near if allowed is None else allowed & near  # (B, T, T)
    return additive_mask(allowed, dtype)


def additive_mask(allowed: Tensor | None, dtype: torch.dtype = torch.float32) -> Tensor | None:
    """Booleans (B, T|1, T) -> the additive mask (B, 1, T|1, T) that attention adds to its scores.

    # subtle: the blocked value is the dtype's most negative number, not -inf (as in transformers):
    # a row with every key blocked then gives uniform weights instead of NaN, and exp(min - max)
    # is still exactly 0, so a blocked key gets weight 0. Masks are combined as booleans first,
    # because min + min would overflow to -inf.
    """
    if allowed is None:
        return None
    blocked = torch.zeros(allowed.shape, dtype=dtype, device=allowed.device)
    blocked.masked_fill_(~allowed, torch.finfo(dtype).min)
    return blocked[:, None]  # (B, 1, T|1, T): broadcast over the heads
