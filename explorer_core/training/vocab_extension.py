"""Teaching a WordPiece vocabulary new characters without changing what it already knows.

all-MiniLM-L6-v2 reads the bert-base-uncased vocabulary: 30,522 entries, only 244 of them Chinese
characters, so most characters of a Chinese sentence become [UNK]. BERT's basic tokenizer already
puts spaces around every CJK character (`bert_basic.is_bert_chinese`), so each one is a word of its
own: one new vocabulary entry per character is enough, and no `##` form is needed. Characters that
join their neighbours into a word (full-width digits and letters, `²`) get both forms, `x` and
`##x`, so they can start or continue a word.

New entries go after the last id. Every old id keeps its string and its embedding row, and text the
old vocabulary could read (no [UNK]) is tokenized exactly as before: a new entry only ever matches a
character that used to make its whole word [UNK].

>>> from explorer_core.tokenization.wordpiece import WordPieceTokenizer
>>> tok = WordPieceTokenizer.from_dict({"vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2,
...     "[SEP]": 3, "[MASK]": 4, "cat": 5, "猫": 6}, "lowercase": True})
>>> missing_entries(tok, "cat 猫狗。")
['狗', '。']
>>> bigger = extend_vocabulary(tok, ["狗", "。"])
>>> bigger.encode("cat 猫狗。"), bigger.token_to_id("cat")
([5, 6, 7, 8], 5)
>>> unk_share(tok, ["cat 猫狗。"]), unk_share(bigger, ["cat 猫狗。"])  # of the tokens
(0.5, 0.0)

The candidate characters come from the data and from GB 2312, the standard set of simplified
Chinese characters, which Python's `gb2312` codec enumerates without any data file: level 1 holds
the 3,755 most common hanzi (bytes 0xB0A1-0xD7F9, in pinyin order), level 2 another 3,008 less
common ones (0xD8A1-0xF7FE, by radical), row 0xA1 the full-width punctuation and row 0xA3
full-width ASCII. Level 1 alone left 0.25% of the project's own Chinese prose [UNK] (炖, 擀, 腌,
莓, 橘, ...); with level 2 none is. A level-2 character that the parallel data never shows keeps
its starting row (see `extend_rows`): it is read as "some Chinese character" rather than [UNK].
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import torch

from explorer_core.tokenization.bert_basic import is_bert_chinese, is_bert_punctuation
from explorer_core.tokenization.wordpiece import WordPieceTokenizer
from explorer_core.tokenization.wordpiece_trainer import PREFIX
from explorer_core.training.multilingual_config import ROW_INITS


def _gb2312_row(high: int, last: int = 0xFE) -> list[str]:
    chars = []
    for low in range(0xA1, last + 1):
        try:
            chars.append(bytes([high, low]).decode("gb2312"))
        except UnicodeDecodeError:  # unassigned cells
            continue
    return chars


def gb2312_level1() -> list[str]:
    """The 3,755 level-1 hanzi of GB 2312, in the standard's (pinyin) order.

    >>> chars = gb2312_level1()
    >>> len(chars), chars[:4], chars[-1]
    (3755, ['啊', '阿', '埃', '挨'], '座')
    """
    chars = []
    for high in range(0xB0, 0xD8):
        chars += _gb2312_row(high, 0xF9 if high == 0xD7 else 0xFE)
    return chars


def gb2312_level2() -> list[str]:
    """The 3,008 level-2 hanzi of GB 2312 (less common; ordered by radical and strokes).

    >>> chars = gb2312_level2()
    >>> len(chars), "炖" in chars, "炖" in gb2312_level1()
    (3008, True, False)
    """
    chars = []
    for high in range(0xD8, 0xF8):
        chars += _gb2312_row(high)
    return chars


def gb2312_symbols() -> list[str]:
    """Full-width punctuation (row 0xA1) and full-width ASCII (row 0xA3) of GB 2312.

    >>> symbols = gb2312_symbols()
    >>> "；" in symbols, "１" in symbols, len(symbols)
    (True, True, 188)
    """
    return _gb2312_row(0xA1) + _gb2312_row(0xA3)


def missing_entries(tokenizer: WordPieceTokenizer, text: str) -> list[str]:
    """Entries that `text` needs and the vocabulary lacks, in order of first need.

    Only words that come out as [UNK] are looked at. Each of their characters needs its own entry;
    one that is neither CJK nor punctuation (so it can sit inside a word) also needs its `##` form.
    """
    vocab, needed = tokenizer.vocab, {}
    for word, _, _ in tokenizer._words(text):  # noqa: SLF001 - the tokenizer's own normalization
        if tokenizer.word_pieces(word)[0][0] != "[UNK]":
            continue
        for char in word:
            alone = is_bert_chinese(char) or is_bert_punctuation(char)
            for entry in (char,) if alone else (char, PREFIX + char):
                if entry not in vocab:
                    needed[entry] = None
    return list(needed)


def chinese_entries(tokenizer: WordPieceTokenizer, texts: Sequence[str] = ()) -> list[str]:
    """What a Chinese reader needs: GB 2312 (both levels and its symbols), then the characters of
    `texts` (in code-point order), minus what the vocabulary already has."""
    candidates = " ".join(gb2312_level1() + gb2312_level2() + gb2312_symbols())
    seen = sorted({c for text in texts for c in text})
    entries = missing_entries(tokenizer, candidates + " " + " ".join(seen))
    return entries


def extend_vocabulary(tokenizer: WordPieceTokenizer, entries: Iterable[str]) -> WordPieceTokenizer:
    """A new tokenizer: the old vocabulary (same ids) plus `entries` after its last id."""
    vocab = tokenizer.vocab
    next_id = max(vocab.values()) + 1
    for entry in entries:
        if entry in vocab:
            raise ValueError(f"{entry!r} is already in the vocabulary (id {vocab[entry]})")
        vocab[entry] = next_id
        next_id += 1
    return WordPieceTokenizer.from_dict({"vocab": vocab, "lowercase": tokenizer.lowercase})


def cjk_ids(tokenizer: WordPieceTokenizer) -> list[int]:
    """Ids of the single CJK characters a vocabulary has (244 in bert-base-uncased's)."""
    return sorted(i for s, i in tokenizer.vocab.items() if len(s) == 1 and is_bert_chinese(s))


def extend_rows(
    weight: torch.Tensor, n_new: int, init: str = "cjk-mean", like: Sequence[int] = ()
) -> torch.Tensor:
    """The embedding table (V, H) with `n_new` rows appended; the old rows are copied unchanged.

    `init` says where new rows start: "cjk-mean" is the mean of the rows `like` (the Chinese
    characters the model already knew: wherever the model expects "some Chinese character"),
    "mean" the mean of all old rows. Every new row starts equal; training tells them apart.

    >>> extend_rows(torch.tensor([[1.0, 0.0], [3.0, 2.0]]), 2, "mean").tolist()
    [[1.0, 0.0], [3.0, 2.0], [2.0, 1.0], [2.0, 1.0]]
    """
    if init not in ROW_INITS:
        raise ValueError(f"init must be one of {', '.join(ROW_INITS)}, got {init!r}")
    rows = weight[list(like)] if init == "cjk-mean" and like else weight
    start = rows.mean(dim=0, keepdim=True).expand(n_new, -1)  # (n_new, H)
    return torch.cat([weight, start]).clone()


def unk_share(tokenizer: WordPieceTokenizer, texts: Sequence[str]) -> float:
    """The fraction of tokens of `texts` that are [UNK] (0.0 for no tokens).

    >>> tok = WordPieceTokenizer.from_dict({"vocab": {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2,
    ...     "[SEP]": 3, "[MASK]": 4, "猫": 5}, "lowercase": True})
    >>> unk_share(tok, ["猫狗", "猫"])
    0.3333333333333333
    """
    unk, total = tokenizer.token_to_id("[UNK]"), 0
    count = 0
    for text in texts:
        ids = tokenizer.encode(text)
        total += len(ids)
        count += sum(1 for i in ids if i == unk)
    return count / total if total else 0.0
