"""From logits to text: the next token's distribution, reshaped, then sampled one token at a time.

For the last position's logits z (V,), in this order (transformers' warpers do the same):

    1) temperature   p = softmax(z / T): T < 1 sharpens, T > 1 flattens, T -> 0 is the argmax
    2) top-k         keep the k most likely tokens, renormalise (k = 1: greedy)
    3) top-p         keep the most likely tokens until their mass reaches p (the nucleus):
                     token i, in falling order, stays when the mass before it is below p

Ties are broken by id: of two equally likely tokens the smaller id ranks first.
Worked example, probabilities [0.5, 0.3, 0.2] at T = 1: top-k 2 keeps [0.625, 0.375, 0];
top-p 0.6 keeps the first two too (mass before them 0 and 0.5, before the third 0.8);
top-p 0.4 keeps only the first (the mass before the second is 0.5, not below 0.4).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from explorer_core.tokenization.base import Tokenizer


@dataclass(frozen=True)
class TokenDistribution:
    """The next token after a prompt: every vocabulary entry, in id order."""

    token_ids: tuple[int, ...]
    tokens: tuple[str, ...]  # each token as text (bytes that are not whole characters shown as ?)
    probabilities: tuple[float, ...]  # softmax(logits): the model's own, temperature 1
    adjusted: tuple[float, ...]  # after temperature, top-k and top-p (0 for a removed token)

    def top(self, n: int = 10, adjusted: bool = False) -> list[tuple[int, str, float]]:
        """The n most likely (id, token, probability), ties by id."""
        values = self.adjusted if adjusted else self.probabilities
        order = sorted(range(len(values)), key=lambda i: (-values[i], i))[:n]
        return [(self.token_ids[i], self.tokens[i], values[i]) for i in order]


def check_sampling(temperature: float, top_k: int | None, top_p: float | None) -> None:
    if not temperature > 0:
        raise ValueError(f"temperature must be above 0 (use top_k=1 for greedy), got {temperature}")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int) or top_k < 1):
        raise ValueError(f"top_k must be a whole number of at least 1, got {top_k!r}")
    if top_p is not None and not 0.0 < top_p <= 1.0:
        raise ValueError(f"top_p must be in (0, 1], got {top_p}")


def reshape(
    logits: Tensor, temperature: float = 1.0, top_k: int | None = None, top_p: float | None = None
) -> Tensor:
    """Steps 1-3 on one logit vector (V,) -> probabilities (V,) that sum to 1.

    >>> z = torch.log(torch.tensor([0.5, 0.3, 0.2]))
    >>> [round(p, 3) for p in reshape(z, top_k=2).tolist()]
    [0.625, 0.375, 0.0]
    >>> [round(p, 3) for p in reshape(z, top_p=0.4).tolist()]
    [1.0, 0.0, 0.0]
    """
    check_sampling(temperature, top_k, top_p)
    probs = torch.softmax(logits.double() / temperature, dim=-1)  # 1) (V,)
    # stable sort of -p: falling probability, ties by id
    order = torch.sort(-probs, stable=True).indices  # (V,)
    keep = torch.ones_like(probs, dtype=torch.bool)
    if top_k is not None:  # 2)
        keep[order[top_k:]] = False
    if top_p is not None:  # 3) the mass before each token, in falling order, among those kept
        ranked = torch.where(keep[order], probs[order], torch.zeros_like(probs))
        before = ranked.cumsum(0) - ranked  # (V,)
        keep[order[before >= top_p]] = False
    kept = torch.where(keep, probs, torch.zeros_like(probs))
    return kept / kept.sum()


def _prompt_ids(tokenizer: Tokenizer, prompt: str, limit: int) -> list[int]:
    if not prompt or not prompt.strip():
        raise ValueError("the prompt is empty: give the decoder some text to continue")
    ids = tokenizer.encode(prompt)
    if not ids:
        raise ValueError("the prompt gives no tokens")
    return ids[-limit:]  # the model sees at most block_size tokens: the most recent ones


@torch.no_grad()
def next_token_distribution(
    model: nn.Module,
    tokenizer: Tokenizer,
    prompt: str,
    *,
    temperature: float = 1.0,
    top_k: int | None = None,
    top_p: float | None = None,
) -> TokenDistribution:
    """The decoder's distribution over the token after `prompt`, raw and reshaped."""
    check_sampling(temperature, top_k, top_p)
    ids = _prompt_ids(tokenizer, prompt, model.config.max_position_embeddings)
    logits = model(torch.tensor([ids]))[0, -1]  # (V,): the last position predicts what follows
    raw = torch.softmax(logits.double(), dim=-1)
    adjusted = reshape(logits, temperature, top_k, top_p)
    known = getattr(tokenizer, "token_bytes", {})
    tokens = tuple(
        known[i].decode("utf-8", errors="replace") if i in known else f"<{i}>"
        for i in range(len(raw))
    )
    return TokenDistribution(tuple(range(len(raw))), tokens, tuple(raw.tolist()),
                             tuple(adjusted.tolist()))  # fmt: skip


@torch.no_grad()
def generate(
    model: nn.Module,
    tokenizer: Tokenizer,
    prompt: str,
    *,
    max_new_tokens: int = 40,
    temperature: float = 1.0,
    top_k: int | None = None,
    top_p: float | None = None,
    seed: int = 0,
) -> str:
    """The continuation of `prompt` (without it): `max_new_tokens` tokens drawn one at a time
    from the reshaped distribution with a `torch.Generator` seeded by `seed`; top_k=1 is greedy."""
    check_sampling(temperature, top_k, top_p)
    if (
        isinstance(max_new_tokens, bool)
        or not isinstance(max_new_tokens, int)
        or max_new_tokens < 0
    ):
        raise ValueError(
            f"max_new_tokens must be a whole number, 0 or more, got {max_new_tokens!r}"
        )
    limit = model.config.max_position_embeddings
    ids = _prompt_ids(tokenizer, prompt, limit)
    generator = torch.Generator().manual_seed(seed)
    new: list[int] = []
    for _ in range(max_new_tokens):
        context = (ids + new)[-limit:]  # a learned position table ends at block_size
        logits = model(torch.tensor([context]))[0, -1]  # (V,)
        probs = reshape(logits, temperature, top_k, top_p)
        new.append(int(torch.multinomial(probs, 1, generator=generator)))
    return tokenizer.decode(new)
