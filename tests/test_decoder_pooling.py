"""Sentence vectors from a decoder (explorer_core.decoder.pooling): hand-worked shares of a causal
mean, SGPT's position weights, the last real token under right padding, and the errors."""

from __future__ import annotations

import pytest
import torch

from explorer_core.decoder import causal_mean_shares, decoder_pooling
from explorer_core.decoder.pooling import position_weights


def test_causal_mean_shares_by_hand():
    """L = 4: token 1 is seen by positions 1-4, token 2 by 2-4, token 3 by 3-4, token 4 by 4:
    4, 3, 2, 1 of 10 -> 0.4, 0.3, 0.2, 0.1."""
    assert causal_mean_shares(4) == pytest.approx([0.4, 0.3, 0.2, 0.1])
    assert causal_mean_shares(1) == [1.0]
    for length in (2, 5, 17):
        shares = causal_mean_shares(length)
        assert sum(shares) == pytest.approx(1.0) and shares == sorted(shares, reverse=True)
    with pytest.raises(ValueError, match="at least 1"):
        causal_mean_shares(0)


def test_the_shares_are_what_a_causal_mean_does():
    """If position i holds the running sum of the token vectors x_1 .. x_i (what a causal layer
    can at most mix in), the mean over positions is Σ_j (L - j + 1) / L · x_j: the shares × the
    total weight (L + 1) / 2."""
    x = torch.randn(1, 4, 3, generator=torch.Generator().manual_seed(0))
    hidden = x.cumsum(dim=1)  # (1, 4, 3)
    pooled = decoder_pooling(hidden, torch.ones(1, 4), "mean")[0]
    shares = torch.tensor(causal_mean_shares(4))
    torch.testing.assert_close(pooled, (shares[:, None] * x[0]).sum(0) * (4 + 1) / 2)


def test_weighted_mean_weighs_position_i_by_i():
    """Real tokens 1, 2, 3 (a pad after them): weights 1/6, 2/6, 3/6, 0."""
    mask = torch.tensor([[1, 1, 1, 0], [1, 1, 1, 1]])
    weights = position_weights(mask)
    torch.testing.assert_close(weights[0], torch.tensor([1, 2, 3, 0], dtype=torch.float64) / 6)
    torch.testing.assert_close(weights[1], torch.tensor([1, 2, 3, 4], dtype=torch.float64) / 10)
    hidden = torch.arange(24, dtype=torch.float32).reshape(2, 4, 3)
    pooled = decoder_pooling(hidden, mask, "weighted_mean")
    expected = (hidden[0, :3] * torch.tensor([1.0, 2.0, 3.0])[:, None]).sum(0) / 6
    torch.testing.assert_close(pooled[0], expected)


def test_mean_and_last_skip_the_padding():
    hidden = torch.arange(24, dtype=torch.float32).reshape(2, 4, 3)
    mask = torch.tensor([[1, 1, 0, 0], [1, 1, 1, 1]])  # right padding
    last = decoder_pooling(hidden, mask, "last")
    torch.testing.assert_close(last, torch.stack([hidden[0, 1], hidden[1, 3]]))
    mean = decoder_pooling(hidden, mask, "mean")
    torch.testing.assert_close(mean, torch.stack([hidden[0, :2].mean(0), hidden[1].mean(0)]))


def test_bad_pooling_input_is_a_sentence():
    hidden, mask = torch.zeros(2, 3, 4), torch.ones(2, 3)
    with pytest.raises(ValueError, match="mode must be one of mean, weighted_mean, last"):
        decoder_pooling(hidden, mask, "cls")
    with pytest.raises(ValueError, match="do not fit"):
        decoder_pooling(hidden, torch.ones(2, 4))
    with pytest.raises(ValueError, match="at least one real token"):
        decoder_pooling(hidden, torch.tensor([[1, 1, 1], [0, 0, 0]]))
