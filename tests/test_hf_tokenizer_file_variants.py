"""The switches real files set differently from our built ones, and older file formats: each
edited file still gives exactly `tokenizers`' ids and type ids on every awkward string. And the
characters where `tokenizers`' older Unicode tables differ from Python's (`hf_unicode`)."""

from __future__ import annotations

import random

import pytest
from tokenizers import normalizers, pre_tokenizers

from explorer_core.tokenization.bert_unicode import NFD_KEEP
from explorer_core.tokenization.byte_bpe import BYTE_TO_UNICODE
from explorer_core.tokenization.hf_file import load_tokenizer_file
from explorer_core.tokenization.hf_normalizers import is_mark, unicode_form
from explorer_core.tokenization.hf_pretokenizers import byte_level_chunks
from explorer_core.tokenization.hf_unicode import (
    CCC_KEEP,
    MARK_FLIPS,
    NFK_KEEP,
    REGEX_NOT_LETTERS,
    REGEX_NOT_NUMBERS,
)
from tests.hf_files import build, edit, same_as_tokenizers


def _set(*keys, value):
    def change(doc):
        node = doc
        for key in keys[:-1]:
            node = node[key]
        node[keys[-1]] = value

    return change


def _byte_fallback(doc):
    doc["model"]["vocab"] += [[f"<0x{b:02X}>", -30.0] for b in range(256)]
    doc["model"]["byte_fallback"] = True


def _old_merges(doc):
    doc["model"]["merges"] = [" ".join(m) for m in doc["model"]["merges"]]


def _old_xlmr_pre_tokenizer(doc):
    doc["pre_tokenizer"] = {
        "type": "Sequence",
        "pretokenizers": [
            {"type": "WhitespaceSplit"},
            {"type": "Metaspace", "replacement": "▁", "add_prefix_space": True},
        ],
    }


VARIANTS = {
    "no post-processor (type ids 0 then 1)": ("bert_cased", _set("post_processor", value=None)),
    "truncation OnlyFirst, left": (
        "bert_uncased",
        _set(
            "truncation",
            value={"max_length": 12, "strategy": "OnlyFirst", "stride": 0, "direction": "Left"},
        ),  # fmt: skip
    ),
    "truncation OnlySecond": (
        "roberta",
        _set(
            "truncation",
            value={"max_length": 40, "strategy": "OnlySecond", "stride": 0, "direction": "Right"},
        ),  # fmt: skip
    ),
    "truncation LongestFirst 9": (
        "unigram_nfkc_first",
        _set(
            "truncation",
            value={"max_length": 9, "strategy": "LongestFirst", "stride": 0, "direction": "Right"},
        ),  # fmt: skip
    ),
    "padding left to a multiple of 8": (
        "modernbert",
        _set(
            "padding",
            value={
                "strategy": "BatchLongest",
                "direction": "Left",
                "pad_to_multiple_of": 8,
                "pad_id": 4,
                "pad_type_id": 1,
                "pad_token": "[PAD]",
            },
        ),  # fmt: skip
    ),
    "max_input_chars_per_word 6": (
        "bert_uncased",
        _set("model", "max_input_chars_per_word", value=6),
    ),  # fmt: skip
    "ignore_merges": ("roberta", _set("model", "ignore_merges", value=True)),
    "merges written as strings (before tokenizers 0.20)": ("roberta", _old_merges),
    "ByteLevel with a prefix space": (
        "roberta",
        _set("pre_tokenizer", "add_prefix_space", value=True),
    ),  # fmt: skip
    "ByteLevel without its regex": (
        "modernbert",
        _set("pre_tokenizer", "use_regex", value=False),
    ),  # fmt: skip
    "Unigram byte fallback": ("unigram_nfkc_first", _byte_fallback),
    "Metaspace never prepends": (
        "xlmr_precompiled",
        _set("pre_tokenizer", "prepend_scheme", value="never"),
    ),  # fmt: skip
    "Metaspace without split": (
        "unigram_nmt_always",
        _set("pre_tokenizer", "split", value=False),
    ),  # fmt: skip
    "old XLM-R pre-tokenizer (WhitespaceSplit, add_prefix_space)": (
        "xlmr_precompiled",
        _old_xlmr_pre_tokenizer,
    ),
    "BertNormalizer without clean_text or Chinese": (
        "bert_uncased",
        _set(
            "normalizer",
            value={
                "type": "BertNormalizer",
                "clean_text": False,
                "handle_chinese_chars": False,
                "strip_accents": True,
                "lowercase": False,
            },
        ),  # fmt: skip
    ),
}


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_edited_file_still_gives_tokenizers_ids(tmp_path, variant):
    name, change = VARIANTS[variant]
    path = edit(build(name, tmp_path), change)
    assert same_as_tokenizers(load_tokenizer_file(path), path)


def _sample(ranges, seed: int) -> list[str]:
    """Every code point of `ranges`, and 3,000 seeded random ones (no surrogates)."""
    rng = random.Random(seed)
    points = [c for a, b in ranges for c in range(a, b + 1)]
    points += [c for c in rng.sample(range(0x30000), 3000) if not 0xD800 <= c <= 0xDFFF]
    return [chr(c) for c in points]


@pytest.mark.parametrize("form", ["NFC", "NFD", "NFKC", "NFKD"])
def test_unicode_forms_follow_tokenizers_older_tables(form):
    """Alone and between a letter and combining marks (which reorder and compose around them)."""
    theirs = getattr(normalizers, form)()
    chars = _sample((*NFK_KEEP, *CCC_KEEP, *((c, c) for c in NFD_KEEP)), seed=14)
    for char in chars:
        for text in (char, f"e{char}\u0323\u0301", f"\u1100{char}\u1161", f"{char}\u0308a"):
            assert unicode_form(form, text) == theirs.normalize_str(text), hex(ord(char))


def test_strip_accents_follows_tokenizers_marks():
    theirs = normalizers.StripAccents()
    for char in _sample(MARK_FLIPS, seed=15):
        assert ("" if is_mark(char) else char) == theirs.normalize_str(char), hex(ord(char))


def test_byte_level_cuts_follow_oniguruma_letters():
    """Letters and numbers the `regex` module knows and `tokenizers`' Oniguruma does not (all of
    them), and 3,000 random characters, inside words, numbers, symbols and spaces."""
    theirs = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    for char in _sample((*REGEX_NOT_LETTERS, *REGEX_NOT_NUMBERS), seed=16):
        text = f"ab{char}cd 1{char}2 {char}  x!{char}?{char}{char} '{char}s\t{char}"
        ours = ["".join(BYTE_TO_UNICODE[b] for b in text[a:b].encode())
                for a, b in byte_level_chunks(text)]  # fmt: skip
        assert ours == [p for p, _ in theirs.pre_tokenize_str(text)], hex(ord(char))
