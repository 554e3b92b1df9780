"""Text that remembers where it came from: the normalized pieces of a tokenizer.json pipeline.

`tokenizers` keeps, for every character of a normalized string, the span of the original text it
came from; so do we, so that a token can point at what the user typed. `Aligned` is a string with
one (start, end) span per character:

>>> a = Aligned.of("Ça va", offset=10)
>>> b = a.map_chars(lambda c: c.lower())
>>> b.text, b.span(0, 2)
('ça va', (10, 12))
>>> a.slice(3, 5).text, a.slice(3, 5).origin
('va', 13)

`rewrite` applies any string-to-string function and keeps spans as well as it can: it cuts the text
into grapheme clusters (user-perceived characters), rewrites each (a cluster that keeps its length
keeps its characters' spans, else its new text spans the whole cluster), and keeps the cut when the
pieces give the same result as the whole (so the whole decides the text, always); otherwise the
changed middle shares one span.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import regex

_GRAPHEME = regex.compile(r"\X")


@dataclass(frozen=True)
class Aligned:
    """`text[k]` came from original characters `starts[k]:ends[k]`; `origin` is where the piece
    starts in the original text (also when it is empty)."""

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    origin: int = 0

    @classmethod
    def of(cls, text: str, offset: int = 0) -> Aligned:
        starts = tuple(range(offset, offset + len(text)))
        return cls(text, starts, tuple(s + 1 for s in starts), offset)

    @classmethod
    def join(cls, parts: list[tuple[str, int, int]], origin: int) -> Aligned:
        """From (text, start, end) parts: every character of a part gets the part's span."""
        text = "".join(p for p, _, _ in parts)
        starts = tuple(s for p, s, _ in parts for _ in p)
        ends = tuple(e for p, _, e in parts for _ in p)
        return cls(text, starts, ends, origin)

    def __len__(self) -> int:
        return len(self.text)

    def span(self, a: int, b: int) -> tuple[int, int]:
        """The original span of characters a..b (b exclusive, b > a)."""
        return min(self.starts[a:b]), max(self.ends[a:b])

    def char_span(self, k: int) -> tuple[int, int]:
        return self.starts[k], self.ends[k]

    def slice(self, a: int, b: int) -> Aligned:
        origin = self.starts[a] if a < len(self.text) else self._end_origin()
        return Aligned(self.text[a:b], self.starts[a:b], self.ends[a:b], origin)

    def _end_origin(self) -> int:
        return self.ends[-1] if self.ends else self.origin

    def map_chars(self, fn: Callable[[str], str]) -> Aligned:
        """Replace each character by `fn(char)` (any length, possibly empty)."""
        parts = [(fn(c), s, e) for c, s, e in zip(self.text, self.starts, self.ends, strict=True)]
        return Aligned.join(parts, self.origin)

    def prepend(self, prefix: str) -> Aligned:
        """`prefix` before the text, aligned with the first character (as `tokenizers` does)."""
        if not self.text:
            return self
        span = self.char_span(0)
        return Aligned.join([(prefix, *span)], self.origin).concat(self)

    def concat(self, other: Aligned) -> Aligned:
        return Aligned(
            self.text + other.text, self.starts + other.starts, self.ends + other.ends, self.origin
        )

    def substitute(self, matches: Iterator[tuple[int, int, str]]) -> Aligned:
        """Replace the ranges (a, b) by their new text; new characters span the old range."""
        parts: list[tuple[str, int, int]] = []
        at = 0
        for a, b, new in matches:
            parts.extend(self._keep(at, a))
            if new:
                lo, hi = self.span(a, b) if b > a else self._point(a)
                parts.append((new, lo, hi))
            at = b
        parts.extend(self._keep(at, len(self.text)))
        return Aligned.join(parts, self.origin)

    def _keep(self, a: int, b: int) -> list[tuple[str, int, int]]:
        return [(self.text[k], self.starts[k], self.ends[k]) for k in range(a, b)]

    def _point(self, k: int) -> tuple[int, int]:
        if k < len(self.text):
            return self.starts[k], self.starts[k]
        return self._end_origin(), self._end_origin()

    def rewrite(self, fn: Callable[[str], str]) -> Aligned:
        """`fn` applied to the text, spans kept per grapheme cluster (see the module docstring)."""
        whole = fn(self.text)
        if whole == self.text:
            return self
        parts, at = [], 0
        for grapheme in _GRAPHEME.findall(self.text):
            end = at + len(grapheme)
            new = fn(grapheme)
            if len(new) == len(grapheme):  # unchanged, or one character for one (ｆ -> f)
                spans = zip(new, self.starts[at:end], self.ends[at:end], strict=True)
                parts += list(spans)
            else:
                parts.append((new, self.starts[at], max(self.ends[at:end])))
            at = end
        if "".join(p for p, _, _ in parts) == whole:
            return Aligned.join(parts, self.origin)
        return self._rewrite_middle(whole)

    def _rewrite_middle(self, whole: str) -> Aligned:
        """Keep the common start and end; the rest of `whole` spans the changed middle."""
        old = self.text
        head = 0
        while head < min(len(old), len(whole)) and old[head] == whole[head]:
            head += 1
        tail = 0
        while tail < min(len(old), len(whole)) - head and old[-1 - tail] == whole[-1 - tail]:
            tail += 1
        middle = whole[head : len(whole) - tail]
        return self.substitute(iter([(head, len(old) - tail, middle)]))
