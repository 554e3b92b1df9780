"""A real model's tokenizer.json, run step by step by our code: `FileTokenizer`.

The steps, in `tokenizers`' order (each built from the file by its own module):

1. added tokens typed as is (`hf_added`), e.g. "[MASK]", cut out of the raw text;
2. the normalizer (`hf_normalizers`) on each remaining part, then the normalized added tokens;
3. the pre-tokenizer (`hf_pretokenizers`) cuts each part into words;
4. the model (`hf_models`: our WordPiece, byte-level BPE or Unigram) cuts each word into pieces;
5. the post-processor (`hf_post`): special tokens, type ids, the file's truncation and padding.

Every character keeps the span of the original text it came from (`hf_aligned`), so each token of
`explain` points at what the user typed. `encode` gives the content ids (no special tokens, as our
other tokenizers); `encode_with_specials` gives what `tokenizers`' `encode(text, pair)` gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from explorer_core.tokenization.base import Token, Tokenizer
from explorer_core.tokenization.hf_added import AddedToken, Matcher, find_matches
from explorer_core.tokenization.hf_aligned import Aligned
from explorer_core.tokenization.hf_decoders import Decoder
from explorer_core.tokenization.hf_models import ModelStep
from explorer_core.tokenization.hf_normalizers import Step
from explorer_core.tokenization.hf_post import Limits, PostProcessor
from explorer_core.tokenization.hf_pretokenizers import Splitter

_KIND_NAMES = {"wordpiece": "WordPiece", "byte-bpe": "byte-level BPE", "unigram": "Unigram"}


@dataclass(frozen=True)
class TokenizerFileInfo:
    """Which code runs each step of a loaded tokenizer, for a page to say so."""

    kind: str  # "wordpiece" | "byte-bpe" | "unigram"
    ours: tuple[str, ...]  # the steps our code runs, e.g. ("normalizer: BertNormalizer", ...)
    theirs: tuple[str, ...]  # the steps `tokenizers` runs; empty when every step is ours
    specials: dict[str, int]  # role ("cls", "sep", "pad", "mask", "unk", "bos", "eos") -> id
    vocab_size: int  # the model's vocabulary with the added tokens
    lowercase: bool | None  # whether the normalizer lower-cases (None: a step we cannot see into)

    def said(self) -> str:
        """One English sentence: which code cut the text."""
        name = _KIND_NAMES.get(self.kind, self.kind)
        ours = f"Our {name} code cut this text ({'; '.join(self.ours)})"
        if not self.theirs:
            return ours + "; no step ran in Hugging Face tokenizers."
        return ours + f"; Hugging Face tokenizers ran the {'; '.join(self.theirs)}."


@dataclass(frozen=True)
class Word:
    """One word the model is given (or an added token), with its span in the original text."""

    text: str
    start: int
    end: int
    added: bool = False


class FileTokenizer(Tokenizer):
    """A loaded tokenizer.json (see the module docstring); `file_info` says who ran what."""

    algo = "hf-file"
    lossless = False

    def __init__(
        self,
        model: ModelStep,
        normalizer: Step,
        splitter: Splitter,
        added: list[AddedToken],
        post: PostProcessor,
        limits: Limits,
        decoder: Decoder,
    ) -> None:
        self.model, self.normalizer, self.splitter = model, normalizer, splitter
        self.post, self.limits, self.decoder = post, limits, decoder
        self.added = added
        self._raw = Matcher([t for t in added if not t.normalized])
        normalized = [t for t in added if t.normalized]
        patterns = [normalizer(Aligned.of(t.content)).text for t in normalized]
        self._normalized = Matcher(normalized, patterns)
        self._added_text = {t.id: p for t, p in zip(normalized, patterns, strict=True)}
        self._vocab = dict(model.vocab)  # dict(): a C-speed copy, ~10 ms for 250k entries
        self._vocab.update({t.content: t.id for t in added})
        self._inverse = dict(zip(model.vocab.values(), model.vocab.keys(), strict=True))
        self._inverse.update({t.id: self._added_text.get(t.id, t.content) for t in added})
        self._special_ids = {t.id for t in added if t.special}
        self.file_info: TokenizerFileInfo | None = None  # set by hf_file.load_tokenizer_file
        self.source: Any = None  # the folder it was read from (a Path), set there too,
        self.loader: Any = None  # with the function that read it (hf_file.load_tokenizer_file)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as the folder it was read from (its steps hold closures): a training plan
        carries it to a worker process, which reads the same files again."""
        if self.source is None or self.loader is None:
            raise TypeError("a FileTokenizer not read by load_tokenizer_file cannot be pickled")
        return self.loader, (self.source,)

    # ---- what the page asks ----------

    @property
    def kind(self) -> str:
        return self.model.kind

    @property
    def vocab(self) -> dict[str, int]:
        return dict(self._vocab)

    @property
    def vocab_size(self) -> int:
        return len(self._vocab)

    @property
    def special_tokens(self) -> dict[str, int]:
        return {t.content: t.id for t in self.added if t.special}

    def id_to_token(self, token_id: int) -> str:
        return self._inverse[token_id]

    def token_to_id(self, token: str) -> int | None:
        return self._vocab.get(token)

    # ---- encoding ----------

    def explain(self, text: str) -> list[Token]:
        """The content tokens with character spans in `text` (added tokens marked special)."""
        tokens: list[Token] = []
        for token_id, word in self._cut(text):
            if token_id is not None:
                special = token_id in self._special_ids
                name = self._inverse[token_id]
                raw = word.text.encode()
                tokens.append(Token(token_id, name, raw, word.origin, word.ends[-1], special))
                continue
            for piece_id, name, raw, a, b in self.model.tokenize(word.text):
                start, end = word.span(a, b) if b > a else (word.origin, word.origin)
                tokens.append(Token(piece_id, name, raw, start, end, name == self.model.unk))
        return tokens

    def words(self, text: str) -> list[Word]:
        """What the model is given: the pre-tokenized words (in the normalizer's and the
        pre-tokenizer's spelling, "▁hello"), and the added tokens, each with its original span."""
        return [
            Word(w.text, w.origin if i is not None else min(w.starts), max(w.ends), i is not None)
            for i, w in self._cut(text)
        ]

    def normalized(self, text: str) -> str:
        """The text after the normalizer; added tokens matched as typed stay as typed (BERT
        uncased: "Héllo [MASK]" -> "hello [MASK]")."""
        parts = find_matches(text, self._raw)
        norm = self.normalizer
        return "".join(
            text[a:b] if token_id is not None else norm(Aligned.of(text[a:b])).text
            for token_id, a, b in parts
        )

    def _cut(self, text: str) -> list[tuple[int | None, Aligned]]:
        """Steps 1-3: (added token id, its matched text) or (None, a pre-tokenized word)."""
        out: list[tuple[int | None, Aligned]] = []
        for token_id, start, end in find_matches(text, self._raw):
            if token_id is not None:
                out.append((token_id, Aligned.of(text[start:end], start)))
                continue
            normed = self.normalizer(Aligned.of(text[start:end], start))
            for found, a, b in find_matches(normed.text, self._normalized):
                if found is not None:
                    lo, hi = normed.span(a, b)
                    out.append((found, Aligned.join([(normed.text[a:b], lo, hi)], lo)))
                else:
                    out.extend((None, w) for w in self.splitter.run(normed.slice(a, b)))
        return out

    def encode(self, text: str) -> list[int]:
        return [t.id for t in self.explain(text)]

    def encode_with_specials(
        self, text: str, pair: str | None = None, *, limits: bool = True
    ) -> tuple[list[int], list[int]]:
        """(ids, type ids) as `tokenizers.Tokenizer.encode(text, pair)` gives them: the template
        around the sentences, then the file's truncation and padding (`limits=False`: neither)."""
        first = self.encode(text)
        second = None if pair is None else self.encode(pair)
        if limits:
            first, second = self.limits.truncate(first, second, self.post.added(second is not None))
        ids, types = self.post.apply(first, second)
        return self.limits.pad(ids, types) if limits else (ids, types)

    def decode(self, ids: list[int], skip_special_tokens: bool = True) -> str:
        """Ids to text through the file's decoder (special tokens skipped, as `tokenizers`)."""
        unknown = [i for i in ids if i not in self._inverse]
        if unknown:
            raise ValueError(f"Ids not in this vocabulary of {len(self._vocab)}: {unknown[:5]}")
        kept = [i for i in ids if not (skip_special_tokens and i in self._special_ids)]
        return self.decoder.run([self._inverse[i] for i in kept])

    # ---- not a trainable tokenizer ----------

    def train(self, text: str, vocab_size: int) -> list[Any]:
        raise ValueError("A tokenizer read from a model's tokenizer.json is not trained here")

    def to_dict(self) -> dict[str, Any]:
        raise ValueError("A tokenizer read from a tokenizer.json is saved as that file")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FileTokenizer:
        raise ValueError("Load a tokenizer.json with hf_file.load_tokenizer_file")

    def to_hf_json(self) -> str:
        raise ValueError("A tokenizer read from a tokenizer.json is that file")
