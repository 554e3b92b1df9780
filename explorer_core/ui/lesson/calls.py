"""Cached data of the guided lesson: the model's tokens of a sentence and one run per sentence.

The model is the shared, read-only MiniLM of `explorer_core.ui.pretrained`, or for a Chinese lesson
MiniLM + 中文 once it is built on this install (`model_key`); runs are cached by the model's key
and the sentence's ids. Raises `PretrainedUnavailable` or ImportError when MiniLM is not
installed; the page turns that into a catalogue message.

`tokens`, `position_limit` and `ready` need no torch (see `screens`: the first screens are
drawn while a fresh server still imports it); the model's helpers import it when first called.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import streamlit as st

from explorer_core.analysis.lesson import LessonTokens, SentenceRun, run_sentence, tokenize
from explorer_core.bert.config import BertConfig
from explorer_core.bert.pretrained import minilm_path
from explorer_core.files import taught_model
from explorer_core.tokenization import Tokenizer
from explorer_core.ui.pretrained import minilm_model, minilm_tokenizer, taught, taught_tokenizer

if TYPE_CHECKING:
    from explorer_core.bert.attention import CellArithmetic
    from explorer_core.bert.embeddings import BertEmbeddings
    from explorer_core.bert.model import BertModel


MINILM = "minilm"  # the model key of the real all-MiniLM-L6-v2; "taught-<stamp>": MiniLM + 中文


def model_key(language: str) -> str:
    """Which model the lesson runs: MiniLM + 中文 (taught here) for a Chinese lesson once it is
    built on this install, else MiniLM. The key names the build, so a rebuilt model is read
    again; pass it to every function below."""
    if language == "zh":
        stamp = taught_model.stamp()
        if stamp is not None and taught_tokenizer() is not None:
            return f"taught-{stamp}"
    return MINILM


def tokenizer(model: str = MINILM) -> Tokenizer:
    """The model's WordPiece: MiniLM's (bert-base-uncased) or MiniLM + 中文's (+ Chinese)."""
    taught_one = taught_tokenizer() if model != MINILM else None
    return taught_one if taught_one is not None else minilm_tokenizer()


def bert(model: str = MINILM) -> BertModel:
    ckpt = taught() if model != MINILM else None
    return ckpt.model if ckpt is not None else minilm_model()


def sizes(model: str = MINILM) -> dict[str, int]:
    """The taught texts' {vocab} (entries of the model's vocabulary) and {added} (entries it
    added to MiniLM's); empty for MiniLM, whose texts give its numbers."""
    if model == MINILM:
        return {}
    vocab, base = len(tokenizer(model).vocab), len(minilm_tokenizer().vocab)
    return {"vocab": vocab, "added": vocab - base}


@st.cache_data(max_entries=32, show_spinner=False)
def tokens(text: str, model: str = MINILM) -> LessonTokens:
    """`[CLS] text [SEP]` through the model's WordPiece."""
    return tokenize(tokenizer(model), text)


@st.cache_data(max_entries=8, show_spinner=False)
def sentence_run(ids: tuple[int, ...], model: str = MINILM) -> SentenceRun:
    """Attention weights, last layer and pooled vector of one `[CLS] text [SEP]` row."""
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


@st.cache_resource(max_entries=1, show_spinner=False)
def position_limit() -> int:
    """MiniLM's number of positions (MiniLM + 中文 keeps them), from its config.json (no
    weights, no torch), read as `bert.weights.read_transformers` reads it."""
    data = json.loads((minilm_path() / "config.json").read_text(encoding="utf-8"))
    return BertConfig.from_dict(data).max_position_embeddings


def ready() -> None:
    """MiniLM's tokenizer and config can be read (raises when they are not installed); the model
    itself is loaded by the first screen that runs it."""
    minilm_tokenizer()
    position_limit()
