"""Similarity maths against torch and brute force; MiniLM's known pair through our own code."""

from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from explorer_core.analysis.similarity import (
    TextEncoder,
    cosine_matrix,
    cosines_to_scores,
    nearest_neighbours,
    pair_cosines,
    sentence_list,
)


def test_cosine_matrix_matches_torch_pairwise_cosine():
    g = torch.Generator().manual_seed(0)
    x = torch.randn(13, 7, generator=g, dtype=torch.float64)
    expected = F.cosine_similarity(x[:, None, :], x[None, :, :], dim=-1).numpy()
    np.testing.assert_allclose(cosine_matrix(x.numpy()), expected, atol=1e-12)


def test_cosine_matrix_zero_row_gives_zero_not_nan():
    m = cosine_matrix(np.array([[0.0, 0.0], [1.0, 0.0]]))
    assert np.isfinite(m).all() and m[0, 1] == 0.0


def test_nearest_neighbours_match_brute_force_with_stable_ties():
    g = torch.Generator().manual_seed(1)
    cands = torch.randn(50, 9, generator=g, dtype=torch.float64).numpy()
    query = cands[17] * 3.0  # same direction as row 17
    best = nearest_neighbours(query, cands, 5)
    sims = [float(F.cosine_similarity(torch.tensor(query), torch.tensor(c), dim=0)) for c in cands]
    brute = sorted(range(50), key=lambda i: -sims[i])[:5]
    assert [i for i, _ in best] == brute and best[0] == (17, 1.0)
    ties = nearest_neighbours(np.array([1.0, 0.0]), np.array([[2.0, 0.0], [1.0, 0.0]]), 2)
    assert [i for i, _ in ties] == [0, 1]
    with pytest.raises(ValueError):
        nearest_neighbours(np.array([1.0]), cands, 3)


def test_sentence_list_and_score_mapping():
    assert sentence_list(" a \n\nb\na\n" + "\n".join(str(i) for i in range(300)), limit=4) == [
        "a", "b", "0", "1",
    ]  # fmt: skip
    assert cosines_to_scores([1.2, 0.31]) == [5.0, 1.55]


@pytest.fixture(scope="module")
def minilm(minilm_dir):
    from explorer_core.bert.model import BertModel
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    model = BertModel.from_transformers(minilm_dir)
    tokenizer = WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt", lowercase=True)
    return TextEncoder(model, tokenizer)


def test_minilm_known_pair_and_unrelated_pair(minilm):
    """RECIPES: 0.85 for the guitar pair, about -0.05 for an unrelated one (mean pooling)."""
    assert minilm.cosine("A man is playing a guitar.", "A person plays the guitar.") == (
        pytest.approx(0.85, abs=0.01)
    )
    unrelated = minilm.cosine("A man is playing a guitar.", "The stock market fell sharply today.")
    assert abs(unrelated) < 0.15


def test_minilm_mean_pooling_equals_transformers(minilm, minilm_dir):
    from transformers import AutoModel, AutoTokenizer

    texts = ["A man is playing a guitar.", "一个男人在弹吉他。", "short"]
    hf_tok = AutoTokenizer.from_pretrained(str(minilm_dir))
    hf = AutoModel.from_pretrained(str(minilm_dir), attn_implementation="eager").eval()
    batch = hf_tok(texts, padding=True, return_tensors="pt")
    with torch.no_grad():
        hidden = hf(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).float()
    expected = F.normalize((hidden * mask).sum(1) / mask.sum(1), dim=-1).double().numpy()
    np.testing.assert_allclose(minilm.embed(texts), expected, atol=1e-5)


def test_pair_cosines_equal_one_pair_at_a_time(minilm):
    pairs = [("a cat sleeps", "a kitten naps"), ("a cat sleeps", "stocks fell"), ("x", "x")]
    got = pair_cosines(minilm, pairs, "max")
    one_by_one = [minilm.cosine(a, b, "max") for a, b in pairs]
    np.testing.assert_allclose(got, one_by_one, atol=1e-6)
    assert got[2] == pytest.approx(1.0)
    with pytest.raises(ValueError):
        minilm.embed(["a"], pooling="median")
