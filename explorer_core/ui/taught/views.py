"""The message a page shows when a learner picks MiniLM + 中文 before it has been built here."""

from __future__ import annotations

import streamlit as st
from streamlit.errors import StreamlitAPIException

from explorer_core.ui.i18n import t
from explorer_core.ui.nav import PAGES

NOT_BUILT = "taught.not_built"  # the catalogue key a model source raises when it is not built
TRAIN_PAGE = "train-model"  # url path of the page that builds it
BUILD_VIEW = {"train.kind": "chinese"}  # ... opened on its "Teach MiniLM Chinese" (a link's view)


def not_built() -> None:
    """One line saying the model has not been built on this install and how to build it (on the
    Train page, or from the command line), and a link to the Train page."""
    st.info(t(NOT_BUILT), icon=":material/info:")
    spec = next(page for page in PAGES if page.url_path == TRAIN_PAGE)
    label = t("taught.open_train", page=t(spec.title))
    try:
        st.page_link(spec.file, label=label, icon=":material/arrow_forward:",
                     query_params=BUILD_VIEW)  # fmt: skip
    except StreamlitAPIException:  # the page runs alone (tests): no navigation to link into
        st.markdown(f"→ {label}")


def unavailable(key: str, **values: object) -> None:
    """One line for a model source a page cannot use: MiniLM + 中文 not built yet (how to build it,
    with a link), or the source's own reason (the catalogue text `key`, filled with `values`)."""
    if key == NOT_BUILT:
        not_built()
    else:
        st.warning(t(key, **values))
