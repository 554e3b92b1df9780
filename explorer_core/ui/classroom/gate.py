"""Whether this session has anything to do with class mode, without loading class mode.

Outside a class nothing of it runs: no database, no polling, no SQLAlchemy import (~0.3 s on the
first page of a fresh server). The shell asks `wanted()`; a page's quiz asks `in_class()`.
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from streamlit.errors import StreamlitAPIException

from explorer_core.ui.i18n import t

SEAT_KEY = "class.seat"  # the session's Seat (explorer_core.ui.classroom.seat), or absent
URL_CLASS = "class"  # ?class=new, ?class=CODE...
NOTICE_KEY = "class.notice"  # a class message still to show


def in_class() -> bool:
    return SEAT_KEY in st.session_state


def wanted() -> bool:
    """In a class, asked to start or join one by the URL, or a class message to show."""
    return in_class() or URL_CLASS in st.query_params or NOTICE_KEY in st.session_state


def current() -> Any:
    """This session's `seat.Seat`, or None."""
    return st.session_state.get(SEAT_KEY)


def notice(key: str, level: str = "error", **values: object) -> None:
    """Keep a one-line message for the next draw of the class area (a join that failed...)."""
    st.session_state[NOTICE_KEY] = (key, values, level)


def show_notice(where: Any = None) -> None:
    """Show the kept message once (in `where`, default the current container)."""
    note = st.session_state.pop(NOTICE_KEY, None)
    if note is not None:
        key, values, level = note
        getattr(where if where is not None else st, level)(t(key, **values))


def rerun_part() -> None:
    """Rerun the fragment this runs in, or the whole page when it runs as part of the page.

    # subtle: a fragment's own widgets rerun only the fragment in a browser, but the same code also
    # runs inside a full run (the first draw, AppTest), where scope="fragment" is refused.
    """
    try:
        st.rerun(scope="fragment")
    except StreamlitAPIException:
        st.rerun()
