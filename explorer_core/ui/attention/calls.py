"""Cached runs for the Attend pages (Attention, BERT inputs).

The model sources (fresh, trained here, MiniLM, MiniLM + 中文, a model opened from this machine)
are `ui.models.sources`'. Runs are cached by plain arguments; models are read-only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import streamlit as st
import torch

from explorer_core.bert.attention import CellArithmetic, allowed_keys
from explorer_core.bert.model import BertModel
from explorer_core.inputs.masking import mask_tokens, running_shares
from explorer_core.inputs.pairs import NspExample, consecutive_pairs
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer
from explorer_core.ui.i18n import CATALOGUE, DEFAULT_LANGUAGE
from explorer_core.ui.models.sources import Encoded, ModelSource, token_strings
from explorer_core.ui.pretrained import minilm_tokenizer

# The Attention page's English default sentence (its catalogue text, declared in ui/settings.py),
# which the warm-up runs MiniLM on.
DEFAULT_TEXT = CATALOGUE[DEFAULT_LANGUAGE]["attn.default_text"]


@dataclass(frozen=True)
class AttentionRun:
    weights: np.ndarray  # (B, L, H, T, T)
    scores: np.ndarray  # (B, L, H, T, T), pre-softmax with the masks added
    allowed: np.ndarray  # (B, T, T) booleans: which keys each query may see


@st.cache_data(max_entries=16, show_spinner=False)
def run_attention(
    model_key: str, _model: BertModel, ids: tuple, types: tuple, mask: tuple, causal: bool
) -> AttentionRun:
    """Weights and scores of every layer and head (our BertModel, explicit path)."""
    input_ids, token_types, attention_mask = (torch.tensor(x) for x in (ids, types, mask))
    if _model.config.type_vocab_size == 0:  # ModernBERT, DistilBERT: no segments to add
        token_types = None
    with torch.no_grad():
        out = _model(input_ids, attention_mask, token_types, output_attentions=True,
                     output_scores=True, causal=causal)  # fmt: skip
    allowed = allowed_keys(attention_mask, input_ids.shape[1], causal=causal)
    allowed = allowed.expand(input_ids.shape[0], input_ids.shape[1], -1)
    return AttentionRun(
        torch.stack(out.attentions, dim=1).numpy(), torch.stack(out.scores, dim=1).numpy(),
        allowed.numpy(),
    )  # fmt: skip


def explain(
    source: ModelSource, enc: Encoded, row: int, causal: bool, **cell: int
) -> CellArithmetic:
    """The arithmetic of one weight (layer, head, query, key) of row `row` of the batch."""
    return _explain(source.key, source.model, tuple(enc.input_ids[row]),
                    tuple(enc.token_type_ids[row]), tuple(enc.attention_mask[row]), causal,
                    **cell)  # fmt: skip


@st.cache_data(max_entries=64, show_spinner=False)
def _explain(
    model_key: str, _model: BertModel, ids: tuple, types: tuple, mask: tuple, causal: bool,
    *, layer: int, head: int, query: int, key: int,
) -> CellArithmetic:  # fmt: skip
    states = _layer_inputs(model_key, _model, ids, types, mask, causal)
    return _model.cell_from_states(
        states, layer=layer, head=head, query=query, key=key,
        attention_mask=torch.tensor([mask]), causal=causal,
    )  # fmt: skip


# subtle: one forward pass per sentence, not per cell: a new head or layer then costs one layer's
# arithmetic (a full pass per cell was ~6x MiniLM's on a BERT-base-sized model, bench/page_latency)
@st.cache_resource(max_entries=4, show_spinner=False)
def _layer_inputs(
    model_key: str, _model: BertModel, ids: tuple, types: tuple, mask: tuple, causal: bool
) -> tuple[torch.Tensor, ...]:
    """Every layer's input for one sentence (`hidden_states`, (1, T, H) each; read-only)."""
    segments = torch.tensor([types]) if _model.config.type_vocab_size else None  # ModernBERT: none
    with torch.no_grad():
        out = _model(torch.tensor([ids]), torch.tensor([mask]), segments,
                     output_hidden_states=True, causal=causal)  # fmt: skip
    return out.hidden_states


