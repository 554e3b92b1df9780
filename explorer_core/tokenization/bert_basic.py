"""BERT's basic tokenization: clean, split Chinese characters apart, lower-case, split punctuation.

This is the step before WordPiece, written to behave exactly like Hugging Face `tokenizers`'
`BertNormalizer` + `BertPreTokenizer` (which transformers 5's `BertTokenizer` runs), and it keeps
the character offsets into the original text so a page can point at each word:

>>> [w for w, _, _ in basic_tokenize("Héllo, 世界!", lowercase=True)]
['hello', ',', '世', '界', '!']
>>> basic_tokenize("Héllo, 世界!", lowercase=True)[0]
('hello', 0, 5)

Where the two BERT implementations differ, we follow the Rust one (so `to_hf_json` is exact):
- whitespace is Unicode White_Space (U+2028 is a space; U+001C..U+001F are control characters);
- lower-casing is per character (a final "Σ" becomes "σ", never "ς");
- accents are stripped *before* lower-casing (NFD, then drop non-spacing marks, category Mn);
- the CJK block starting at U+2B820 counts from U+2B920, as in `tokenizers`.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from explorer_core.tokenization.base import is_punctuation
from explorer_core.tokenization.bert_unicode import (
    CONTROL_FLIPS,
    LOWER_EXTRA,
    MARK_FLIPS,
    NFD_KEEP,
    PUNCT_FLIPS,
    in_ranges,
)

# code point ranges that BertNormalizer surrounds with spaces (tokenizers' `is_chinese_char`)
_CJK_RANGES = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B920, 0x2CEAF),  # subtle: tokenizers starts here, transformers' old Python code at 0x2B820
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
_CONTROL_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs"})  # not Cn: tokenizers keeps unassigned
_NOT_RUST_WHITESPACE = frozenset("\x1c\x1d\x1e\x1f")  # Python isspace() says yes, Rust says no


def is_bert_chinese(char: str) -> bool:
    """True for a character BERT splits off as its own word.

    >>> is_bert_chinese("中"), is_bert_chinese("。"), is_bert_chinese("a")
    (True, False, False)
    """
    cp = ord(char)
    return any(lo <= cp <= hi for lo, hi in _CJK_RANGES)


def is_whitespace(char: str) -> bool:
    """Unicode White_Space, as Rust's `char::is_whitespace` (used by tokenizers).

    >>> is_whitespace(" "), is_whitespace("\\u3000"), is_whitespace("\\x1c"), is_whitespace("a")
    (True, True, False, False)
    """
    return char.isspace() and char not in _NOT_RUST_WHITESPACE


def is_control(char: str) -> bool:
    """A character BERT deletes while cleaning: any "C*" category except tab, newline, return.

    >>> is_control("\\x00"), is_control("\\u200b"), is_control("\\n")
    (True, True, False)
    """
    if char in "\t\n\r":
        return False
    return (unicodedata.category(char) in _CONTROL_CATEGORIES) != in_ranges(
        ord(char), CONTROL_FLIPS
    )


def is_nonspacing_mark(char: str) -> bool:
    """Category Mn in tokenizers' tables: what stripping accents removes after NFD.

    >>> is_nonspacing_mark("\u0301"), is_nonspacing_mark("e")
    (True, False)
    """
    return (unicodedata.category(char) == "Mn") != in_ranges(ord(char), MARK_FLIPS)


def is_bert_punctuation(char: str) -> bool:
    """BERT's punctuation (ASCII symbols and Unicode P*), in tokenizers' tables.

    >>> is_bert_punctuation("!"), is_bert_punctuation("。"), is_bert_punctuation("a")
    (True, True, False)
    """
    return is_punctuation(char) != in_ranges(ord(char), PUNCT_FLIPS)


Aligned = list[tuple[str, int]]  # (character, index of the original character it came from)


def normalize(
    text: str,
    *,
    lowercase: bool,
    strip_accents: bool | None = None,
    clean_text: bool = True,
    chinese_chars: bool = True,
) -> Aligned:
    """BertNormalizer with alignment: each output character with its source character's index.

    `strip_accents=None` follows `lowercase`, as in BERT.

    >>> "".join(c for c, _ in normalize("Ça\\x00 中", lowercase=True))
    'ca  中 '
    """
    if strip_accents is None:
        strip_accents = lowercase
    out: Aligned = []
    for i, char in enumerate(text):
        for piece in _normalize_char(char, lowercase, strip_accents, clean_text, chinese_chars):
            out.append((piece, i))
    return out


@lru_cache(maxsize=1 << 16)
def _normalize_char(
    char: str, lowercase: bool, strip_accents: bool, clean_text: bool, chinese_chars: bool
) -> str:
    """What one character becomes (possibly nothing, or several characters); cached per char."""
    if clean_text:
        if char == "\x00" or char == "\ufffd" or is_control(char):
            return ""
        if is_whitespace(char):
            char = " "
    # subtle: NFD also maps CJK compatibility ideographs (U+F900..) to their unified form
    pieces = char
    if strip_accents and ord(char) not in NFD_KEEP:
        pieces = unicodedata.normalize("NFD", char)
    out = []
    for piece in pieces:
        if strip_accents and is_nonspacing_mark(piece):
            continue
        if lowercase:
            extra = LOWER_EXTRA.get(ord(piece))
            piece = chr(extra) if extra is not None else piece.lower()
        out.append(piece)
    if chinese_chars and is_bert_chinese(char):
        return " " + "".join(out) + " "
    return "".join(out)


@lru_cache(maxsize=1 << 16)
def _kind(char: str) -> int:
    """0 = part of a word, 1 = whitespace (splits, dropped), 2 = punctuation (a word alone)."""
    if is_whitespace(char):
        return 1
    return 2 if is_bert_punctuation(char) else 0


def split_words(chars: Aligned) -> list[Aligned]:
    """BertPreTokenizer: split on whitespace (dropped) and punctuation (kept, one per word).

    Each word keeps, per character, the index of the original character it came from.

    >>> [len(w) for w in split_words([(c, i) for i, c in enumerate("hi, you")])]
    [2, 1, 3]
    """
    words: list[Aligned] = []
    current: Aligned = []
    for char, index in chars:
        kind = _kind(char)
        if kind == 1:
            if current:
                words.append(current)
                current = []
        elif kind == 2:
            if current:
                words.append(current)
                current = []
            words.append([(char, index)])
        else:
            current.append((char, index))
    if current:
        words.append(current)
    return words


def pre_tokenize(chars: Aligned) -> list[tuple[str, int, int]]:
    """`split_words` as (word, start, end), with `start`/`end` indexing the original text.

    >>> pre_tokenize([(c, i) for i, c in enumerate("hi, you")])
    [('hi', 0, 2), (',', 2, 3), ('you', 4, 7)]
    """
    return [("".join(c for c, _ in w), w[0][1], w[-1][1] + 1) for w in split_words(chars)]


def basic_tokenize(
    text: str,
    *,
    lowercase: bool,
    strip_accents: bool | None = None,
    clean_text: bool = True,
    chinese_chars: bool = True,
) -> list[tuple[str, int, int]]:
    """Normalize then pre-tokenize: the words WordPiece will cut, with their character spans.

    >>> basic_tokenize("Don't stop", lowercase=False)
    [('Don', 0, 3), ("'", 3, 4), ('t', 4, 5), ('stop', 6, 10)]
    """
    chars = normalize(
        text,
        lowercase=lowercase,
        strip_accents=strip_accents,
        clean_text=clean_text,
        chinese_chars=chinese_chars,
    )
    return pre_tokenize(chars)


def split_on_specials(text: str, specials: list[str]) -> list[tuple[str, int, bool]]:
    """Cut `text` around literal special tokens (longest first), as HF's added-token matcher does.

    Returns (piece, start offset, is_special).

    >>> split_on_specials("a[SEP]b", ["[SEP]"])
    [('a', 0, False), ('[SEP]', 1, True), ('b', 6, False)]
    """
    if not text:
        return []
    if not specials:
        return [(text, 0, False)]
    ordered = sorted(specials, key=lambda s: (-len(s), s))
    pattern = re.compile("|".join(re.escape(s) for s in ordered))
    out: list[tuple[str, int, bool]] = []
    start = 0
    for match in pattern.finditer(text):
        if match.start() > start:
            out.append((text[start : match.start()], start, False))
        out.append((match.group(), match.start(), True))
        start = match.end()
    if start < len(text):
        out.append((text[start:], start, False))
    return out
