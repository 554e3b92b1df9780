"""From any tokenizer of the Tokenizer Lab to BERT's inputs: special ids, padded id batches.

BERT needs four special tokens: [PAD] (fills short rows), [CLS] (first token), [SEP] (ends each
segment) and [MASK] (hides a token for MLM). A WordPiece vocabulary such as bert-base-chinese has
them; a byte-level BPE trained in the Lab may have none. `BertVocab.of(tokenizer)` finds each one in
the tokenizer's specials or vocabulary (by BERT's name or a common alias) and gives every missing
one a new id after the tokenizer's last id, so the model's vocabulary is the tokenizer's plus at
most four rows.

In use (a sketch; the tests run the real thing)::

    vocab = BertVocab.of(tokenizer)            # tokenizer of 1000 ids without specials
    vocab.pad_id, vocab.cls_id, vocab.size      # -> 1000, 1001, 1004
    ids, mask = vocab.batch(tokenizer, ["a cat", "a dog sat"], max_length=16)   # (2, T) each
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

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
        next_id = max(vocab.values()) + 1
        ids: dict[str, int] = {}
        added: list[str] = []
        for role in ROLES:
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

    def single(self, tokenizer: Tokenizer, text: str, max_length: int) -> list[int]:
        """``[CLS] text [SEP]`` truncated to `max_length` ids."""
        if max_length < 3:
            raise ValueError("max_length must leave room for [CLS], one token and [SEP]")
        body = self.content_ids(tokenizer, text)[: max_length - 2]
        return [self.cls_id, *body, self.sep_id]

    def pad(self, rows: Sequence[Sequence[int]]) -> tuple[torch.Tensor, torch.Tensor]:
        """Right-pad id lists to the longest row: (ids, attention_mask), both (B, T) int64."""
        if not rows:
            raise ValueError("Nothing to encode: the list of texts is empty")
        width = max(len(r) for r in rows)
        ids = torch.full((len(rows), width), self.pad_id, dtype=torch.long)  # (B, T)
        mask = torch.zeros((len(rows), width), dtype=torch.long)  # (B, T)
        for i, row in enumerate(rows):
            ids[i, : len(row)] = torch.tensor(row, dtype=torch.long)
            mask[i, : len(row)] = 1
        return ids, mask

    def batch(
        self, tokenizer: Tokenizer, texts: Sequence[str], max_length: int
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Encode sentences as ``[CLS] text [SEP]`` rows, padded: (ids, attention_mask)."""
        return self.pad([self.single(tokenizer, t, max_length) for t in texts])