# ---- BERT inputs page ----------------------------------------------------------------------


@st.cache_resource(max_entries=2, show_spinner=False)
def word_level_tokenizer(lang: str, vocab_size: int = 3000) -> Tokenizer:
    """The tutorial's word-level vocabulary, trained on the built-in corpus of `lang`."""
    from explorer_core.inputs.datasets import builtin_corpus
    from explorer_core.tokenization.word_level import WordLevelTokenizer

    tokenizer = WordLevelTokenizer()
    tokenizer.train(builtin_corpus(lang), vocab_size)
    return tokenizer


@st.cache_data(max_entries=4, show_spinner=False)
def corpus_pairs(lang: str) -> list[tuple[str, str]]:
    """Consecutive sentences of the built-in corpus as (A, B) pairs."""
    from explorer_core.inputs.datasets import builtin_corpus

    return consecutive_pairs(builtin_corpus(lang))


SPECIAL_KIND = 4  # display code for special tokens (after masking's none / mask / random / keep)


@dataclass(frozen=True)
class MlmDraw:
    tokens: list[str]  # [CLS] text [SEP] as vocabulary strings
    shown: list[str]  # what the model sees after masking
    kinds: list[int]  # 0 none, 1 mask, 2 random, 3 keep, 4 special (never chosen)
    labels: list[int]  # original id where chosen, -100 elsewhere
    ids: list[int]
    specials: tuple[int, ...]
    vocab: BertVocab


def mlm_draw(tokenizer: Tokenizer, text: str, seed: int) -> MlmDraw:
    """`[CLS] text [SEP]` masked once with `seed` (BERT's 15% / 80-10-10)."""
    vocab = BertVocab.of(tokenizer)
    ids = vocab.encode(tokenizer, [text]).input_ids[0].tolist()
    specials = tuple(sorted(set(vocab.special_ids) | set(tokenizer.special_tokens.values())))
    result = mask_tokens(
        torch.tensor(ids), vocab_size=vocab.size, special_ids=specials, mask_id=vocab.mask_id,
        generator=torch.Generator().manual_seed(seed),
    )  # fmt: skip
    kinds = [SPECIAL_KIND if i in specials else k for i, k in zip(ids, result.kinds.tolist(),
                                                                   strict=True)]  # fmt: skip
    shown = token_strings(tokenizer, result.input_ids.tolist())
    return MlmDraw(token_strings(tokenizer, ids), shown, kinds, result.labels.tolist(), ids,
                   specials, vocab)  # fmt: skip


@st.cache_data(max_entries=8, show_spinner=False)
def mlm_shares(tokenizer_key: str, _draw: MlmDraw, draws: int, seed: int) -> dict[str, np.ndarray]:
    """Running shares of [MASK] / random / kept over `draws` maskings of the same sentence."""
    shares = running_shares(
        torch.tensor(_draw.ids), draws=draws, vocab_size=_draw.vocab.size,
        special_ids=_draw.specials, mask_id=_draw.vocab.mask_id,
        generator=torch.Generator().manual_seed(seed),
    )  # fmt: skip
    return {kind: values.numpy() for kind, values in shares.items()}


