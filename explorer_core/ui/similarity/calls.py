"""The Similarity page's models beyond the Train page's: MiniLM + 中文, taught on this install, and
which model the page shows when the chosen one is not there."""

from __future__ import annotations

from collections.abc import Sequence

from explorer_core.analysis.similarity import TextEncoder
from explorer_core.files import taught_model
from explorer_core.ui.i18n import current_language
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
