"""GPT-2 pre-tokenization: cut text into chunks that byte-level BPE never merges across.

The pattern is GPT-2's (also Hugging Face's `ByteLevel` pre-tokenizer with `use_regex=True`):
contractions, an optional space followed by letters, or digits, or other symbols, and whitespace
runs (a run keeps its last space for the next word). It needs the `regex` package for `\\p{L}`.

>>> pretokenize("hi! This apple belongs to him")
['hi', '!', ' This', ' apple', ' belongs', ' to', ' him']
>>> pretokenize("我爱 NLP  2024年")
['我爱', ' NLP', ' ', ' 2024', '年']
"""

from __future__ import annotations

import regex

GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
GPT2_REGEX = regex.compile(GPT2_PATTERN)


def pretokenize(text: str) -> list[str]:
    """The GPT-2 chunks of `text`, in order; joined they give back `text` exactly."""
    return GPT2_REGEX.findall(text)
