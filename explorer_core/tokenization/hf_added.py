"""Added tokens ([CLS], <mask>, ...) found in the text before anything else, as `tokenizers` does.

A tokenizer.json lists its added tokens with four switches: `lstrip`/`rstrip` (the match swallows
the whitespace on its left/right), `single_word` (only a whole word matches) and `normalized`
(matched in the normalized text, else in the text as typed). `tokenizers` first cuts the raw text
at the non-normalized ones, normalizes each remaining part, then cuts at the normalized ones.
Matching is leftmost-longest, left to right, and never overlaps.

>>> tokens = [AddedToken(250001, "<mask>", lstrip=True)]
>>> find_matches("I <mask> it", tokens)
[(None, 0, 1), (250001, 1, 8), (None, 8, 11)]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import regex

_STARTS_WITH_WORD = regex.compile(r"^\w")
_ENDS_WITH_WORD = regex.compile(r"\w$")
_SPACE_AT_END = regex.compile(r"\s*\Z")
_SPACE_AT_START = regex.compile(r"^\s*")


@dataclass(frozen=True)
class AddedToken:
    """One entry of a tokenizer.json's "added_tokens"."""

    id: int
    content: str
    single_word: bool = False
    lstrip: bool = False
    rstrip: bool = False
    normalized: bool = False
    special: bool = True

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> AddedToken:
        special = bool(data.get("special", False))
        return cls(
            int(data["id"]),
            str(data["content"]),
            bool(data.get("single_word", False)),
            bool(data.get("lstrip", False)),
            bool(data.get("rstrip", False)),
            bool(data.get("normalized", not special)),
            special,
        )


def assign_ids(
    tokens: list[AddedToken], model_vocab: dict[str, int], model_size: int
) -> list[AddedToken]:
    """The ids `tokenizers` gives added tokens when it reads a file (not the file's "id" fields):
    the model's id where the model has the string, else the next one after the model's vocabulary,
    in file order; an empty string is skipped.

    >>> [t.id for t in assign_ids([AddedToken(7, "<mask>"), AddedToken(0, "a")], {"a": 3}, 5)]
    [5, 3]
    """
    out, seen, next_id = [], {}, model_size
    for token in tokens:
        if not token.content:
            continue
        token_id = seen.get(token.content, model_vocab.get(token.content))
        if token_id is None:
            token_id, next_id = next_id, next_id + 1
        seen[token.content] = token_id
        out.append(replace(token, id=token_id))
    return out


class Matcher:
    """Leftmost-longest search for a set of strings (one alternation, longest first)."""

    def __init__(self, tokens: list[AddedToken], patterns: list[str] | None = None) -> None:
        patterns = patterns or [t.content for t in tokens]
        by_pattern: dict[str, AddedToken] = {}
        for token, pattern in zip(tokens, patterns, strict=True):
            if pattern:
                by_pattern[pattern] = token  # a repeated string keeps the last (HF's map does)
        self.by_pattern = by_pattern
        ordered = sorted(by_pattern, key=lambda s: (-len(s), s))
        self._regex = regex.compile("|".join(regex.escape(s) for s in ordered)) if ordered else None

    def __bool__(self) -> bool:
        return self._regex is not None

    def finditer(self, text: str):
        if self._regex is None:
            return iter(())
        return (
            (m.start(), m.end(), self.by_pattern[m.group()]) for m in self._regex.finditer(text)
        )


def find_matches(
    text: str, tokens: list[AddedToken] | Matcher
) -> list[tuple[int | None, int, int]]:
    """Cut `text` into (added token id or None, start, end) parts (character offsets)."""
    matcher = tokens if isinstance(tokens, Matcher) else Matcher(tokens)
    if not text:
        return []
    parts: list[tuple[int | None, int, int]] = []
    done = 0
    for start, stop, token in matcher.finditer(text):
        if token.single_word:
            alone_left = start == 0 or not _ENDS_WITH_WORD.search(text[:start])
            alone_right = stop == len(text) or not _STARTS_WITH_WORD.search(text[stop:])
            if not (alone_left and alone_right):
                continue
        if token.lstrip:
            found = _SPACE_AT_END.search(text[:start])
            start = max(found.start() if found else start, done)
        if token.rstrip:
            found = _SPACE_AT_START.search(text[stop:])
            stop += found.end() if found else 0
        if done < start:
            parts.append((None, done, start))
        parts.append((token.id, start, stop))
        done = stop
    if done != len(text):
        parts.append((None, done, len(text)))
    return parts
