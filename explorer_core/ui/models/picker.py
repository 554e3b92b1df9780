"""The model picker every model page shares: the source, and which model to open.

`pick_source(key, label_key)` draws the source's segmented control (fresh / trained / MiniLM /
MiniLM + 中文 / a model on this machine) and, for an opened model, `chooser()` below it: one box
listing the models on this machine (the Hugging Face cache and the allowed folders, the class's
pinned models first) that also takes a typed Hub name or folder. The choice is kept in
`st.session_state[REF_KEY]`, so every page shows the model picked once, and in the URL
(`?model=org/name`) while an opened model is shown, so a link reopens it.

# subtle: the box has a key of its own ("models.box") and copies its value to REF_KEY when it
# changes; REF_KEY itself is never a widget key, because Streamlit drops a widget's key from the
# session on a page that does not draw that widget, and it warns when a widget's key was also set
# through the Session State API.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from explorer_core.models.settings import megabytes
from explorer_core.ui import settings
from explorer_core.ui.i18n import t
from explorer_core.ui.models import calls, download
from explorer_core.ui.models.sources import (
    OPENED,
    REF_KEY,
    SOURCES,
    SourceUnavailable,
    memory,
    opened_source,
)

BOX_KEY = next(k for k, v in settings.WIDGET_MIRRORS.items() if v == REF_KEY)  # models.box
URL_SEEDED_REF = "_url_seeded.model"  # the URL's ?model= was taken once this session


def take_url_ref() -> None:
    """On the session's first pass, a `?model=` in the URL becomes the opened model."""
    if URL_SEEDED_REF in st.session_state:
        return
    st.session_state[URL_SEEDED_REF] = True
    wanted = st.query_params.get(REF_KEY)
    if wanted and wanted.strip():
        st.session_state[REF_KEY] = wanted.strip()


def keep_ref_in_url(kind: str) -> None:
    """`?model=` follows the opened model while one is shown; other sources drop it."""
    ref = str(st.session_state.get(REF_KEY) or "")
    if kind == OPENED and ref:
        if st.query_params.get(REF_KEY) != ref:
            st.query_params[REF_KEY] = ref
    elif REF_KEY in st.query_params:
        del st.query_params[REF_KEY]


def _copy_box() -> None:
    value = st.session_state.get(BOX_KEY)
    st.session_state[REF_KEY] = str(value).strip() if value else ""


def chooser(where: st.delta_generator.DeltaGenerator | None = None) -> str:
    """The models on this machine, or a typed Hub name or folder; returns the reference."""
    where = where if where is not None else st.container()
    current = str(st.session_state.get(REF_KEY) or "")
    entries = calls.catalog_entries()
    refs = [entry.reference for entry in entries]
    if current and current not in refs:
        refs.append(current)  # typed before: keep it offered
    described = {entry.reference: calls.describe(entry) for entry in entries}
    where.selectbox(
        t("models.box"), refs, index=refs.index(current) if current in refs else None,
        format_func=lambda ref: described.get(ref, ref), key=BOX_KEY, on_change=_copy_box,
        accept_new_options=True, placeholder=t("models.box.placeholder"),
        help=t("models.box.help", dirs=calls.allowed_dirs_text()),
    )  # fmt: skip
    ref = str(st.session_state.get(REF_KEY) or "")
    if download.downloadable(ref):  # only where the server allows it, never for a student
        with where:
            download.offer(ref)
    if not entries:
        where.caption(t("models.none_here", dirs=calls.allowed_dirs_text()))
    loaded = memory().sizes()  # every session's opened models, least recently used first
    if loaded:
        where.caption(
            t(
                "models.memory",
                models=", ".join(
                    f"{key.split('@')[0]} ({megabytes(size)})" for key, size in loaded.items()
                ),
                total=megabytes(sum(loaded.values())),
                budget=megabytes(memory().budget_bytes),
            )
        )
    return str(st.session_state.get(REF_KEY) or "")


def pick_source(key: str, label: str, format_func: Callable[[str], str], default: str) -> str:
    """The source's segmented control (its widget keyed `key`), and the chooser when the source
    is an opened model; returns the source's code (`default` when none is selected)."""
    take_url_ref()
    kind = st.segmented_control(label, SOURCES, key=key, format_func=format_func) or default
    # subtle: one block in the same place whatever the source, so the elements below keep their
    # positions (a block that came and went remounted every chart after it in the browser)
    holder = st.container()
    if kind == OPENED:
        chooser(holder)
        said(holder)
    keep_ref_in_url(kind)
    return kind


def said(where: st.delta_generator.DeltaGenerator) -> None:
    """Which code cut the opened model's text (ours, or which pieces ran in `tokenizers`)."""
    try:
        opened = opened_source().opened
    except SourceUnavailable:  # the page says why, below
        return
    where.caption(calls.cut_line(opened.tokenizer))
