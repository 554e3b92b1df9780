"""Cached data of the guided lesson: the model's tokens of a sentence and one run per sentence.

The model is the shared, read-only MiniLM of `explorer_core.ui.pretrained`, or for a Chinese lesson
MiniLM + 中文 once it is built on this install, or the model this session opened from this machine
(`ui.models.sources.opened_model`, key `opened::<ref>`) when the learner picks it (`model_key`);
runs are cached by the model's key and the sentence's ids. Raises `PretrainedUnavailable` or
ImportError when MiniLM is not installed, one of `OPENED_ERRORS` when the opened model may not be
opened; the page turns either into one line.

`tokens`, `position_limit` and `ready` need no torch (see `screens`: the first screens are
drawn while a fresh server still imports it); the model's helpers import it when first called.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import streamlit as st

from explorer_core.analysis.lesson import LessonTokens, SentenceRun, run_sentence, tokenize
from explorer_core.analysis.lesson_opened import model_text, run_opened, template_tokens
from explorer_core.bert.config import BertConfig
from explorer_core.bert.pretrained import minilm_path
from explorer_core.files import taught_model
from explorer_core.models.settings import ModelRefused
from explorer_core.tokenization import Tokenizer
from explorer_core.ui.i18n import t
from explorer_core.ui.models.calls import cut_line  # torch-free, like this module
from explorer_core.ui.pretrained import minilm_model, minilm_tokenizer, taught, taught_tokenizer
from explorer_core.ui.settings import OPENED

if TYPE_CHECKING:
    from explorer_core.bert.attention import CellArithmetic
    from explorer_core.bert.embeddings import BertEmbeddings
    from explorer_core.bert.model import BertModel
    from explorer_core.models.opened import OpenedModel


MINILM = "minilm"  # the model key of the real all-MiniLM-L6-v2; "taught-<stamp>": MiniLM + 中文
OPENED_PREFIX = "opened::"  # + the reference: the model this session opened (ui.models)
OPENED_ERRORS = (ModelRefused, ValueError, OSError)  # an opened model that cannot be opened


def model_key(language: str, choice: str = MINILM, ref: str = "") -> str:
    """Which model the lesson runs: the opened model `ref` when the learner chose it (`choice`
    "opened"); else MiniLM + 中文 (taught here) for a Chinese lesson once it is built on this
    install, else MiniLM. The key names the build, so a rebuilt model is read again; pass it to
    every function below."""
    if choice == OPENED and ref.strip():
        return OPENED_PREFIX + ref.strip()
    if language == "zh":
        stamp = taught_model.stamp()
        if stamp is not None and taught_tokenizer() is not None:
            return f"taught-{stamp}"
    return MINILM


def is_opened(model: str) -> bool:
    return model.startswith(OPENED_PREFIX)


def opened(model: str) -> OpenedModel:
    """The opened model of key `model` (shared, read-only); one of OPENED_ERRORS when refused."""
    from explorer_core.ui.models.sources import opened_model  # imports torch (see screens)

    return opened_model(model.removeprefix(OPENED_PREFIX))


def tokenizer(model: str = MINILM) -> Tokenizer:
    """The model's tokenizer: MiniLM's WordPiece (bert-base-uncased), MiniLM + 中文's
    (+ Chinese), or the opened model's own (from its tokenizer.json)."""
    if is_opened(model):
        return opened(model).tokenizer
    taught_one = taught_tokenizer() if model != MINILM else None
    return taught_one if taught_one is not None else minilm_tokenizer()


def bert(model: str = MINILM) -> BertModel:
    if is_opened(model):
        return opened(model).model
    ckpt = taught() if model != MINILM else None
    return ckpt.model if ckpt is not None else minilm_model()


