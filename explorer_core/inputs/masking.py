"""BERT's masked-language-model inputs: which tokens to hide, and what to put in their place.

The procedure (transformers' `DataCollatorForLanguageModeling.torch_mask_tokens`, same draws in
the same order, so the same generator state gives the same result):

1. Every non-special token is *selected* independently with probability 0.15 (a Bernoulli draw per
   token; special tokens such as [CLS], [SEP] and [PAD] have probability 0, so they are never
   selected: there is nothing to learn from predicting them, and [PAD] is not text).
2. A selected token becomes [MASK] with probability 0.8.
3. A selected token not masked becomes a random id (uniform over the whole vocabulary) with
   probability 0.5, i.e. 10% of the selected.
4. The remaining 10% of the selected keep their token.

Labels are the original id at every selected position and -100 (no loss) everywhere else, so the
loss is computed only at the selected 15%, including the kept and random ones: the model cannot
tell which visible tokens it will be asked about. Of all non-special tokens, on average 12% are
masked, 1.5% random and 1.5% kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import torch
from torch import Tensor

IGNORE_INDEX = -100
KINDS = ("none", "mask", "random", "keep")  # kind codes 0..3 in `MaskedTokens.kinds`
NONE, MASK, RANDOM, KEEP = range(4)
MASK_REPLACE = 0.8  # of the selected: become [MASK]
RANDOM_REPLACE = 0.1  # of the selected: become a random token (the other 0.1 are kept)


@dataclass(frozen=True)
class MaskedTokens:
    """One masking draw: the model's input, the labels and what happened at each position."""

    input_ids: Tensor  # (..., T) the ids the model sees
    labels: Tensor  # (..., T) the original id where selected, -100 elsewhere
    kinds: Tensor  # (..., T) 0 none, 1 mask, 2 random, 3 keep (see KINDS)

    def counts(self) -> dict[str, int]:
        """How many positions of each kind, e.g. {"none": 54, "mask": 9, "random": 0, "keep": 1}."""
        return {name: int((self.kinds == code).sum()) for code, name in enumerate(KINDS)}


def special_mask(input_ids: Tensor, special_ids: Iterable[int]) -> Tensor:
    """True where the id is a special token.

    >>> special_mask(torch.tensor([101, 7, 102, 0]), {0, 101, 102}).tolist()
    [True, False, True, True]
    """
    specials = torch.tensor(sorted(set(special_ids)), dtype=input_ids.dtype)
    return torch.isin(input_ids, specials)


def mask_tokens(
    input_ids: Tensor,
    *,
    vocab_size: int,
    special_ids: Iterable[int],
    mask_id: int,
    generator: torch.Generator,
    mlm_probability: float = 0.15,
) -> MaskedTokens:
    """Select, replace and label tokens for MLM (see the module docstring for the procedure).

    `input_ids` is (T,) or (B, T); it is not modified. Worked example of the counts: a batch of
    1,000 non-special tokens gets about 150 selected, of which about 120 [MASK], 15 random, 15 kept.
    """
    if not 0.0 < mlm_probability < 1.0:
        raise ValueError(f"mlm_probability must be between 0 and 1, got {mlm_probability}")
    if not 0 <= mask_id < vocab_size:
        raise ValueError(f"the mask id {mask_id} is outside the vocabulary of {vocab_size}")
    if input_ids.dtype != torch.long:
        raise ValueError(f"input_ids must be a LongTensor of ids, got {input_ids.dtype}")
    shape = input_ids.shape
    probability = torch.full(shape, mlm_probability)
    probability.masked_fill_(special_mask(input_ids, special_ids), 0.0)
    # 1) select 15% of the non-special tokens
    selected = torch.bernoulli(probability, generator=generator).bool()
    labels = input_ids.masked_fill(~selected, IGNORE_INDEX)
    # 2) 80% of the selected become [MASK]
    masked = torch.bernoulli(torch.full(shape, MASK_REPLACE), generator=generator).bool() & selected
    # 3) half of the remaining 20% become a random token
    half = RANDOM_REPLACE / (1.0 - MASK_REPLACE)
    randomised = torch.bernoulli(torch.full(shape, half), generator=generator).bool()
    randomised &= selected & ~masked
    random_ids = torch.randint(vocab_size, shape, dtype=torch.long, generator=generator)
    # 4) the rest of the selected keep their token
    return apply_masks(input_ids, labels, selected, masked, randomised, random_ids, mask_id)


def apply_masks(
    input_ids: Tensor, labels: Tensor, selected: Tensor, masked: Tensor, randomised: Tensor,
    random_ids: Tensor, mask_id: int,
) -> MaskedTokens:  # fmt: skip
    """The inputs and kinds of a draw: [MASK] where `masked`, `random_ids` where `randomised`,
    the token itself elsewhere (`selected` and neither: kept)."""
    inputs = torch.where(randomised, random_ids, input_ids.masked_fill(masked, mask_id))
    kinds = torch.full(input_ids.shape, NONE, dtype=torch.long)
    kinds[selected] = KEEP
    kinds[masked] = MASK
    kinds[randomised] = RANDOM
    return MaskedTokens(inputs, labels, kinds)


def running_shares(
    input_ids: Tensor,
    *,
    draws: int,
    vocab_size: int,
    special_ids: Iterable[int],
    mask_id: int,
    generator: torch.Generator,
) -> dict[str, Tensor]:
    """Mask the same ids `draws` times; the running share of each kind among the non-special
    tokens after each draw: {"mask": (draws,), "random": (draws,), "keep": (draws,)}.

    The shares converge to 0.12, 0.015 and 0.015 (the law of large numbers at work).
    """
    if draws < 1:
        raise ValueError(f"draws must be at least 1, got {draws}")
    row = input_ids.reshape(1, -1)
    eligible = int((~special_mask(row, special_ids)).sum())
    if eligible == 0:
        raise ValueError("there is no token to mask: every token is a special token")
    result = mask_tokens(
        row.expand(draws, -1).contiguous(), vocab_size=vocab_size, special_ids=special_ids,
        mask_id=mask_id, generator=generator,
    )  # fmt: skip
    seen = eligible * torch.arange(1, draws + 1, dtype=torch.float64)  # tokens seen so far
    return {
        KINDS[code]: (result.kinds == code).sum(dim=1).cumsum(0).double() / seen
        for code in (MASK, RANDOM, KEEP)
    }
