"""GPT-2 style byte-level BPE: 256 byte tokens, then merges of the most frequent adjacent pair.

Text is cut into chunks by the GPT-2 regex (`pretokenize`), each chunk becomes its UTF-8 bytes
(ids 0-255 = byte values), and training merges pairs inside chunks, never across them. New ids
count up from 256 in creation order. Lossless: every text decodes back exactly.

Textbook example (the issue's): "hi! This apple belongs to him" has the chunks
'hi' '!' ' This' ' apple' ' belongs' ' to' ' him'; the pair (h, i) = (104, 105) occurs in 'hi',
' This' and ' him', 3 times, more than any other, so it is merged first into 256:

>>> tok = ByteBPETokenizer()
>>> first = tok.train("hi! This apple belongs to him", 257)[0]
>>> (first.left, first.right, first.new_id, first.count)
(104, 105, 256, 3)
>>> tok.chunk_ids("hi! This", steps=1)
[[256], [33], [32, 84, 256, 115]]

Tie-break (the same as Hugging Face `tokenizers`' BpeTrainer, whose merges ours equal in order):
among pairs of equal count, the pair with the smaller (left, right) wins, where ids are compared
in *Hugging Face's* numbering: the 256 bytes ranked by the code point of their GPT-2 printable
character (`BYTE_TO_UNICODE`; "!" = byte 33 comes first, byte 0 = "Ā" after "~"), merged tokens by
creation order. When a merge re-makes a byte string that is already a token (("ab","c") after
("a","bc")), its existing id is reused and no id is spent, as Hugging Face does
(`ByteMerge.reused`).
"""

from __future__ import annotations

import heapq
import operator
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import regex

from explorer_core.tokenization.base import Token, Tokenizer, display_bytes
from explorer_core.tokenization.bpe_engine import Candidate, train_bpe
from explorer_core.tokenization.pretokenize import chunk_counts, pretokenize

__all__ = ["ByteBPETokenizer", "ByteMerge", "BYTE_TO_UNICODE", "gpt2_bytes", "pretokenize"]


def _bytes_to_unicode() -> list[str]:
    """GPT-2's printable stand-in character for each byte (printable Latin-1 bytes map to
    themselves; the others to U+0100 upwards, so a space is "Ġ" and a newline "Ċ")."""
    keep = [*range(33, 127), *range(161, 173), *range(174, 256)]
    table = {b: chr(b) for b in keep}
    extra = 0
    for b in range(256):
        if b not in table:
            table[b] = chr(256 + extra)
            extra += 1
    return [table[b] for b in range(256)]


BYTE_TO_UNICODE: list[str] = _bytes_to_unicode()
UNICODE_TO_BYTE: dict[str, int] = {c: b for b, c in enumerate(BYTE_TO_UNICODE)}
_GPT2_TABLE = str.maketrans(dict(enumerate(BYTE_TO_UNICODE)))  # Latin-1 char -> GPT-2 char


def gpt2_text(raw: bytes) -> str:
    """Bytes as GPT-2's printable characters, at C speed (Latin-1 reads byte b as chr(b), then
    one `str.translate`).

    >>> gpt2_text(b" hi")
    'Ġhi'
    """
    return raw.decode("latin-1").translate(_GPT2_TABLE)


_HF_ORDER = sorted(range(256), key=lambda b: BYTE_TO_UNICODE[b])  # HF id -> byte
_TO_HF = bytes(_HF_ORDER.index(b) for b in range(256))  # byte -> HF id (a bytes.translate table)
_HAN = regex.compile(r"\p{Han}")
MIN_VOCAB = 256
MAX_CHUNK_CACHE = 50_000


@dataclass(frozen=True)
class ByteMerge:
    """One learned merge: `left` + `right` -> `new_id`, with the bytes each side stands for."""

    rank: int
    left: int
    right: int
    left_bytes: bytes
    right_bytes: bytes
    new_id: int
    count: int  # how often the pair occurred when it won
    applied: int = 0  # tokens the merge removed from the training text
    reused: bool = False  # True when new_id already existed (see the module docstring)

    @property
    def new_bytes(self) -> bytes:
        return self.left_bytes + self.right_bytes


def _from_hf(symbol: int) -> int:
    return _HF_ORDER[symbol] if symbol < MIN_VOCAB else symbol


