"""From any tokenizer of the Tokenizer Lab to BERT's inputs: special ids, then input rows.

BERT needs four special tokens: [PAD] (fills short rows), [CLS] (first token), [SEP] (ends each
segment) and [MASK] (hides a token for MLM). A WordPiece vocabulary such as bert-base-chinese has
them; a byte-level BPE trained in the Lab may have none. `BertVocab.of(tokenizer)` finds each one in
the tokenizer's specials or vocabulary (by BERT's name or a common alias) and gives every missing
one a new id after the tokenizer's last id, so the model's vocabulary is the tokenizer's plus at
most four rows.

`BertVocab.encode` turns texts (or pairs of texts) into BERT's input rows with these ids; the rows
themselves are laid out in `explorer_core.inputs.rows`. A byte-level BPE with no specials gets all
four after its 258 ids; the tutorial's word-level vocabulary has them under other names
(<pad> 0, <eos> 2 for [SEP], <sos> 3 for [CLS], <mask> 4):

>>> from explorer_core.tokenization.byte_bpe import ByteBPETokenizer
>>> from explorer_core.tokenization.word_level import WordLevelTokenizer
>>> bpe = ByteBPETokenizer()
>>> _ = bpe.train("a cat a dog sat", 258)
>>> bpe_vocab = BertVocab.of(bpe)
>>> bpe_vocab.pad_id, bpe_vocab.cls_id, bpe_vocab.sep_id, bpe_vocab.mask_id, bpe_vocab.size
(258, 259, 260, 261, 262)
>>> words = WordLevelTokenizer()
>>> _ = words.train("a cat a dog sat", 100)
>>> vocab = BertVocab.of(words)
>>> vocab.pad_id, vocab.cls_id, vocab.sep_id, vocab.mask_id, vocab.size, vocab.added
(0, 3, 2, 4, 9, ())
>>> rows = vocab.encode(words, ["a cat", "a dog sat"], max_length=16)  # a=5 cat=6 dog=7 sat=8
>>> rows.input_ids.tolist(), rows.attention_mask.tolist()
([[3, 5, 6, 2, 0], [3, 5, 7, 8, 2]], [[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from explorer_core.inputs.rows import BertRows, build_rows, one_row
from explorer_core.tokenization import Tokenizer

ROLES = ("pad", "cls", "sep", "mask")  # added in this order when missing
ALIASES: dict[str, tuple[str, ...]] = {
    "pad": ("[PAD]", "<pad>", "<PAD>"),
    "cls": ("[CLS]", "<cls>", "<s>", "<sos>", "<bos>", "[BOS]"),
    "sep": ("[SEP]", "<sep>", "</s>", "<eos>", "[EOS]"),
    "mask": ("[MASK]", "<mask>", "<MASK>"),
}


def _find(names: tuple[str, ...], *tables: dict[str, int]) -> int | None:
    for table in tables:
        for name in names:
            if name in table:
                return table[name]
    return None


@dataclass(frozen=True)
class BertVocab:
    """Ids of BERT's special tokens for one tokenizer, and the model's vocabulary size."""

    pad_id: int
    cls_id: int
    sep_id: int
    mask_id: int
    size: int  # rows of the model's embedding table: tokenizer ids + added specials
    added: tuple[str, ...] = field(default=())  # roles that got a new id (e.g. ("pad", "mask"))

    @classmethod
    def of(cls, tokenizer: Tokenizer) -> BertVocab:
        """Resolve the special ids of `tokenizer`, adding the missing ones after its last id."""
        vocab = tokenizer.vocab
        if not vocab:
            raise ValueError("The tokenizer has an empty vocabulary: train or load it first")
        specials = tokenizer.special_tokens
        # a model's own tokenizer (hf_file) names its roles itself: ALBERT's pad is <pad>, its
        # cls [CLS]; those ids win over the aliases
        named = getattr(getattr(tokenizer, "file_info", None), "specials", None) or {}
        next_id = max(vocab.values()) + 1
        ids: dict[str, int] = {}
        added: list[str] = []
        for role in ROLES:
            found = named.get(role)
            if found is None:
                found = _find(ALIASES[role], specials, vocab)
            if found is None:
                found, next_id = next_id, next_id + 1
                added.append(role)
            ids[role] = found
        return cls(
            pad_id=ids["pad"],
            cls_id=ids["cls"],
            sep_id=ids["sep"],
            mask_id=ids["mask"],
            size=next_id,
            added=tuple(added),
        )

    @property
    def special_ids(self) -> tuple[int, ...]:
        """Ids that MLM must never mask (the four roles)."""
        return (self.pad_id, self.cls_id, self.sep_id, self.mask_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "pad_id": self.pad_id,
            "cls_id": self.cls_id,
            "sep_id": self.sep_id,
            "mask_id": self.mask_id,
            "size": self.size,
            "added": list(self.added),
        }

    # ---- encoding ---------------------------------------------------------------------------

    def content_ids(self, tokenizer: Tokenizer, text: str) -> list[int]:
        """The ids of `text` without any special token the tokenizer adds on its own."""
        ids = tokenizer.encode(text)
        # subtle: some tokenizers (WordPiece) may wrap the text in [CLS] ... [SEP] themselves
        return [i for i in ids if i not in (self.cls_id, self.sep_id, self.pad_id)]

    def row_ids(self, ids: Sequence[int]) -> list[int]:
        """``[CLS] ids [SEP]`` as one list: `build_rows`'s layout of one row, without tensors.

        >>> BertVocab(pad_id=0, cls_id=101, sep_id=102, mask_id=103, size=200).row_ids([7, 8])
        [101, 7, 8, 102]
        """
        return one_row(ids, None, self.cls_id, self.sep_id, None)[0]

    def rows(
        self,
        first: Sequence[Sequence[int]],
        second: Sequence[Sequence[int]] | None = None,
        *,
        max_length: int | None = None,
        padding: str = "longest",
    ) -> BertRows:
        """BERT's rows from text ids (no specials) with these special ids: see `build_rows`."""
        return build_rows(
            first, second, cls_id=self.cls_id, sep_id=self.sep_id, pad_id=self.pad_id,
            max_length=max_length, padding=padding,
        )  # fmt: skip

    def encode(
        self,
        tokenizer: Tokenizer,
        texts: Sequence[str],
        pairs: Sequence[str] | None = None,
        *,
        max_length: int | None = None,
        padding: str = "longest",
    ) -> BertRows:
        """``[CLS] text [SEP]`` rows of `texts`, or ``[CLS] text [SEP] pair [SEP]`` with `pairs`."""
        first = [self.content_ids(tokenizer, text) for text in texts]
        second = None if pairs is None else [self.content_ids(tokenizer, p) for p in pairs]
        return self.rows(first, second, max_length=max_length, padding=padding)
