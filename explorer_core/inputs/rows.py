"""BERT's input rows, built in one place: ``[CLS] A [SEP]`` or ``[CLS] A [SEP] B [SEP]``, batched.

Every page, the lesson, pre-training, fine-tuning and the sentence encoders get their model inputs
from `build_rows` (usually through `BertVocab.rows` / `BertVocab.encode`), so the layout below is
written once. For a batch of two rows, the second a pair, padded to the longest:

    tokens          [CLS]  A1  A2  [SEP]  [PAD] [PAD] [PAD]
    token_type_ids    0     0   0    0      0     0     0
    attention_mask    1     1   1    1      0     0     0
    tokens          [CLS]  A1  [SEP]  B1    B2   B3  [SEP]
    token_type_ids    0     0    0     1     1    1    1
    attention_mask    1     1    1     1     1    1    1

The conventions are transformers' (`BertTokenizerFast(a, b, truncation=True, padding=...)`, checked
id for id against MiniLM's tokenizer in tests/test_rows.py):

- segment 0 is ``[CLS] A [SEP]``, segment 1 is ``B [SEP]``; padding has segment 0 and mask 0;
- padding goes on the right, to the longest row (``padding="longest"``) or to `max_length`
  (``padding="max_length"``);
- truncation keeps ``[CLS]`` and the ``[SEP]``s and cuts tokens from the end of the text: a single
  sentence keeps its first ``max_length - 2`` tokens; a pair follows "longest_first"
  (`truncate_pair`): the shorter side is kept whole when it fits in half the budget and the
  longer side gets the rest, otherwise both get half (the longer one, or B on a tie, the odd one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from torch import Tensor

PADDING = ("longest", "max_length")


@dataclass(frozen=True, eq=False)
class BertRows:
    """A batch of BERT inputs, each (B, T) int64, and how many text tokens each row lost."""

    input_ids: Tensor  # (B, T)
    token_type_ids: Tensor  # (B, T): 0 for [CLS] A [SEP] and padding, 1 for B [SEP]
    attention_mask: Tensor  # (B, T): 1 for real tokens, 0 for padding
    truncated: tuple[int, ...]  # text tokens dropped per row to fit max_length

    def __len__(self) -> int:
        return int(self.input_ids.shape[0])

    def as_dict(self) -> dict[str, Tensor]:
        """The three tensors by transformers' names (``model(**rows.as_dict())``)."""
        return {
            "input_ids": self.input_ids,
            "token_type_ids": self.token_type_ids,
            "attention_mask": self.attention_mask,
        }


def truncate_pair(a: Sequence[int], b: Sequence[int], budget: int) -> tuple[list[int], list[int]]:
    """Cut `a` and `b` to at most `budget` ids together, as transformers' "longest_first".

    The shorter side stays whole if the longer one can take the rest; otherwise each gets half
    of the budget and the longer side (B on a tie) the odd one. Tokens go from the end.

    >>> truncate_pair([1, 2, 3, 4], [5, 6], 4)  # B fits: A takes the rest
    ([1, 2], [5, 6])
    >>> truncate_pair([1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11], 5)  # both cut: the longer gets 3
    ([1, 2, 3], [7, 8])
    >>> truncate_pair([1, 2, 3], [4, 5, 6], 5)  # a tie: B gets the odd one
    ([1, 2], [4, 5, 6])
    """
    if budget < 0:
        raise ValueError(f"the budget must be at least 0, got {budget}")
    if len(a) + len(b) <= budget:
        return list(a), list(b)
    short, long = sorted((len(a), len(b)))
    keep_short = short if 2 * short <= budget else budget // 2
    keep_long = budget - keep_short
    if len(a) > len(b):  # subtle: on a tie B counts as the longer side, as in `tokenizers`
        return list(a[:keep_long]), list(b[:keep_short])
    return list(a[:keep_short]), list(b[:keep_long])