class ByteBPETokenizer(Tokenizer):
    """Byte-level BPE; `train` returns a list of `ByteMerge`, one per merge."""

    algo = "byte-bpe"
    lossless = True

    def __init__(self) -> None:
        self.merges: list[ByteMerge] = []
        self.token_bytes: dict[int, bytes] = {b: bytes([b]) for b in range(256)}
        self._ranks: dict[tuple[int, int], tuple[int, int]] = {}  # pair -> (rank, new id)
        self._cache: dict[str, list[int]] = {}
        self._candidates: Sequence[tuple[tuple[int, int, int], ...]] = []  # per step, in HF ids
        self.stats: TrainingStats | None = None
        self._loaded: LoadedVocab | None = None  # set by from_vocab_merges (ids are not bytes)

    # ---- training ------------------------------------------------------------------------------

    def train(self, text: str, vocab_size: int, *, trace: bool = True) -> list[ByteMerge]:
        """Learn merges until the vocabulary holds `vocab_size` tokens (or no pair is left).

        With `trace`, also keeps the top 5 candidate pairs of every step (`self.candidates`) and
        the token counts per script (`self.stats`) so pages can replay any step cheaply.
        """
        if vocab_size < MIN_VOCAB:
            raise ValueError(f"vocab size must be at least {MIN_VOCAB} (one token per byte)")
        if not text:
            raise ValueError("the training text is empty")
        counts = chunk_counts(text)  # Counter(pretokenize(text)), faster
        chunks = list(counts)
        words = [chunk.encode("utf-8").translate(_TO_HF) for chunk in chunks]  # bytes: ints
        groups = [1 if _HAN.search(chunk) else 0 for chunk in chunks] if trace else None
        result = train_bpe(
            words,
            [counts[c] for c in chunks],
            vocab_size - MIN_VOCAB,
            MIN_VOCAB,
            keys=[bytes([_HF_ORDER[i]]) for i in range(256)],
            join=operator.add,
            top_k=5 if trace else 0,
            groups=groups,
        )
        self._reset()
        for step in result.steps:
            left, right = _from_hf(step.left), _from_hf(step.right)
            lb, rb = self.token_bytes[left], self.token_bytes[right]
            self.token_bytes.setdefault(step.new_id, lb + rb)
            merge = ByteMerge(
                step.rank, left, right, lb, rb, step.new_id, step.count, step.applied, step.reused
            )
            self._add_merge(merge)
        self._candidates = result.candidates
        if trace:
            self.stats = TrainingStats.build(chunks, counts, groups or [], result.applied_by_group)
        return list(self.merges)

    def candidates(self, step: int) -> list[Candidate]:
        """The best pairs before merge `step` (winner first, then runners-up) with their counts;
        empty when the tokenizer was loaded or trained without trace."""
        if not 0 <= step < len(self._candidates):
            return []
        return [
            Candidate(step, place, _from_hf(left), _from_hf(right), count)
            for place, (left, right, count) in enumerate(self._candidates[step])
        ]

    def _reset(self) -> None:
        self.merges, self._ranks, self._cache = [], {}, {}
        self.token_bytes = {b: bytes([b]) for b in range(256)}
        self._candidates, self.stats, self._loaded = [], None, None

    @classmethod
    def from_vocab_merges(
        cls,
        vocab: dict[str, int],
        merges: Sequence[tuple[str, str]],
        *,
        ignore_merges: bool = False,
    ) -> ByteBPETokenizer:
        """A trained model as a tokenizer.json holds it: GPT-2 strings -> ids, and merges as pairs
        of strings in rank order (RoBERTa: 50,265 tokens, 50,000 merges; "Ġthe" is " the").

        `ignore_merges` (Llama-3 style): a chunk that is itself a token is taken whole.
        A byte whose GPT-2 character is not in the vocabulary is dropped, as `tokenizers` does
        for a BPE model without an unknown token.
        """
        tok = cls()
        tok.token_bytes = {i: gpt2_bytes(s) for s, i in vocab.items()}
        byte_ids = tuple(vocab.get(BYTE_TO_UNICODE[b]) for b in range(256))
        tok._loaded = LoadedVocab(dict(vocab), byte_ids, ignore_merges)
        for rank, (a, b) in enumerate(merges):
            left, right, new = vocab.get(a), vocab.get(b), vocab.get(a + b)
            if left is None or right is None or new is None:
                raise ValueError(f"Merge {rank} ({a!r}, {b!r}) uses a token not in the vocabulary")
            lb, rb = tok.token_bytes[left], tok.token_bytes[right]
            tok._add_merge(ByteMerge(rank, left, right, lb, rb, new, 0))
        return tok

    def _add_merge(self, merge: ByteMerge) -> None:
        self.merges.append(merge)
        self.token_bytes.setdefault(merge.new_id, merge.new_bytes)
        # subtle: a pair merged twice (HF's id-reuse quirk) keeps its first rank when encoding
        self._ranks.setdefault((merge.left, merge.right), (merge.rank, merge.new_id))

    # ---- encoding ------------------------------------------------------------------------------

    def pretokenize(self, text: str) -> list[str]:
        """The GPT-2 chunks of `text` (merges never cross a chunk boundary)."""
        return pretokenize(text)

    def _merge_chunk(self, chunk: str, steps: int | None = None) -> list[int]:
        """Apply merges to one chunk: always the lowest-rank pair present, leftmost first
        (Hugging Face's BPE model does the same); only merges of rank < `steps` if given."""
        ids = list(chunk.encode("utf-8"))
        if self._loaded is not None:
            whole = self._loaded.vocab.get(gpt2_text(bytes(ids)))
            if self._loaded.ignore_merges and whole is not None:
                return [whole]
            table = self._loaded.byte_ids
            ids = [i for i in (table[b] for b in ids) if i is not None]
        return merge_ids(ids, self._ranks, len(self.merges) if steps is None else steps)

    def chunk_ids(self, text: str, steps: int | None = None) -> list[list[int]]:
        """The chunks of `text` as id lists after the first `steps` merges (all if None).

        >>> ByteBPETokenizer().chunk_ids("hi you")
        [[104, 105], [32, 121, 111, 117]]
        """
        if steps is not None and not 0 <= steps <= len(self.merges):
            raise ValueError(f"steps must be between 0 and {len(self.merges)}, got {steps}")
        if steps is not None and steps < len(self.merges):
            return [self._merge_chunk(chunk, steps) for chunk in pretokenize(text)]
        return [list(self._encode_chunk(chunk)) for chunk in pretokenize(text)]

    def _encode_chunk(self, chunk: str) -> list[int]:
        ids = self._cache.get(chunk)
        if ids is None:
            if len(self._cache) >= MAX_CHUNK_CACHE:
                self._cache.clear()
            ids = self._cache[chunk] = self._merge_chunk(chunk)
        return ids

    def encode(self, text: str) -> list[int]:
        return [i for chunk in pretokenize(text) for i in self._encode_chunk(chunk)]

    def encode_chunk(self, chunk: str) -> list[int]:
        """The ids of one chunk (no pre-tokenization: the caller has cut the text already)."""
        return list(self._encode_chunk(chunk))

    def decode(self, ids: list[int]) -> str:
        unknown = [i for i in ids if i not in self.token_bytes]
        if unknown:
            raise ValueError(f"ids not in the vocabulary: {unknown[:5]}")
        return b"".join(self.token_bytes[i] for i in ids).decode("utf-8", errors="replace")

    def explain(self, text: str, steps: int | None = None) -> list[Token]:
        """Tokens with ids, GPT-2 strings, raw bytes and character spans (after `steps` merges).

        A token that cuts a character keeps its raw bytes; its span covers that whole character.
        """
        tokens: list[Token] = []
        char_pos = 0
        for chunk, ids in zip(pretokenize(text), self.chunk_ids(text, steps), strict=True):
            starts = _char_of_byte(chunk)
            offset = 0
            for token_id in ids:
                raw = self.token_bytes[token_id]
                first, last = starts[offset], starts[offset + len(raw) - 1]
                text_ = gpt2_text(raw)
                tokens.append(Token(token_id, text_, raw, char_pos + first, char_pos + last + 1))
                offset += len(raw)
            char_pos += len(chunk)
        return tokens

    def token_display(self, token_id: int) -> str:
        """Readable form of a token: decoded text, partial UTF-8 bytes as ⟨e4 bd⟩…"""
        return display_bytes(self.token_bytes[token_id])

    @property
    def vocab(self) -> dict[str, int]:
        if self._loaded is not None:
            return dict(self._loaded.vocab)
        return {gpt2_text(raw): i for i, raw in self.token_bytes.items()}

    # ---- persistence ---------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "merges": [[m.left, m.right, m.new_id, m.count, m.applied] for m in self.merges],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ByteBPETokenizer:
        tok = cls()
        try:
            rows = [[int(x) for x in row] for row in data["merges"]]
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a saved byte-level BPE tokenizer: {err}") from err
        for rank, (left, right, new_id, count, applied) in enumerate(rows):
            if left not in tok.token_bytes or right not in tok.token_bytes:
                raise ValueError(f"merge {rank} uses an id that does not exist yet")
            lb, rb = tok.token_bytes[left], tok.token_bytes[right]
            reused = new_id in tok.token_bytes
            tok._add_merge(ByteMerge(rank, left, right, lb, rb, new_id, count, applied, reused))
        return tok

    def to_hf_json(self) -> str:
        """A Hugging Face tokenizer.json (ByteLevel pre-tokenizer and decoder, BPE model)."""
        from tokenizers import Tokenizer as HFTokenizer
        from tokenizers import decoders, models, pre_tokenizers

        seen: set[tuple[int, int]] = set()
        merges = []
        for m in self.merges:
            if (m.left, m.right) not in seen:  # HF keeps one rank per pair (see _add_merge)
                seen.add((m.left, m.right))
                merges.append((self._gpt2(m.left), self._gpt2(m.right)))
        model = models.BPE(vocab=self.vocab, merges=merges, ignore_merges=False)
        hf = HFTokenizer(model)
        hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
        hf.decoder = decoders.ByteLevel()
        return hf.to_str()

    def _gpt2(self, token_id: int) -> str:
        return gpt2_text(self.token_bytes[token_id])


