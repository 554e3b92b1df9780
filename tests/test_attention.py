"""Attention maths: shapes, softmax rows, masks, the two paths, and one weight worked by hand."""

from __future__ import annotations

import math

import pytest
import torch

from explorer_core.bert.attention import (
    BertAttention,
    BertSelfAttention,
    additive_mask,
    allowed_keys,
    cell_arithmetic,
)
from explorer_core.bert.config import BertConfig
from explorer_core.bert.model import BertModel

B, T = 13, 7  # odd sizes so a swapped dimension fails
POSITIONS = ("learned", "sinusoidal", "relative", "rotary")


def tiny(**overrides) -> BertConfig:
    values = dict(
        vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37, relative_clip=3,
    )  # fmt: skip
    return BertConfig(**{**values, **overrides})


def padding_mask() -> torch.Tensor:
    """(13, 7) with rows of every real length from 1 to 7."""
    lengths = torch.tensor([7, 1, 2, 3, 4, 5, 6, 7, 3, 5, 2, 6, 4])
    return (torch.arange(T)[None, :] < lengths[:, None]).long()


def hidden(seed: int = 0) -> torch.Tensor:
    return torch.randn(B, T, 32, generator=torch.Generator().manual_seed(seed))


def seeded_attention(config: BertConfig) -> BertSelfAttention:
    # BertModel initialises every weight from its seed; take layer 0's self-attention
    return BertModel(config, seed=5).encoder.layer[0].attention.self.eval()


@torch.no_grad()
def test_shapes_and_rows_sum_to_one():
    attn = seeded_attention(tiny())
    mask = additive_mask(allowed_keys(padding_mask(), T))
    out = attn(hidden(), mask, output_attentions=True, output_scores=True)
    assert out.output.shape == (B, T, 32)
    assert out.weights.shape == (B, 4, T, T) and out.scores.shape == (B, 4, T, T)
    torch.testing.assert_close(out.weights.sum(-1), torch.ones(B, 4, T), atol=1e-6, rtol=0)
    torch.testing.assert_close(out.scores.softmax(-1), out.weights)


@torch.no_grad()
def test_padded_keys_get_zero_weight_and_real_keys_do_not():
    attn = seeded_attention(tiny())
    keep = padding_mask()
    out = attn(hidden(), additive_mask(allowed_keys(keep, T)), output_attentions=True)
    padded_columns = (keep == 0)[:, None, None, :].expand_as(out.weights)  # (B, H, T, T)
    assert out.weights[padded_columns].abs().max() == 0.0
    assert (out.weights[~padded_columns] > 0).all()


@torch.no_grad()
def test_causal_mask_leaves_no_weight_on_the_future():
    attn = seeded_attention(tiny())
    mask = additive_mask(allowed_keys(padding_mask(), T, causal=True))
    weights = attn(hidden(), mask, output_attentions=True).weights  # (B, H, T, T)
    future = torch.ones(T, T, dtype=torch.bool).triu(1)
    assert weights[..., future].abs().max() == 0.0
    assert torch.allclose(weights[..., 0, 0], torch.ones(B, 4))  # token 0 sees only itself


def test_allowed_keys_and_additive_mask_values():
    allowed = allowed_keys(torch.tensor([[1, 1, 0]]), 3, causal=True)
    assert allowed.int().tolist() == [[[1, 0, 0], [1, 1, 0], [1, 1, 0]]]
    mask = additive_mask(allowed)
    assert mask.shape == (1, 1, 3, 3)
    assert mask[0, 0, 1, 0] == 0 and mask[0, 0, 1, 2] == torch.finfo(torch.float32).min
    assert additive_mask(allowed_keys(None, 3)) is None
    with pytest.raises(ValueError, match="attention_mask must be"):
        allowed_keys(torch.ones(2, 4), 3)


@torch.no_grad()
def test_a_fully_blocked_row_is_uniform_not_nan():
    attn = seeded_attention(tiny())
    mask = additive_mask(torch.zeros(1, 1, 3, dtype=torch.bool))
    weights = attn(hidden()[:1, :3], mask, output_attentions=True).weights
    assert not weights.isnan().any()
    torch.testing.assert_close(weights, torch.full_like(weights, 1 / 3))


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("causal", [False, True])
@torch.no_grad()
def test_fused_path_equals_explicit_path(position, causal):
    attn = seeded_attention(tiny(position_embedding_type=position))
    mask = additive_mask(allowed_keys(padding_mask(), T, causal=causal))
    fast = attn(hidden(), mask).output
    slow = attn(hidden(), mask, output_attentions=True)
    assert slow.weights is not None
    torch.testing.assert_close(fast, slow.output, atol=1e-5, rtol=0)


