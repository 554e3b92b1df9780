"""The Chinese lesson's notice while MiniLM + 中文 is not built on this install: one line saying
so, a button that builds it (the server's one build, `ui.training.chinese`, which the server also
starts by itself: `ui.taught.autobuild`), and its progress, polled once a second; when the build
ends the lesson is drawn again, now with the taught model."""

from __future__ import annotations

import streamlit as st

from explorer_core.ui.i18n import t
from explorer_core.ui.pretrained import taught_tokenizer
from explorer_core.ui.taught import autobuild
from explorer_core.ui.training import chinese

DRAWN_KEY = "lesson.zh.drawn"  # id of the build this session last drew as running


def chinese_notice() -> None:
    """Nothing once the model is built; else the notice, polled while a build runs."""
    active = chinese.building()
    if taught_tokenizer() is not None and not active:
        return
    every = 1.0 if active else autobuild.SOON_POLL_SECONDS if autobuild.soon() else None
    st.fragment(run_every=every)(_notice)()


def _notice() -> None:
    run, active = chinese.current_build(), chinese.building()
    chinese.rerun_when_ended(DRAWN_KEY, run, active)  # then: the lesson runs the taught model
    if active:
        share, text = chinese.progress_text(run)
        st.progress(min(1.0, share), text=t("lesson.zh.building", text=text))
        return
    if run is not None:
        chinese.ended_line(run)  # e.g. why the last build failed
    if taught_tokenizer() is not None:
        return
    build = autobuild.start()
    if run is None and build is not None and build.state == "failed":
        st.warning(autobuild.failed_line(build.error), icon=":material/error:")
    elif autobuild.soon():
        st.caption(t("taught.build.soon"))
    line, button = st.columns([4, 1], vertical_alignment="center")
    line.info(t("lesson.zh.none"), icon=":material/translate:")
    if button.button(t("lesson.zh.build"), key="lesson.zh.build", type="primary", width="stretch"):
        refusal = chinese.start_build()
        if refusal is None:
            st.rerun(scope="app")  # draw the notice again, polled while the build runs
        st.error(refusal)
