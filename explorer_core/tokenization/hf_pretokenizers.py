"""A tokenizer.json's pre-tokenizer: cutting normalized text into the words a model sees.

`build_pre_tokenizer(spec)` returns a `Splitter`: a function from one `Aligned` piece to its words.
Ours: BertPreTokenizer (whitespace dropped, punctuation alone, as `bert_basic`), ByteLevel
(GPT-2's regex from `pretokenize`, with the letters `tokenizers` knows; the words stay in real
characters, the byte-level BPE model turns them into bytes), Metaspace (spaces to "▁", one "▁"
put in front, cut before every "▁"), WhitespaceSplit, Whitespace and Sequence. Any other kind
runs in `tokenizers` (`pre_tokenize_str`).

>>> split = build_pre_tokenizer({"type": "Metaspace", "replacement": "▁",
...     "prepend_scheme": "always", "split": True})
>>> [w.text for w in split.run(Aligned.of("a  b"))]
['▁a', '▁', '▁b']
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import regex

from explorer_core.tokenization.bert_basic import is_bert_punctuation, is_whitespace
from explorer_core.tokenization.hf_aligned import Aligned
from explorer_core.tokenization.hf_normalizers import their_component
from explorer_core.tokenization.hf_unicode import REGEX_NOT_LETTERS, REGEX_NOT_NUMBERS
from explorer_core.tokenization.pretokenize import GPT2_REGEX

Split = Callable[[Aligned], list[Aligned]]


def _ranges(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"{regex.escape(chr(a))}-{regex.escape(chr(b))}" for a, b in ranges)


# GPT-2's pattern (`pretokenize.GPT2_PATTERN`) with Oniguruma's letters and numbers, the ones
# `tokenizers` knows (`hf_unicode`): the `regex` module's newer letters count as "other" symbols
_L = rf"[\p{{L}}--[{_ranges(REGEX_NOT_LETTERS)}]]"
_N = rf"[\p{{N}}--[{_ranges(REGEX_NOT_NUMBERS)}]]"
_O = rf"[[^\s\p{{L}}\p{{N}}][{_ranges(REGEX_NOT_LETTERS)}{_ranges(REGEX_NOT_NUMBERS)}]]"
BYTE_LEVEL_REGEX = regex.compile(
    rf"""(?V1)'s|'t|'re|'ve|'m|'ll|'d| ?{_L}+| ?{_N}+| ?{_O}+|\s+(?!\S)|\s+"""
)
# subtle: that pattern is ~4x slower than GPT-2's; text without those characters cuts the same
_NEWER = frozenset(
    chr(c) for a, b in (*REGEX_NOT_LETTERS, *REGEX_NOT_NUMBERS) for c in range(a, b + 1)
)


