"""The guided lesson with a model opened from this machine (`explorer_core.models.opened`): its
own token template and its own pooling, where `analysis.lesson` follows MiniLM's.

1. `template_tokens`  the text as the model's own tokenizer lays it out (`encode_with_specials`):
                      RoBERTa's ``<s> … </s>``, ModernBERT's ``[CLS] … [SEP]`` over byte-level
                      BPE pieces, XLM-R's ``<s> ▁… </s>`` over Unigram pieces.
2. `piece_kind`       whether a piece starts a word, continues one, is special or unknown, read
                      from its tokenizer's own marks (WordPiece ``##``, BPE ``Ġ``, Unigram ``▁``).
3. `run_opened`       one pass of the encoder, pooled as the model's authors pool it
                      (`SentencePipeline`): the vector `models.opened.embed` gives.

>>> piece_kind("##mat", "wordpiece", starts_word=False)
'piece'
>>> piece_kind("Ġcat", "byte-bpe", starts_word=False), piece_kind("at", "byte-bpe", False)
('word', 'piece')
>>> piece_kind("▁猫", "unigram", starts_word=False)
'word'
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from explorer_core.analysis.lesson import LessonTokens, SentenceRun, run_sentence

if TYPE_CHECKING:
    from torch import Tensor

    from explorer_core.models.opened import OpenedModel
    from explorer_core.tokenization import Tokenizer

WORD_MARKS = {"byte-bpe": "Ġ", "unigram": "▁"}  # the mark a word-starting piece carries


def piece_kind(name: str, kind: str, starts_word: bool) -> str:
    """Whether the content token `name` of a `kind` tokenizer ("wordpiece", "byte-bpe",
    "unigram") is a "word" (starts one) or a "piece" (continues one). WordPiece marks the
    continuation (``##``); BPE and Unigram mark the start (``Ġ``, ``▁``), and a piece without the
    mark still starts a word when the pre-tokenizer began a word there (the text's first word, a
    punctuation mark)."""
    if kind == "wordpiece" or kind not in WORD_MARKS:
        return "piece" if name.startswith("##") else "word"
    return "word" if starts_word or name.startswith(WORD_MARKS[kind]) else "piece"


def model_text(opened: OpenedModel, text: str) -> str:
    """The text as the model's pipeline feeds it: its default prompt first ("query: "), lower-cased
    where its sentence-transformers files say so (as `models.opened.embed` does)."""
    pipeline = opened.pipeline
    return pipeline.prompt() + (text.lower() if pipeline.do_lower_case else text)


def template_tokens(tokenizer: Tokenizer, text: str) -> LessonTokens:
    """`text` through a tokenizer file's own template, e.g. RoBERTa: ``<s> The Ġcat </s>``.

    The template's ids are `encode_with_specials(text, limits=False)`; the content tokens (with
    their spans in `text`) are `explain(text)`, found inside the template as one run.
    """
    ids = tokenizer.encode_with_specials(text, limits=False)[0]
    content = tokenizer.explain(text)
    content_ids = [t.id for t in content]
    at = next((k for k in range(len(ids) - len(content_ids) + 1)
               if ids[k : k + len(content_ids)] == content_ids), None)  # fmt: skip
    if at is None:
        raise ValueError("the tokenizer's template does not hold the sentence's tokens")
    info = tokenizer.file_info
    unk = info.specials.get("unk")
    starts = {w.start for w in tokenizer.words(text) if not w.added}
    kinds = ["unknown" if t.id == unk else "special" if t.special
             else piece_kind(t.text, info.kind, t.start in starts) for t in content]  # fmt: skip
    names = [tokenizer.id_to_token(i) for i in ids]
    after = len(ids) - at - len(content)  # the template's special tokens after the sentence
    return LessonTokens(
        tokens=tuple(names),
        ids=tuple(ids),
        covers=(*[""] * at, *(text[t.start : t.end] for t in content), *[""] * after),
        kinds=(*["special"] * at, *kinds, *["special"] * after),
    )


def run_opened(opened: OpenedModel, ids: tuple[int, ...] | list[int]) -> SentenceRun:
    """`run_sentence` pooled by the model's own pipeline: `mean` holds the pooled vector before
    Normalize (after any Dense step), `vector` the sentence vector `embed` returns."""
    import torch.nn.functional as F

    from explorer_core.inputs.vocab import BertVocab
    from explorer_core.models.opened import encode_rows
    from explorer_core.models.sentence import finish, pool, prompt_length

    pipeline = opened.pipeline
    prefix, skip = pipeline.prompt(), 0
    if prefix and not pipeline.include_prompt:
        specials = BertVocab.of(opened.tokenizer).special_ids
        skip = prompt_length(encode_rows(opened, [prefix])[0][0].tolist(), specials)

    unnormalised = replace(pipeline, normalize=False)

    def pooled(hidden: Tensor, mask: Tensor) -> tuple[Tensor, Tensor]:  # (1, T, H), (1, T)
        before = finish(unnormalised, pool(pipeline, hidden, mask, skip), opened.dense)  # (1, D)
        return before, F.normalize(before, p=2, dim=-1) if pipeline.normalize else before

    return run_sentence(opened.model, ids, pooled)
