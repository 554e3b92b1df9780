"""Pooling: hand-worked examples, padding never leaks in, and MiniLM's sentence vectors."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F

from explorer_core.bert.config import BertConfig
from explorer_core.bert.model import BertModel
from explorer_core.bert.pooling import POOLING_MODES, SentenceEncoder, pool

# one sentence of 2 real tokens + 1 pad, one of 3 real tokens; H = 2
HIDDEN = torch.tensor(
    [
        [[1.0, 2.0], [3.0, 6.0], [100.0, 100.0]],
        [[-1.0, 0.0], [0.0, -3.0], [4.0, 3.0]],
    ]
)
MASK = torch.tensor([[1, 1, 0], [1, 1, 1]])


def test_mean_by_hand():
    """Row 0: ([1,2] + [3,6]) / 2 = [2, 4]; row 1: ([-1,0] + [0,-3] + [4,3]) / 3 = [1, 0]."""
    assert pool(HIDDEN, MASK, "mean").tolist() == [[2.0, 4.0], [1.0, 0.0]]


def test_max_by_hand():
    """Row 0 ignores the padded [100, 100]: max([1,3]) = 3, max([2,6]) = 6."""
    assert pool(HIDDEN, MASK, "max").tolist() == [[3.0, 6.0], [4.0, 3.0]]


def test_cls_by_hand():
    assert pool(HIDDEN, MASK, "cls").tolist() == [[1.0, 2.0], [-1.0, 0.0]]


@pytest.mark.parametrize("mode", POOLING_MODES)
def test_padding_values_never_matter(mode):
    changed = HIDDEN.clone()
    changed[0, 2] = torch.tensor([-7.0, 55.0])
    assert torch.equal(pool(HIDDEN, MASK, mode), pool(changed, MASK, mode))


def test_all_padding_row_gives_zeros_not_nan():
    mask = torch.tensor([[0, 0, 0], [1, 1, 1]])
    for mode in ("mean", "max"):
        out = pool(HIDDEN, mask, mode)
        assert out[0].tolist() == [0.0, 0.0]


def test_bad_mode_and_shapes():
    with pytest.raises(ValueError, match="pooling must be one of"):
        pool(HIDDEN, MASK, "sum")
    with pytest.raises(ValueError, match="expected hidden"):
        pool(HIDDEN, MASK[:, :2], "mean")


def test_sentence_encoder_padding_invariant_and_normalised():
    """A sentence gives the same vector alone and padded inside a batch."""
    config = BertConfig(
        vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37, max_position_embeddings=16,
    )  # fmt: skip
    encoder = SentenceEncoder(BertModel(config), "mean", normalize=True)
    ids = torch.tensor([[5, 6, 7, 0, 0], [5, 8, 9, 10, 11]])
    mask = (ids != 0).long()
    batch = encoder.encode(ids, mask)
    alone = encoder.encode(ids[:1, :3], mask[:1, :3])
    assert torch.allclose(batch[0], alone[0], atol=1e-5)
    assert torch.allclose(batch.norm(dim=-1), torch.ones(2), atol=1e-5)
    assert encoder.training  # a fresh module trains; encode() ran in eval mode and restored it
    assert torch.equal(encoder.encode(ids, mask), batch)  # so no dropout: same vectors twice


def test_minilm_mean_pooling_matches_sentence_transformers_recipe(minilm_dir):
    """Our encoder + mean pooling equals transformers + sentence-transformers' mean pooling.

    Reference: the model card's recipe, sum(h * mask) / sum(mask) then L2 normalisation; the
    paraphrase pair has cosine about 0.85 (RECIPES.md), an unrelated pair about 0.
    """
    from transformers import AutoModel, AutoTokenizer

    texts = ["A man is playing a guitar.", "A person plays the guitar.", "The stock market fell."]
    tok = AutoTokenizer.from_pretrained(str(minilm_dir))
    batch = tok(texts, padding=True, return_tensors="pt")
    ref_model = AutoModel.from_pretrained(str(minilm_dir), attn_implementation="eager").eval()
    with torch.no_grad():
        hidden = ref_model(**batch).last_hidden_state
    weights = batch["attention_mask"].unsqueeze(-1).float()
    ref = F.normalize((hidden * weights).sum(1) / weights.sum(1), dim=-1)

    ours = SentenceEncoder(BertModel.from_transformers(minilm_dir), "mean", normalize=True)
    vectors = ours.encode(batch["input_ids"], batch["attention_mask"])
    assert (vectors - ref).abs().max() < 1e-4
    cos = vectors @ vectors.T
    assert cos[0, 1] == pytest.approx(0.85, abs=0.03)
    assert abs(float(cos[0, 2])) < 0.2


def test_encode_leaves_every_submodule_in_the_mode_it_had():
    """A shared eval-mode model (the cached MiniLM) stays in eval mode: no dropout leaks out."""
    config = BertConfig(
        vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37, max_position_embeddings=16,
    )  # fmt: skip
    model = BertModel(config).eval()
    ids = torch.randint(1, 99, (3, 7), generator=torch.Generator().manual_seed(0))
    SentenceEncoder(model, "mean").encode(ids, torch.ones_like(ids))
    assert not any(module.training for module in model.modules())
    model.train()
    SentenceEncoder(model, "mean").encode(ids, torch.ones_like(ids))
    assert all(module.training for module in model.modules())