def merge_ids(
    ids: list[int], ranks: dict[tuple[int, int], tuple[int, int]], limit: int
) -> list[int]:
    """Merge `ids` as Hugging Face's BPE model does: always the lowest-rank pair present, the
    leftmost on a tie, until none of rank < `limit` is left. `ranks` maps a pair to (rank, new id).

    A heap of (rank, position, new id) over a linked list of symbols, as `tokenizers`' Word does,
    so a long chunk (a paragraph of Chinese without punctuation is one chunk) costs n log n, not n².
    An entry whose pair has changed since it was pushed is skipped when it comes out.

    >>> merge_ids([1, 2, 3, 1, 2], {(1, 2): (0, 9), (9, 3): (1, 7)}, limit=2)
    [7, 9]
    """
    n = len(ids)
    if n < 2:
        return list(ids)
    symbols, after, before = list(ids), list(range(1, n + 1)), list(range(-1, n - 1))
    after[-1] = -1
    heap = []
    for i in range(n - 1):
        found = ranks.get((symbols[i], symbols[i + 1]))
        if found is not None and found[0] < limit:
            heap.append((found[0], i, found[1]))
    heapq.heapify(heap)
    while heap:
        rank, i, new_id = heapq.heappop(heap)
        j = after[i] if symbols[i] >= 0 else -1
        if j < 0 or ranks.get((symbols[i], symbols[j]), (0, -1))[1] != new_id:
            continue  # merged away, or its pair is another one now
        symbols[i], symbols[j] = new_id, -1  # j is gone: i now stands for both
        after[i] = after[j]
        if after[i] >= 0:
            before[after[i]] = i
        for left in (before[i], i):
            right = after[left] if left >= 0 else -1
            if right >= 0:
                found = ranks.get((symbols[left], symbols[right]))
                if found is not None and found[0] < limit:
                    heapq.heappush(heap, (found[0], left, found[1]))
    out, i = [], 0
    while i >= 0:
        out.append(symbols[i])
        i = after[i]
    return out


