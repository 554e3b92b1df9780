"""Position encodings against hand computation and independent references (transformers)."""

from __future__ import annotations

import math
from types import SimpleNamespace

import pytest
import torch

from explorer_core.bert.positional import (
    LearnedPositionEmbedding,
    RelativePositionBias,
    RotaryPositionEmbedding,
    SinusoidalPositionEncoding,
    apply_rotary,
    inverse_frequencies,
    sinusoidal_table,
)


def _gen(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def test_sinusoidal_table_by_hand():
    """d = 4, base = 100: θ = [100^0, 100^(-1/2)] = [1, 0.1].

    pos 0 -> [sin 0, cos 0, sin 0, cos 0] = [0, 1, 0, 1]
    pos 1 -> [sin 1, cos 1, sin 0.1, cos 0.1] = [0.841471, 0.540302, 0.099833, 0.995004]
    pos 2 -> [sin 2, cos 2, sin 0.2, cos 0.2] = [0.909297, -0.416147, 0.198669, 0.980067]
    """
    table = sinusoidal_table(3, 4, base=100.0)
    expected = torch.tensor(
        [
            [0.0, 1.0, 0.0, 1.0],
            [0.841471, 0.540302, 0.099833, 0.995004],
            [0.909297, -0.416147, 0.198669, 0.980067],
        ]
    )
    assert table.shape == (3, 4) and table.dtype == torch.float32
    torch.testing.assert_close(table, expected, atol=1e-6, rtol=0)


def test_sinusoidal_formula_default_base():
    """Element (pos=5, 2i=6) of a d=16 table is sin(5 / 10000^(6/16)); (5, 7) is its cosine."""
    table = sinusoidal_table(8, 16)
    angle = 5 / 10000 ** (6 / 16)
    assert table[5, 6].item() == pytest.approx(math.sin(angle), abs=1e-7)
    assert table[5, 7].item() == pytest.approx(math.cos(angle), abs=1e-7)


def test_inverse_frequencies():
    assert inverse_frequencies(4, base=100.0).tolist() == pytest.approx([1.0, 0.1])
    with pytest.raises(ValueError, match="even"):
        inverse_frequencies(5)
    with pytest.raises(ValueError, match="greater than 1"):
        sinusoidal_table(4, 4, base=1.0)
    with pytest.raises(ValueError, match="at least 1"):
        sinusoidal_table(0, 4)


def test_sinusoid_extrapolates_past_max_len():
    enc = SinusoidalPositionEncoding(8, max_len=4)
    out = enc(torch.tensor([[0, 3, 9]]))  # 9 is past the 4 rows built at first
    assert out.shape == (1, 3, 8)
    assert enc.max_len >= 10
    torch.testing.assert_close(out[0], sinusoidal_table(10, 8)[[0, 3, 9]])
    with pytest.raises(ValueError, match="0 or more"):
        enc(torch.tensor([-1]))


def test_learned_positions_stop_at_max_len():
    emb = LearnedPositionEmbedding(6, 4)
    assert isinstance(emb, torch.nn.Embedding)
    assert emb(torch.arange(6)).shape == (6, 4)
    with pytest.raises(ValueError, match="position 6 is past the 6 positions"):
        emb(torch.arange(7))


def test_relative_positions_clipped_by_hand():
    """clip k = 2, T = 5: entry (i, j) = clamp(j - i, -2, 2) + 2."""
    bias = RelativePositionBias(head_dim=3, clip=2)
    expected = torch.tensor(
        [
            [2, 3, 4, 4, 4],
            [1, 2, 3, 4, 4],
            [0, 1, 2, 3, 4],
            [0, 0, 1, 2, 3],
            [0, 0, 0, 1, 2],
        ]
    )
    assert torch.equal(bias.relative_positions(5), expected)
    assert bias.distance_embedding.weight.shape == (5, 3)


def test_relative_bias_shapes_and_values():
    bias = RelativePositionBias(head_dim=4, clip=1)
    q = torch.randn(2, 3, 4, generator=_gen())  # (B, T, d)
    out = bias(q)
    assert out.shape == (2, 3, 3)
    table = bias.distance_embedding.weight
    # (b=1, i=0, j=2): distance 2 clipped to 1 -> row 2
    assert out[1, 0, 2].item() == pytest.approx(torch.dot(q[1, 0], table[2]).item(), abs=1e-6)
    assert bias(torch.randn(2, 5, 3, 4, generator=_gen(1))).shape == (2, 5, 3, 3)
    with pytest.raises(ValueError, match="width"):
        bias(torch.randn(1, 3, 5))


def test_relative_bias_matches_transformers_relative_key():
    """transformers' relative_key (Wav2Vec2-BERT keeps it): einsum("bhld,lrd->bhlr") over clipped
    distances, times `scaling`; with scaling 1 it is our bias."""
    from transformers.models.wav2vec2_bert.modeling_wav2vec2_bert import (
        _apply_relative_key_position_encoding,
    )

    bias = RelativePositionBias(head_dim=6, clip=3)
    with torch.no_grad():
        bias.distance_embedding.weight.copy_(torch.randn(7, 6, generator=_gen(2)))
    module = SimpleNamespace(
        left_max_position_embeddings=3,
        right_max_position_embeddings=3,
        distance_embedding=bias.distance_embedding,
        scaling=1.0,
    )
    q = torch.randn(2, 4, 9, 6, generator=_gen(3))  # (B, H, T, d)
    _, reference = _apply_relative_key_position_encoding(module, q, q)
    torch.testing.assert_close(bias(q), reference, atol=1e-6, rtol=0)


@pytest.mark.parametrize("interleaved", [False, True])
def test_rope_score_depends_only_on_offset(interleaved):
    """q_m · k_n is the same for every (m, n) with the same m - n."""
    d = 16
    g = _gen(4)
    q, k = (
        torch.randn(d, dtype=torch.float64, generator=g),
        torch.randn(d, dtype=torch.float64, generator=g),
    )

    def score(m: int, n: int) -> float:
        qm = apply_rotary(q[None, :], torch.tensor([m]), interleaved=interleaved)
        kn = apply_rotary(k[None, :], torch.tensor([n]), interleaved=interleaved)
        return float(qm[0] @ kn[0])

    for offset in (-7, -1, 0, 3, 40):
        scores = [score(m, m - offset) for m in (50, 60, 133)]
        assert scores == pytest.approx([scores[0]] * 3, abs=1e-9)
    assert score(5, 0) != pytest.approx(score(5, 4), abs=1e-3)  # offsets do matter


def test_rope_by_hand_one_pair():
    """d = 2: θ_0 = 1, so [1, 0] at position m becomes [cos m, sin m]."""
    x = torch.tensor([[1.0, 0.0]] * 3)
    out = apply_rotary(x, torch.tensor([0, 1, 2]))
    expected = torch.tensor([[1.0, 0.0], [math.cos(1), math.sin(1)], [math.cos(2), math.sin(2)]])
    torch.testing.assert_close(out, expected)


def test_rope_half_split_matches_llama():
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    b, h, t, d, base = 2, 3, 11, 8, 500.0
    q = torch.randn(b, h, t, d, dtype=torch.float64, generator=_gen(5))
    k = torch.randn(b, h, t, d, dtype=torch.float64, generator=_gen(6))
    pos = torch.arange(t).expand(b, t) + torch.tensor([[0], [7]])  # (B, T), a shifted second row
    inv = 1.0 / base ** (torch.arange(0, d, 2, dtype=torch.float64) / d)
    freqs = pos[..., None].double() * inv  # (B, T, d/2)
    emb = torch.cat((freqs, freqs), dim=-1)
    ref_q, ref_k = apply_rotary_pos_emb(q, k, emb.cos(), emb.sin())
    torch.testing.assert_close(apply_rotary(q, pos, base=base), ref_q, atol=1e-12, rtol=0)
    rope = RotaryPositionEmbedding(d, base=base, max_len=4)  # too short: must grow
    our_q, our_k = rope(q, k, pos)
    assert rope.max_len >= 18
    torch.testing.assert_close(our_q, ref_q, atol=1e-6, rtol=0)
    torch.testing.assert_close(our_k, ref_k, atol=1e-6, rtol=0)


def test_rope_interleaved_matches_gptj():
    from transformers.models.gptj.modeling_gptj import (
        apply_rotary_pos_emb,
        create_sinusoidal_positions,
    )

    b, t, h, d = 2, 9, 3, 8
    x = torch.randn(b, t, h, d, generator=_gen(7))  # GPT-J layout (B, T, H, d)
    sincos = create_sinusoidal_positions(t, d)[None]  # (1, T, d): [sin | cos]
    sin, cos = torch.split(sincos, d // 2, dim=-1)
    reference = apply_rotary_pos_emb(x, sin, cos)
    ours = apply_rotary(x.transpose(1, 2), None, interleaved=True).transpose(1, 2)
    torch.testing.assert_close(ours, reference, atol=1e-5, rtol=0)
    rope = RotaryPositionEmbedding(d, interleaved=True)
    q_rot, _ = rope(x.transpose(1, 2), x.transpose(1, 2))
    torch.testing.assert_close(q_rot.transpose(1, 2), reference, atol=1e-5, rtol=0)


def test_rope_conventions_differ_but_preserve_norm():
    x = torch.randn(4, 8, generator=_gen(8))
    half, inter = apply_rotary(x, None), apply_rotary(x, None, interleaved=True)
    assert not torch.allclose(half[1:], inter[1:])
    torch.testing.assert_close(half.norm(dim=-1), x.norm(dim=-1))
    torch.testing.assert_close(inter.norm(dim=-1), x.norm(dim=-1))
    with pytest.raises(ValueError, match="even"):
        apply_rotary(torch.randn(3, 5), None)
    with pytest.raises(ValueError, match="positions for a sequence"):
        apply_rotary(x, torch.arange(3))
