"""Character-level BPE for mixed Chinese and English text (the original BPE of Sennrich et al.).

Words are cut as BERT cuts them (`bert_basic`, keeping case and accents): each Chinese character
and each punctuation mark is a word of its own, other words end at whitespace. A word starts as its
characters, the last one carrying the end-of-word marker `</w>`, so "low" is `l o w</w>` and a
merge can tell "low" at the end of a word (`low</w>`) from "low" inside "lower". Then the most
frequent adjacent pair is merged, again and again (`bpe_engine`, the same incremental trainer as
byte-level BPE). Tie-break: on equal counts the pair with the smaller ids wins; the alphabet is
numbered in code-point order after the specials `<unk>`=0 `<pad>`=1 `<bos>`=2 `<eos>`=3, and each
merge gets the next id.

>>> tok = CharBPETokenizer()
>>> steps = tok.train("low low low lower lowest", 20)
>>> [(s.left, s.right) for s in steps[:2]]
[('l', 'o'), ('lo', 'w</w>')]
>>> [t.text for t in tok.explain("lowly 你")]
['lo', 'w', 'l', '<unk>', '<unk>']

A character never seen in training is `<unk>`.
"""

from __future__ import annotations

import json
import operator
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from explorer_core.tokenization.base import Token, Tokenizer, VocabTooSmall
from explorer_core.tokenization.bert_basic import (
    is_bert_chinese,
    normalize,
    split_on_specials,
    split_words,
)
from explorer_core.tokenization.bpe_engine import train_bpe
from explorer_core.tokenization.byte_bpe import TrainingStats

SPECIALS = ("<unk>", "<pad>", "<bos>", "<eos>")
END = "</w>"
UNK, PAD, BOS, EOS = range(4)


@dataclass(frozen=True)
class CharMerge:
    """One learned merge: `left` + `right` -> `merged` (id `new_id`), `count` times in the text."""

    rank: int
    left: str
    right: str
    merged: str
    new_id: int
    count: int  # how often the pair occurred when it won
    applied: int = 0  # tokens the merge removed from the training text
    reused: bool = False  # True when `merged` already had an id


@dataclass(frozen=True)
class CharCandidate:
    """A pair in the running before merge `rank`; place 0 is the winner."""

    rank: int
    place: int
    left: str
    right: str
    count: int


def word_symbols(word: str) -> list[str]:
    """A word's starting symbols: its characters, the last with the end-of-word marker.

    >>> word_symbols("low"), word_symbols("你")
    (['l', 'o', 'w</w>'], ['你</w>'])
    """
    return [*word[:-1], word[-1] + END] if word else []


def _words(text: str, lowercase: bool = False) -> list[list[tuple[str, int]]]:
    return split_words(normalize(text, lowercase=lowercase, strip_accents=False))


