"""Presentation mode: for a projector. No sidebar, no Streamlit toolbar, large type and charts.

Turned on by the sidebar toggle or the URL parameter `present=1` (kept in the URL, so a link opens
a lecture straight in it). The navigation moves to the top bar, and the few shell controls
(language, leave presentation, the guided lesson) sit in one row above each page.
"""

from __future__ import annotations

import streamlit as st

from explorer_core.ui.export import PRESENT_KEY
from explorer_core.ui.i18n import t

URL_ON = "1"
LINK_SLOT = "_present.link_slot"  # where pages draw their link box while presenting (no sidebar)
ROOT_FONT_PX = 20  # Streamlit sizes text in rem: a larger root enlarges every word on the page

# subtle: Streamlit has no public switch to hide the sidebar or its toolbar, so this styles them
# away by their test ids (stable across 1.4x-1.6x releases). The toolbar stays: with the
# navigation at the top, Streamlit draws the page menu (stTopNav) inside it.
PRESENT_CSS = f"""
<style>
html {{ font-size: {ROOT_FONT_PX}px; }}
[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"],
[data-testid="stExpandSidebarButton"], [data-testid="stToolbarActions"],
[data-testid="stMainMenu"], [data-testid="stAppDeployButton"],
[data-testid="stDecoration"], [data-testid="stStatusWidget"] {{ display: none !important; }}
[data-testid="stMainBlockContainer"] {{ padding-top: 4rem; max-width: 100%; }}
</style>
"""


def start_presenting() -> bool:
    """Whether presentation mode is on; a new session takes it from `?present=1`."""
    if PRESENT_KEY not in st.session_state:
        st.session_state[PRESENT_KEY] = st.query_params.get(PRESENT_KEY) == URL_ON
    return bool(st.session_state[PRESENT_KEY])


def keep_in_url() -> None:
    """Write `present=1` into the URL while presenting; drop it otherwise."""
    if st.session_state.get(PRESENT_KEY):
        if st.query_params.get(PRESENT_KEY) != URL_ON:
            st.query_params[PRESENT_KEY] = URL_ON
    elif PRESENT_KEY in st.query_params:
        del st.query_params[PRESENT_KEY]


def presentation_toggle() -> None:
    st.toggle(t("present.toggle"), key=PRESENT_KEY, help=t("present.toggle.help"))


def offer_link_slot(column) -> None:  # noqa: ANN001 - a Streamlit column
    """Give this run's pages a place in the shell row for their link box (None: not presenting).

    # subtle: with nothing in the sidebar, Streamlit draws no sidebar at all, so presentation
    # mode does not depend on the style sheet arriving before the first paint.
    """
    st.session_state[LINK_SLOT] = column.empty() if column is not None else None


def link_slot():  # noqa: ANN201 - a Streamlit placeholder or None
    """The shell row's place for the link box while presenting; None otherwise."""
    if not st.session_state.get(PRESENT_KEY):
        return None
    return st.session_state.get(LINK_SLOT)


def table_height(rows: int, cap: int) -> int:
    """The height of a `st.dataframe` that shows its header and `rows` rows, at most `cap` px
    at the normal type size. Streamlit draws 35 px rows under a 38 px header for a 16 px root
    font, in rem, so presentation mode's larger root (ROOT_FONT_PX) enlarges them too: a height
    left at the normal size cut a table's last row off on the projector."""
    scale = ROOT_FONT_PX / 16 if st.session_state.get(PRESENT_KEY) else 1.0
    return round(min(cap, 35 * rows + 38) * scale)


def apply_style() -> None:
    """Hide the sidebar and toolbar and enlarge the type (call only while presenting)."""
    st.html(PRESENT_CSS)
