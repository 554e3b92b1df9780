"""Cached traces for the Inside the encoder page.

The model sources are every page's (`ui.models.sources`: fresh, trained here, MiniLM,
MiniLM + 中文, a model opened from this machine), so the pages show the same models under the
same names. A trace holds every
intermediate of every layer (`bert.trace.trace_encoder`); it is cached per (model, sentence,
mask) and treated as read-only, so switching the layer, the token or the view draws from it
without running the model again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import streamlit as st
import torch

from explorer_core.analysis import contexts as ctx
from explorer_core.analysis import decoder_vectors
from explorer_core.analysis import encoder as analysis
from explorer_core.analysis.contributions import Contributions, contributions
from explorer_core.analysis.similarity import TextEncoder
from explorer_core.bert.model import BertModel
from explorer_core.bert.pretrained import PretrainedUnavailable
from explorer_core.bert.trace import EncoderTrace, trace_encoder
from explorer_core.inputs.datasets import SentencePair, builtin_sts_pairs
from explorer_core.ui.i18n import current_language
from explorer_core.ui.models.sources import (
    SOURCES,
    ModelSource,
    SourceUnavailable,
    encode,
    model_source,
)
from explorer_core.ui.pretrained import minilm_model, minilm_tokenizer
from explorer_core.ui.state import SHARED_MODEL

__all__ = [
    "SOURCES",
    "ModelSource",
    "SourceUnavailable",
    "Sentence",
    "model_source",
    "sentence",
    "trace",
    "mixing",
    "grid",
    "cross_lingual",
    "lens",
    "context_sets",
    "many_contexts",
    "edit_effect",
]

# The shipped sentence sets (analysis.contexts, resources/contexts.tsv) by the page's codes.
SETS = {"bank": "bank", "apple": "苹果", "da": "打"}


@dataclass(frozen=True)
class Sentence:
    """`[CLS] text [SEP]` for one model: its ids and token strings."""

    ids: tuple[int, ...]
    tokens: tuple[str, ...]

    @property
    def labels(self) -> list[str]:
        """Unique axis labels: "0 · [CLS]", "1 · i", ..."""
        return [f"{i} · {token}" for i, token in enumerate(self.tokens)]


def sentence(source: ModelSource, text: str) -> Sentence:
    """The model's tokens of `text` (with [CLS] and [SEP])."""
    enc = encode(source.tokenizer, [text])
    return Sentence(tuple(enc.input_ids[0]), tuple(enc.tokens[0]))


def too_long(source: ModelSource, length: int) -> int | None:
    """The model's position limit when `length` tokens exceed it (learned positions), else None."""
    config = source.model.config
    if config.position_embedding_type == "learned" and length > config.max_tokens:
        return config.max_tokens  # RoBERTa: its table's rows less the padding id + 1
    return None


def trace(source: ModelSource, ids: tuple[int, ...], causal: bool | None = None) -> EncoderTrace:
    """Every intermediate of every layer for one sentence (cached, read-only); `causal` None:
    the model's own mask (a decoder's is causal), True or False: that mask on its weights."""
    return _trace(source.key, source.model, ids, causal)


def model_trace(model_key: str, model: BertModel, ids: tuple[int, ...]) -> EncoderTrace:
    """The same cached trace for a model named by its key (the guided lesson's MiniLM is
    "minilm", as here: both share one cache entry)."""
    return _trace(model_key, model, ids, None)


@st.cache_resource(max_entries=16, show_spinner=False)
def _trace(
    model_key: str, _model: BertModel, ids: tuple[int, ...], causal: bool | None
) -> EncoderTrace:
    return trace_encoder(_model, torch.tensor(ids), causal=causal)


def mixing(source: ModelSource, ids: tuple[int, ...], layer: int) -> Contributions:
    """Who wrote into each vector of layer `layer` (1-based): three (T, T) matrices."""
    return _mixing(source.key, source.model, ids, layer)


@st.cache_resource(max_entries=16, show_spinner=False)
def _mixing(model_key: str, _model: BertModel, ids: tuple[int, ...], layer: int) -> Contributions:
    traced = _trace(model_key, _model, ids, None)
    return contributions(_model.encoder.layer[layer - 1], traced.layers[layer - 1])


def grid(source: ModelSource, ids: tuple[int, ...]) -> analysis.LayerGrid:
    """Token × layer norms and movement, and the pooled vector per layer."""
    return _grid(source.key, source.model, ids)


@st.cache_resource(max_entries=8, show_spinner=False)
def _grid(model_key: str, _model: BertModel, ids: tuple[int, ...]) -> analysis.LayerGrid:
    return analysis.layer_grid(_trace(model_key, _model, ids, None))


def cross_lingual(source: ModelSource, text_a: str, text_b: str) -> list[float]:
    """The cosine of two sentences' mean-pooled vectors at every layer (0: embeddings)."""
    return _cross(source.key, source.model, source.tokenizer, text_a, text_b)


@st.cache_data(max_entries=16, show_spinner=False)
def _cross(model_key: str, _model: BertModel, _tokenizer, text_a: str, text_b: str) -> list[float]:  # noqa: ANN001
    return analysis.layer_cosines(_model, _tokenizer, text_a, text_b).tolist()


