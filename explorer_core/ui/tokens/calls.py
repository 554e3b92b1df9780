"""Cached tokenizers for the Text → tokens → ids page: every algorithm trained on the built-in
corpus, the real BERT WordPiece of MiniLM, and the one trained in the Tokenizer Lab.

Cached functions take plain arguments; the trained tokenizers are resources, treated as read-only.
"""

from __future__ import annotations

from collections import Counter

import streamlit as st

from explorer_core.bert.pretrained import PretrainedUnavailable, minilm_path
from explorer_core.files import tokenizer_cache
from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.tokenization import ALGORITHMS, Token, Tokenizer
from explorer_core.ui.pretrained import minilm_tokenizer
from explorer_core.ui.state import SHARED_TOKENIZER, SHARED_TOKENIZER_NAME

CORPUS = "mixed"  # the built-in corpus every default tokenizer is trained on
DEFAULT_VOCAB = 2000  # vocabulary size of the default tokenizers
MAX_CHARS = 20_000  # longer texts are refused with a message (the page must stay responsive)
LAB, BERT = "lab", "bert"  # source names besides the algorithms


@st.cache_resource(max_entries=len(ALGORITHMS) * 2, show_spinner=False)
def built_default(algo: str, vocab_size: int = DEFAULT_VOCAB) -> tuple[Tokenizer, dict[int, int]]:
    """`algo` trained on the built-in bilingual corpus, and its counts of each id over that corpus
    (deterministic: built once per install, see `files.tokenizer_cache`, and kept per server)."""
    return tokenizer_cache.trained_tokenizer(algo, CORPUS, vocab_size)


def trained_default(algo: str, vocab_size: int = DEFAULT_VOCAB) -> Tokenizer:
    return built_default(algo, vocab_size)[0]


@st.cache_resource(max_entries=16, show_spinner=False)
def corpus_counts(key: str, _tokenizer: Tokenizer) -> dict[int, int]:
    """How often each id occurs when the built-in corpus is encoded (`key` names the tokenizer,
    as `resolve` gives it: a default tokenizer's counts were built with it)."""
    algo, _, size = key.partition(":")
    if algo in ALGORITHMS and size == str(DEFAULT_VOCAB):
        return built_default(algo)[1]
    return dict(Counter(_tokenizer.encode(builtin_corpus(CORPUS))))


def corpus_size() -> int:
    return len(builtin_corpus(CORPUS))


def available_sources() -> list[str]:
    """The tokenizers the page can use right now: the Lab's (if any), BERT (if installed), ours."""
    sources = [LAB] if st.session_state.get(SHARED_TOKENIZER) is not None else []
    try:
        minilm_path()
        sources.append(BERT)
    except PretrainedUnavailable:
        pass
    return sources + list(ALGORITHMS)


def resolve(source: str) -> tuple[Tokenizer, str]:
    """The tokenizer for `source` and the cache key of its corpus counts."""
    if source == LAB:
        tokenizer = st.session_state[SHARED_TOKENIZER]
        name = st.session_state.get(SHARED_TOKENIZER_NAME, "")
        return tokenizer, f"lab:{name}:{id(tokenizer)}:{tokenizer.vocab_size}"
    if source == BERT:
        return minilm_tokenizer(), BERT
    return trained_default(source), f"{source}:{DEFAULT_VOCAB}"


def follow_lab(source_key: str) -> None:
    """Switch the page to the Lab's tokenizer whenever a new one appears (not on every rerun, so
    the learner can still pick another); fall back to the first source if the chosen one left."""
    lab = st.session_state.get(SHARED_TOKENIZER)
    marker = id(lab) if lab is not None else None
    if marker != st.session_state.get(f"{source_key}.lab_seen"):
        st.session_state[f"{source_key}.lab_seen"] = marker
        if lab is not None:
            st.session_state[source_key] = LAB
    if st.session_state.get(source_key) not in available_sources():
        st.session_state[source_key] = available_sources()[0]


def lab_name() -> str:
    return str(st.session_state.get(SHARED_TOKENIZER_NAME) or "")


def tokens_with_specials(tokenizer: Tokenizer, text: str, specials: bool) -> list[Token]:
    """`explain(text)`, wrapped in the tokenizer's sequence markers when asked and it has them
    ([CLS] … [SEP] for BERT, <bos> … <eos> for char BPE)."""
    tokens = tokenizer.explain(text)
    if not specials:
        return tokens
    known = tokenizer.special_tokens
    for first, last in (("[CLS]", "[SEP]"), ("<bos>", "<eos>"), ("<sos>", "<eos>")):
        if first in known and last in known:
            head = Token(known[first], first, first.encode(), 0, 0, True)
            tail = Token(known[last], last, last.encode(), len(text), len(text), True)
            return [head, *tokens, tail]
    return tokens


@st.cache_data(max_entries=64, show_spinner=False)
def encoded(key: str, _tokenizer: Tokenizer, text: str, specials: bool) -> list[Token]:
    """`tokens_with_specials`, cached per tokenizer (`key`, as from `resolve`), text and markers:
    a language switch or a revisit does not encode the text with every tokenizer again."""
    return tokens_with_specials(_tokenizer, text, specials)
