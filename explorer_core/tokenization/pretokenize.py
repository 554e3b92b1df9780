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
``"  hello"``, ``" world."``), which repeat a lot in running English; each distinct segment is cut
once. An optional space and letters (``" world"``) is one chunk without a regex; the other
segments are joined, by how often they occur, and cut in one call per count (gluing segments
keeps those cut points). Text with little repetition (Chinese) is cut at once.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import regex

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT2_REGEX = regex.compile(GPT2_PATTERN)
# the same chunks (a contraction can only start at "'", where letters and digits cannot), letters
# tried first: ~10% faster in the regex module (tests/test_byte_bpe.py compares both)
CHUNK_REGEX = regex.compile(
    r"""\ ?\p{L}+|\ ?\p{N}+|'(?:[stmd]|re|ve|ll)|\ ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
)
# the regex module's `\s` (stdlib re's also holds \x1c-\x1f); stdlib re cuts segments faster
SPACE = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
SEGMENT_REGEX = re.compile(f"[{SPACE}]*[^{SPACE}]+|[{SPACE}]+")


def pretokenize(text: str) -> list[str]:
    """The GPT-2 chunks of `text`, in order; joined they give back `text` exactly."""
    return GPT2_REGEX.findall(text)


def chunk_counts(text: str) -> Counter[str]:
    """`Counter(pretokenize(text))`, the same counts (not in the same order), faster.

    >>> chunk_counts("the cat, the cat.") == Counter(pretokenize("the cat, the cat."))
    True
    """
    segments = SEGMENT_REGEX.findall(text)
    distinct = Counter(segments)
    if not segments or sum(map(len, distinct)) > 0.8 * len(text):  # little to gain
        return Counter(CHUNK_REGEX.findall(text))
    counts: Counter[str] = Counter()
    by_count: defaultdict[int, list[str]] = defaultdict(list)
    ends = {segments[0], segments[-1]}  # may lack leading whitespace or a non-space end
    for segment, n in distinct.items():
        if segment in ends:
            for chunk in CHUNK_REGEX.findall(segment):
                counts[chunk] += n
        elif segment[0] == " " and segment[1:].isalpha():  # subtle: isalpha is \p{L}
            counts[segment] += n
        else:
            by_count[n].append(segment)
    for n, group in by_count.items():
        chunks = CHUNK_REGEX.findall("".join(group))
        if n == 1:
            counts.update(chunks)  # counted in C
        else:
            for chunk, k in Counter(chunks).items():
                counts[chunk] += k * n
    return counts