def lens_model(source: ModelSource):  # noqa: ANN201 - a BertForPreTraining or None
    """The model with a masked-language-model head whose encoder is the source's, if any: the
    session's model when the Train page shared its pre-training model (`mlm`), else None."""
    if source.kind != "trained":
        return None
    mlm = getattr(st.session_state.get(SHARED_MODEL), "mlm", None)
    return mlm if getattr(mlm, "bert", None) is source.model else None


def lens(source: ModelSource, ids: tuple[int, ...], mlm) -> analysis.LogitLens:  # noqa: ANN001
    """The MLM head's top words for every token at every layer (a logit lens)."""
    return _lens(source.key, mlm, source.tokenizer, ids)


@st.cache_resource(max_entries=4, show_spinner=False)
def _lens(model_key: str, _mlm, _tokenizer, ids: tuple[int, ...]) -> analysis.LogitLens:  # noqa: ANN001
    traced = _trace(model_key, _mlm.bert, ids, None)
    return analysis.logit_lens(_mlm, traced, k=3, tokenizer=_tokenizer)


@st.cache_resource(max_entries=1, show_spinner=False)
def context_sets() -> dict[str, ctx.ContextSet]:
    """The shipped sentence sets, by word."""
    return ctx.builtin_context_sets()


def many_contexts(
    source: ModelSource, sentences: tuple[str, ...], word: str, senses: tuple[str, ...] | None,
    standardize: bool,
) -> ctx.ContextSimilarity:  # fmt: skip
    """Self-similarity of `word` across `sentences` per layer and the anisotropy baseline;
    ValueError (from the core) when the word is missing or unknown."""
    return _contexts(source.key, source.model, source.tokenizer, sentences, word, senses,
                     standardize)  # fmt: skip


@st.cache_resource(max_entries=16, show_spinner=False)
def _contexts(
    model_key: str, _model: BertModel, _tokenizer, sentences: tuple[str, ...], word: str,  # noqa: ANN001
    senses: tuple[str, ...] | None, standardize: bool,
) -> ctx.ContextSimilarity:  # fmt: skip
    return ctx.many_contexts(_model, _tokenizer, list(sentences), word, senses=senses,
                             standardize=standardize)  # fmt: skip


def edit_effect(
    source: ModelSource, ids_a: tuple[int, ...], ids_b: tuple[int, ...], causal: bool
) -> torch.Tensor:
    """(L + 1, T): how far each token's vector moved at each layer when `ids_a` became `ids_b`."""
    return _edit(source.key, source.model, ids_a, ids_b, causal)


@st.cache_resource(max_entries=16, show_spinner=False)
def _edit(
    model_key: str, _model: BertModel, ids_a: tuple[int, ...], ids_b: tuple[int, ...],
    causal: bool,
) -> torch.Tensor:  # fmt: skip
    return analysis.edit_effect(_model, torch.tensor(ids_a), torch.tensor(ids_b), causal=causal)


# ---- sentence vectors from a decoder ----------------------------------------------------------

PAIRS_SHOWN = 10  # STS pairs in the decoder-pooling table (spread over the scores)


def demo_pairs(lang: str) -> tuple[SentencePair, ...]:
    """`PAIRS_SHOWN` built-in pairs of `lang` ("en", "zh"; "both": half each), evenly spread
    from the lowest gold score to the highest (deterministic)."""
    if lang == "both":
        half = PAIRS_SHOWN // 2
        return demo_pairs("en")[::2][:half] + demo_pairs("zh")[::2][:half]
    pairs = sorted((p for p in builtin_sts_pairs() if p.lang == lang),
                   key=lambda p: (p.score, p.sentence1))  # fmt: skip
    if len(pairs) <= PAIRS_SHOWN:
        return tuple(pairs)
    step = (len(pairs) - 1) / (PAIRS_SHOWN - 1)
    return tuple(pairs[round(i * step)] for i in range(PAIRS_SHOWN))


def decoder_pairs(
    source: ModelSource,
) -> tuple[decoder_vectors.PairScores, str, str | None] | None:
    """(pair scores, decoder's name, encoder's name): the shown model when it is a decoder
    (next to MiniLM, if installed), else the session's trained decoder (Decoder page) next to
    the shown encoder; None when the session has no decoder to show."""
    from explorer_core.ui.decoder import calls as decoder_calls  # the Decoder page's result

    if getattr(source.model.config, "causal", False):
        try:
            encoder = TextEncoder(minilm_model(), minilm_tokenizer())
            encoder_key, encoder_label = "minilm", "all-MiniLM-L6-v2"
        except (ImportError, PretrainedUnavailable):
            encoder, encoder_key, encoder_label = None, "", None
        pairs = demo_pairs(current_language())
        found = _pairs(source.key, source.model, source.tokenizer, encoder_key, encoder, pairs)
        return found, source.label, encoder_label
    trained = decoder_calls.result()
    if trained is None:
        return None
    model, tokenizer = decoder_calls.decoder(trained["folder"])
    encoder = TextEncoder(source.model, source.tokenizer)
    pairs = demo_pairs(trained["lang"])
    found = _pairs(trained["folder"], model.bert, tokenizer, source.key, encoder, pairs)
    return found, Path(trained["folder"]).name, source.label


@st.cache_resource(max_entries=8, show_spinner=False)
def _pairs(
    decoder_key: str, _model: BertModel, _tokenizer, encoder_key: str, _encoder,  # noqa: ANN001
    pairs: tuple[SentencePair, ...],
) -> decoder_vectors.PairScores:  # fmt: skip
    return decoder_vectors.pair_scores(_model, _tokenizer, pairs, _encoder)