class CharBPETokenizer(Tokenizer):
    """Character BPE with `</w>`; `train` returns one `CharMerge` per merge."""

    algo = "char-bpe"
    lossless = False  # whitespace is not kept, and unseen characters become <unk>

    def __init__(self, lowercase: bool = False) -> None:
        self.lowercase = lowercase  # fold case before splitting (accents are kept)
        self._set([], [])
        self.stats: TrainingStats | None = None
        self._candidates: Sequence[tuple[tuple[int, int, int], ...]] = []

    def _set(self, alphabet: list[str], merges: list[CharMerge]) -> None:
        self.merges = merges
        self.alphabet = list(alphabet)  # the starting symbols, ids 4, 5, ... in this order
        self._vocab = {s: i for i, s in enumerate(SPECIALS)}
        for symbol in alphabet:
            self._vocab.setdefault(symbol, len(self._vocab))
        self._ranks: dict[tuple[int, int], tuple[int, int]] = {}
        for m in merges:
            self._vocab.setdefault(m.merged, m.new_id)
            pair = (self._vocab[m.left], self._vocab[m.right])
            self._ranks.setdefault(pair, (m.rank, self._vocab[m.merged]))  # first rank wins
        self._inverse = {i: s for s, i in self._vocab.items()}
        self._cache: dict[tuple[str, int], list[tuple[int, int, int]]] = {}

    @property
    def vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    @property
    def special_tokens(self) -> dict[str, int]:
        return {s: i for i, s in enumerate(SPECIALS)}

    def id_to_token(self, token_id: int) -> str:
        return self._inverse[token_id]

    # ---- training ----------

    def train(self, text: str, vocab_size: int, *, trace: bool = True) -> list[CharMerge]:
        """Merge until the vocabulary (4 specials + alphabet + merges) holds `vocab_size` tokens.

        With `trace`, keeps the top 5 candidate pairs of every step (`candidates`) and token counts
        per script (`stats`, group 1 = Chinese characters) for the Tokenizer Lab.
        """
        counts = Counter("".join(c for c, _ in w) for w in _words(text, self.lowercase))
        if not counts:
            raise ValueError("The training text has no words to learn from")
        words = list(counts)
        alphabet = sorted({s for w in words for s in word_symbols(w)})
        floor = len(SPECIALS) + len(alphabet)
        if vocab_size < floor:
            raise VocabTooSmall(
                f"A vocabulary of {vocab_size} is smaller than the 4 special tokens plus the "
                f"{len(alphabet)} starting symbols of this text; choose at least {floor}",
                minimum=floor,
                requested=vocab_size,
            )
        ids = {s: i + len(SPECIALS) for i, s in enumerate(alphabet)}
        keys = {i: s for s, i in ids.items()}
        groups = [int(any(is_bert_chinese(c) for c in w)) for w in words] if trace else None
        result = train_bpe(
            [[ids[s] for s in word_symbols(w)] for w in words],
            [counts[w] for w in words],
            vocab_size - floor,
            floor,
            keys=keys,
            join=operator.add,  # concatenation: the compiled loop reuses ids as HF does
            top_k=5 if trace else 0,
            groups=groups,
        )
        merges = []
        for step in result.steps:
            left, right = keys[step.left], keys[step.right]
            keys.setdefault(step.new_id, left + right)
            merges.append(
                CharMerge(
                    step.rank,
                    left,
                    right,
                    left + right,
                    step.new_id,
                    step.count,
                    step.applied,
                    step.reused,
                )
            )
        self._set(alphabet, merges)
        self._candidates = result.candidates
        self.stats = None
        if trace:
            self.stats = _stats(words, counts, groups or [], result.applied_by_group)
        return list(merges)

    def candidates(self, step: int) -> list[CharCandidate]:
        """The best pairs before merge `step` (winner first) with their counts; [] if untraced."""
        if not 0 <= step < len(self._candidates):
            return []
        name = self._inverse
        return [
            CharCandidate(step, place, name[left], name[right], count)
            for place, (left, right, count) in enumerate(self._candidates[step])
        ]

    # ---- encoding ----------

    def word_ids(self, word: str, steps: int | None = None) -> list[tuple[int, int, int]]:
        """(id, first char, end char) of a word's tokens after `steps` merges (all if None).

        Always the lowest-rank pair present merges next, leftmost first, as in `tokenizers`.
        """
        limit = len(self.merges) if steps is None else steps
        key = (word, limit)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        parts = [(self._vocab.get(s, UNK), k, k + 1) for k, s in enumerate(word_symbols(word))]
        while len(parts) > 1:
            best, where = None, -1
            for k in range(len(parts) - 1):
                found = self._ranks.get((parts[k][0], parts[k + 1][0]))
                if found is not None and found[0] < limit and (best is None or found < best):
                    best, where = found, k
            if best is None:
                break
            parts[where : where + 2] = [(best[1], parts[where][1], parts[where + 1][2])]
        if len(self._cache) > 50_000:
            self._cache.clear()
        self._cache[key] = parts
        return parts

    def explain(self, text: str, steps: int | None = None) -> list[Token]:
        """Tokens with character spans (after `steps` merges); literal specials stay special."""
        tokens: list[Token] = []
        for part, offset, special in split_on_specials(text, list(SPECIALS)):
            if special:
                span = (offset, offset + len(part))
                tokens.append(Token(self._vocab[part], part, part.encode(), *span, special=True))
                continue
            for aligned in _words(part, self.lowercase):
                word = "".join(c for c, _ in aligned)
                for token_id, a, b in self.word_ids(word, steps):
                    start, end = offset + aligned[a][1], offset + aligned[b - 1][1] + 1
                    name = self._inverse[token_id]
                    raw = (text[start:end] if token_id == UNK else name).encode()
                    tokens.append(Token(token_id, name, raw, start, end, token_id == UNK))
        return tokens

    def encode(
        self, text: str, length: int | None = None, add_special_tokens: bool = False
    ) -> list[int]:
        """Text to ids; `add_special_tokens` wraps them in <bos> … <eos>; `length` truncates or
        pads with <pad> to exactly that many ids (keeping <eos> when truncating)."""
        ids = [t.id for t in self.explain(text)]
        if add_special_tokens:
            ids = [BOS, *ids, EOS]
        if length is None:
            return ids
        if length < (2 if add_special_tokens else 0):
            raise ValueError(f"length must be at least {2 if add_special_tokens else 0}")
        if len(ids) > length:
            ids = ids[: length - 1] + [EOS] if add_special_tokens else ids[:length]
        return ids + [PAD] * (length - len(ids))

    def decode(self, ids: list[int], skip_special_tokens: bool = True) -> str:
        """Join tokens, `</w>` becomes a space; Chinese characters are joined without spaces."""
        out: list[str] = []
        for token_id in ids:
            if token_id not in self._inverse:
                raise ValueError(f"Id {token_id} is not in this vocabulary")
            if skip_special_tokens and token_id in (PAD, BOS, EOS):
                continue
            out.append(self._inverse[token_id])
        text = "".join(out).replace(END, " ").rstrip(" ")
        return "".join(
            c
            for k, c in enumerate(text)
            if not (
                c == " "
                and 0 < k < len(text) - 1
                and is_bert_chinese(text[k - 1])
                and is_bert_chinese(text[k + 1])
            )
        )

    # ---- persistence ----------

    def to_dict(self) -> dict[str, Any]:
        return {
            "lowercase": self.lowercase,
            "alphabet": self.alphabet,
            "merges": [[m.left, m.right, m.count] for m in self.merges],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CharBPETokenizer:
        tokenizer = cls(lowercase=bool(data.get("lowercase", False)))
        alphabet = [str(s) for s in data["alphabet"]]
        vocab = {s: i for i, s in enumerate([*SPECIALS, *alphabet])}
        merges = []
        for rank, (left, right, count) in enumerate(data["merges"]):
            merged = left + right
            reused = merged in vocab
            new_id = vocab.setdefault(merged, len(vocab))
            merges.append(CharMerge(rank, left, right, merged, new_id, int(count), 0, reused))
        tokenizer._set(alphabet, merges)
        return tokenizer

    def to_hf_json(self) -> str:
        """`tokenizers` form: BertNormalizer (case folded if `lowercase`), BertPreTokenizer, BPE."""
        from tokenizers import Tokenizer as HFTokenizer
        from tokenizers import decoders, normalizers, pre_tokenizers
        from tokenizers.models import BPE

        seen: set[tuple[str, str]] = set()
        merges = []
        for m in self.merges:  # a pair merged twice keeps its first rank, as in `word_ids`
            if (m.left, m.right) not in seen:
                seen.add((m.left, m.right))
                merges.append((m.left, m.right))
        hf = HFTokenizer(BPE(self._vocab, merges, unk_token="<unk>", end_of_word_suffix=END))
        hf.normalizer = normalizers.BertNormalizer(
            clean_text=True,
            handle_chinese_chars=True,
            strip_accents=False,
            lowercase=self.lowercase,
        )
        hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        hf.decoder = decoders.BPEDecoder(suffix=END)
        hf.add_special_tokens(list(SPECIALS))
        return json.dumps(json.loads(hf.to_str()), ensure_ascii=False)


def _stats(
    words: list[str], counts: Counter[str], groups: list[int], removed: list[tuple[int, ...]]
) -> TrainingStats:
    """Characters and tokens per script before any merge (group 1 = Chinese characters)."""
    chars, tokens = [0, 0], [0, 0]
    for word, group in zip(words, groups, strict=True):
        chars[group] += len(word) * counts[word]
        tokens[group] += len(word) * counts[word]
    padded = tuple(tuple(r) + (0,) * (2 - len(r)) for r in removed)
    return TrainingStats((chars[0], chars[1]), (tokens[0], tokens[1]), padded)
