"""Built-in corpora and STS data, and the STS file loader."""

from __future__ import annotations

import doctest

import pytest

from explorer_core import datasets
from explorer_core.datasets import builtin_corpus, corpus_paragraphs


def test_doctests() -> None:
    assert doctest.testmod(datasets).failed == 0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_builtin_corpus_is_large_running_text(lang: str) -> None:
    text = builtin_corpus(lang)
    size = len(text.encode("utf-8"))
    assert 25_000 <= size <= 40_000
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) >= 300
    # one sentence or short paragraph per line: no giant lines
    assert max(len(line) for line in lines) < 300
    assert len(corpus_paragraphs(text)) >= 20


def test_chinese_corpus_is_mostly_chinese() -> None:
    text = builtin_corpus("zh")
    han = sum("\u4e00" <= ch <= "\u9fff" for ch in text)
    assert han / len(text) > 0.8


def test_mixed_interleaves_both_corpora() -> None:
    en = corpus_paragraphs(builtin_corpus("en"))
    zh = corpus_paragraphs(builtin_corpus("zh"))
    mixed = corpus_paragraphs(builtin_corpus("mixed"))
    assert sorted(mixed) == sorted(en + zh)
    assert mixed[:4] == [en[0], zh[0], en[1], zh[1]]


def test_unknown_language_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="choose one of en, zh, mixed"):
        builtin_corpus("english")


def test_corpus_paragraphs_splits_on_blank_lines() -> None:
    assert corpus_paragraphs("x\ny\n  \nz") == ["x\ny", "z"]
    assert corpus_paragraphs("") == []
