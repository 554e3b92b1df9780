"""Word-level tokenizer: the issue's example vocabulary, ties by code point, <unk>, HF parity."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer as HFTokenizer

from explorer_core.tokenization.word_level import WordLevelTokenizer, word_spans

EXAMPLE = "Welcome to the\tthe jungle\nI can stay\there all night"


def test_issue_example_vocab_exactly():
    """ "the" occurs twice and comes first (5); every other word occurs once, so they follow in
    code-point order: upper-case "I" (U+0049) and "Welcome" (U+0057) before the lower-case words."""
    tok = WordLevelTokenizer()
    tok.train(EXAMPLE, 100)
    assert tok.vocab == {
        "<pad>": 0, "<unk>": 1, "<eos>": 2, "<sos>": 3, "<mask>": 4, "the": 5, "I": 6,
        "Welcome": 7, "all": 8, "can": 9, "here": 10, "jungle": 11, "night": 12, "stay": 13,
        "to": 14,
    }  # fmt: skip


def test_trace_and_truncated_vocab():
    tok = WordLevelTokenizer()
    steps = tok.train(EXAMPLE, 8)
    assert [(s.word, s.id, s.count) for s in steps] == [
        ("the", 5, 2),
        ("I", 6, 1),
        ("Welcome", 7, 1),
    ]
    assert tok.encode("the jungle") == [5, 1]
    assert tok.decode([5, 6, 1]) == "the I <unk>"


def test_words_split_on_whitespace_punctuation_and_chinese():
    assert [w for w, _, _ in word_spans("a\tb\nc  d, 你好!")] == [
        "a",
        "b",
        "c",
        "d",
        ",",
        "你",
        "好",
        "!",
    ]


def test_unknown_and_literal_specials():
    tok = WordLevelTokenizer()
    tok.train(EXAMPLE, 100)
    tokens = tok.explain("the <mask> zebra")
    assert [(t.id, t.text, t.special) for t in tokens] == [
        (5, "the", False),
        (4, "<mask>", True),
        (1, "<unk>", True),
    ]
    assert tokens[2].raw == b"zebra" and (tokens[2].start, tokens[2].end) == (11, 16)


def test_hf_word_level_parity():
    tok = WordLevelTokenizer()
    tok.train(EXAMPLE + "\nThe jungle, the night. 夜晚的丛林！", 100)
    hf = HFTokenizer.from_str(tok.to_hf_json())
    for text in [
        EXAMPLE,
        "",
        "  ",
        "the <pad>the <unk>",
        "Jungle! 丛林 夜",
        "é e\u0301 😀",
        "a\x00b",
    ]:
        assert hf.encode(text).ids == tok.encode(text), text


def test_bad_sizes_and_text():
    with pytest.raises(ValueError, match="more than its 5 special"):
        WordLevelTokenizer().train(EXAMPLE, 5)
    with pytest.raises(ValueError, match="no words"):
        WordLevelTokenizer().train(" \n\t", 50)
