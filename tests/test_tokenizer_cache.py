"""The built-in tokenizers' disk cache: what it reads back equals what training gives, it is
used instead of training, and a bad, stale or unwritable cache never breaks the page."""

from __future__ import annotations

from collections import Counter

import pytest

from explorer_core.files import tokenizer_cache as cache
from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.tokenization import ALGORITHMS, new_tokenizer

TEXT = "The king's castle, 国王的城堡 — ünïcödé 2026!"


@pytest.fixture
def root(tmp_path, monkeypatch):
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def no_training(monkeypatch):
    def refuse(algo):
        raise AssertionError(f"trained {algo} again")

    monkeypatch.setattr(cache, "new_tokenizer", refuse)


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_read_back_equals_trained(root, monkeypatch, algo):
    reference = new_tokenizer(algo)
    reference.train(builtin_corpus("en"), 300)
    built, counts = cache.trained_tokenizer(algo, "en", 300)
    assert built.vocab == reference.vocab
    no_training(monkeypatch)
    again, counts_again = cache.trained_tokenizer(algo, "en", 300)
    assert again.encode(TEXT) == reference.encode(TEXT)
    assert again.vocab == reference.vocab
    assert counts_again == counts == dict(Counter(reference.encode(builtin_corpus("en"))))


def test_a_damaged_folder_is_trained_again(root, monkeypatch):
    first, _ = cache.trained_tokenizer("wordpiece", "en", 300)
    folder = cache.folder_of("wordpiece", "en", 300)
    (folder / cache.COUNTS_FILE).write_text("{not json", encoding="utf-8")
    again, counts = cache.trained_tokenizer("wordpiece", "en", 300)
    assert again.vocab == first.vocab and sum(counts.values()) > 0
    no_training(monkeypatch)
    assert cache.trained_tokenizer("wordpiece", "en", 300)[1] == counts  # rewritten whole


def test_the_folder_names_the_code_and_corpus(root, monkeypatch):
    en, zh = cache.folder_of("word", "en", 300), cache.folder_of("word", "zh", 300)
    assert en != zh and en.parent == root / "tokenizers"
    monkeypatch.setattr(cache, "tokenization", type("Fake", (), {"__file__": str(root / "x.py")}))
    cache.fingerprint.cache_clear()
    try:
        assert cache.folder_of("word", "en", 300) != en  # other trainer sources, other folder
    finally:
        cache.fingerprint.cache_clear()


def test_an_unwritable_cache_still_gives_the_tokenizer(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(blocker / "cache"))
    tokenizer, counts = cache.trained_tokenizer("word", "en", 300)
    assert tokenizer.encode("the king") and counts


def test_the_default_root_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.delenv("EXPLORER_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_root() == tmp_path / "embedding-explorer"
