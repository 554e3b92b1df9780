"""Cached data of the guided lesson: MiniLM's tokens of a sentence and one model run per sentence.

The tokenizer and model are the shared, read-only MiniLM of `explorer_core.ui.pretrained`; runs
are cached by the sentence's ids. Raises `PretrainedUnavailable` or ImportError when MiniLM is not
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
from explorer_core.ui.pretrained import minilm_model, minilm_tokenizer

if TYPE_CHECKING:
    from explorer_core.bert.attention import CellArithmetic
    from explorer_core.bert.embeddings import BertEmbeddings


@st.cache_data(max_entries=32, show_spinner=False)
def tokens(text: str) -> LessonTokens:
    """`[CLS] text [SEP]` through MiniLM's WordPiece (bert-base-uncased vocabulary)."""
    return tokenize(minilm_tokenizer(), text)


@st.cache_data(max_entries=8, show_spinner=False)
def sentence_run(ids: tuple[int, ...]) -> SentenceRun:
    """Attention weights, last layer and pooled vector of one `[CLS] text [SEP]` row."""
    return run_sentence(minilm_model(), ids)


@st.cache_data(max_entries=64, show_spinner=False)
def cell(ids: tuple[int, ...], layer: int, head: int, query: int, key: int) -> CellArithmetic:
    """The arithmetic of one weight (layer and head from 0) of `[CLS] text [SEP]` in MiniLM."""
    import torch

    return minilm_model().explain_cell(
        torch.tensor([ids]), layer=layer, head=head, query=query, key=key
    )


@st.cache_resource(max_entries=1, show_spinner=False)
def vocab_labels() -> dict[int, str]:
    """MiniLM's id -> vocabulary string (read-only)."""
    return {token_id: text for text, token_id in minilm_tokenizer().vocab.items()}


def embeddings() -> BertEmbeddings:
    """MiniLM's embedding layer (word, position, segment tables and LayerNorm), read-only."""
    return minilm_model().embeddings


@st.cache_resource(max_entries=1, show_spinner=False)
def position_limit() -> int:
    """MiniLM's number of positions, from its config.json (no weights, no torch), read as
    `bert.weights.read_transformers` reads it."""
    data = json.loads((minilm_path() / "config.json").read_text(encoding="utf-8"))
    return BertConfig.from_dict(data).max_position_embeddings


def ready() -> None:
    """MiniLM's tokenizer and config can be read (raises when they are not installed); the model
    itself is loaded by the first screen that runs it."""
    minilm_tokenizer()
    position_limit()
