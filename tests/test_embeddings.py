"""Token/segment embeddings, the one-hot identity, and BertEmbeddings parity with transformers."""

from __future__ import annotations

import math

import pytest
import torch
import torch.nn.functional as F

from explorer_core.bert.config import BertConfig
from explorer_core.bert.embeddings import (
    BertEmbeddings,
    SegmentEmbedding,
    TokenEmbedding,
    fresh_embeddings,
    layer_norm_trace,
    load_pretrained_embeddings,
    load_word_embedding_matrix,
    one_hot_lookup,
)
from explorer_core.bert.positional import sinusoidal_table

TINY = dict(vocab_size=99, hidden_size=32, num_attention_heads=4, intermediate_size=37)


def _gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def test_one_hot_lookup_by_hand():
    """E = [[1, 2], [3, 4], [5, 6]], id 1: [0, 1, 0] × E = 0·[1,2] + 1·[3,4] + 0·[5,6] = [3, 4]."""
    weight = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    one_hot, vectors = one_hot_lookup(torch.tensor([1, 2]), weight)
    assert one_hot.tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    assert vectors.tolist() == [[3.0, 4.0], [5.0, 6.0]]


def test_one_hot_lookup_equals_embedding():
    ids = torch.randint(0, 99, (13, 7), generator=_gen())
    w64 = torch.randn(99, 32, dtype=torch.float64, generator=_gen(1))
    one_hot, vectors = one_hot_lookup(ids, w64)
    assert one_hot.shape == (13, 7, 99) and one_hot.sum(-1).eq(1).all()
    assert torch.equal(vectors, F.embedding(ids, w64))
    _, v32 = one_hot_lookup(ids, w64.float())
    torch.testing.assert_close(v32, F.embedding(ids, w64.float()), atol=0, rtol=0)
    with pytest.raises(ValueError, match="outside the table of 99 rows"):
        one_hot_lookup(torch.tensor([99]), w64)


def test_token_embedding_padding_and_scale():
    emb = TokenEmbedding(10, 16, padding_idx=0, scale=True)
    out = emb(torch.tensor([0, 3]))
    assert out[0].abs().sum() == 0  # the padding row stays zero
    torch.testing.assert_close(out[1], emb.weight[3] * math.sqrt(16))
    assert TokenEmbedding(10, 4)(torch.tensor([2])).shape == (1, 4)
    with pytest.raises(ValueError, match="token id 10"):
        emb(torch.tensor([10]))
    with pytest.raises(ValueError, match="whole numbers"):
        emb(torch.tensor([1.0]))


def test_segment_embedding():
    seg = SegmentEmbedding(2, 8)
    out = seg(torch.tensor([[0, 0, 1]]))
    assert torch.equal(out[0, 0], seg.weight[0]) and torch.equal(out[0, 2], seg.weight[1])
    with pytest.raises(ValueError, match="segment id 2"):
        seg(torch.tensor([2]))


def _hf_pair():
    from transformers import BertConfig as HFConfig
    from transformers.models.bert.modeling_bert import BertEmbeddings as HFEmbeddings

    hf = HFEmbeddings(HFConfig(max_position_embeddings=64, **TINY)).eval()
    with torch.no_grad():  # make LayerNorm non-trivial so it is really compared
        hf.LayerNorm.weight.copy_(torch.rand(32, generator=_gen(9)) + 0.5)
        hf.LayerNorm.bias.copy_(torch.randn(32, generator=_gen(10)))
    ours = BertEmbeddings(BertConfig(max_position_embeddings=64, **TINY)).eval()
    ours.load_state_dict(hf.state_dict(), strict=True)
    return ours, hf


def test_bert_embeddings_match_transformers():
    ours, hf = _hf_pair()
    ids = torch.randint(0, 99, (13, 7), generator=_gen(2))
    types = torch.randint(0, 2, (13, 7), generator=_gen(3))
    with torch.no_grad():
        torch.testing.assert_close(ours(ids, types), hf(ids, types), atol=1e-6, rtol=0)
        torch.testing.assert_close(ours(ids), hf(ids), atol=1e-6, rtol=0)
        pos = torch.arange(5, 12)[None].expand(13, 7)
        torch.testing.assert_close(
            ours(ids, types, pos), hf(ids, types, position_ids=pos), atol=1e-6, rtol=0
        )


