"""WordPiece, BERT's tokenizer: basic tokenization, then greedy longest-match-first pieces.

Encoding a word takes the longest vocabulary entry that starts it, then the longest `##` entry that
continues it, and so on; if some position cannot be matched the whole word becomes `[UNK]` (as does
a word longer than `max_input_chars_per_word` = 100 characters):

>>> tok = WordPieceTokenizer.from_dict({"vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2,
...     "[SEP]": 3, "[MASK]": 4, "un": 5, "##aff": 6, "##able": 7, "a": 8}, "lowercase": True})
>>> [t.text for t in tok.explain("Unaffable ax")]
['un', '##aff', '##able', '[UNK]']

A token's `raw` bytes are its vocabulary string ("##able"); for `[UNK]`, the word it replaced.

`WordPieceTokenizer.from_vocab(path)` reads a BERT `vocab.txt` and encodes exactly as transformers'
`BertTokenizer(vocab=path)`: the same normalization (see `bert_basic`), the same specials matched
literally in the input before anything else, and `encode_pair` for `[CLS] A [SEP] B [SEP]`.
Training (`train`) scores pairs as in `wordpiece_trainer`.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from explorer_core.tokenization.base import Token, Tokenizer, VocabTooSmall
from explorer_core.tokenization.bert_basic import (
    normalize,
    pre_tokenize,
    split_on_specials,
    split_words,
)
from explorer_core.tokenization.wordpiece_trainer import (
    PREFIX,
    WordPieceMerge,
    alphabet,
    train_wordpiece,
)

SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")
MAX_INPUT_CHARS_PER_WORD = 100
_CACHE_LIMIT = 50_000  # words remembered by the encoding cache before it is cleared


class WordPieceTokenizer(Tokenizer):
    """BERT's WordPiece. `lowercase=True` is BERT-uncased (lower-case and strip accents).

    The other switches are BertNormalizer's and the WordPiece model's in a tokenizer.json:
    `strip_accents` (None: follow `lowercase`), `clean_text` (drop control characters, map
    whitespace to spaces), `handle_chinese_chars` (a CJK ideograph is a word alone), the
    `unk_token`, the `continuing_subword_prefix` ("##") and `max_input_chars_per_word` (longer
    words are unk).
    """

    algo = "wordpiece"
    lossless = False  # lower-casing, accent stripping, whitespace and [UNK] lose information

    def __init__(
        self,
        lowercase: bool = True,
        *,
        strip_accents: bool | None = None,
        clean_text: bool = True,
        handle_chinese_chars: bool = True,
        unk_token: str = "[UNK]",
        continuing_subword_prefix: str = PREFIX,
        max_input_chars_per_word: int = MAX_INPUT_CHARS_PER_WORD,
        specials: tuple[str, ...] = SPECIALS,
    ) -> None:
        self.lowercase = lowercase
        self.strip_accents = strip_accents
        self.clean_text = clean_text
        self.handle_chinese_chars = handle_chinese_chars
        self.unk_token = unk_token
        self.prefix = continuing_subword_prefix
        self.max_input_chars_per_word = max_input_chars_per_word
        self.specials = specials  # matched literally in the input; must all be in the vocabulary
        self._vocab: dict[str, int] = {s: i for i, s in enumerate(specials)}
        self._prepare()

    def _prepare(self) -> None:
        missing = [s for s in self.specials if s not in self._vocab]
        if missing:
            raise ValueError(f"The vocabulary lacks the special tokens {', '.join(missing)}")
        self._inverse = {i: s for s, i in self._vocab.items()}
        self._longest = max((len(s) for s in self._vocab), default=1)
        self._cache: dict[str, list[tuple[str, int, int]]] = {}

    @property
    def options(self) -> dict[str, Any]:
        """The switches besides `lowercase`, as keyword arguments of the constructor."""
        return {
            "strip_accents": self.strip_accents,
            "clean_text": self.clean_text,
            "handle_chinese_chars": self.handle_chinese_chars,
            "unk_token": self.unk_token,
            "continuing_subword_prefix": self.prefix,
            "max_input_chars_per_word": self.max_input_chars_per_word,
            "specials": self.specials,
        }

    @classmethod
    def from_model(
        cls, vocab: dict[str, int], lowercase: bool = True, **options: Any
    ) -> WordPieceTokenizer:
        """A tokenizer with this exact vocabulary (string -> id) and these switches."""
        tokenizer = cls(lowercase=lowercase, **{"specials": (), **options})
        tokenizer._vocab = dict(vocab)
        tokenizer._prepare()
        return tokenizer

    # ---- vocabulary ----------

    @property
    def vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    @property
    def vocab_size(self) -> int:
        return len(self._vocab)

    @property
    def special_tokens(self) -> dict[str, int]:
        return {s: self._vocab[s] for s in self.specials}

    def id_to_token(self, token_id: int) -> str:
        return self._inverse[token_id]

    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    @classmethod
    def from_vocab(cls, path: str | Path, lowercase: bool = True) -> WordPieceTokenizer:
        """Load a BERT `vocab.txt` (one token per line, line number = id).

        Lines lose trailing whitespace and a repeated token keeps its last line, as in `tokenizers`.
        """
        try:
            lines = Path(path).read_text(encoding="utf-8").split("\n")
        except (OSError, UnicodeDecodeError) as err:
            raise ValueError(f"Cannot read the vocabulary file {path}: {err}") from err
        if lines and lines[-1] == "":
            lines.pop()  # the newline that ends the last line
        tokenizer = cls(lowercase=lowercase)
        tokenizer._vocab = {line.rstrip(): i for i, line in enumerate(lines)}
        tokenizer._prepare()
        return tokenizer

    # ---- training ----------

    def train(self, text: str, vocab_size: int) -> list[WordPieceMerge]:
        """Learn `vocab_size` entries (5 specials, the alphabet, then merges) from `text`."""
        counts = Counter(word for word, _, _ in self._words(text))
        if not counts:
            raise ValueError("The training text has no words to learn from")
        symbols = alphabet(counts)
        floor = len(SPECIALS) + len(symbols)
        if vocab_size < floor:
            raise VocabTooSmall(
                f"A vocabulary of {vocab_size} is smaller than the {len(SPECIALS)} special tokens "
                f"plus the {len(symbols)} characters of this text; choose at least {floor}",
                minimum=floor,
                requested=vocab_size,
            )
        base, steps = train_wordpiece(counts, vocab_size - floor)
        entries = list(SPECIALS) + base + [s.merged for s in steps if s.new_entry]
        self._vocab = {s: i for i, s in enumerate(entries)}
        self._prepare()
        return steps

    # ---- encoding ----------

    def _words(self, text: str) -> list[tuple[str, int, int]]:
        return pre_tokenize(self._normalize(text))

    def _normalize(self, text: str) -> list[tuple[str, int]]:
        return normalize(
            text,
            lowercase=self.lowercase,
            strip_accents=self.strip_accents,
            clean_text=self.clean_text,
            chinese_chars=self.handle_chinese_chars,
        )

    def word_pieces(self, word: str) -> list[tuple[str, int, int]]:
        """Greedy longest-match-first: (piece, start, end) with positions in the word's characters.

        A word that cannot be matched, or is longer than `max_input_chars_per_word`, is one unk.
        """
        cached = self._cache.get(word)
        if cached is not None:
            return cached
        pieces: list[tuple[str, int, int]] = []
        if len(word) <= self.max_input_chars_per_word:
            start = 0
            while start < len(word):
                end = min(len(word), start + self._longest)
                while end > start:
                    piece = word[start:end] if start == 0 else self.prefix + word[start:end]
                    if piece in self._vocab:
                        break
                    end -= 1
                if end == start:
                    pieces = []
                    break
                pieces.append((piece, start, end))
                start = end
        if not pieces and word:
            if self.unk_token not in self._vocab:
                raise ValueError(f"{word!r} needs the unknown token {self.unk_token!r}, absent")
            pieces = [(self.unk_token, 0, len(word))]
        if len(self._cache) >= _CACHE_LIMIT:
            self._cache.clear()
        self._cache[word] = pieces
        return pieces

    def explain(self, text: str, add_special_tokens: bool = False) -> list[Token]:
        """Tokens with character spans in `text`; `[UNK]` spans its whole word."""
        tokens: list[Token] = []
        for part, offset, special in split_on_specials(text, list(self.specials)):
            if special:
                end = offset + len(part)
                tokens.append(Token(self._vocab[part], part, part.encode(), offset, end, True))
                continue
            for aligned in split_words(self._normalize(part)):
                word, index = "".join(c for c, _ in aligned), [i for _, i in aligned]
                for piece, a, b in self.word_pieces(word):
                    start, end = offset + index[a], offset + index[b - 1] + 1
                    unk = piece == self.unk_token  # its bytes are the original word's, for hovering
                    raw = text[start:end].encode() if unk else piece.encode()
                    tokens.append(Token(self._vocab[piece], piece, raw, start, end, unk))
        if add_special_tokens:
            tokens = [self._special("[CLS]", 0)] + tokens + [self._special("[SEP]", len(text))]
        return tokens

    def _special(self, name: str, at: int) -> Token:
        return Token(self._vocab[name], name, name.encode(), at, at, True)

    def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
        """Text to ids; `add_special_tokens=True` gives BERT's `[CLS] … [SEP]`."""
        return [t.id for t in self.explain(text, add_special_tokens=add_special_tokens)]

    def encode_pair(self, first: str, second: str) -> tuple[list[int], list[int]]:
        """BERT's pair input `[CLS] A [SEP] B [SEP]` and its token_type_ids (0s, then 1s)."""
        a = self.encode(first, add_special_tokens=True)
        b = self.encode(second) + [self._vocab["[SEP]"]]
        return a + b, [0] * len(a) + [1] * len(b)

    def decode(self, ids: list[int], skip_special_tokens: bool = False) -> str:
        """Join pieces with spaces, gluing `##` pieces to the previous one.

        >>> tok = WordPieceTokenizer.from_dict({"vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2,
        ...     "[SEP]": 3, "[MASK]": 4, "un": 5, "##able": 6, "ok": 7}, "lowercase": True})
        >>> tok.decode([2, 5, 6, 7, 3], skip_special_tokens=True)
        'unable ok'
        """
        out: list[str] = []
        for token_id in ids:
            piece = self._inverse.get(token_id)
            if piece is None:
                raise ValueError(f"Id {token_id} is not in this vocabulary of {len(self._vocab)}")
            if skip_special_tokens and piece in self.specials:
                continue
            if piece.startswith(self.prefix) and out:
                out[-1] += piece[len(self.prefix) :]
            else:
                out.append(piece)
        return " ".join(out)

    # ---- persistence ----------

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"vocab": self._vocab, "lowercase": self.lowercase}
        defaults = WordPieceTokenizer().options
        changed = {k: v for k, v in self.options.items() if v != defaults[k]}
        return {**data, **{k: list(v) if k == "specials" else v for k, v in changed.items()}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WordPieceTokenizer:
        options = {k: data[k] for k in WordPieceTokenizer().options if k in data}
        if "specials" in options:
            options["specials"] = tuple(options["specials"])
        tokenizer = cls(lowercase=bool(data.get("lowercase", True)), **options)
        tokenizer._vocab = {str(k): int(v) for k, v in data["vocab"].items()}
        tokenizer._prepare()
        return tokenizer

    def to_hf_json(self) -> str:
        """The same tokenizer in `tokenizers` form: BertNormalizer, BertPreTokenizer, WordPiece."""
        from tokenizers import Tokenizer as HFTokenizer
        from tokenizers import decoders, normalizers, pre_tokenizers, processors
        from tokenizers.models import WordPiece

        hf = HFTokenizer(
            WordPiece(
                self._vocab,
                unk_token=self.unk_token,
                max_input_chars_per_word=self.max_input_chars_per_word,
                continuing_subword_prefix=self.prefix,
            )
        )
        hf.normalizer = normalizers.BertNormalizer(
            clean_text=self.clean_text,
            handle_chinese_chars=self.handle_chinese_chars,
            strip_accents=self.strip_accents,
            lowercase=self.lowercase,
        )
        hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        hf.decoder = decoders.WordPiece(prefix=self.prefix)
        cls_id, sep_id = self._vocab["[CLS]"], self._vocab["[SEP]"]
        hf.post_processor = processors.TemplateProcessing(
            single="[CLS]:0 $A:0 [SEP]:0",
            pair="[CLS]:0 $A:0 [SEP]:0 $B:1 [SEP]:1",
            special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)],
        )
        hf.add_special_tokens(list(self.specials))
        return json.dumps(json.loads(hf.to_str()), ensure_ascii=False)
