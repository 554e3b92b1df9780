"""Every registered tokenizer × awkward strings: round trips, save/load, HF parity, determinism."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer as HFTokenizer

from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.tokenization import ALGORITHMS, load_tokenizer, new_tokenizer, tokenizer_class
from explorer_core.tokenization.base import HF_FILE

LOSSLESS = [algo for algo in ALGORITHMS if tokenizer_class(algo).lossless]
SIZES = {"byte-bpe": 400, "char-bpe": 700, "wordpiece": 800, "unigram": 400, "word": 200}
AWKWARD = [
    "",
    "a",
    "😀",
    "中",
    "e\u0301",  # e + combining acute accent
    "   \t\n  ",
    "Hello, 世界! 👋🏽 ok",
    "ﬁ Ⅻ İstanbul ΟΔΟΣ",
    "tabs\tand\nnew lines\r\n",
    "\x00\x1f control",
    "a" * 120,
    "混合 mixed 文本 text，全角标点：“引号”",
]


def _text() -> str:
    return builtin_corpus("en")[:2500] + "\n" + builtin_corpus("zh")[:800]


@pytest.fixture(scope="module")
def trained():
    out = {}
    for algo in ALGORITHMS:
        tok = new_tokenizer(algo)
        tok.train(_text(), SIZES[algo])
        out[algo] = tok
    return out


@pytest.fixture(scope="module")
def saved(trained, tmp_path_factory):
    root = tmp_path_factory.mktemp("tokenizers")
    return {algo: tok.save(root / algo) for algo, tok in trained.items()}


def test_every_algorithm_is_registered_and_named():
    assert set(ALGORITHMS) == set(SIZES)
    for algo in ALGORITHMS:
        assert new_tokenizer(algo).algo == algo


@pytest.mark.parametrize("algo", LOSSLESS)
@pytest.mark.parametrize("text", AWKWARD)
def test_round_trip_when_lossless(trained, algo, text):
    tok = trained[algo]
    assert tok.decode(tok.encode(text)) == text


@pytest.mark.parametrize("algo", sorted(set(ALGORITHMS) - set(LOSSLESS)))
def test_lossy_decode_keeps_the_words(trained, algo):
    """Lossy tokenizers drop spacing (and case or accents), but the known words come back."""
    tok = trained[algo]
    assert all(isinstance(tok.decode(tok.encode(text)), str) for text in AWKWARD)
    assert tok.decode(tok.encode("the")).replace("[UNK]", "").strip() == "the"


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_save_load_gives_identical_ids(trained, saved, algo):
    loaded = load_tokenizer(saved[algo])
    assert loaded.algo == algo and loaded.vocab == trained[algo].vocab
    for text in AWKWARD:
        assert loaded.encode(text) == trained[algo].encode(text), text


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_hf_tokenizer_json_encodes_the_same_ids(trained, saved, algo):
    hf = HFTokenizer.from_file(str(saved[algo] / HF_FILE))
    for text in AWKWARD + _text().splitlines()[:40]:
        assert hf.encode(text, add_special_tokens=False).ids == trained[algo].encode(text), text


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_explain_agrees_with_encode(trained, algo):
    tok = trained[algo]
    for text in AWKWARD:
        tokens = tok.explain(text)
        assert [t.id for t in tokens] == tok.encode(text)
        assert all(0 <= t.start <= t.end <= len(text) for t in tokens)
        assert all(tok.id_to_token(t.id) == t.text for t in tokens)


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_training_is_deterministic(trained, algo):
    again = new_tokenizer(algo)
    again.train(_text(), SIZES[algo])
    assert again.vocab == trained[algo].vocab
    assert len(trained[algo].vocab) <= SIZES[algo]
