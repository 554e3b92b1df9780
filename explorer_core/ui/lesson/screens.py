"""The twelve screens of the guided lesson, one concept each: text, bytes, tokens, ids, one-hot,
vector, + position, attention, one layer, pooled vector, cosine, why attention.

`show(name, lesson, left, right)` draws screen `name`: the explanation's extras (metrics, pickers,
downloads) in `left`, the chart or table and its caption in `right`. Numbers come from
`explorer_core.analysis.lesson` on the real MiniLM (through the cached `ui.lesson.calls`); figures
from `explorer_core.viz`. lessons/lesson.py draws the frame around them (title, Previous / Next).

The first four screens (text, bytes, tokens, ids) are here and need MiniLM's tokenizer only; the
eight that run the model are in `model_screens`, imported when one of them is first shown.
subtle: so the lesson's first screen is drawn without torch: right after a server starts, the
warm-up imports torch for 1-2 s (bench/page_latency.py: the lesson's first visit waited for it).
"""

from __future__ import annotations

from typing import Any

from explorer_core.analysis import lesson as core
from explorer_core.ui.i18n import t
from explorer_core.ui.lesson.frame import Lesson, table, variant
from explorer_core.viz import lesson as viz


def screen_text(lesson: Lesson, left, right) -> None:  # noqa: ANN001 - columns
    chars = core.char_frame(lesson.text)
    left.metric(t("lesson.text.metric"), len(chars))
    table(chars[["position", "char", "code_point", "decimal"]], right)
    right.caption(t("lesson.text.caption", n=len(chars), distinct=chars["char"].nunique()))


def screen_bytes(lesson: Lesson, left, right) -> None:  # noqa: ANN001 - columns
    raw = core.byte_frame(lesson.text)
    left.metric(t("lesson.bytes.metric"), len(raw))
    table(raw, right)
    right.caption(t("lesson.bytes.caption", chars=len(lesson.text), bytes=len(raw)))


def screen_tokens(lesson: Lesson, left, right, with_ids: bool = False) -> None:  # noqa: ANN001 - columns
    right.html(
        viz.chips_html(lesson.row.tokens, lesson.row.kinds, lesson.row.ids if with_ids else None)
    )
    if not with_ids and lesson.row.unknown:
        right.info(t(variant("lesson.tokens.unknown", lesson.model), n=lesson.row.unknown,
                     total=len(lesson.row.tokens), **lesson.sizes))  # fmt: skip
    frame = core.token_frame(lesson.row)
    frame["kind"] = [t(variant(f"lesson.kind.{kind}", lesson.model)) for kind in frame["kind"]]
    columns = ["position", "token", "id"] if with_ids else ["position", "token", "covers", "kind"]
    table(frame[columns], right)
    key = variant(f"lesson.{'ids' if with_ids else 'tokens'}.caption", lesson.model)
    right.caption(t(key, n=len(lesson.row.tokens), **lesson.sizes) + " " + lesson.source)


TEXT_SCREENS = {
    "text": screen_text, "bytes": screen_bytes, "tokens": screen_tokens,
    "ids": lambda lesson, left, right: screen_tokens(lesson, left, right, with_ids=True),
}  # fmt: skip


def show(name: str, lesson: Lesson, left: Any, right: Any) -> None:
    """Draw screen `name` (one of explorer_core.analysis.lesson.STEPS) into the two columns."""
    if name in TEXT_SCREENS:
        TEXT_SCREENS[name](lesson, left, right)
        return
    from explorer_core.ui.lesson import model_screens  # imports torch (see the docstring)

    model_screens.SCREENS[name](lesson, left, right)
