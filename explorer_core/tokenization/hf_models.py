"""A tokenizer.json's model, run by our own algorithms: WordPiece, byte-level BPE, Unigram.

`build_model(spec, byte_level)` reads the "model" object and chooses by its "type" (never by
tokenizer_config.json's `tokenizer_class`, which some multilingual models get wrong). It returns a
`ModelStep` whose `tokenize(word)` gives (id, piece, raw bytes, start, end) with positions in the
word's characters:

>>> step = build_model({"type": "WordPiece", "unk_token": "[UNK]", "vocab": {"[UNK]": 0,
...     "un": 1, "##able": 2}}, byte_level=False)
>>> [(i, p, a, b) for i, p, _, a, b in step.tokenize("unable")]
[(1, 'un', 0, 2), (2, '##able', 2, 6)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from explorer_core.tokenization.base import Tokenizer
from explorer_core.tokenization.byte_bpe import ByteBPETokenizer, gpt2_text
from explorer_core.tokenization.unigram import UnigramTokenizer
from explorer_core.tokenization.wordpiece import WordPieceTokenizer

Pieces = list[tuple[int, str, bytes, int, int]]


@dataclass(frozen=True)
class ModelStep:
    """Our tokenizer for the file's model, and how it cuts one pre-tokenized word."""

    kind: str  # "wordpiece" | "byte-bpe" | "unigram"
    name: str  # the tokenizer.json type
    engine: Tokenizer
    vocab: dict[str, int]
    tokenize: Callable[[str], Pieces]
    unk: str | None = None
    size: int = 0  # `tokenizers`' model vocab size (Unigram: pieces, repeats included)

    def __post_init__(self) -> None:
        if not self.size:
            object.__setattr__(self, "size", len(self.vocab))


def build_model(spec: dict[str, Any], byte_level: bool) -> ModelStep:
    """Our model for `spec`; `byte_level` says a ByteLevel pre-tokenizer came before it."""
    kind = spec.get("type")
    if kind is None and "merges" in spec:
        kind = "BPE"  # files written before tokenizers 0.9 name no type
    if kind == "WordPiece":
        return _wordpiece(spec)
    if kind == "BPE":
        return _bpe(spec, byte_level)
    if kind == "Unigram":
        return _unigram(spec)
    raise ValueError(
        f"Unknown tokenizer model type {kind!r}: this explorer reads WordPiece, BPE and Unigram"
    )


def _wordpiece(spec: dict[str, Any]) -> ModelStep:
    vocab = {str(k): int(v) for k, v in spec["vocab"].items()}
    unk = str(spec.get("unk_token", "[UNK]"))
    engine = WordPieceTokenizer.from_model(
        vocab,
        unk_token=unk,
        continuing_subword_prefix=str(spec.get("continuing_subword_prefix", "##")),
        max_input_chars_per_word=int(spec.get("max_input_chars_per_word", 100)),
    )

    def tokenize(word: str) -> Pieces:
        return [
            (vocab[p], p, (word[a:b] if p == unk else p).encode(), a, b)
            for p, a, b in engine.word_pieces(word)
        ]

    return ModelStep("wordpiece", "WordPiece", engine, vocab, tokenize, unk)


def _bpe(spec: dict[str, Any], byte_level: bool) -> ModelStep:
    if not byte_level:
        raise ValueError("This explorer reads byte-level BPE only (no ByteLevel pre-tokenizer)")
    odd = [k for k in ("continuing_subword_prefix", "end_of_word_suffix") if spec.get(k)]
    if odd or spec.get("byte_fallback") or spec.get("dropout"):
        raise ValueError(f"A byte-level BPE with {', '.join(odd) or 'dropout/byte fallback'}")
    vocab = {str(k): int(v) for k, v in spec["vocab"].items()}
    merges = [_merge_pair(m) for m in spec.get("merges", [])]
    engine = ByteBPETokenizer.from_vocab_merges(
        vocab, merges, ignore_merges=bool(spec.get("ignore_merges", False))
    )

    def tokenize(word: str) -> Pieces:
        ids = engine.encode_chunk(word)
        raws = [engine.token_bytes[i] for i in ids]
        owner = [k for k, c in enumerate(word) for _ in c.encode()]  # byte -> character
        if sum(map(len, raws)) != len(owner):  # a byte had no token: spans are the word
            return [(i, gpt2_text(r), r, 0, len(word)) for i, r in zip(ids, raws, strict=True)]
        out, at = [], 0
        for token_id, raw in zip(ids, raws, strict=True):
            out.append((token_id, gpt2_text(raw), raw, owner[at], owner[at + len(raw) - 1] + 1))
            at += len(raw)
        return out

    unk = spec.get("unk_token")
    return ModelStep("byte-bpe", "BPE", engine, vocab, tokenize, unk if unk else None)


def _merge_pair(merge: Any) -> tuple[str, str]:
    """A merge written as ["Ġ", "t"] (tokenizers >= 0.20) or as "Ġ t" (before)."""
    if isinstance(merge, str):
        parts = merge.split(" ")
        if len(parts) != 2:
            raise ValueError(f"Cannot read the merge {merge!r}")
        return parts[0], parts[1]
    return str(merge[0]), str(merge[1])


def _unigram(spec: dict[str, Any]) -> ModelStep:
    pieces = list(map(tuple, spec["vocab"]))  # [piece, score] pairs; checked just below
    if pieces and not (isinstance(pieces[0][0], str) and isinstance(pieces[-1][1], (int, float))):
        raise ValueError("A Unigram vocab must be a list of [piece, score] pairs")
    unk_id = spec.get("unk_id")
    engine = UnigramTokenizer.from_scored(
        pieces, None if unk_id is None else int(unk_id), bool(spec.get("byte_fallback", False))
    )
    vocab = engine.vocab
    unk = None if unk_id is None else pieces[int(unk_id)][0]
    return ModelStep("unigram", "Unigram", engine, vocab, engine.pieces_of, unk, len(pieces))
