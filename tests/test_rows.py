"""BERT's input rows (explorer_core.inputs.rows): worked layouts, and parity with transformers.

The reference is MiniLM's own tokenizer loaded by transformers (`AutoTokenizer`, a
`BertTokenizerFast`-style tokenizer backed by Hugging Face `tokenizers`); ours is
`WordPieceTokenizer.from_vocab` on the same vocab.txt, with `BertVocab.encode` building the rows.
"""

from __future__ import annotations

import pytest
import torch

from explorer_core.inputs.rows import build_rows, truncate_pair
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization.wordpiece import WordPieceTokenizer

SPECIALS = {"cls_id": 1, "sep_id": 2, "pad_id": 0}

SENTENCES = [
    "A man is playing a guitar.",
    "Hi",
    "",
    "The unbelievably long-winded sentence goes on and on, with commas, numbers like 12,345 "
    "and words such as antidisestablishmentarianism.",
    "Café déjà vu — naïve résumé",
    "我爱自然语言处理。",
    "emoji 🙂 and [MASK] in the text",
]
SECOND = [
    "A person plays the guitar.",
    "a much longer second sentence than the first one, to be cut before the first",
    "only the second side has words",
    "short",
    "Ünïcödé again",
    "今天天气很好",
    "🙂🙂🙂",
]


def test_single_rows_are_cls_text_sep_padded_to_the_longest():
    """[CLS]=1 7 8 [SEP]=2, and [CLS] 9 [SEP] padded with one 0 (mask 0, segment 0)."""
    rows = build_rows([[7, 8], [9]], **SPECIALS)
    assert rows.input_ids.tolist() == [[1, 7, 8, 2], [1, 9, 2, 0]]
    assert rows.token_type_ids.tolist() == [[0, 0, 0, 0], [0, 0, 0, 0]]
    assert rows.attention_mask.tolist() == [[1, 1, 1, 1], [1, 1, 1, 0]]
    assert rows.truncated == (0, 0) and len(rows) == 2
    assert rows.input_ids.dtype == rows.attention_mask.dtype == torch.long


def test_pair_layout_segments_padding_and_truncation():
    """[CLS] A [SEP] is segment 0, B [SEP] segment 1, padding segment 0 with mask 0."""
    e = build_rows([[7, 8, 9]], [[10, 11]], **SPECIALS, max_length=10, padding="max_length")
    assert e.input_ids.tolist() == [[1, 7, 8, 9, 2, 10, 11, 2, 0, 0]]
    assert e.token_type_ids.tolist() == [[0, 0, 0, 0, 0, 1, 1, 1, 0, 0]]
    assert e.attention_mask.tolist() == [[1] * 8 + [0, 0]]
    assert e.truncated == (0,)
    # budget 8 - 3 = 5 for ten + two tokens: B (2) fits in half, A keeps the other 3
    short = build_rows([list(range(10, 20))], [[5, 6]], **SPECIALS, max_length=8)
    assert short.input_ids.tolist() == [[1, 10, 11, 12, 2, 5, 6, 2]] and short.truncated == (7,)
    with pytest.raises(ValueError, match="max_length"):
        build_rows([[1]], [[2]], **SPECIALS, max_length=4)


def test_single_truncation_keeps_the_first_tokens():
    rows = build_rows([[5, 6, 7, 8], [9]], **SPECIALS, max_length=4)
    assert rows.input_ids.tolist() == [[1, 5, 6, 2], [1, 9, 2, 0]]
    assert rows.truncated == (2, 0)
    with pytest.raises(ValueError, match="max_length"):
        build_rows([[5]], **SPECIALS, max_length=2)


@pytest.mark.parametrize(
    ("la", "lb", "budget", "kept"),
    [
        (4, 2, 4, (2, 2)),  # B fits in half: A takes the rest
        (2, 3, 3, (1, 2)),  # both over half: the longer side (B) takes the odd one
        (6, 5, 5, (3, 2)),  # A longer: A takes the odd one
        (5, 5, 5, (2, 3)),  # a tie: B takes the odd one
        (3, 7, 6, (3, 3)),
        (0, 9, 4, (0, 4)),
        (2, 2, 4, (2, 2)),  # fits: nothing cut
    ],
)
def test_truncate_pair_longest_first(la, lb, budget, kept):
    a, b = truncate_pair(list(range(la)), list(range(100, 100 + lb)), budget)
    assert (len(a), len(b)) == kept
    assert a == list(range(len(a))) and b == list(range(100, 100 + len(b)))  # cut from the end


def test_bad_arguments_raise_value_errors():
    with pytest.raises(ValueError, match="empty"):
        build_rows([], **SPECIALS)
    with pytest.raises(ValueError, match="second"):
        build_rows([[1], [2]], [[3]], **SPECIALS)
    with pytest.raises(ValueError, match="padding"):
        build_rows([[1]], **SPECIALS, padding="left")
    with pytest.raises(ValueError, match="needs a max_length"):
        build_rows([[1]], **SPECIALS, padding="max_length")


# ---- parity with transformers on MiniLM's vocabulary ---------------------------------------


@pytest.fixture(scope="module")
def tokenizers(minilm_dir):
    from transformers import AutoTokenizer

    ours = WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt", lowercase=True)
    return ours, BertVocab.of(ours), AutoTokenizer.from_pretrained(str(minilm_dir))


def assert_same(ours, reference) -> None:
    for name in ("input_ids", "token_type_ids", "attention_mask"):
        assert getattr(ours, name).tolist() == reference[name].tolist(), name


@pytest.mark.parametrize(
    ("max_length", "padding"),
    [(None, "longest"), (512, "longest"), (9, "longest"), (6, "max_length"), (40, "max_length")],
)
def test_single_sentences_equal_transformers(tokenizers, max_length, padding):
    ours, vocab, ref = tokenizers
    kwargs = {"truncation": max_length is not None, "max_length": max_length}
    expected = ref(SENTENCES, padding=padding, return_tensors="pt", **kwargs)
    assert_same(vocab.encode(ours, SENTENCES, max_length=max_length, padding=padding), expected)
    for text in SENTENCES:  # one row at a time too (no padding at all)
        one = ref([text], return_tensors="pt", **kwargs)
        assert_same(vocab.encode(ours, [text], max_length=max_length), one)


@pytest.mark.parametrize(
    ("max_length", "padding"),
    [(None, "longest"), (128, "longest"), (7, "longest"), (8, "longest"), (11, "longest"),
     (16, "max_length"), (64, "max_length")],
)  # fmt: skip
def test_sentence_pairs_equal_transformers(tokenizers, max_length, padding):
    ours, vocab, ref = tokenizers
    kwargs = {"truncation": "longest_first" if max_length else False, "max_length": max_length}
    expected = ref(SENTENCES, SECOND, padding=padding, return_tensors="pt", **kwargs)
    rows = vocab.encode(ours, SENTENCES, SECOND, max_length=max_length, padding=padding)
    assert_same(rows, expected)


def test_swapped_pairs_equal_transformers(tokenizers):
    """The same pairs with A and B swapped, cut hard: the tie and odd-budget rules both ways."""
    ours, vocab, ref = tokenizers
    first = [*SECOND, "a b c d e", "one two three"]
    second = [*SENTENCES, "f g h i j", "four five six"]  # the last two: A and B of equal length
    for max_length in (5, 6, 8, 9, 10):
        expected = ref(first, second, padding="longest", truncation="longest_first",
                       max_length=max_length, return_tensors="pt")  # fmt: skip
        assert_same(vocab.encode(ours, first, second, max_length=max_length), expected)
