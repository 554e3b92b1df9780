"""Embedding Explorer: the app shell. Navigation, language and process settings; pages do the rest.

Start it with `bash scripts/run.sh` (see README.md).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from explorer_core import runtime
from explorer_core.ui.i18n import language_switch, t
from explorer_core.ui.nav import available_pages

runtime.configure()

ROOT = Path(__file__).resolve().parent
st.set_page_config(
    page_title="Embedding Explorer",
    page_icon=str(ROOT / "assets" / "icon.png"),  # local file: no request to a font server
    layout="wide",
)

with st.sidebar:
    language_switch()

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

st.navigation(sections).run()
