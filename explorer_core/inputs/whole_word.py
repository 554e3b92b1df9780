"""Whole-word masking: choose words, not tokens, and hide every token of a chosen word together.

BERT reads Chinese one character per token, so token-level masking (`masking.mask_tokens`) often
hides one character of a word (北[MASK]) and the model fills it in from the other half: an easy
guess that teaches little about words. Whole-word masking (Google's BERT-wwm; Cui et al. 2019,
"Pre-Training with Whole Word Masking for Chinese BERT") segments the text into words first and
masks whole words (北京 -> [MASK][MASK]). The procedure here:

1. Words. Chinese: the text is segmented with jieba (`segment`); CJK tokens that lie in one of its
   words form one word. Other scripts: a token continues the word of the token before it when it
   starts where that one ended and neither side of the seam is a space, punctuation or CJK: for
   WordPiece exactly the ``##`` pieces (what transformers groups as one word).
   Each token gets a code (`word_starts`): 1 first token of a word, 0 continuation, -1 special
   (a token that covers no text, e.g. [CLS]; an [UNK] stands for its characters and is a word).
2. Select each word with probability `mlm_probability` (one Bernoulli draw per word, read at its
   first token, as transformers 5's `DataCollatorForLanguageModeling(whole_word_mask=True)`):
   on average 15% of the tokens, as with token-level masking.
3. Replace per word: 80% of the chosen words become [MASK] on every token, 10% random tokens (a
   random id per token), 10% stay as they are. Labels as in `masking`: the original id on every
   token of a chosen word, -100 elsewhere.

# subtle: the references do not agree on step 3. Google's `create_pretraining_data.py` (which
# Chinese-BERT-wwm used) and transformers 4's `DataCollatorForWholeWordMask` decide 80/10/10 per
# *token*, so a chosen word can show half its characters (北[MASK]); transformers 5 turns every
# chosen token into [MASK] (no random or kept tokens with whole_word_mask). Here the decision is
# per word by default, so a chosen word never leaks part of itself; `per_word=False` gives the
# per-token decision of Google's script. Both draw in `mask_tokens`' order, so text whose words
# are all single tokens is masked exactly as `mask_tokens` masks it with the same generator.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

import torch
from torch import Tensor

from explorer_core.inputs.masking import (
    IGNORE_INDEX,
    MASK_REPLACE,
    RANDOM_REPLACE,
    MaskedTokens,
    apply_masks,
)
from explorer_core.tokenization.base import Token, Tokenizer, is_cjk, is_punctuation

START, INSIDE, SPECIAL = 1, 0, -1  # codes of `word_starts`
SEGMENTER = "jieba"
MISSING = (
    "Whole-word masking of Chinese needs the word segmenter jieba, which is not installed: "
    "pip install jieba"
)


class SegmenterMissing(RuntimeError):
    """jieba is not installed; the message is one line a learner can act on (`MISSING`)."""


def segmenter_available() -> bool:
    """Whether jieba can be imported (checked without importing it)."""
    import importlib.util

    return importlib.util.find_spec(SEGMENTER) is not None


def segment(text: str) -> list[str]:
    """jieba's words of `text` (its default, accurate mode); they join back to `text` exactly.

    >>> segment("我爱北京天安门。")  # doctest: +SKIP
    ['我', '爱', '北京', '天安门', '。']
    """
    try:
        import jieba
    except ImportError as err:
        raise SegmenterMissing(MISSING) from err
    jieba.setLogLevel(60)  # its dictionary loads once per process; no log lines from it
    return jieba.lcut(text)


def needs_segmenter(text: str) -> bool:
    """Whether `text` holds a CJK character (only those are segmented into words)."""
    return any(is_cjk(char) for char in text)


def word_spans(words: Sequence[str]) -> list[tuple[int, int]]:
    """Character spans (start, end) of consecutive words.

    >>> word_spans(["我", "爱", "北京"])
    [(0, 1), (1, 2), (2, 4)]
    """
    spans, at = [], 0
    for word in words:
        spans.append((at, at + len(word)))
        at += len(word)
    return spans


def _joins(char: str) -> bool:
    """A character that can sit on the seam inside one word piece sequence (no space, punctuation
    or CJK: BERT's basic tokenizer splits at those)."""
    return not (char.isspace() or is_punctuation(char) or is_cjk(char))


def word_starts(
    text: str, tokens: Sequence[Token], words: Sequence[str] | None = None
) -> list[int]:
    """Per token: 1 where a word starts, 0 inside a word, -1 for a special token (see the module
    docstring). `words` are the text's words (default: `segment(text)` when it holds CJK).

    Worked example: "北京很大" in one-character tokens, words 北京 / 很 / 大 -> [1, 0, 1, 1];
    "playing" as play ##ing -> [1, 0].
    """
    if words is None:
        words = segment(text) if needs_segmenter(text) else [text]
    spans = word_spans(words)
    firsts = [start for start, _ in spans]
    codes: list[int] = []
    previous: Token | None = None
    for token in tokens:
        piece = text[token.start : token.end]
        if not piece:  # not from the text ([CLS]); an [UNK] stands for its characters
            codes.append(SPECIAL)
            previous = None
            continue
        chinese = all(is_cjk(char) for char in piece)
        same = False
        if previous is not None and token.start == previous.end:
            before = text[previous.start : previous.end]
            if chinese and all(is_cjk(char) for char in before):
                word = bisect.bisect_right(firsts, token.start) - 1
                same = spans[word][0] <= previous.start  # both inside one jieba word
            elif not chinese:
                same = token.text.startswith("##") or (_joins(before[-1]) and _joins(piece[0]))
        codes.append(INSIDE if same else START)
        previous = token
    return codes


def word_groups(starts: Sequence[int]) -> list[list[int]]:
    """Token positions of each word, from `word_starts` codes.

    >>> word_groups([-1, 1, 0, 1, -1])
    [[1, 2], [3]]
    """
    groups: list[list[int]] = []
    for i, code in enumerate(starts):
        if code == START:
            groups.append([i])
        elif code == INSIDE:
            if not groups or groups[-1][-1] != i - 1:
                raise ValueError(f"token {i} continues a word but follows no word")
            groups[-1].append(i)
    return groups


def mask_whole_words(
    input_ids: Tensor,
    starts: Tensor,
    *,
    vocab_size: int,
    mask_id: int,
    generator: torch.Generator,
    mlm_probability: float = 0.15,
    per_word: bool = True,
) -> MaskedTokens:
    """Select whole words and replace them (module docstring, steps 2-3).

    `input_ids` and `starts` (the `word_starts` codes as a LongTensor) are (T,) or (B, T).
    Worked example of the counts: 1,000 two-character words get about 150 chosen (300 tokens
    labelled), of which about 120 words become [MASK][MASK], 15 random and 15 stay as they are.
    """
    if not 0.0 < mlm_probability < 1.0:
        raise ValueError(f"mlm_probability must be between 0 and 1, got {mlm_probability}")
    if not 0 <= mask_id < vocab_size:
        raise ValueError(f"the mask id {mask_id} is outside the vocabulary of {vocab_size}")
    if input_ids.shape != starts.shape:
        raise ValueError(f"ids {tuple(input_ids.shape)} and word starts {tuple(starts.shape)}")
    shape = input_ids.shape
    in_word = starts >= INSIDE  # (..., T) every non-special token
    positions = torch.arange(shape[-1]).expand(shape)
    head = torch.where(starts == START, positions, -1).cummax(dim=-1).values  # each word's start
    if not bool((head[in_word] >= 0).all()):
        raise ValueError("a token continues a word but no word starts before it")
    head = head.clamp_min(0)

    def spread(draw: Tensor) -> Tensor:  # a draw read at each word's first token, for all of it
        return draw.gather(-1, head) & in_word

    def coin(p: float) -> Tensor:
        return torch.bernoulli(torch.full(shape, p), generator=generator).bool()

    # 1) select each word with probability p
    selected = spread(coin(mlm_probability))
    labels = input_ids.masked_fill(~selected, IGNORE_INDEX)
    # 2) 80% of the selected words become [MASK] (per token with per_word=False)
    draw = coin(MASK_REPLACE)
    masked = (spread(draw) if per_word else draw) & selected
    # 3) half of the remaining 20% become random tokens, one random id per token
    draw = coin(RANDOM_REPLACE / (1.0 - MASK_REPLACE))
    randomised = (spread(draw) if per_word else draw) & selected & ~masked
    random_ids = torch.randint(vocab_size, shape, dtype=torch.long, generator=generator)
    # 4) the rest of the selected words keep their tokens
    return apply_masks(input_ids, labels, selected, masked, randomised, random_ids, mask_id)


def text_word_starts(
    tokenizer: Tokenizer, text: str, drop: Sequence[int] = ()
) -> tuple[list[int], list[int]]:
    """(ids, word-start codes) of `text`, without the tokens whose ids are in `drop` (the
    [CLS]/[SEP] a WordPiece adds by itself: `BertVocab.content_ids`' ids)."""
    dropped = set(drop)
    tokens = [tok for tok in tokenizer.explain(text) if tok.id not in dropped]
    return [tok.id for tok in tokens], word_starts(text, tokens)
