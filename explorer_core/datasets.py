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

from importlib import resources

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
