"""The interface every tokenizer shares, and pure helpers for showing tokens honestly.

Every algorithm lives in its own module and subclasses `Tokenizer`. A tokenizer is built empty, then
`train(text, vocab_size)` fills it and returns a trace (a list of frozen dataclasses, one per step),
or `load(folder)` restores a saved one. `explain(text)` returns `Token`s with positions and bytes
so a page can show *why* the text was cut where it was, not only the ids.
"""

from __future__ import annotations

import json
import re
import unicodedata
from abc import ABC, abstractmethod
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

META_FILE = "explorer_tokenizer.json"  # our own format: algorithm, vocab, merges/scores, specials
HF_FILE = "tokenizer.json"  # the Hugging Face `tokenizers` file written beside it


class VocabTooSmall(ValueError):
    """`train` was asked for fewer entries than the algorithm needs before its first merge.

    `minimum` is the smallest size that works for this text, so a caller can say it in its own
    words (the Tokenizer Lab shows a translated message); str() is an English sentence.

    >>> err = VocabTooSmall("choose at least 60", minimum=60, requested=10)
    >>> (err.minimum, err.requested, str(err))
    (60, 10, 'choose at least 60')
    """

    def __init__(self, message: str, *, minimum: int, requested: int) -> None:
        super().__init__(message)
        self.minimum, self.requested = minimum, requested


@dataclass(frozen=True)
class Token:
    """One token of an encoded text, with what a page needs to draw and explain it.

    `start`/`end` index characters of the input text (end exclusive); tokens that do not come from
    the text (added specials like [CLS]) have start == end. `raw` is the token's bytes where the
    algorithm works on bytes (byte-level BPE), else its text encoded as UTF-8.
    """

    id: int
    text: str  # what the vocabulary calls it (e.g. "Ġthe", "##ing", "the</w>", "[CLS]")
    raw: bytes
    start: int
    end: int
    special: bool = False

    @property
    def display(self) -> str:
        """Human-readable form: decoded bytes, with a partial UTF-8 character shown as ⟨e4 bd⟩…"""
        if self.special:
            return self.text
        return display_bytes(self.raw)


def display_bytes(raw: bytes) -> str:
    """Decode `raw` for display, never showing "�" for a character cut between tokens.

    Whole characters decode normally; bytes of a character that starts or ends outside this token
    are shown as hex in angle brackets followed by "…" (the partial-character mark).

    >>> display_bytes("你".encode()[:2])
    '⟨e4 bd⟩…'
    >>> display_bytes(b" a" + "好".encode()[:1])
    ' a⟨e5⟩…'
    >>> display_bytes("好".encode()[1:])
    '⟨a5 bd⟩…'
    """
    out: list[str] = []
    pending: list[int] = []

    def flush() -> None:
        if pending:
            out.append("⟨" + " ".join(f"{b:02x}" for b in pending) + "⟩…")
            pending.clear()

    i = 0
    while i < len(raw):
        width = _utf8_width(raw[i])
        chunk = raw[i : i + width]
        if width and len(chunk) == width:
            try:
                text = chunk.decode("utf-8")
            except UnicodeDecodeError:
                text = None
            if text is not None:
                flush()
                out.append(text)
                i += width
                continue
        pending.append(raw[i])
        i += 1
    flush()
    return "".join(out)


def _utf8_width(lead: int) -> int:
    """Length of the UTF-8 sequence that `lead` starts, or 0 for a continuation/invalid byte."""
    if lead < 0x80:
        return 1
    if 0xC2 <= lead < 0xE0:
        return 2
    if 0xE0 <= lead < 0xF0:
        return 3
    if 0xF0 <= lead < 0xF5:
        return 4
    return 0


def visible_whitespace(text: str) -> str:
    """Make spaces, tabs and newlines visible: ' ' -> '·', '\\t' -> '→', '\\n' -> '↵'.

    >>> visible_whitespace("a b\\tc\\n")
    'a·b→c↵'
    """
    return text.replace(" ", "·").replace("\t", "→").replace("\n", "↵")


def group_by_character(tokens: list[Token]) -> list[list[Token]]:
    """Group consecutive tokens whose bytes only together form whole characters.

    Byte-level BPE can split "你" into ⟨e4 bd⟩ and ⟨a0⟩; grouping puts them back together so a page
    can draw one character over its two tokens. A group closes when the bytes seen so far decode.

    >>> toks = [Token(0, "a", "你".encode()[:2], 0, 0), Token(1, "b", "你".encode()[2:], 0, 1)]
    >>> [len(g) for g in group_by_character(toks)]
    [2]
    """
    groups: list[list[Token]] = []
    current: list[Token] = []
    buffer = b""
    for token in tokens:
        current.append(token)
        buffer += token.raw
        if token.special or _is_complete_utf8(buffer):
            groups.append(current)
            current, buffer = [], b""
    if current:
        groups.append(current)
    return groups


