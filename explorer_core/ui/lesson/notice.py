"""The Chinese lesson's notice while MiniLM + 中文 is not built on this install: one line saying
so, a button that builds it (the server's one build, `ui.training.chinese`), and its progress,
polled once a second; when the build ends the lesson is drawn again, now with the taught model."""

from __future__ import annotations

import streamlit as st

from explorer_core.ui.i18n import t
from explorer_core.ui.pretrained import taught_tokenizer
from explorer_core.ui.training import chinese

DRAWN_KEY = "lesson.zh.drawn"  # id of the build this session last drew as running


def chinese_notice() -> None:
    """Nothing once the model is built; else the notice, polled while a build runs."""
    if taught_tokenizer() is not None and not chinese.building():
        return
    st.fragment(run_every=1.0 if chinese.building() else None)(_notice)()


def _notice() -> None:
    run = chinese.current_build()
    if run is not None and chinese.building():
        st.session_state[DRAWN_KEY] = id(run)
        share, text = chinese.progress_text(run)
        st.progress(min(1.0, share), text=t("lesson.zh.building", text=text))
        return
    if run is not None and st.session_state.get(DRAWN_KEY) == id(run):
        st.session_state[DRAWN_KEY] = None
        st.rerun(scope="app")  # the build just ended: the lesson now runs the taught model
    if run is not None:
        chinese.ended_line(run)  # e.g. why the last build failed
    if taught_tokenizer() is not None:
        return
    line, button = st.columns([4, 1], vertical_alignment="center")
    line.info(t("lesson.zh.none"), icon=":material/translate:")
    if button.button(t("lesson.zh.build"), key="lesson.zh.build", type="primary", width="stretch"):
        refusal = chinese.start_build()
        if refusal is None:
            st.rerun(scope="app")  # draw the notice again, polled while the build runs
        st.error(refusal)
