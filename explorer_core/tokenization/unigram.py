"""A unigram language model tokenizer (SentencePiece style): the likeliest cut into pieces.

Each piece has a probability; a segmentation's likelihood is the product of its pieces'. Encoding
takes the best one (Viterbi); training (`unigram_trainer`) grows a big seed vocabulary and prunes it
with EM. Textbook example: with p(ab) = 2/3 and p(c) = 1/3, "ababc" can only be ab|ab|c, of
likelihood 2/3 · 2/3 · 1/3 = 4/27:

>>> seg = UnigramTokenizer.from_pieces({"ab": 2 / 3, "c": 1 / 3}).best_segmentation("ababc")
>>> seg.pieces, round(seg.log_likelihood, 6) == round(math.log(4 / 27), 6)
(('ab', 'ab', 'c'), True)

Whitespace, as in SentencePiece: spaces become "▁" and one "▁" is put before the text, so "a b"
is "▁a▁b" and a piece can start with "▁" (a word start). The text is cut at every "▁" (kept on
the right) and around every newline, then each part is segmented. Nothing is ever unknown: every
frequent character is a piece, and anything else falls back to byte pieces `<0x00>` … `<0xFF>`
(ids 1-256) holding its UTF-8 bytes. So decoding gives back the text exactly; the one exception
is a literal "▁" (U+2581) in the input, which comes back as a space. (Pieces are matched as text,
so the characters spelling "<0x41>" and "<unk>" are always kept as pieces: spelled out they score
far better than those pieces, whose score is -10,000.)
"""

from __future__ import annotations

import json
import math
import random
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from explorer_core.tokenization.base import Token, Tokenizer, VocabTooSmall
from explorer_core.tokenization.unigram_lattice import Node, build_lattice, sample, viterbi
from explorer_core.tokenization.unigram_trainer import UnigramRound, train_unigram

SPACE = "▁"
UNK = "<unk>"
BYTE_PIECES = tuple(f"<0x{b:02X}>" for b in range(256))
FIXED_SCORE = -1.0e4  # <unk> and byte pieces: never worth matching as literal text
SAFE_CHARS = "<>0123456789ABCDEFxunk"  # spell "<0x41>" and "<unk>": text never matches those
UNK_PENALTY = 10.0  # an unknown character scores (lowest score - 10), as in tokenizers
_CACHE_LIMIT = 50_000  # words remembered by the encoding cache before it is cleared
_WORD = re.compile(f"\n|{SPACE}[^{SPACE}\n]*|[^{SPACE}\n]+")


@dataclass(frozen=True)
class Segmentation:
    """One way to cut a string: its pieces, their ids and the sum of their log-probabilities."""

    pieces: tuple[str, ...]
    ids: tuple[int, ...]
    log_likelihood: float


def unigram_words(text: str) -> list[tuple[str, int]]:
    """The parts that are segmented separately, each with its start in the "▁" form of `text`.

    >>> unigram_words("a  b\\nc")
    [('▁a', 0), ('▁', 2), ('▁b', 3), ('\\n', 5), ('c', 6)]
    """
    if not text:
        return []
    marked = SPACE + text.replace(" ", SPACE)
    return [(m.group(), m.start()) for m in _WORD.finditer(marked)]


