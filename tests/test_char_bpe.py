"""Character BPE with </w>: shared-engine merges, Chinese apart, fixed length, HF parity."""

from __future__ import annotations

from collections import Counter

import pytest
from tokenizers import Tokenizer as HFTokenizer

from explorer_core.tokenization.bpe_engine import train_bpe_textbook
from explorer_core.tokenization.char_bpe import BOS, EOS, PAD, CharBPETokenizer, word_symbols
from explorer_core.tokenization.word_level import word_spans

TEXT = "low low low lower lowest newest widest 你好 你们好 好的。"


def test_textbook_merges():
    """ "low" x3 + "lower" + "lowest": (l, o) occurs 5 times, more than any other pair, then
    (lo, w</w>) 3 times beats (lo, w) 2 times: the end-of-word marker tells them apart."""
    tok = CharBPETokenizer()
    steps = tok.train("low low low lower lowest", 20)
    assert [(s.left, s.right, s.count) for s in steps[:2]] == [("l", "o", 5), ("lo", "w</w>", 3)]
    assert tok.explain("low")[0].text == "low</w>"


def test_chinese_characters_stay_apart():
    tok = CharBPETokenizer()
    tok.train(TEXT * 3, 200)
    assert word_symbols("你") == ["你</w>"]
    assert [t.text for t in tok.explain("你好。")] == ["你</w>", "好</w>", "。</w>"]
    assert all("你好" not in s for s in tok.vocab)  # merges never cross a character word


def test_same_merges_as_the_engine_textbook_recount():
    """The incremental engine and its recount-everything teaching mode agree merge for merge."""
    tok = CharBPETokenizer()
    steps = tok.train(TEXT * 2, 60)
    counts = Counter(w for w, _, _ in word_spans(TEXT * 2))
    alphabet = sorted({s for w in counts for s in word_symbols(w)})
    ids = {s: i + 4 for i, s in enumerate(alphabet)}
    words = [[ids[s] for s in word_symbols(w)] for w in counts]
    slow = train_bpe_textbook(words, list(counts.values()), len(steps), 4 + len(alphabet))
    assert [(m.left, m.right) for m in slow.steps] == [
        (tok.vocab[s.left], tok.vocab[s.right]) for s in steps
    ]


def test_candidates_and_stats():
    tok = CharBPETokenizer()
    steps = tok.train(TEXT * 3, 80)
    first = tok.candidates(0)
    assert first[0].place == 0 and first[0].count == steps[0].count
    assert (first[0].left, first[0].right) == (steps[0].left, steps[0].right)
    assert tok.stats is not None
    tokens_after = tok.stats.tokens_after()
    assert len(tokens_after) == len(steps) + 1
    assert tokens_after[-1][0] < tokens_after[0][0]  # merges shrank the English tokens


def test_fixed_length_encoding():
    tok = CharBPETokenizer()
    tok.train(TEXT, 100)
    ids = tok.encode("low", length=5, add_special_tokens=True)
    assert ids[0] == BOS and ids[2] == EOS and ids[3:] == [PAD, PAD]
    long = tok.encode("low " * 10, length=4, add_special_tokens=True)
    assert len(long) == 4 and long[0] == BOS and long[-1] == EOS
    assert tok.encode("low low", length=1) == tok.encode("low low")[:1]
    with pytest.raises(ValueError):
        tok.encode("low", length=1, add_special_tokens=True)


def test_unknown_characters_and_hf_parity():
    tok = CharBPETokenizer()
    tok.train(TEXT * 3, 150)
    unknown = tok.explain("zzz")
    assert {t.text for t in unknown} == {"<unk>"} and unknown[0].raw == b"z"
    hf = HFTokenizer.from_str(tok.to_hf_json())
    for text in [TEXT, "", "lowest 你们", "<pad> x<unk>", "LOW 😀 é", "widest, newest!"]:
        assert hf.encode(text).ids == tok.encode(text), text
    assert tok.decode(tok.encode("lowest 你好")) == "lowest 你好"


def test_bad_vocab_size():
    with pytest.raises(ValueError, match="choose at least"):
        CharBPETokenizer().train(TEXT, 10)