def pair_layout(
    tokenizer: Tokenizer, example: NspExample, max_length: int, seed: int
) -> tuple[dict[str, list], int]:
    """BERT's rows for one NSP example, masked with `seed`: (rows by field, tokens truncated)."""
    vocab = BertVocab.of(tokenizer)
    specials = tuple(sorted(set(vocab.special_ids) | set(tokenizer.special_tokens.values())))
    enc = vocab.encode(tokenizer, [example.a], [example.b], max_length=max_length,
                       padding="max_length")  # fmt: skip
    masked = mask_tokens(
        enc.input_ids[0], vocab_size=vocab.size, special_ids=specials,
        mask_id=vocab.mask_id, generator=torch.Generator().manual_seed(seed),
    )  # fmt: skip
    rows = {
        "tokens": token_strings(tokenizer, masked.input_ids.tolist()),
        "input_ids": masked.input_ids.tolist(), "token_type_ids": enc.token_type_ids[0].tolist(),
        "attention_mask": enc.attention_mask[0].tolist(), "labels": masked.labels.tolist(),
        "next_sentence_label": [example.label] + [""] * (max_length - 1),
    }  # fmt: skip
    return rows, enc.truncated[0]


@dataclass(frozen=True)
class WholeWordDraw:
    """One text masked both ways with one seed: characters (15% of tokens) and whole words."""

    words: list[str]  # jieba's words of the text (the segmenter's own output)
    pieces: list[str]  # [CLS], the text each token covers, [SEP]
    kinds: dict[str, list[int]]  # "char" / "word": 0 none, 1 mask, 2 random, 3 keep, 4 special
    shown: dict[str, list[str]]  # what the model sees under each
    chosen_words: int  # words chosen whole under whole-word masking
    shares: dict[str, dict[str, float]]  # scheme -> kind -> share of the text's tokens over draws


@st.cache_data(max_entries=8, show_spinner=False)
def whole_word_draw(text: str, seed: int, draws: int) -> WholeWordDraw:
    """`text` (MiniLM's tokens) masked once per scheme with `seed`, and the shares of each kind
    over `draws` draws. Raises whole_word.SegmenterMissing when jieba is not installed."""
    from explorer_core.inputs.whole_word import (
        SPECIAL,
        mask_whole_words,
        segment,
        text_word_starts,
        word_groups,
    )

    tokenizer = minilm_tokenizer()
    vocab = BertVocab.of(tokenizer)
    words = segment(text)
    content, codes = text_word_starts(tokenizer, text, drop=(vocab.cls_id, vocab.sep_id))
    pieces = ["[CLS]", *(text[t.start : t.end] for t in tokenizer.explain(text)
                         if t.id not in (vocab.cls_id, vocab.sep_id)), "[SEP]"]  # fmt: skip
    ids = torch.tensor(vocab.row_ids(content))
    starts = torch.tensor([SPECIAL, *codes, SPECIAL])

    def char(rows: torch.Tensor, generator: torch.Generator):  # [UNK] may be chosen: it is text
        return mask_tokens(rows, vocab_size=vocab.size, special_ids=vocab.special_ids,
                           mask_id=vocab.mask_id, generator=generator)  # fmt: skip

    def word(rows: torch.Tensor, generator: torch.Generator):
        return mask_whole_words(rows, starts.expand_as(rows), vocab_size=vocab.size,
                                mask_id=vocab.mask_id, generator=generator)  # fmt: skip

    kinds, shown, shares = {}, {}, {}
    for name, scheme in (("char", char), ("word", word)):
        once = scheme(ids, torch.Generator().manual_seed(seed))
        kinds[name] = [4 if c < 0 else k for c, k in zip(starts.tolist(), once.kinds.tolist(),
                                                          strict=True)]  # fmt: skip
        names = token_strings(tokenizer, once.input_ids.tolist())
        shown[name] = [pieces[i] if k in (0, 3, 4) else names[i]
                       for i, k in enumerate(kinds[name])]  # fmt: skip
        many = scheme(ids.expand(draws, -1).contiguous(), torch.Generator().manual_seed(seed))
        eligible = draws * int((starts >= 0).sum())
        shares[name] = {kind: int((many.kinds == code).sum()) / eligible
                        for code, kind in ((1, "mask"), (2, "random"), (3, "keep"))}  # fmt: skip
    first_kinds = kinds["word"]
    chosen = sum(first_kinds[g[0]] not in (0, 4) for g in word_groups(starts.tolist()))
    return WholeWordDraw(words, pieces, kinds, shown, chosen, shares)
