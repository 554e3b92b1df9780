"""Unigram LM tokenizer: the textbook Viterbi example, EM and pruning, sampling, byte fallback."""

from __future__ import annotations

import math
import random

import pytest
from tokenizers import Tokenizer as HFTokenizer

from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.tokenization.unigram import UnigramTokenizer, unigram_words
from explorer_core.tokenization.unigram_lattice import build_lattice, expected_counts


@pytest.fixture(scope="module")
def trained() -> tuple[UnigramTokenizer, list]:
    tok = UnigramTokenizer()
    rounds = tok.train(builtin_corpus("mixed")[:6000], 500)
    return tok, rounds


def test_textbook_best_segmentation():
    """p(ab) = 2/3, p(c) = 1/3: "ababc" can only be ab|ab|c, likelihood 2/3 · 2/3 · 1/3 = 4/27."""
    seg = UnigramTokenizer.from_pieces({"ab": 2 / 3, "c": 1 / 3}).best_segmentation("ababc")
    assert seg.pieces == ("ab", "ab", "c")
    assert seg.log_likelihood == pytest.approx(math.log(4 / 27))


def test_viterbi_prefers_the_likelier_cut():
    """p(a)=p(b)=0.1, p(ab)=0.05: ab (0.05) beats a|b (0.01); p(ab)=0.005 flips it."""
    tok = UnigramTokenizer.from_pieces({"a": 0.1, "b": 0.1, "ab": 0.05})
    assert tok.best_segmentation("ab").pieces == ("ab",)
    tok = UnigramTokenizer.from_pieces({"a": 0.1, "b": 0.1, "ab": 0.005})
    assert tok.best_segmentation("ab").pieces == ("a", "b")


def test_expected_counts_by_hand():
    """ "ab" with p(a)=p(b)=0.5, p(ab)=0.25: the cuts a|b and ab are equally likely (0.25 each),
    so a, b and ab are each expected 0.5 times, and log Z = log 0.5."""
    pieces = {"a": (0, math.log(0.5)), "b": (1, math.log(0.5)), "ab": (2, math.log(0.25))}
    counts: dict[int, float] = {}
    logz = expected_counts(build_lattice("ab", pieces, 2, (9, -99.0)), 1.0, counts)
    assert counts == pytest.approx({0: 0.5, 1: 0.5, 2: 0.5})
    assert logz == pytest.approx(math.log(0.5))


def test_sampling_is_seeded_and_follows_alpha():
    tok = UnigramTokenizer.from_pieces({"a": 0.1, "b": 0.1, "ab": 0.05})
    draws = [tok.sample_segmentation("abab", alpha=0.0, seed=s).pieces for s in range(40)]
    assert len(set(draws)) == 4  # alpha 0: all four cuts of "abab" show up
    assert draws == [tok.sample_segmentation("abab", alpha=0.0, seed=s).pieces for s in range(40)]
    greedy = {tok.sample_segmentation("abab", alpha=50.0, seed=s).pieces for s in range(20)}
    assert greedy == {tok.best_segmentation("abab").pieces}  # large alpha: the Viterbi cut
    with pytest.raises(ValueError):
        tok.sample_segmentation("ab", alpha=-1)


def test_training_trace_em_and_prune(trained):
    tok, rounds = trained
    assert tok.vocab_size == 500
    kinds = {r.kind for r in rounds}
    assert kinds == {"em", "prune"}
    prunes = [r for r in rounds if r.kind == "prune"]
    assert all(r.removed > 0 for r in prunes)
    sizes = [r.vocab_size for r in rounds]
    assert sizes == sorted(sizes, reverse=True)  # the vocabulary only shrinks
    assert all(math.isfinite(r.log_likelihood) and r.log_likelihood < 0 for r in rounds)
    assert "▁the" in tok.vocab  # the commonest English word became one piece


def test_whitespace_and_byte_fallback(trained):
    tok, _ = trained
    assert unigram_words("a  b\nc") == [("▁a", 0), ("▁", 2), ("▁b", 3), ("\n", 5), ("c", 6)]
    tokens = tok.explain("x 😀")
    emoji = [t for t in tokens if t.text.startswith("<0x")]
    assert [t.text for t in emoji] == ["<0xF0>", "<0x9F>", "<0x98>", "<0x80>"]
    assert emoji[0].display == "⟨f0⟩…"
    assert tok.decode(tok.encode("x 😀")) == "x 😀"
    literal = "<0x41> <unk> spelled out"
    assert tok.decode(tok.encode(literal)) == literal


def test_hf_unigram_parity_and_round_trip(trained):
    tok, _ = trained
    hf = HFTokenizer.from_str(tok.to_hf_json())
    rng = random.Random(3)
    texts = builtin_corpus("mixed").splitlines()[:80] + [
        "",
        " ",
        "  a  b  ",
        "\n\nx\n",
        "tab\there",
        "e\u0301 combining",
        "𫤥 rare 齉 😀😀",
    ]
    texts += ["".join(chr(rng.randrange(1, 0x3000)) for _ in range(20)) for _ in range(80)]
    for text in texts:
        assert hf.encode(text).ids == tok.encode(text), text
        assert tok.decode(tok.encode(text)) == text


def test_deterministic_training():
    text = builtin_corpus("en")[:3000]
    a, b = UnigramTokenizer(), UnigramTokenizer()
    assert a.train(text, 320) == b.train(text, 320)
    assert a.vocab == b.vocab


def test_bad_input():
    with pytest.raises(ValueError, match="at least"):
        UnigramTokenizer().train("some text", 260)
    with pytest.raises(ValueError, match="empty"):
        UnigramTokenizer().train("", 400)
    with pytest.raises(ValueError, match="probabilities"):
        UnigramTokenizer.from_pieces({"a": 1.5})
