"""What the Position encodings page plots, against closed forms worked by hand."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from explorer_core.analysis import positions as pa

ROOT = Path(__file__).resolve().parents[1]


def test_sinusoid_similarity_is_sum_of_cosines_of_distance():
    """PE_m · PE_n = Σ_i sin(mθ)sin(nθ) + cos(mθ)cos(nθ) = Σ_i cos((m - n)θ_i); d/2 at m = n."""
    dim, base = 8, 100.0
    sim = pa.sinusoidal_similarity(12, dim, base)
    theta = [base ** (-2 * i / dim) for i in range(dim // 2)]
    expected = sum(math.cos(3 * t) for t in theta) / (dim / 2)
    assert sim[7, 4].item() == pytest.approx(expected, abs=1e-6)
    assert sim[4, 7].item() == pytest.approx(expected, abs=1e-6)
    torch.testing.assert_close(torch.diagonal(sim), torch.ones(12))


def test_rope_score_matrix_equals_sinusoid_similarity():
    for interleaved in (False, True):
        torch.testing.assert_close(
            pa.rope_score_matrix(20, 16, 500.0, interleaved),
            pa.sinusoidal_similarity(20, 16, 500.0),
        )


def test_offset_curve_by_hand():
    """d = 4, base = 100: θ = [1, 0.1]; score(Δ) = (2cos Δ + 2cos 0.1Δ) / 4.

    Bound: S_1 = 1, S_2 = 1 + e^(0.1iΔ)... for pairs k < j; at Δ = 0 |S_1| = 1, |S_2| = 2, mean 1.5.
    At Δ = 2: |S_1| = 1, |S_2| = |e^(2i) + e^(0.2i)| = 2|cos(0.9)| = 1.243220; ratio 1.121610 / 1.5.
    """
    curve = pa.rope_offset_curve(4, 100.0, 3)
    assert curve["offset"].tolist() == [0, 1, 2, 3]
    for delta in range(4):
        expected = (2 * math.cos(delta) + 2 * math.cos(0.1 * delta)) / 4
        assert curve["score"][delta].item() == pytest.approx(expected, abs=1e-6)
    assert curve["bound"][0].item() == pytest.approx(1.0)
    assert curve["bound"][2].item() == pytest.approx((1 + 2 * abs(math.cos(0.9))) / 2 / 1.5, 1e-6)
    with pytest.raises(ValueError):
        pa.rope_offset_curve(4, 100.0, 0)


def test_offset_curve_decays_for_realistic_width():
    curve = pa.rope_offset_curve(64, 10000.0, 512)
    near, far = curve["bound"][:16].mean().item(), curve["bound"][256:].mean().item()
    assert far < near / 2


def test_pair_path_turns_by_theta():
    """d = 8, base = 100, pair 1: θ = 100^(-2/8) = 0.316228; position 3 -> angle 0.948683."""
    path = pa.rope_pair_path(1, 8, 100.0, 5)
    assert path["theta"].item() == pytest.approx(100**-0.25)
    assert path["x"][3].item() == pytest.approx(math.cos(3 * 100**-0.25), abs=1e-6)
    assert path["y"][3].item() == pytest.approx(math.sin(3 * 100**-0.25), abs=1e-6)
    torch.testing.assert_close(path["x"] ** 2 + path["y"] ** 2, torch.ones(5))
    with pytest.raises(ValueError, match="pair must be"):
        pa.rope_pair_path(4, 8, 100.0, 5)


def test_spectrum_and_unseen_pairs():
    """d = 8, base = 100: wavelengths 2π/θ = 6.28, 19.87, 62.83, 198.69 positions."""
    spectrum = pa.rope_spectrum(8, 100.0)
    assert spectrum["wavelength"].tolist() == pytest.approx(
        [6.2832, 19.8692, 62.8319, 198.6918], 1e-4
    )
    assert pa.pairs_unseen_beyond(8, 100.0, 64) == 1
    assert pa.pairs_unseen_beyond(8, 100.0, 10) == 3


def test_relative_matrices():
    dist = pa.relative_distance_matrix(5, 2)
    assert dist[0].tolist() == [0, 1, 2, 2, 2] and dist[4].tolist() == [-2, -2, -2, -1, 0]
    bias = pa.relative_bias_matrix(6, 2, 8, seed=0)
    assert bias.shape == (6, 6)
    for offset in range(-5, 6):  # constant along each diagonal (Toeplitz)
        diag = torch.diagonal(bias, offset)
        torch.testing.assert_close(diag, diag[:1].expand_as(diag))
    assert bias[0, 3].item() == pytest.approx(bias[0, 5].item())  # both clipped to +2
    assert torch.equal(bias, pa.relative_bias_matrix(6, 2, 8, seed=0))


def test_learned_reaches_and_rope_cos_table():
    assert pa.learned_reaches(8, 8) and not pa.learned_reaches(8, 9)
    table = pa.rope_cos_table(5, 4, 100.0)
    assert table.shape == (5, 2)
    assert table[3, 1].item() == pytest.approx(math.cos(0.3), abs=1e-6)


def test_position_similarity_plain_and_normalised():
    table = torch.tensor([[3.0, 4.0], [1.0, 0.0]])
    assert pa.position_similarity(table).tolist() == [[25.0, 3.0], [3.0, 1.0]]
    torch.testing.assert_close(
        pa.position_similarity(table, normalise=True), torch.tensor([[1.0, 0.6], [0.6, 1.0]])
    )


@pytest.mark.slow
def test_learned_reaches_keeps_the_random_state_and_imports_no_compiler():
    """It once built the table on the meta device (nn.utils.skip_init), whose first normal_
    imports torch._dynamo: 1.1-1.6 s on the Position encodings page's first visit."""
    code = (
        "import sys, torch\n"
        "from explorer_core.analysis import positions\n"
        "torch.manual_seed(3); state = torch.get_rng_state()\n"
        "assert positions.learned_reaches(512, 100)\n"
        "assert torch.equal(torch.get_rng_state(), state)\n"
        "assert 'torch._dynamo' not in sys.modules, 'torch._dynamo imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-500:]


def test_word_order_same_bag_different_inputs_by_hand():
    """ids [5, 6, 7] against [7, 6, 5] with one-hot-ish tables: the same bag (gap 0); 6 keeps
    position 1 (distance 0); 5 and 7 swap positions 0 and 2: |P0 - P2| = |(1,0) - (0,1)| = √2."""
    tokens = torch.zeros(10, 2)
    tokens[5], tokens[6], tokens[7] = torch.tensor([3.0, 0]), torch.tensor([0, 4.0]), 1.0
    positions = torch.tensor([[1.0, 0], [0.5, 0.5], [0, 1.0]])
    found = pa.word_order(tokens, positions, [5, 6, 7], [7, 6, 5])
    assert found.same_bag and found.bag_gap == 0.0
    root2 = pytest.approx(math.sqrt(2))
    assert found.moved == ((5, 0, 2, root2), (6, 1, 1, 0.0), (7, 2, 0, root2))
    # x_A[0] - x_B[0] = (E5 + P0) - (E7 + P0) = (3,0) - (1,1) = (2,-1): |.| = √5, the largest
    assert found.input_gap == pytest.approx(math.sqrt(5))


def test_word_order_names_tell_unknown_tokens_apart_and_other_words_differ():
    tokens, positions = torch.randn(10, 4), torch.randn(8, 4)
    by_id = pa.word_order(tokens, positions, [1, 1, 2], [2, 1, 1])  # two [UNK]s look alike
    named = pa.word_order(tokens, positions, [1, 1, 2], [2, 1, 1], ["狗", "咬", "人"],
                          ["人", "咬", "狗"])  # fmt: skip
    assert [(i, j) for _, i, j, _ in by_id.moved] == [(0, 1), (1, 2), (2, 0)]
    assert [(i, j) for _, i, j, _ in named.moved] == [(0, 2), (1, 1), (2, 0)]
    other = pa.word_order(tokens, positions, [1, 2], [1, 3])
    assert not other.same_bag and other.bag_gap > 0
    with pytest.raises(ValueError, match="positions"):
        pa.word_order(tokens, positions, list(range(9)), [1])