def test_components_add_up():
    ours, _ = _hf_pair()
    ids = torch.randint(0, 99, (2, 9), generator=_gen(4))
    types = torch.tensor([[0] * 5 + [1] * 4] * 2)
    parts = ours.components(ids, types)
    assert set(parts) == {"token", "position", "segment", "sum", "output"}
    assert all(p.shape == (2, 9, 32) for p in parts.values())
    assert torch.equal(parts["position"][0, 3], ours.position_embeddings.weight[3])
    assert torch.equal(parts["segment"][1, 6], ours.token_type_embeddings.weight[1])
    torch.testing.assert_close(parts["sum"], parts["token"] + parts["position"] + parts["segment"])
    torch.testing.assert_close(parts["output"], ours(ids, types))


def test_layer_norm_output_has_zero_mean_unit_variance_before_affine():
    ours = BertEmbeddings(BertConfig(**TINY)).eval()
    out = ours.components(torch.tensor([[5, 6, 7]]))["output"]  # LayerNorm weight 1, bias 0
    torch.testing.assert_close(out.mean(-1), torch.zeros(1, 3), atol=1e-5, rtol=0)
    torch.testing.assert_close(out.var(-1, unbiased=False), torch.ones(1, 3), atol=1e-4, rtol=0)


def test_position_types():
    sin = BertEmbeddings(BertConfig(position_embedding_type="sinusoidal", **TINY)).eval()
    parts = sin.components(torch.tensor([[1, 2, 3]]))
    torch.testing.assert_close(parts["position"][0], sinusoidal_table(3, 32))
    for kind in ("relative", "rotary"):
        emb = BertEmbeddings(BertConfig(position_embedding_type=kind, **TINY))
        assert emb.position_embeddings is None
        assert emb.components(torch.tensor([[1, 2]]))["position"].abs().sum() == 0
    bare = BertEmbeddings(BertConfig(type_vocab_size=0, embedding_layer_norm=False, **TINY))
    assert bare.token_type_embeddings is None and bare.LayerNorm is None
    with pytest.raises(ValueError, match="no segment"):
        bare(torch.tensor([[1, 2]]), torch.tensor([[0, 1]]))


def test_bad_inputs_and_seeded_init():
    emb = BertEmbeddings(BertConfig(max_position_embeddings=4, **TINY))
    with pytest.raises(ValueError, match="past the 4 positions"):
        emb(torch.tensor([[1, 2, 3, 4, 5]]))
    with pytest.raises(ValueError, match="batch, length"):
        emb(torch.tensor([1, 2]))
    with pytest.raises(ValueError, match="token id 120"):
        emb(torch.tensor([[120]]))
    a, b = BertEmbeddings(BertConfig(**TINY)), BertEmbeddings(BertConfig(**TINY))
    a.init_weights(_gen(11))
    b.init_weights(_gen(11))
    assert torch.equal(a.word_embeddings.weight, b.word_embeddings.weight)
    assert a.word_embeddings.weight[0].abs().sum() == 0
    assert a.word_embeddings.weight.std().item() == pytest.approx(0.02, rel=0.1)


def test_layer_norm_trace_by_hand_and_against_torch():
    """x = [1, 2, 3, 6]: mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5,
    normalised (x - 3) / √3.5 = [-1.069, -0.535, 0, 1.604]."""
    x = torch.tensor([1.0, 2.0, 3.0, 6.0])
    ln = torch.nn.LayerNorm(4, eps=1e-12)
    trace = layer_norm_trace(x, ln)
    assert trace["mean"].item() == pytest.approx(3.0)
    assert trace["std"].item() == pytest.approx(3.5**0.5)
    assert trace["normalised"].tolist() == pytest.approx(
        [-1.069045, -0.534522, 0.0, 1.603567], 1e-5
    )
    with torch.no_grad():
        ln.weight.copy_(torch.rand(4, generator=_gen(12)) + 0.5)
        ln.bias.copy_(torch.randn(4, generator=_gen(13)))
    torch.testing.assert_close(layer_norm_trace(x, ln)["output"], ln(x).detach())
    assert torch.equal(layer_norm_trace(x, None)["output"], x)


def test_pretrained_loader_matches_transformers(minilm_dir):
    from transformers import BertModel as HFBertModel

    ours = load_pretrained_embeddings(minilm_dir)
    hf = HFBertModel.from_pretrained(minilm_dir).embeddings.eval()
    ids = torch.tensor([[101, 1996, 4937, 2938, 102, 2009, 102]])
    types = torch.tensor([[0, 0, 0, 0, 0, 1, 1]])
    with torch.no_grad():
        torch.testing.assert_close(ours(ids, types), hf(ids, types), atol=1e-6, rtol=0)
    assert torch.equal(load_word_embedding_matrix(minilm_dir), ours.word_embeddings.weight)
    fresh_a, fresh_b = fresh_embeddings(ours.config, 3), fresh_embeddings(ours.config, 3)
    assert torch.equal(fresh_a.word_embeddings.weight, fresh_b.word_embeddings.weight)
