"""GPT-2 pre-tokenization: cut text into chunks that byte-level BPE never merges across.

The pattern is GPT-2's (also Hugging Face's `ByteLevel` pre-tokenizer with `use_regex=True`):
contractions, an optional space followed by letters, or digits, or other symbols, and whitespace
runs (a run keeps its last space for the next word). It needs the `regex` package for `\\p{L}`.

>>> pretokenize("hi! This apple belongs to him")
['hi', '!', ' This', ' apple', ' belongs', ' to', ' him']
>>> pretokenize("我爱 NLP  2024年")
['我爱', ' NLP', ' ', ' 2024', '年']

Training only needs how often each chunk occurs (`chunk_counts`). A chunk never crosses a point
where a non-space character is followed by whitespace: every alternative of the pattern either
consumes whitespace only or starts with at most one space and then takes no whitespace. So the
text can first be cut there, into *segments* (whitespace, then non-space characters:
``"  hello"``, ``" world."``), which repeat a lot in running text; each distinct segment is then
cut by the GPT-2 pattern once, and its chunks counted as often as it occurs. Most segments are an
optional space and letters (``" world"``): one chunk, no regex needed.
"""

from __future__ import annotations

import re
from collections import Counter

import regex

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT2_REGEX = regex.compile(GPT2_PATTERN)
# the regex module's `\s` (stdlib re's also holds \x1c-\x1f); stdlib re cuts segments faster
SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
SEGMENT_REGEX = re.compile(f"[{SPACE}]*[^{SPACE}]+|[{SPACE}]+")


def pretokenize(text: str) -> list[str]:
    """The GPT-2 chunks of `text`, in order; joined they give back `text` exactly."""
    return GPT2_REGEX.findall(text)


def chunk_counts(text: str) -> Counter[str]:
    """`Counter(pretokenize(text))`, in the same first-seen order, without cutting every repeat.

    >>> dict(chunk_counts("the cat, the cat."))
    {'the': 1, ' cat': 2, ',': 1, ' the': 1, '.': 1}
    >>> list(chunk_counts("the cat, the cat.")) == list(Counter(pretokenize("the cat, the cat.")))
    True
    """
    counts: Counter[str] = Counter()
    for segment, n in Counter(SEGMENT_REGEX.findall(text)).items():
        # subtle: str.isalpha is \p{L} (the letter categories Lu Ll Lt Lm Lo)
        if (segment[1:] if segment[0] == " " else segment).isalpha():
            counts[segment] += n
            continue
        for chunk in GPT2_REGEX.findall(segment):
            counts[chunk] += n
    return counts