def gpt2_bytes(token: str) -> bytes:
    """Inverse of `gpt2_text`; a string with other characters (an added "<mask>" is fine, a "▁"
    is not) stands for its own UTF-8 bytes, as `tokenizers`' ByteLevel decoder reads it.

    >>> gpt2_bytes("Ġhi"), gpt2_bytes("▁")
    (b' hi', b'\\xe2\\x96\\x81')
    """
    try:
        return bytes(UNICODE_TO_BYTE[c] for c in token)
    except KeyError:
        return token.encode("utf-8")


@dataclass(frozen=True)
class LoadedVocab:
    """What a loaded tokenizer.json adds: its own token strings, the id of each byte's GPT-2
    character (None where missing) and the `ignore_merges` switch."""

    vocab: dict[str, int]
    byte_ids: tuple[int | None, ...]
    ignore_merges: bool = False


def _char_of_byte(chunk: str) -> list[int]:
    """For each UTF-8 byte of `chunk`, the index of the character it belongs to."""
    out: list[int] = []
    for index, char in enumerate(chunk):
        out.extend([index] * len(char.encode("utf-8")))
    return out


@dataclass(frozen=True)
class TrainingStats:
    """Token and character counts of the training text per script, for curves over k.

    Group 0 = chunks without Chinese characters, group 1 = chunks with them. `removed[k][g]` is the
    number of tokens merge k removed from group g, so tokens after k merges is a running sum.
    """

    chars: tuple[int, int]
    initial_tokens: tuple[int, int]
    removed: tuple[tuple[int, ...], ...]

    @classmethod
    def build(
        cls, chunks: list[str], counts: Counter, groups: list[int], removed: list[tuple[int, ...]]
    ) -> TrainingStats:
        chars, tokens = [0, 0], [0, 0]
        for chunk, group in zip(chunks, groups, strict=True):
            chars[group] += len(chunk) * counts[chunk]
            tokens[group] += len(chunk.encode("utf-8")) * counts[chunk]
        padded = tuple(tuple(r) + (0,) * (2 - len(r)) for r in removed)
        return cls((chars[0], chars[1]), (tokens[0], tokens[1]), padded)

    def tokens_after(self) -> list[tuple[int, int]]:
        """Tokens per group after k = 0, 1, ..., K merges."""
        out = [self.initial_tokens]
        a, b = self.initial_tokens
        for r0, r1 in self.removed:
            a, b = a - r0, b - r1
            out.append((a, b))
        return out
