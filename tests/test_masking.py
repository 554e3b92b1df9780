"""MLM masking: same draws as transformers' collator, 15% / 80-10-10 statistics, specials, seeds."""

from __future__ import annotations

import pytest
import torch
import transformers

from explorer_core.inputs.masking import (
    IGNORE_INDEX,
    KEEP,
    MASK,
    NONE,
    RANDOM,
    mask_tokens,
    running_shares,
)

VOCAB, MASK_ID, PAD, CLS, SEP = 1000, 4, 0, 2, 3
SPECIALS = {PAD, 1, CLS, SEP, MASK_ID}


def corpus(rows: int, length: int, seed: int = 0) -> torch.Tensor:
    """[CLS] words [SEP] [PAD]... rows with words drawn from ids 5..999."""
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(5, VOCAB, (rows, length), generator=g)
    lengths = torch.randint(3, length + 1, (rows,), generator=g)
    ids[:, 0] = CLS
    ids[torch.arange(rows), lengths - 1] = SEP
    ids[torch.arange(length)[None, :] >= lengths[:, None]] = PAD
    return ids


def draw(ids: torch.Tensor, seed: int):
    return mask_tokens(
        ids, vocab_size=VOCAB, special_ids=SPECIALS, mask_id=MASK_ID,
        generator=torch.Generator().manual_seed(seed),
    )  # fmt: skip


def test_statistics_over_a_large_sample():
    ids = corpus(400, 256)
    result = draw(ids, seed=1)
    words = ~torch.isin(ids, torch.tensor(sorted(SPECIALS)))
    n = int(words.sum())
    assert n > 50_000
    share = {kind: float((result.kinds == kind).sum()) / n for kind in (MASK, RANDOM, KEEP)}
    selected = (result.kinds != NONE).sum() / n
    # binomial standard deviations at n ≈ 60k: 0.0015 (15%), 0.0013 (12%), 0.0005 (1.5%)
    assert float(selected) == pytest.approx(0.15, abs=0.006)
    assert share[MASK] == pytest.approx(0.12, abs=0.005)
    assert share[RANDOM] == pytest.approx(0.015, abs=0.002)
    assert share[KEEP] == pytest.approx(0.015, abs=0.002)


def test_specials_are_never_chosen_and_labels_match_kinds():
    ids = corpus(200, 64, seed=2)
    result = draw(ids, seed=3)
    special = torch.isin(ids, torch.tensor(sorted(SPECIALS)))
    assert (result.kinds[special] == NONE).all()
    assert torch.equal(result.input_ids[special], ids[special])
    chosen = result.kinds != NONE
    assert torch.equal(result.labels[chosen], ids[chosen])
    assert (result.labels[~chosen] == IGNORE_INDEX).all()
    assert (result.input_ids[result.kinds == MASK] == MASK_ID).all()
    assert torch.equal(result.input_ids[result.kinds == KEEP], ids[result.kinds == KEEP])
    assert torch.equal(result.input_ids[result.kinds == NONE], ids[result.kinds == NONE])
    assert sum(result.counts().values()) == ids.numel()


def test_same_seed_same_draw_other_seed_other_draw_and_input_untouched():
    ids = corpus(20, 32, seed=4)
    before = ids.clone()
    a, b, c = draw(ids, 7), draw(ids, 7), draw(ids, 8)
    assert torch.equal(ids, before)
    assert torch.equal(a.input_ids, b.input_ids) and torch.equal(a.kinds, b.kinds)
    assert not torch.equal(a.kinds, c.kinds)


def test_identical_to_transformers_collator_with_the_same_generator(minilm_dir):
    """Same procedure, same draws in the same order: the same generator state gives the same ids."""
    tokenizer = transformers.AutoTokenizer.from_pretrained(minilm_dir)
    collator = transformers.DataCollatorForLanguageModeling(tokenizer, mlm_probability=0.15)
    collator.generator = torch.Generator().manual_seed(11)
    sentences = ["the quick brown fox jumps over the lazy dog " * 6, "hello world"]
    enc = tokenizer(sentences, padding=True, return_tensors="pt", return_special_tokens_mask=True)
    their_ids, their_labels = collator.torch_mask_tokens(
        enc["input_ids"].clone(), enc["special_tokens_mask"]
    )
    ours = mask_tokens(
        enc["input_ids"], vocab_size=len(tokenizer), special_ids=tokenizer.all_special_ids,
        mask_id=tokenizer.mask_token_id, generator=torch.Generator().manual_seed(11),
    )  # fmt: skip
    assert torch.equal(ours.input_ids, their_ids)
    assert torch.equal(ours.labels, their_labels)


def test_bad_arguments_are_readable():
    ids = corpus(2, 8)
    g = torch.Generator()
    with pytest.raises(ValueError, match="between 0 and 1"):
        mask_tokens(ids, vocab_size=VOCAB, special_ids=SPECIALS, mask_id=4, generator=g,
                    mlm_probability=1.5)  # fmt: skip
    with pytest.raises(ValueError, match="outside the vocabulary"):
        mask_tokens(ids, vocab_size=VOCAB, special_ids=SPECIALS, mask_id=VOCAB, generator=g)
    with pytest.raises(ValueError, match="LongTensor"):
        mask_tokens(ids.float(), vocab_size=VOCAB, special_ids=SPECIALS, mask_id=4, generator=g)


def test_running_shares_converge_and_are_seeded():
    ids = torch.tensor([CLS, *range(10, 30), SEP])
    kwargs = dict(draws=4000, vocab_size=VOCAB, special_ids=SPECIALS, mask_id=MASK_ID)
    shares = running_shares(ids, generator=torch.Generator().manual_seed(0), **kwargs)
    assert set(shares) == {"mask", "random", "keep"} and len(shares["mask"]) == 4000
    assert float(shares["mask"][-1]) == pytest.approx(0.12, abs=0.008)  # n = 80,000 tokens
    assert float(shares["random"][-1]) == pytest.approx(0.015, abs=0.003)
    assert float(shares["keep"][-1]) == pytest.approx(0.015, abs=0.003)
    again = running_shares(ids, generator=torch.Generator().manual_seed(0), **kwargs)
    assert torch.equal(shares["mask"], again["mask"])
    with pytest.raises(ValueError, match="no token to mask"):
        running_shares(torch.tensor([CLS, SEP]), generator=torch.Generator(), **kwargs)
