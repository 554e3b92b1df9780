"""Pooling: from one vector per token to one vector per sentence.

A BERT encoder returns a (B, T, H) tensor: one hidden vector per token. Sentence-embedding models
(Sentence-BERT, all-MiniLM-L6-v2, the Chinese tutorial) turn it into one (B, H) vector per sentence.
Three classic choices:

- ``mean``: average over the real tokens, padding excluded (Sentence-BERT's default and ours);
- ``cls``: the vector of the first token, [CLS] (what BERT's NSP head reads);
- ``max``: the largest value of each feature over the real tokens.

Worked example (one sentence of two real tokens and one padding position, H = 2)::

    hidden = [[1, 2], [3, 6], [100, 100]], mask = [1, 1, 0]
    mean -> [(1 + 3) / 2, (2 + 6) / 2] = [2, 4]
    cls  -> [1, 2]
    max  -> [3, 6]          (the padding row [100, 100] is never seen)
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn

from explorer_core.bert.config import POOLING_MODES  # the settings table reads it without torch


def _check_mode(mode: str) -> None:
    if mode not in POOLING_MODES:
        raise ValueError(f"pooling must be one of {', '.join(POOLING_MODES)}, got {mode!r}")


def mean_pool(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """Average of the token vectors where ``attention_mask`` is 1.

    >>> h = torch.tensor([[[1.0, 2.0], [3.0, 6.0], [100.0, 100.0]]])
    >>> mean_pool(h, torch.tensor([[1, 1, 0]])).tolist()
    [[2.0, 4.0]]
    """
    weights = attention_mask.to(hidden.dtype).unsqueeze(-1)  # (B, T, 1)
    summed = (hidden * weights).sum(dim=1)  # (B, H)
    # subtle: clamp as sentence-transformers does, so an all-padding row gives 0, not NaN
    counts = weights.sum(dim=1).clamp(min=1e-9)  # (B, 1)
    return summed / counts


def max_pool(hidden: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
    """Largest value of each feature over the tokens where ``attention_mask`` is 1.

    >>> h = torch.tensor([[[1.0, -2.0], [3.0, -6.0], [100.0, 100.0]]])
    >>> max_pool(h, torch.tensor([[1, 1, 0]])).tolist()
    [[3.0, -2.0]]
    """
    keep = attention_mask.bool().unsqueeze(-1)  # (B, T, 1)
    filled = hidden.masked_fill(~keep, torch.finfo(hidden.dtype).min)  # (B, T, H)
    pooled = filled.max(dim=1).values  # (B, H)
    # an all-padding row would be -inf-like; give it zeros instead
    return torch.where(keep.any(dim=1), pooled, torch.zeros_like(pooled))


def cls_pool(hidden: torch.Tensor, attention_mask: torch.Tensor | None = None) -> torch.Tensor:
    """The first token's vector ([CLS] in BERT's inputs); the mask is not needed.

    >>> cls_pool(torch.tensor([[[1.0, 2.0], [3.0, 6.0]]])).tolist()
    [[1.0, 2.0]]
    """
    return hidden[:, 0]  # (B, H)


def pool(hidden: torch.Tensor, attention_mask: torch.Tensor, mode: str = "mean") -> torch.Tensor:
    """Pool (B, T, H) token vectors into (B, H) sentence vectors with ``mode`` (see module doc)."""
    _check_mode(mode)
    if hidden.dim() != 3 or attention_mask.shape != hidden.shape[:2]:
        raise ValueError(
            f"expected hidden (B, T, H) and mask (B, T), got {tuple(hidden.shape)} and "
            f"{tuple(attention_mask.shape)}"
        )
    if mode == "mean":
        return mean_pool(hidden, attention_mask)
    if mode == "max":
        return max_pool(hidden, attention_mask)
    return cls_pool(hidden)


class SentenceEncoder(nn.Module):
    """A BERT encoder plus pooling: token ids in, one vector per sentence out.

    ``model`` is an ``explorer_core.bert.model.BertModel`` (anything whose forward returns an object
    with ``last_hidden_state`` works). The same module encodes both sides of a pair (a *siamese*
    network: one set of weights). ``normalize=True`` divides each vector by its length, so a dot
    product of two outputs is their cosine.

    In use (a sketch; the tests run the real thing)::

        encoder = SentenceEncoder(BertModel(config), pooling="mean")
        vectors = encoder.encode(ids, mask)                       # (B, H)
    """

    def __init__(self, model: nn.Module, pooling: str = "mean", normalize: bool = False) -> None:
        super().__init__()
        _check_mode(pooling)
        self.model = model
        self.pooling = pooling
        self.normalize = normalize

    def forward(
        self,
        input_ids: torch.Tensor,
        attention_mask: torch.Tensor | None = None,
        token_type_ids: torch.Tensor | None = None,
    ) -> torch.Tensor:
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        out = self.model(input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
        vectors = pool(out.last_hidden_state, attention_mask, self.pooling)  # (B, H)
        if self.normalize:
            vectors = F.normalize(vectors, p=2, dim=-1)
        return vectors

    def encode(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Sentence vectors (B, H) without gradients, in eval mode (no dropout).

        Every submodule gets back the mode it had: the wrapped model may be shared (a cached
        pretrained model serves every page and session) and must stay as it was.
        """
        # subtle: self.train(flag) would set the flag on every submodule, turning a shared
        # eval-mode model into training mode (dropout on) just because this wrapper is new.
        modes = [(module, module.training) for module in self.modules()]
        self.eval()
        try:
            with torch.no_grad():
                return self(input_ids, attention_mask)
        finally:
            for module, mode in modes:
                module.training = mode