def test_known_answer_one_head_identity_projections():
    """d = 2, one head, identity Q/K/V, x = [[1, 0], [0, 1]].

    scores = x xᵀ / √2 = [[0.7071, 0], [0, 0.7071]]; softmax of row 0:
    e^0.7071 / (e^0.7071 + 1) = 2.0281 / 3.0281 = 0.6698, and 1 / 3.0281 = 0.3302.
    The context of token 0 is 0.6698 · [1, 0] + 0.3302 · [0, 1] = [0.6698, 0.3302].
    """
    config = BertConfig(
        vocab_size=10, hidden_size=2, num_attention_heads=1, intermediate_size=4,
        num_hidden_layers=1, attention_probs_dropout_prob=0.0,
    )  # fmt: skip
    attn = BertSelfAttention(config)
    with torch.no_grad():
        for linear in (attn.query, attn.key, attn.value):
            linear.weight.copy_(torch.eye(2))
            linear.bias.zero_()
        out = attn(torch.eye(2)[None], output_attentions=True, output_scores=True)
    s = 1 / math.sqrt(2)
    assert out.scores[0, 0].flatten().tolist() == pytest.approx([s, 0, 0, s], abs=1e-6)
    assert out.weights[0, 0, 0].tolist() == pytest.approx([0.6698, 0.3302], abs=1e-4)
    assert out.output[0, 0].tolist() == pytest.approx([0.6698, 0.3302], abs=1e-4)


@pytest.mark.parametrize("position", POSITIONS)
def test_cell_arithmetic_reproduces_the_models_weight(position):
    model = BertModel(tiny(position_embedding_type=position), seed=2).eval()
    ids = torch.randint(1, 99, (1, T), generator=torch.Generator().manual_seed(1))
    keep = torch.tensor([[1, 1, 1, 1, 1, 0, 0]])
    with torch.no_grad():
        out = model(ids, keep, output_attentions=True, output_scores=True)
    for layer, head, query, key in [(0, 0, 0, 0), (1, 3, 2, 4), (1, 1, 4, 6), (0, 2, 6, 1)]:
        cell = model.explain_cell(
            ids, attention_mask=keep, layer=layer, head=head, query=query, key=key
        )
        assert cell.weight == pytest.approx(
            float(out.attentions[layer][0, head, query, key]), abs=1e-6
        )
        assert cell.score == pytest.approx(float(out.scores[layer][0, head, query, key]), rel=1e-5)
        assert cell.scaled == pytest.approx((cell.dot + cell.relative) * cell.scale, rel=1e-6)
        assert sum(cell.row_weights) == pytest.approx(1.0, abs=1e-6)
        assert (cell.mask < -1e30) == (key >= 5)  # keys 5 and 6 are padding
        assert (cell.relative != 0.0) == (position == "relative")


@pytest.mark.parametrize("causal", [False, True])
def test_cell_from_states_equals_explain_cell(causal):
    """The Attention page's cells come from one run's hidden states: the same numbers, exactly."""
    model = BertModel(tiny(), seed=3).eval()
    ids = torch.randint(1, 99, (1, T), generator=torch.Generator().manual_seed(4))
    keep = torch.tensor([[1, 1, 1, 1, 1, 1, 0]])
    with torch.no_grad():
        states = model(ids, keep, output_hidden_states=True, causal=causal).hidden_states
    for layer, head, query, key in [(0, 1, 0, 3), (1, 3, 5, 2), (1, 0, 6, 6)]:
        cell = dict(layer=layer, head=head, query=query, key=key)
        assert model.cell_from_states(states, attention_mask=keep, causal=causal, **cell) == (
            model.explain_cell(ids, attention_mask=keep, causal=causal, **cell)
        )
    with pytest.raises(ValueError, match="layer must be"):
        model.cell_from_states(states, layer=2, head=0, query=0, key=0)


def test_cell_arithmetic_rejects_cells_outside_the_input():
    attn = seeded_attention(tiny())
    with pytest.raises(ValueError, match="no cell"):
        cell_arithmetic(attn, hidden()[:1], None, head=4, query=0, key=0)


def test_pre_ln_attention_normalises_its_input_first():
    config = tiny(norm_placement="pre", hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
    block = BertAttention(config).eval()
    x = hidden()
    with torch.no_grad():
        out = block(x).output
        expected = x + block.output.dense(block.self(block.output.LayerNorm(x)).output)
    torch.testing.assert_close(out, expected)
