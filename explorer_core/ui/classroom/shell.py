"""Class mode in the app's shell: what app.py runs on every page while a session is in a class
(or a link asks to start or join one).

Before the page: act on the URL (`?class=new`, `?class=CODE[&name=NICK]`, a teacher's or a
student's link), open the teacher's view a student asked to follow, keep the seat in the URL;
then the teacher's panel (the sidebar, or the top of the page while presenting) or the student's
bar (the top of the page: a phone shows no sidebar).
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from explorer_core.ui.classroom import follow, home, student, teacher
from explorer_core.ui.classroom.gate import current, show_notice
from explorer_core.ui.classroom.seat import enter_from_url, keep_in_url


def run(page: Any, presenting: bool) -> None:
    """Call after `st.navigation` and before `page.run()`."""
    join_code = enter_from_url()
    if join_code is not None:
        home.offer_join(join_code)
        if page.url_path:  # the join form is on the home page
            st.switch_page(home_page())
    follow.remember_page(page.url_path)
    student.open_pending()  # may switch to the teacher's page
    keep_in_url()
    seat = current()
    if seat is None:
        if page.url_path:  # the home page shows its own (why a join failed...)
            show_notice()
        return
    if seat.teacher:
        if presenting:
            with st.container(border=True):
                teacher.panel(wide=True)
        else:
            with st.sidebar:
                teacher.panel()
    else:
        student.bar()


def home_page() -> str:
    from explorer_core.ui.nav import PAGES

    return next(spec.file for spec in PAGES if not spec.url_path)
