"""Cached tokenizer training for the Tokenizer Lab, and checks of the corpus a learner provides.

Training is cached with `st.cache_resource` keyed on (algorithm, vocab size, SHA-1 of the corpus):
the trained tokenizer keeps a trace of 4k merges with candidate pairs, which `st.cache_data` would
copy (pickle) on every redraw of the scrubber (~50 ms); pages treat it as read-only instead.
Corpus problems raise `CorpusProblem` carrying a catalogue key, so the page shows a translated
message and the user's text stays where it was.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import streamlit as st

from explorer_core.tokenization import Tokenizer, new_tokenizer
from explorer_core.tokenization.byte_bpe import MIN_VOCAB
from explorer_core.ui.settings import MAX_VOCAB

MAX_CORPUS_CHARS = 1_000_000  # a longer paste trains for tens of seconds: refuse it, say why
MAX_UPLOAD_BYTES = 3_000_000


@dataclass
class CorpusProblem(ValueError):
    """Bad corpus or settings; `key` is a catalogue key, `values` fill its fields."""

    key: str
    values: dict[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.key


def check_text(text: str) -> str:
    """The corpus if it is usable, else CorpusProblem (empty or too long)."""
    if not text or not text.strip():
        raise CorpusProblem("tok.train.err.empty")
    if len(text) > MAX_CORPUS_CHARS:
        raise CorpusProblem(
            "tok.train.err.too_long", {"chars": len(text), "limit": MAX_CORPUS_CHARS}
        )
    return text


def decode_upload(raw: bytes) -> str:
    """An uploaded file's UTF-8 text, else CorpusProblem (binary, not UTF-8, too large)."""
    if len(raw) > MAX_UPLOAD_BYTES:
        raise CorpusProblem(
            "tok.train.err.too_big",
            {"mb": round(len(raw) / 1e6, 1), "limit": MAX_UPLOAD_BYTES // 10**6},
        )
    if b"\x00" in raw[:65536]:
        raise CorpusProblem("tok.train.err.binary")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise CorpusProblem("tok.train.err.not_utf8", {"offset": err.start}) from err
    return check_text(text.removeprefix("\ufeff"))


def check_vocab(algo: str, vocab_size: int) -> int:
    """The vocab size if it fits the algorithm's floor we know up front, else CorpusProblem."""
    if algo == "byte-bpe" and vocab_size < MIN_VOCAB:
        raise CorpusProblem("tok.train.err.vocab_bytes", {"minimum": MIN_VOCAB})
    if not 2 <= vocab_size <= MAX_VOCAB:
        raise CorpusProblem("tok.train.err.vocab_range", {"limit": MAX_VOCAB})
    return vocab_size


def corpus_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8", errors="surrogatepass")).hexdigest()


@st.cache_resource(max_entries=8, show_spinner=False)
def train_tokenizer(
    algo: str, vocab_size: int, text_sha1: str, _text: str
) -> tuple[Tokenizer, list]:
    """Train `algo` on the text whose SHA-1 is `text_sha1`; (tokenizer, trace). Read-only."""
    tokenizer = new_tokenizer(algo)
    trace = tokenizer.train(_text, vocab_size)
    return tokenizer, trace
