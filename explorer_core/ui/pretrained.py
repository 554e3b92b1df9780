"""The real pretrained all-MiniLM-L6-v2, cached once per server for every page.

The Embed, Attend, Tokenizer and Similarity pages all show MiniLM's WordPiece vocabulary and some
show its weights; one cache each means the 30k-line vocab.txt and the safetensors file are read
once, not once per page. Both raise `PretrainedUnavailable` (or ImportError) when the package is
missing; the pages turn that into a catalogue message. Returned objects are read-only.
"""

from __future__ import annotations

import streamlit as st

from explorer_core.bert.model import BertModel
from explorer_core.bert.pretrained import minilm_path
from explorer_core.tokenization import Tokenizer


@st.cache_resource(max_entries=1, show_spinner=False)
def minilm_tokenizer() -> Tokenizer:
    """MiniLM's own WordPiece (the bert-base-uncased vocabulary, lower-cased)."""
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    return WordPieceTokenizer.from_vocab(minilm_path() / "vocab.txt", lowercase=True)


@st.cache_resource(max_entries=1, show_spinner=False)
def minilm_model() -> BertModel:
    """all-MiniLM-L6-v2 loaded by our own BertModel from its safetensors file (eval mode)."""
    return BertModel.from_transformers(minilm_path())