class UnigramTokenizer(Tokenizer):
    """SentencePiece-style unigram LM with byte fallback; lossless (see the module docstring)."""

    algo = "unigram"
    lossless = True

    def __init__(self) -> None:
        self._set_pieces([])

    def _set_pieces(self, scored: list[tuple[str, float]]) -> None:
        fixed = [(UNK, FIXED_SCORE)] + [(b, FIXED_SCORE) for b in BYTE_PIECES]
        names = {name for name, _ in fixed}
        learned = [(p, v) for p, v in scored if p not in names]  # "<0x41>" as text: bytes anyway
        self._index(fixed + sorted(learned, key=lambda ps: (-ps[1], ps[0])), 0, True)

    def _index(self, pieces: list[tuple[str, float]], unk_id: int | None, bytes_: bool) -> None:
        """Look-up tables for `pieces` (id = position); `unk_id` None: nothing may be unknown."""
        # subtle: zip-built dicts, ~10x faster than comprehensions for XLM-R's 250k pieces; a
        # repeated piece keeps its last id, as in tokenizers
        names = [p for p, _ in pieces]
        ids = range(len(names))
        self._pieces = pieces
        self._vocab = dict(zip(names, ids, strict=True))
        self._table = dict(zip(names, zip(ids, [s for _, s in pieces], strict=True), strict=True))
        self._longest = max(map(len, names), default=1)
        self._unk_score = min((s for _, s in pieces), default=0.0) - UNK_PENALTY
        self._unk_id = unk_id
        self._cache: dict[str, list[tuple[int, str, bytes, int, int]]] = {}
        self._byte_ids: list[int | None] | None = None
        if bytes_:
            self._byte_ids = [self._vocab.get(name) for name in BYTE_PIECES]

    @classmethod
    def from_scored(
        cls, pieces: list[tuple[str, float]], unk_id: int | None = 0, byte_fallback: bool = False
    ) -> UnigramTokenizer:
        """Exactly these (piece, score) entries, ids in their order, as a tokenizer.json's Unigram
        model holds them (XLM-R: 250,002 pieces, <unk> = 3, no byte fallback)."""
        if unk_id is not None and not 0 <= unk_id < len(pieces):
            raise ValueError(f"The unknown piece's id {unk_id} is not among {len(pieces)} pieces")
        tokenizer = cls.__new__(cls)
        tokenizer._index(list(pieces), unk_id, byte_fallback)
        return tokenizer

    @classmethod
    def from_pieces(cls, probabilities: Mapping[str, float]) -> UnigramTokenizer:
        """A tokenizer whose pieces have the given probabilities (each in (0, 1])."""
        bad = [p for p, v in probabilities.items() if not 0 < v <= 1 or not p]
        if bad:
            raise ValueError(f"Piece probabilities must lie in (0, 1]; check {bad[:3]}")
        tokenizer = cls()
        tokenizer._set_pieces([(p, math.log(v)) for p, v in probabilities.items()])
        return tokenizer

    @property
    def vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    @property
    def special_tokens(self) -> dict[str, int]:
        if self._unk_id is None:
            return {}
        return {self._pieces[self._unk_id][0]: self._unk_id}

    def id_to_token(self, token_id: int) -> str:
        return self._pieces[token_id][0]

    def score(self, piece: str) -> float:
        """The piece's log-probability (its score)."""
        return self._table[piece][1]

    def train(self, text: str, vocab_size: int) -> list[UnigramRound]:
        """Learn `vocab_size - 257` pieces (after <unk> and the 256 byte pieces) from `text`."""
        target = vocab_size - 1 - len(BYTE_PIECES)
        floor = 1 + len(BYTE_PIECES) + len(SAFE_CHARS) + 8
        if vocab_size < floor:
            raise VocabTooSmall(
                f"A unigram vocabulary holds <unk>, 256 byte pieces and at least "
                f"{floor - 257} learned pieces; choose a size of at least {floor}, "
                f"not {vocab_size}",
                minimum=floor,
                requested=vocab_size,
            )
        words = Counter(word for word, _ in unigram_words(text))
        if not words:
            raise ValueError("The training text is empty")
        scores, rounds = train_unigram(words, target, always=SAFE_CHARS)
        self._set_pieces(list(scores.items()))
        return rounds

    # ---- segmentation ----------

    def _lattice(self, text: str) -> list[list[Node]]:
        unk = -1 if self._unk_id is None else self._unk_id
        return build_lattice(text, self._table, self._longest, (unk, self._unk_score))

    def _segmentation(self, path: list[Node], text: str) -> Segmentation:
        return Segmentation(
            tuple(text[s:e] for s, e, _, _ in path),
            tuple(piece for _, _, piece, _ in path),
            sum(score for _, _, _, score in path),
        )

    def best_segmentation(self, text: str) -> Segmentation:
        """The Viterbi cut of exactly `text` (no "▁" added; unknown characters as <unk>)."""
        return self._segmentation(viterbi(self._lattice(text)), text)

    def sample_segmentation(self, text: str, alpha: float = 0.1, seed: int = 0) -> Segmentation:
        """A random segmentation, likelier ones more often (p ∝ likelihood ** alpha)."""
        if alpha < 0:
            raise ValueError(f"alpha must be at least 0, got {alpha}")
        return self._segmentation(sample(self._lattice(text), alpha, random.Random(seed)), text)

    # ---- encoding ----------

    def explain(self, text: str) -> list[Token]:
        """Pieces with character spans; runs of unknown characters become byte pieces."""
        tokens: list[Token] = []
        for word, offset in unigram_words(text):
            for piece_id, piece, raw, start, end in self.pieces_of(word):
                span = (max(offset + start - 1, 0), offset + end - 1)
                tokens.append(Token(piece_id, piece, raw, *span))
        return tokens

    def pieces_of(self, word: str) -> list[tuple[int, str, bytes, int, int]]:
        """The Viterbi cut of `word` as (id, piece, raw bytes, start, end), positions in `word`.

        As `tokenizers`: a run of unknown characters is fused into one string; if that string is
        a piece it is kept, else it becomes byte pieces (each spanning the run) where the
        vocabulary has them all, else the unknown piece.
        """
        cached = self._cache.get(word)
        if cached is not None:
            return cached
        out: list[tuple[int, str, bytes, int, int]] = []
        path = viterbi(self._lattice(word))
        unk = -1 if self._unk_id is None else self._unk_id
        k = 0
        while k < len(path):
            start, end, piece_id, _ = path[k]
            while piece_id == unk and k + 1 < len(path) and path[k + 1][2] == unk:
                k += 1  # fuse a run of unknown characters, as tokenizers does
                end = path[k][1]
            k += 1
            out.extend(self._tokens(word[start:end], piece_id, start, end))
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[word] = out
        return out

    def _tokens(
        self, piece: str, piece_id: int, start: int, end: int
    ) -> list[tuple[int, str, bytes, int, int]]:
        unk = -1 if self._unk_id is None else self._unk_id
        if piece_id != unk:
            return [(piece_id, piece, piece.encode(), start, end)]
        known = self._vocab.get(piece)
        if known is not None:
            return [(known, piece, piece.encode(), start, end)]
        # subtle: bytes of the "▁" form, as tokenizers does (matters only if "▁" had no piece)
        if self._byte_ids is not None:
            ids = [self._byte_ids[b] for b in piece.encode()]
            if None not in ids:
                return [
                    (i, BYTE_PIECES[b], bytes([b]), start, end)
                    for i, b in zip(ids, piece.encode(), strict=True)
                ]
        if self._unk_id is None:
            raise ValueError(f"{piece!r} has no piece and this vocabulary has no unknown piece")
        return [(self._unk_id, self._pieces[self._unk_id][0], piece.encode(), start, end)]

    def encode(self, text: str) -> list[int]:
        return [t.id for t in self.explain(text)]

    def decode(self, ids: list[int]) -> str:
        """Concatenate pieces (bytes for byte pieces), "▁" back to spaces, drop the leading one."""
        out = bytearray()
        for token_id in ids:
            if not 0 <= token_id < len(self._pieces):
                raise ValueError(f"Id {token_id} is not in this vocabulary of {len(self._pieces)}")
            if 1 <= token_id <= len(BYTE_PIECES):
                out.append(token_id - 1)
            elif token_id:
                out += self._pieces[token_id][0].encode()
        text = out.decode("utf-8", errors="replace").replace(SPACE, " ")
        return text[1:] if text.startswith(" ") else text

    # ---- persistence ----------

    def to_dict(self) -> dict[str, Any]:
        return {"pieces": [[p, s] for p, s in self._pieces[1 + len(BYTE_PIECES) :]]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> UnigramTokenizer:
        tokenizer = cls()
        tokenizer._set_pieces([(str(p), float(s)) for p, s in data["pieces"]])
        return tokenizer

    def to_hf_json(self) -> str:
        """`tokenizers` form: Prepend+Replace normalizers, newline+Metaspace split, Unigram."""
        from tokenizers import Regex, decoders, normalizers, pre_tokenizers
        from tokenizers import Tokenizer as HFTokenizer
        from tokenizers.models import Unigram

        hf = HFTokenizer(Unigram(self._pieces, unk_id=0, byte_fallback=True))
        hf.normalizer = normalizers.Sequence(
            [normalizers.Prepend(SPACE), normalizers.Replace(" ", SPACE)]
        )
        hf.pre_tokenizer = pre_tokenizers.Sequence(
            [
                pre_tokenizers.Split(Regex("\n"), behavior="isolated"),
                pre_tokenizers.Metaspace(replacement=SPACE, prepend_scheme="never", split=True),
            ]
        )
        hf.decoder = decoders.Sequence(
            [
                decoders.Replace(SPACE, " "),
                decoders.ByteFallback(),
                decoders.Fuse(),
                decoders.Strip(" ", 1, 0),
            ]
        )
        return json.dumps(json.loads(hf.to_str()), ensure_ascii=False)
