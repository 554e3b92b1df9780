"""The Similarity page's models beyond the Train page's: MiniLM + 中文, taught on this install, and
which model the page shows when the chosen one is not there."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from explorer_core.analysis.similarity import TextEncoder
from explorer_core.files import taught_model
from explorer_core.models.opened import OpenedEncoder
from explorer_core.ui.i18n import current_language, t
from explorer_core.ui.models.sources import REF_KEY, SourceUnavailable, opened_source
from explorer_core.ui.pretrained import taught
from explorer_core.ui.settings import TAUGHT

MAX_LENGTH = 128  # tokens per sentence, as for MiniLM (ui.training.calls.minilm_encoder)


def taught_encoder() -> tuple[TextEncoder, str] | None:
    """MiniLM + 中文 (mean pooling, its own vocabulary) and its cache key, which changes when the
    model is rebuilt; None when it has not been built on this install."""
    ckpt = taught()
    if ckpt is None:
        return None
    return TextEncoder(ckpt.model, ckpt.tokenizer, MAX_LENGTH), f"taught-{taught_model.stamp()}"


def offered(available: Sequence[str]) -> tuple[str, ...]:
    """The models the picker offers: the available ones, and MiniLM + 中文 even before it is built
    (picking it then says how to build it).

    >>> offered(["trained", "minilm"])
    ('trained', 'minilm', 'taught')
    """
    return (*available, *([TAUGHT] if TAUGHT not in available else []))


def first_choice(available: Sequence[str]) -> str:
    """The model the page shows when the remembered one is not available (no model trained in
    this session yet): MiniLM + 中文 in a Chinese UI once it is built, else the first one.

    >>> first_choice(["minilm", "taught"])  # an English UI
    'minilm'
    """
    if TAUGHT in available and current_language() == "zh":
        return TAUGHT
    return available[0]


def opened_encoder() -> tuple[OpenedEncoder, str, str] | None:
    """The session's opened model (`ui.models`) as an encoder, its cache key and its caption;
    None when none was opened, or it cannot be opened (its page says why)."""
    if not str(st.session_state.get(REF_KEY) or "").strip():
        return None
    try:
        source = opened_source()
    except SourceUnavailable:
        return None
    pipeline = source.opened.pipeline
    norm = t("sim.src.normalised" if pipeline.normalize else "sim.src.not_normalised")
    pooling = t("sim.src.default") if pipeline.is_default else pipeline.pooling_mode
    caption = t("sim.src.opened", label=source.label, pooling=pooling, norm=norm)
    return OpenedEncoder(source.opened), source.key, caption
