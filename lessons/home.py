"""Home: the whole pipeline at a glance, each stage linking to the page that explains it."""

from __future__ import annotations

import streamlit as st

from explorer_core.ui.classroom.home import section as class_section
from explorer_core.ui.i18n import t
from explorer_core.ui.nav import LESSON_FILE, PAGES
from explorer_core.ui.pack import pack_section
from explorer_core.ui.state import init, share_link
from explorer_core.ui.taught.autobuild import progress as taught_build

# stage -> the page (by url path) that teaches it
STAGES = (
    ("text", "train-tokenizer"),
    ("tokens", "train-tokenizer"),
    ("ids", "text-to-ids"),
    ("vectors", "token-embeddings"),
    ("positions", "position-encodings"),
    ("attention", "attention"),
    ("sentence", "similarity"),
)

init({})
st.title(t("home.title"))
st.markdown(t("home.intro"))
taught_build()  # MiniLM + 中文 built by the server itself: its progress while it runs
lesson = next(spec for spec in PAGES if spec.file == LESSON_FILE)
if lesson.path.is_file():  # the whole path in twelve screens, for a lecture
    st.page_link(lesson.file, label=t("home.lesson"), icon=":material/school:")
    st.caption(t("home.lesson.body"))
st.subheader(t("home.pipeline"))

pages = {spec.url_path: spec for spec in PAGES}
columns = st.columns(len(STAGES))
for column, (stage, url_path) in zip(columns, STAGES, strict=True):
    spec = pages[url_path]
    with column.container(border=True):
        st.markdown(f"**{t(f'home.stage.{stage}')}**")
        st.caption(t(f"home.stage.{stage}.body"))
        if spec.path.is_file():
            st.page_link(spec.file, label=t("home.open"), icon=":material/arrow_forward:")
        else:
            st.caption(t("home.soon"))
class_section()  # start or join a class
pack_section()  # download the session as one file, or restore one
share_link(())  # the language is the only setting here
