"""Built-in text and sentence-pair data: the project's own corpus and STS pairs.

Everything here was written for Embedding Explorer and ships inside the package
(`explorer_core/resources/`), so it works offline and straight from the source tree.

The corpora hold one sentence (or a short paragraph) per line; consecutive lines are consecutive
sentences of one coherent text, and a blank line separates two texts. That makes the lines usable as
sentence pairs for next-sentence prediction.

>>> text = builtin_corpus("en")
>>> text.splitlines()[0]
'A language model never sees letters the way we do.'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from importlib import resources

from explorer_core.inputs.sts_format import (
    SPLITS,
    STS_FORMATS,
    LoadResult,
    SentencePair,
    guess_lang,
    load_sts_bytes,
    load_sts_file,
)

__all__ = [
    "CORPUS_LANGS",
    "SPLITS",
    "STS_FORMATS",
    "LoadResult",
    "SentencePair",
    "builtin_corpus",
    "builtin_sts_pairs",
    "corpus_paragraphs",
    "guess_lang",
    "load_sts_bytes",
    "load_sts_file",
    "split_pairs",
]

CORPUS_LANGS = ("en", "zh", "mixed")


def _resource_text(name: str) -> str:
    """The UTF-8 text of a file in `explorer_core/resources/`."""
    return resources.files("explorer_core").joinpath("resources", name).read_text(encoding="utf-8")


def corpus_paragraphs(text: str) -> list[str]:
    """Split a corpus into its texts (blocks separated by blank lines), stripped, none empty.

    >>> corpus_paragraphs("a\\nb\\n\\n\\nc\\n")
    ['a\\nb', 'c']
    """
    blocks, current = [], []
    for line in text.splitlines():
        if line.strip():
            current.append(line.rstrip())
        elif current:
            blocks.append("\n".join(current))
            current = []
    if current:
        blocks.append("\n".join(current))
    return blocks


def builtin_corpus(lang: str) -> str:
    """The project's own running prose: ``"en"`` (~31 KB), ``"zh"`` (~29 KB) or ``"mixed"``.

    ``"mixed"`` interleaves the texts of both languages (English first, then Chinese, and so on;
    the longer list's remaining texts follow), still one sentence per line and a blank line between
    texts.

    >>> builtin_corpus("mixed").split("\\n\\n")[1].splitlines()[0]
    '语言模型读文字的方式和我们完全不同。'
    >>> builtin_corpus("fr")
    Traceback (most recent call last):
    ...
    ValueError: Unknown corpus language 'fr': choose one of en, zh, mixed.
    """
    if lang not in CORPUS_LANGS:
        raise ValueError(
            f"Unknown corpus language {lang!r}: choose one of {', '.join(CORPUS_LANGS)}."
        )
    if lang != "mixed":
        return _resource_text(f"corpus_{lang}.txt")
    en = corpus_paragraphs(_resource_text("corpus_en.txt"))
    zh = corpus_paragraphs(_resource_text("corpus_zh.txt"))
    mixed = []
    for i in range(max(len(en), len(zh))):
        mixed.extend(block[i] for block in (en, zh) if i < len(block))
    return "\n\n".join(mixed) + "\n"


def builtin_sts_pairs() -> list[SentencePair]:
    """The project's own 545 bilingual pairs (en and zh), each with its train/dev/test split.

    Every anchor sentence comes with a paraphrase in other words (score 4-5), a partial overlap
    (2-3.5), a related sentence with another meaning (1-2) and an unrelated one that shares words
    (0-0.5); every other anchor also gets a close paraphrase that keeps most words, the rest an
    unrelated sentence with nothing in common. So word overlap helps, but misleads often enough
    that a lexical baseline stays well below a model that reads meaning. Splits (about 70/15/15)
    are by anchor, so no sentence appears in two splits.

    >>> pairs = builtin_sts_pairs()
    >>> len(pairs), sorted({p.split for p in pairs}), sorted({p.lang for p in pairs})
    (545, ['dev', 'test', 'train'], ['en', 'zh'])
    """
    data = resources.files("explorer_core").joinpath("resources", "sts_pairs.tsv").read_bytes()
    result = load_sts_bytes(data, "sts_pairs.tsv", "table")
    assert result.malformed == 0, result.problems
    return list(result.pairs)


def split_pairs(
    pairs: Sequence[SentencePair], seed: int = 0, dev_fraction: float = 0.15
) -> dict[str, list[SentencePair]]:
    """Group pairs by split; pairs without one are divided into train and dev, reproducibly.

    Pairs that already carry a split keep it. The others are shuffled by `random.Random(seed)`
    and ``round(n * dev_fraction)`` of them (at least one when ``n >= 2`` and the fraction is
    positive) become dev, the rest train. Same pairs and seed, same split.

    >>> pairs = [SentencePair(f"a{i}", f"b{i}", 1.0) for i in range(10)]
    >>> parts = split_pairs(pairs, seed=1, dev_fraction=0.2)
    >>> [len(parts[s]) for s in SPLITS], parts == split_pairs(pairs, seed=1, dev_fraction=0.2)
    ([8, 2, 0], True)
    """
    if not 0.0 <= dev_fraction < 1.0:
        raise ValueError(f"dev_fraction must be at least 0 and below 1, not {dev_fraction}.")
    parts: dict[str, list[SentencePair]] = {name: [] for name in SPLITS}
    loose = []
    for pair in pairs:
        if pair.split in parts:
            parts[pair.split].append(pair)
        else:
            loose.append(pair)
    order = list(range(len(loose)))
    random.Random(seed).shuffle(order)
    n_dev = round(len(loose) * dev_fraction)
    if dev_fraction > 0 and len(loose) >= 2:
        n_dev = max(n_dev, 1)
    dev_ids = set(order[:n_dev])
    for i, pair in enumerate(loose):
        name = "dev" if i in dev_ids else "train"
        parts[name].append(replace(pair, split=name))
    return parts
