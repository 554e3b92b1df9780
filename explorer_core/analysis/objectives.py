"""Three pre-training objectives on one sentence: which positions carry a loss, what each reads.

For the same token ids::

    MLM (BERT)      about 15% of the non-special positions are chosen (`inputs.masking`, seeded);
                    only those carry a loss (predict the original token); every token sees all.
    causal LM (GPT) every position predicts the *next* token, so every position but the last
                    carries a loss (the last has no next token in this sentence; in a stream of
                    text it predicts the next one); token i sees tokens j <= i only.
    ELECTRA (RTD)   the MLM positions are filled by a generator's guess (here a seeded random
                    token stands in for the small generator network); a discriminator then says
                    at *every* position "replaced" or "original", and every token sees all.

Worked example (6 tokens, MLM chose position 2)::

    loss at:  MLM      . . X . . .      1 of 6
              causal   X X X X X .      5 of 6
              ELECTRA  X X X X X X      6 of 6

That is ELECTRA's argument (Clark et al. 2020): a loss at every position learns more from each
sentence than MLM's 15%; and GPT's: each position is a training example, but sees half the text.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import torch

from explorer_core.inputs.masking import IGNORE_INDEX, mask_tokens

OBJECTIVES = ("mlm", "causal", "electra")


@dataclass(frozen=True)
class ObjectiveRow:
    """One objective on one sentence; all tuples have one entry per position (T)."""

    name: str  # one of OBJECTIVES
    inputs: tuple[int, ...]  # what the model reads at each position
    loss: tuple[bool, ...]  # True where the position carries a loss
    targets: tuple[int | None, ...]  # what it predicts there: a token id, or 1/0 (replaced or
    # not) for ELECTRA; None where there is no loss
    visible: tuple[tuple[bool, ...], ...]  # (T, T): row i, column j: may token i see token j?

    @property
    def loss_share(self) -> float:
        """The share of positions that carry a loss."""
        return sum(self.loss) / len(self.loss)


def causal_visibility(length: int) -> tuple[tuple[bool, ...], ...]:
    """Query i sees key j when j <= i.

    >>> causal_visibility(3)
    ((True, False, False), (True, True, False), (True, True, True))
    """
    return tuple(tuple(j <= i for j in range(length)) for i in range(length))


def full_visibility(length: int) -> tuple[tuple[bool, ...], ...]:
    """Every token sees every token (BERT's mask over a sentence without padding)."""
    return tuple((True,) * length for _ in range(length))


def mlm_choice(
    ids: Sequence[int], *, vocab_size: int, special_ids: Iterable[int], mask_id: int, seed: int,
    mlm_probability: float = 0.15,
) -> tuple[tuple[int, ...], tuple[bool, ...]]:  # fmt: skip
    """BERT's masked input and the chosen positions (`inputs.masking.mask_tokens`, seeded).

    # subtle: 15% of a ten-token sentence is often zero positions; a draw that chose none takes
    # one non-special position (from the same generator), so the row always shows a loss. A
    # sentence made only of special tokens has nothing to choose: ValueError.
    """
    specials = set(special_ids)
    words = [i for i, tok in enumerate(ids) if tok not in specials]
    if not words:
        raise ValueError("The sentence has no ordinary tokens to mask: type at least one word")
    generator = torch.Generator().manual_seed(seed)
    tensor = torch.tensor(list(ids), dtype=torch.long)
    drawn = mask_tokens(tensor, vocab_size=vocab_size, special_ids=specials, mask_id=mask_id,
                        generator=generator, mlm_probability=mlm_probability)  # fmt: skip
    chosen = drawn.labels != IGNORE_INDEX  # (T,)
    inputs = drawn.input_ids.clone()
    if not bool(chosen.any()):
        pick = words[int(torch.randint(len(words), (1,), generator=generator))]
        chosen[pick], inputs[pick] = True, mask_id
    return tuple(inputs.tolist()), tuple(chosen.tolist())


def objective_rows(
    ids: Sequence[int], *, vocab_size: int, special_ids: Iterable[int], mask_id: int,
    seed: int = 0, mlm_probability: float = 0.15,
) -> tuple[ObjectiveRow, ObjectiveRow, ObjectiveRow]:  # fmt: skip
    """MLM, causal LM and ELECTRA replaced-token detection on `ids` (see the module docstring).

    Same seed, same MLM positions and the same ELECTRA replacements.
    """
    ids = tuple(int(i) for i in ids)
    if len(ids) < 2:
        raise ValueError("The sentence needs at least two tokens to compare objectives")
    length = len(ids)
    masked, chosen = mlm_choice(ids, vocab_size=vocab_size, special_ids=special_ids,
                                mask_id=mask_id, seed=seed,
                                mlm_probability=mlm_probability)  # fmt: skip
    mlm = ObjectiveRow("mlm", masked, chosen,
                       tuple(tok if c else None for tok, c in zip(ids, chosen, strict=True)),
                       full_visibility(length))  # fmt: skip
    causal = ObjectiveRow("causal", ids, tuple(i < length - 1 for i in range(length)),
                          (*ids[1:], None), causal_visibility(length))  # fmt: skip
    # the generator's guesses at the MLM positions; a guess equal to the original counts as
    # "original" (ELECTRA labels by the token, not by whether it was sampled)
    generator = torch.Generator().manual_seed(seed + 1)
    guesses = torch.randint(vocab_size, (length,), generator=generator).tolist()
    corrupted = tuple(g if c else tok for tok, g, c in zip(ids, guesses, chosen, strict=True))
    replaced = tuple(int(a != b) for a, b in zip(corrupted, ids, strict=True))
    electra = ObjectiveRow("electra", corrupted, (True,) * length, replaced,
                           full_visibility(length))  # fmt: skip
    return mlm, causal, electra