def one_row(
    a: Sequence[int], b: Sequence[int] | None, cls_id: int, sep_id: int, limit: int | None
) -> tuple[list[int], list[int], int]:
    """(ids, token types, tokens dropped) of one unpadded row."""
    if b is None:
        body = list(a) if limit is None else list(a[: limit - 2])
        return [cls_id, *body, sep_id], [0] * (len(body) + 2), len(a) - len(body)
    kept_a, kept_b = (list(a), list(b)) if limit is None else truncate_pair(a, b, limit - 3)
    ids = [cls_id, *kept_a, sep_id, *kept_b, sep_id]
    types = [0] * (len(kept_a) + 2) + [1] * (len(kept_b) + 1)
    return ids, types, len(a) + len(b) - len(kept_a) - len(kept_b)


def build_rows(
    first: Sequence[Sequence[int]],
    second: Sequence[Sequence[int]] | None = None,
    *,
    cls_id: int,
    sep_id: int,
    pad_id: int,
    max_length: int | None = None,
    padding: str = "longest",
) -> BertRows:
    """Rows ``[CLS] a [SEP]`` (or ``[CLS] a [SEP] b [SEP]`` with `second`) from id lists.

    `first` (and `second`) hold one list of text ids per row, without special tokens.
    `max_length` (None: no limit) counts every position, specials included.

    >>> rows = build_rows([[7, 8], [9]], cls_id=101, sep_id=102, pad_id=0)
    >>> rows.input_ids.tolist(), rows.attention_mask.tolist()
    ([[101, 7, 8, 102], [101, 9, 102, 0]], [[1, 1, 1, 1], [1, 1, 1, 0]])
    >>> pair = build_rows([[7, 8]], [[9]], cls_id=101, sep_id=102, pad_id=0, max_length=8,
    ...                   padding="max_length")
    >>> pair.input_ids.tolist(), pair.token_type_ids.tolist()
    ([[101, 7, 8, 102, 9, 102, 0, 0]], [[0, 0, 0, 0, 1, 1, 0, 0]])
    >>> cut = build_rows([[1, 2, 3, 4, 5, 6]], [[7, 8]], cls_id=101, sep_id=102, pad_id=0,
    ...                  max_length=7)
    >>> cut.input_ids.tolist(), cut.truncated
    ([[101, 1, 2, 102, 7, 8, 102]], (4,))
    """
    if padding not in PADDING:
        raise ValueError(f"padding must be one of {', '.join(PADDING)}, got {padding!r}")
    if not first:
        raise ValueError("Nothing to encode: the list of texts is empty")
    if second is not None and len(second) != len(first):
        raise ValueError(f"{len(first)} first sentences but {len(second)} second sentences")
    if max_length is None and padding == "max_length":
        raise ValueError('padding="max_length" needs a max_length')
    need = 3 if second is None else 5
    if max_length is not None and max_length < need:
        what = "[CLS], one token and [SEP]" if second is None else "[CLS], [SEP], [SEP]"
        raise ValueError(f"max_length must leave room for {what}: got {max_length}")
    import torch  # subtle: here: the guided lesson's first screens lay out ids without torch

    pairs = second if second is not None else [None] * len(first)
    built = [one_row(a, b, cls_id, sep_id, max_length) for a, b in zip(first, pairs, strict=True)]
    width = max_length if padding == "max_length" else max(len(ids) for ids, _, _ in built)
    input_ids = torch.full((len(built), width), pad_id, dtype=torch.long)  # (B, T)
    token_types = torch.zeros((len(built), width), dtype=torch.long)  # (B, T)
    mask = torch.zeros((len(built), width), dtype=torch.long)  # (B, T)
    for i, (ids, types, _) in enumerate(built):
        input_ids[i, : len(ids)] = torch.tensor(ids, dtype=torch.long)
        token_types[i, : len(ids)] = torch.tensor(types, dtype=torch.long)
        mask[i, : len(ids)] = 1
    return BertRows(input_ids, token_types, mask, tuple(dropped for _, _, dropped in built))