def _is_complete_utf8(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def is_cjk(char: str) -> bool:
    """True for a CJK ideograph, using the same code point blocks as BERT's tokenizer.

    >>> is_cjk("中"), is_cjk("a"), is_cjk("。")
    (True, False, False)
    """
    cp = ord(char)
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B73F
        or 0x2B740 <= cp <= 0x2B81F
        or 0x2B820 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF
        or 0x2F800 <= cp <= 0x2FA1F
    )


def is_punctuation(char: str) -> bool:
    """BERT's notion of punctuation: ASCII symbols plus every Unicode P* category.

    >>> is_punctuation("!"), is_punctuation("。"), is_punctuation("a")
    (True, True, False)
    """
    cp = ord(char)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(char).startswith("P")


def chars_per_script(text: str) -> dict[str, int]:
    """Count CJK and other non-space characters apart, for tokens-per-character charts.

    >>> chars_per_script("hi 你好!")
    {'cjk': 2, 'other': 3}
    """
    cjk = sum(1 for c in text if is_cjk(c))
    other = sum(1 for c in text if not c.isspace() and not is_cjk(c))
    return {"cjk": cjk, "other": other}


class Tokenizer(ABC):
    """What every tokenizer offers. Subclasses set `algo` and implement the abstract methods."""

    algo: ClassVar[str]  # registry name, e.g. "byte-bpe"; written into the saved folder
    lossless: ClassVar[bool] = False  # decode(encode(text)) == text for every text

    @abstractmethod
    def train(self, text: str, vocab_size: int) -> list[Any]:
        """Learn a vocabulary of at most `vocab_size` entries from `text`; return the step trace."""

    @abstractmethod
    def encode(self, text: str) -> list[int]:
        """Text to ids."""

    @abstractmethod
    def decode(self, ids: list[int]) -> str:
        """Ids to text."""

    @abstractmethod
    def explain(self, text: str) -> list[Token]:
        """Text to tokens with ids, vocabulary strings, bytes and character positions."""

    @property
    @abstractmethod
    def vocab(self) -> dict[str, int]:
        """Vocabulary string -> id, for every id the tokenizer can emit."""

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    @property
    def special_tokens(self) -> dict[str, int]:
        """Special token string -> id (empty for tokenizers without specials)."""
        return {}

    def id_to_token(self, token_id: int) -> str:
        return self._inverse_vocab()[token_id]

    def _inverse_vocab(self) -> dict[int, str]:
        return {i: s for s, i in self.vocab.items()}

    # ---- persistence -------------------------------------------------------------------------

    @abstractmethod
    def to_dict(self) -> dict[str, Any]:
        """Everything needed to rebuild this tokenizer, as JSON-ready data (without `algo`)."""

    @classmethod
    @abstractmethod
    def from_dict(cls, data: dict[str, Any]) -> Tokenizer:
        """Inverse of `to_dict`."""

    @abstractmethod
    def to_hf_json(self) -> str:
        """The equivalent Hugging Face `tokenizers` tokenizer.json, which encodes the same ids."""

    def save(self, folder: str | Path) -> Path:
        """Write our own file and a Hugging Face tokenizer.json into `folder`; return the folder.

        `explorer_core.tokenization.load_tokenizer(folder)` reads it back, whatever the algorithm.
        """
        folder = Path(folder)
        folder.mkdir(parents=True, exist_ok=True)
        payload = {"algo": self.algo, **self.to_dict()}
        (folder / META_FILE).write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
        (folder / HF_FILE).write_text(self.to_hf_json(), encoding="utf-8")
        return folder


_PARTIAL = re.compile("(⟨[0-9a-f ]+⟩…)")  # a cut character's bytes, as display_bytes writes them


def token_label(token: Token) -> str:
    """What a span shows: the token's bytes decoded ("##ing", "the</w>", "▁the" as the
    vocabulary holds them), whitespace made visible, a cut character's bytes as hex.

    >>> token_label(Token(5, "Ġhi", b" hi", 0, 3))
    '·hi'
    >>> token_label(Token(7, "x", "你".encode()[:2], 0, 1))
    '⟨e4 bd⟩…'
    """
    if token.special:
        return token.text
    parts = _PARTIAL.split(display_bytes(token.raw))  # odd parts are ⟨..⟩… markers: keep spaces
    return "".join(p if k % 2 else visible_whitespace(p) for k, p in enumerate(parts))


def hex_bytes(raw: bytes) -> str:
    """Bytes as spaced hex pairs.

    >>> hex_bytes("你".encode())
    'e4 bd a0'
    """
    return " ".join(f"{b:02x}" for b in raw)
