"""The real pretrained all-MiniLM-L6-v2, cached once per server for every page, and the
MiniLM taught Chinese on this install (`taught`), once it has been built.

The Embed, Attend, Tokenizer and Similarity pages all show MiniLM's WordPiece vocabulary and some
show its weights; one cache each means the 30k-line vocab.txt and the safetensors file are read
once, not once per page. Both raise `PretrainedUnavailable` (or ImportError) when the package is
missing; the pages turn that into a catalogue message. Returned objects are read-only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from explorer_core.bert.pretrained import minilm_path
from explorer_core.files import taught_model
from explorer_core.tokenization import Tokenizer

if TYPE_CHECKING:
    from explorer_core.bert.model import BertModel
    from explorer_core.training.checkpoint import Checkpoint


@st.cache_resource(max_entries=1, show_spinner=False)
def minilm_tokenizer() -> Tokenizer:
    """MiniLM's own WordPiece (the bert-base-uncased vocabulary, lower-cased)."""
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    return WordPieceTokenizer.from_vocab(minilm_path() / "vocab.txt", lowercase=True)


@st.cache_resource(max_entries=1, show_spinner=False)
def minilm_model() -> BertModel:
    """all-MiniLM-L6-v2 loaded by our own BertModel from its safetensors file (eval mode)."""
    from explorer_core.bert.model import BertModel  # torch: not for the tokenizer's pages

    return BertModel.from_transformers(minilm_path())


# ---- MiniLM + 中文, taught here (files.taught_model) ------------------------------------------


def taught() -> Checkpoint | None:
    """The Chinese-reading MiniLM built on this install (Train page, "Teach MiniLM Chinese"), or
    None when it has not been built. Read from disk once per build: a rebuilt model (a new folder
    or a new write time) is read again."""
    stamp = taught_model.stamp()  # None: not built
    return None if stamp is None else _taught(str(taught_model.folder()), stamp)


@st.cache_resource(max_entries=1, show_spinner=False)
def _taught(path: str, stamp: float) -> Checkpoint | None:
    return taught_model.load()


def taught_tokenizer() -> Tokenizer | None:
    """The taught model's tokenizer alone (no torch), or None when it has not been built: the
    guided lesson's first screens need only this."""
    stamp = taught_model.stamp()  # None: not built
    return None if stamp is None else _taught_tokenizer(str(taught_model.folder()), stamp)


@st.cache_resource(max_entries=1, show_spinner=False)
def _taught_tokenizer(path: str, stamp: float) -> Tokenizer | None:
    return taught_model.load_tokenizer()
