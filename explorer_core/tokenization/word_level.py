"""Word-level tokenization: one id per whole word, the simplest vocabulary there is.

Words are cut exactly as BERT cuts them before WordPiece (`bert_basic`, without lower-casing or
accent stripping): whitespace of any kind (spaces, tabs, newlines) separates words, each punctuation
mark and each Chinese character is a word of its own. The vocabulary is the five specials
`<pad>`=0 `<unk>`=1 `<eos>`=2 `<sos>`=3 `<mask>`=4, then the words by descending count, ties by
code point (so "I" < "Welcome" < "all"). Every word outside the vocabulary becomes `<unk>`.

>>> tok = WordLevelTokenizer()
>>> _ = tok.train("Welcome to the\\tthe jungle\\nI can stay\\there all night", 100)
>>> tok.vocab["the"], tok.vocab["I"], tok.vocab["to"]
(5, 6, 14)
>>> tok.encode("the night is young")
[5, 12, 1, 1]
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from explorer_core.tokenization.base import Token, Tokenizer, VocabTooSmall
from explorer_core.tokenization.bert_basic import normalize, split_on_specials, split_words

SPECIALS = ("<pad>", "<unk>", "<eos>", "<sos>", "<mask>")


@dataclass(frozen=True)
class WordEntry:
    """One vocabulary entry chosen by training: the `rank`-th most frequent word."""

    rank: int
    word: str
    id: int
    count: int


def word_spans(text: str) -> list[tuple[str, int, int]]:
    """The words of `text` with their character spans.

    >>> word_spans("Hi, 你好")
    [('Hi', 0, 2), (',', 2, 3), ('你', 4, 5), ('好', 5, 6)]
    """
    chars = normalize(text, lowercase=False, strip_accents=False)
    return [("".join(c for c, _ in w), w[0][1], w[-1][1] + 1) for w in split_words(chars)]


class WordLevelTokenizer(Tokenizer):
    """Whole words as tokens; unknown words become `<unk>`."""

    algo = "word"
    lossless = False  # whitespace is dropped and unseen words become <unk>

    def __init__(self) -> None:
        self._vocab: dict[str, int] = {s: i for i, s in enumerate(SPECIALS)}
        self._inverse = {i: s for s, i in self._vocab.items()}

    @property
    def vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    @property
    def special_tokens(self) -> dict[str, int]:
        return {s: self._vocab[s] for s in SPECIALS}

    def id_to_token(self, token_id: int) -> str:
        return self._inverse[token_id]

    def train(self, text: str, vocab_size: int) -> list[WordEntry]:
        """Keep the `vocab_size - 5` most frequent words (ties by code point); return them."""
        if vocab_size <= len(SPECIALS):
            raise VocabTooSmall(
                f"A word-level vocabulary needs more than its {len(SPECIALS)} special tokens; "
                f"got a size of {vocab_size}",
                minimum=len(SPECIALS) + 1,
                requested=vocab_size,
            )
        counts = Counter(word for word, _, _ in word_spans(text))
        for special in SPECIALS:
            counts.pop(special, None)
        if not counts:
            raise ValueError("The training text has no words to learn from")
        ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
        kept = ranked[: vocab_size - len(SPECIALS)]
        self._vocab = {s: i for i, s in enumerate(SPECIALS)}
        steps = []
        for rank, (word, count) in enumerate(kept):
            self._vocab[word] = len(self._vocab)
            steps.append(WordEntry(rank, word, self._vocab[word], count))
        self._inverse = {i: s for s, i in self._vocab.items()}
        return steps

    def explain(self, text: str) -> list[Token]:
        """One token per word, with its span; a literal special (e.g. "<mask>") stays special."""
        unk = self._vocab["<unk>"]
        tokens: list[Token] = []
        for part, offset, special in split_on_specials(text, list(SPECIALS)):
            if special:
                tokens.append(
                    Token(self._vocab[part], part, part.encode(), offset, offset + len(part), True)
                )
                continue
            for word, start, end in word_spans(part):
                token_id = self._vocab.get(word, unk)
                raw = part[start:end].encode()
                name = word if token_id != unk else "<unk>"
                span = (offset + start, offset + end)
                tokens.append(Token(token_id, name, raw, *span, special=token_id == unk))
        return tokens

    def encode(self, text: str) -> list[int]:
        return [t.id for t in self.explain(text)]

    def decode(self, ids: list[int]) -> str:
        """Words joined by single spaces (the original spacing is not kept)."""
        try:
            return " ".join(self._inverse[i] for i in ids)
        except KeyError as err:
            raise ValueError(f"Id {err.args[0]} is not in this vocabulary") from err

    def to_dict(self) -> dict[str, Any]:
        return {"vocab": self._vocab}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> WordLevelTokenizer:
        tokenizer = cls()
        tokenizer._vocab = {str(k): int(v) for k, v in data["vocab"].items()}
        tokenizer._inverse = {i: s for s, i in tokenizer._vocab.items()}
        return tokenizer

    def to_hf_json(self) -> str:
        """`tokenizers` form: BertNormalizer (no case change), BertPreTokenizer, WordLevel."""
        from tokenizers import Tokenizer as HFTokenizer
        from tokenizers import normalizers, pre_tokenizers
        from tokenizers.models import WordLevel

        hf = HFTokenizer(WordLevel(self._vocab, unk_token="<unk>"))
        hf.normalizer = normalizers.BertNormalizer(
            clean_text=True, handle_chinese_chars=True, strip_accents=False, lowercase=False
        )
        hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        hf.add_special_tokens(list(SPECIALS))
        return json.dumps(json.loads(hf.to_str()), ensure_ascii=False)