def opened_sizes(found: OpenedModel) -> dict[str, object]:
    """The opened texts' fields: {model} (its label), {family}, {layers}, {heads}, {width}
    (hidden size), {vocab}, {vocab_kind} (WordPiece, byte-level BPE, Unigram), {cut} (which code
    cut the text), {pooling} (its pipeline's mode), {chosen} (whose choice) and {normalised}."""
    config, pipeline = found.model.config, found.pipeline
    info = getattr(found.tokenizer, "file_info", None)
    kind = info.kind if info is not None else "wordpiece"
    return {
        "model": found.label, "family": config.model_type, "layers": config.num_hidden_layers,
        "heads": config.num_attention_heads, "width": config.hidden_size,
        "vocab": config.vocab_size, "vocab_kind": t(f"lesson.vocab_kind.{kind}"),
        "cut": cut_line(found.tokenizer), "pooling": pipeline.pooling_mode,
        "normalised": t("lesson.pooled.normalised") if pipeline.normalize else "",
        "chosen": t(f"lesson.pooled.by_{'default' if pipeline.is_default else 'files'}"),
    }  # fmt: skip


def sizes(model: str = MINILM) -> dict[str, object]:
    """The taught texts' {vocab} (entries of the model's vocabulary) and {added} (entries it
    added to MiniLM's), the opened texts' facts (`opened_sizes`); empty for MiniLM, whose texts
    give its numbers."""
    if model == MINILM:
        return {}
    if is_opened(model):
        return opened_sizes(opened(model))
    vocab, base = len(tokenizer(model).vocab), len(minilm_tokenizer().vocab)
    return {"vocab": vocab, "added": vocab - base}


@st.cache_data(max_entries=32, show_spinner=False)
def tokens(text: str, model: str = MINILM) -> LessonTokens:
    """`[CLS] text [SEP]` through the model's WordPiece; an opened model's own template
    (`<s> text </s>`) over the text as its pipeline feeds it (`model_text`)."""
    if is_opened(model):
        found = opened(model)
        if hasattr(found.tokenizer, "encode_with_specials"):
            return template_tokens(found.tokenizer, model_text(found, text))
    return tokenize(tokenizer(model), text)


@st.cache_data(max_entries=8, show_spinner=False)
def sentence_run(ids: tuple[int, ...], model: str = MINILM) -> SentenceRun:
    """Attention weights, last layer and pooled vector of one `[CLS] text [SEP]` row (an opened
    model: pooled as its authors pool it)."""
    if is_opened(model):
        return run_opened(opened(model), ids)
    return run_sentence(bert(model), ids)


@st.cache_data(max_entries=64, show_spinner=False)
def cell(
    ids: tuple[int, ...], layer: int, head: int, query: int, key: int, model: str = MINILM
) -> CellArithmetic:
    """The arithmetic of one weight (layer and head from 0) of `[CLS] text [SEP]` in the model."""
    import torch

    return bert(model).explain_cell(
        torch.tensor([ids]), layer=layer, head=head, query=query, key=key
    )


@st.cache_resource(max_entries=2, show_spinner=False)
def vocab_labels(model: str = MINILM) -> dict[int, str]:
    """The model's id -> vocabulary string (read-only)."""
    return {token_id: text for text, token_id in tokenizer(model).vocab.items()}


def embeddings(model: str = MINILM) -> BertEmbeddings:
    """The model's embedding layer (word, position, segment tables and LayerNorm), read-only."""
    return bert(model).embeddings


def position_limit(model: str = MINILM) -> int:
    """The tokens the model reads: MiniLM's positions (`minilm_positions`); an opened model's
    positions, or fewer where its sentence-transformers files cut inputs shorter (as `embed`)."""
    if not is_opened(model):
        return minilm_positions()
    found = opened(model)
    return min(found.pipeline.max_seq_length or 10**9, found.model.config.max_tokens)


@st.cache_resource(max_entries=1, show_spinner=False)
def minilm_positions() -> int:
    """MiniLM's number of positions (MiniLM + 中文 keeps them), from its config.json (no
    weights, no torch), read as `bert.weights.read_transformers` reads it."""
    data = json.loads((minilm_path() / "config.json").read_text(encoding="utf-8"))
    return BertConfig.from_dict(data).max_position_embeddings


def ready(model: str = MINILM) -> None:
    """MiniLM's tokenizer and config can be read (raises when they are not installed); the model
    itself is loaded by the first screen that runs it. An opened model is opened (raises one of
    OPENED_ERRORS when it may not be)."""
    if is_opened(model):
        opened(model)
        return
    minilm_tokenizer()
    minilm_positions()
