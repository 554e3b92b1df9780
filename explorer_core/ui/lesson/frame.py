"""What every screen of the guided lesson reads (`Lesson`) and how it draws a table (`table`).

Both screen modules import it: `screens` (the four drawn without torch) and `model_screens` (the
six that run MiniLM), so neither needs the other's names.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from explorer_core.analysis.lesson import LessonTokens
from explorer_core.ui.i18n import CATALOGUE, t
from explorer_core.ui.lesson.calls import MINILM, is_opened


@dataclass(frozen=True)
class Lesson:
    """What every screen reads: the sentences, the followed sentence's tokens, the page's frame."""

    text: str  # the sentence followed through the model
    other: str  # compared with it on the cosine screen
    third: str  # a third sentence for contrast (may be empty)
    row: LessonTokens  # `[CLS] text [SEP]` through the model's WordPiece
    limit: int  # the tokens the model reads (MiniLM's positions)
    source: str  # the caption's "where the numbers come from"
    defaults: Mapping[str, Any]  # the page's DEFAULTS (layer and head pickers are kept in the URL)
    body: Any  # the screen's container, for messages that concern the whole screen
    model: str = MINILM  # the model's key (`calls.model_key`): MiniLM, MiniLM + 中文 or opened
    sizes: Mapping[str, Any] = field(default_factory=dict)  # the variants' fields (calls.sizes)


def variant(key: str, model: str) -> str:
    """`key`, or its `<key>.opened` text while the lesson runs an opened model (texts_opened.py),
    or its `<key>.taught` text while it runs MiniLM + 中文 (texts_taught.py)."""
    if model == MINILM:
        return key
    other = f"{key}.opened" if is_opened(model) else f"{key}.taught"
    return other if other in CATALOGUE["en"] else key


def table(frame, where) -> None:  # noqa: ANN001 - a DataFrame and a column
    """A table with translated column names (dimension columns d0, d1, ... stay as they are)."""
    names = {c: t(f"lesson.col.{c}") for c in frame.columns if f"lesson.col.{c}" in CATALOGUE["en"]}
    named = frame.rename(columns=names)
    where.dataframe(named, hide_index=True, height=min(360, 35 * len(frame) + 38))