def byte_level_chunks(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each chunk `tokenizers`' ByteLevel cuts `text` into.

    >>> byte_level_chunks("hi! you")
    [(0, 2), (2, 3), (3, 7)]
    """
    newer = not text.isascii() and not _NEWER.isdisjoint(text)
    pattern = BYTE_LEVEL_REGEX if newer else GPT2_REGEX
    return [m.span() for m in pattern.finditer(text)]


_WHITESPACE_WORDS = regex.compile(r"\w+|[^\w\s]+")
_NON_SPACE = regex.compile(r"\S+")


@dataclass(frozen=True)
class Splitter:
    """`run` cuts one piece into words; `byte_level` says the words are to be read as bytes."""

    run: Split
    names: tuple[str, ...]
    theirs: tuple[str, ...] = ()
    byte_level: bool = False


def build_pre_tokenizer(spec: dict[str, Any] | None) -> Splitter:
    """The pre-tokenizer described by `spec` (None: the whole piece is one word)."""
    if spec is None:
        return Splitter(lambda a: [a] if a.text else [], ())
    kind = str(spec.get("type"))
    if kind == "Sequence":
        parts = [build_pre_tokenizer(s) for s in spec.get("pretokenizers", [])]
        if any(p.byte_level for p in parts[:-1]):
            raise ValueError("A ByteLevel pre-tokenizer must come last in its Sequence")
        return Splitter(
            _chain([p.run for p in parts]),
            tuple(n for p in parts for n in p.names),
            tuple(n for p in parts for n in p.theirs),
            bool(parts) and parts[-1].byte_level,
        )
    if kind == "ByteLevel":
        return Splitter(_byte_level(spec), (kind,), (), True)
    ours = _OURS.get(kind)
    if ours is not None:
        return Splitter(ours(spec), (kind,))
    return Splitter(_theirs(json.dumps(spec)), (kind,), (kind,))


def _chain(runs: list[Split]) -> Split:
    def run(piece: Aligned) -> list[Aligned]:
        pieces = [piece]
        for step in runs:
            pieces = [word for p in pieces for word in step(p)]
        return pieces

    return run


def _cut(piece: Aligned, bounds: list[tuple[int, int]]) -> list[Aligned]:
    return [piece.slice(a, b) for a, b in bounds if b > a]


def _space_split(piece: Aligned, punctuation: bool) -> list[Aligned]:
    """Cut at whitespace (dropped); with `punctuation`, each punctuation mark is a word alone."""
    bounds, start = [], 0
    for k, char in enumerate(piece.text):
        if is_whitespace(char):
            bounds.append((start, k))
            start = k + 1
        elif punctuation and is_bert_punctuation(char):
            bounds += [(start, k), (k, k + 1)]
            start = k + 1
    bounds.append((start, len(piece)))
    return _cut(piece, bounds)


def _bert(spec: dict[str, Any]) -> Split:
    return lambda piece: _space_split(piece, punctuation=True)


def _whitespace_split(spec: dict[str, Any]) -> Split:
    return lambda piece: _space_split(piece, punctuation=False)


def _whitespace(spec: dict[str, Any]) -> Split:
    return lambda p: _cut(p, [m.span() for m in _WHITESPACE_WORDS.finditer(p.text)])


def _metaspace(spec: dict[str, Any]) -> Split:
    replacement = str(spec.get("replacement", "▁"))
    scheme = spec.get("prepend_scheme")
    if scheme is None:  # files written before tokenizers 0.14
        scheme = "always" if spec.get("add_prefix_space", True) else "never"
    split = bool(spec.get("split", True))

    def run(piece: Aligned) -> list[Aligned]:
        piece = piece.map_chars(lambda c: replacement if c == " " else c)
        if not piece.text.startswith(replacement):
            if scheme == "always" or (scheme == "first" and piece.origin == 0):
                piece = piece.prepend(replacement)
        if not split:
            return [piece] if piece.text else []
        cuts = [k for k, c in enumerate(piece.text) if c == replacement and k > 0]
        return _cut(piece, list(zip([0, *cuts], [*cuts, len(piece)], strict=True)))

    return run


def _byte_level(spec: dict[str, Any]) -> Split:
    prefix = bool(spec.get("add_prefix_space", False))
    use_regex = bool(spec.get("use_regex", True))

    def run(piece: Aligned) -> list[Aligned]:
        if prefix and piece.text and not piece.text.startswith(" "):
            piece = piece.prepend(" ")
        if not use_regex:
            return [piece] if piece.text else []
        return _cut(piece, byte_level_chunks(piece.text))

    return run


_OURS: dict[str, Callable[[dict[str, Any]], Split]] = {
    "BertPreTokenizer": _bert,
    "WhitespaceSplit": _whitespace_split,
    "Whitespace": _whitespace,
    "Metaspace": _metaspace,
}


def _theirs(spec_json: str) -> Split:
    pre_tokenizer = their_component("pre_tokenizer", spec_json)

    def run(piece: Aligned) -> list[Aligned]:
        words = []
        for text, (a, b) in pre_tokenizer.pre_tokenize_str(piece.text):
            if piece.text[a:b] == text:
                words.append(piece.slice(a, b))
            elif b > a:
                words.append(Aligned.join([(text, *piece.span(a, b))], piece.starts[a]))
        return words

    return run
