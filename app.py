"""Embedding Explorer: the app shell. Navigation, language and process settings; pages do the rest.

Start it with `bash scripts/run.sh` (see README.md).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from explorer_core import runtime
from explorer_core.ui import present, warmup
from explorer_core.ui.chrome import translate_streamlit_texts
from explorer_core.ui.classroom import gate as classroom
from explorer_core.ui.export import image_format_switch
from explorer_core.ui.i18n import language_switch, t
from explorer_core.ui.nav import LESSON_FILE, available_pages
from explorer_core.ui.taught import autobuild
from explorer_core.ui.throttle import script_slot, share_the_interpreter, throttle_reruns

runtime.configure_environment()  # torch and its thread count: in the warm-up thread
runtime.log_threads()  # only where EXPLORER_THREAD_LOG asks (tests watching the server)
share_the_interpreter()  # many sessions' scripts at once must not starve the event loop
throttle_reruns()  # first: a session flooding the server with reruns waits in its own thread
warmup.start()  # once per server: torch, MiniLM, the built-in tokenizers, in the background
warmup.grow_watcher_pool()  # once per server: Streamlit's threads all there from the start
autobuild.start()  # once per install: MiniLM + 中文 built in the background (EXPLORER_TAUGHT=off)

ROOT = Path(__file__).resolve().parent
st.set_page_config(
    page_title="Embedding Explorer",
    page_icon=str(ROOT / "assets" / "icon.png"),  # local file: no request to a font server
    layout="wide",
)

presenting = present.start_presenting()
if presenting:  # one row of shell controls above the page; the sidebar is styled away
    present.apply_style()
    lang_col, toggle_col, lesson_col, link_col = st.columns(
        [3, 2, 2, 2], vertical_alignment="center"
    )
    with lang_col:
        language_switch(label_visibility="collapsed")
    with toggle_col:
        present.presentation_toggle()
    present.offer_link_slot(link_col)  # each page's link box goes here, not in a hidden sidebar
else:
    present.offer_link_slot(None)
    with st.sidebar:
        language_switch()
        present.presentation_toggle()
        image_format_switch()
present.keep_in_url()
translate_streamlit_texts()
warmup.preload_chart_code()  # the browser's warm-up: chart code loads while the first page is read

sections: dict[str, list] = {}
for spec in available_pages():
    st_page = st.Page(
        spec.path,
        title=t(spec.title),
        icon=spec.icon,
        url_path=spec.url_path or None,
        default=not spec.url_path,  # the home page lives at /
    )
    sections.setdefault(t(spec.section), []).append(st_page)

# subtle: expanded=True: by default Streamlit folds a sidebar of more than twelve pages to ten and
# a "View 3 more" button, which hid BERT inputs, Train and Similarity once the thirteenth page
# (Sequence models) came; every lesson stays one click away
page = st.navigation(sections, position="top" if presenting else "sidebar", expanded=True)
if "train.run" in st.session_state and page.url_path != "train-model":  # it polls its own run
    from explorer_core.ui.training.run import keep_alive  # keeps the session's run alive elsewhere

    keep_alive()
if classroom.wanted():  # a class (or a link to one): its panel or bar above the page
    from explorer_core.ui.classroom import shell as class_mode

    class_mode.run(page, presenting)
if presenting and (ROOT / LESSON_FILE).is_file():  # a page link needs the navigation first
    lesson_col.page_link(LESSON_FILE, label=t("present.lesson"), icon=":material/school:")
try:
    # a few sessions' page scripts at a time: the event loop keeps its turn; and while one runs,
    # the once-per-server warm-up gives way to it
    with script_slot(), warmup.visitor_script():
        page.run()
finally:  # also when the page stops or reruns early
    warmup.page_drawn()  # the once-per-server warm-up starts after the first page, not beside it
