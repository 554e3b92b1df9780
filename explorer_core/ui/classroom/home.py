"""Class mode on the home page: "Start a class" (the teacher) and "Join a class" (a student).

The home page is every visitor's first page: this module loads no database code until a button
is pressed (`seat` imports SQLAlchemy).

A link `/?class=CODE` opens here with the join form's code filled in; `/?class=CODE&name=NICK`
joins at once (`seat.enter_from_url`, run by the shell before any page).
"""

from __future__ import annotations

import streamlit as st

from explorer_core.ui.classroom.gate import URL_CLASS, current, show_notice
from explorer_core.ui.i18n import t

CODE_KEY, NAME_KEY = "class.join.code", "class.join.name"
FORM_CODE_KEY = "class.form_code"  # the code of a `?class=CODE` link, for the join form


def section() -> None:
    """The home page's class section (nothing of it while this session is in a class: the class
    bar or the teacher's panel is on every page then)."""
    st.subheader(t("class.home.head"))
    show_notice()
    seat = current()
    if seat is not None:
        st.markdown(t("class.home.teaching" if seat.teacher else "class.home.learning",
                      code=seat.code))  # fmt: skip
        return
    st.markdown(t("class.home.body"))
    start, join = st.columns([1, 2], gap="large")
    with start:
        if st.button(t("class.start"), key="class.start", type="primary",
                     icon=":material/co_present:", help=t("class.start.help")):  # fmt: skip
            from explorer_core.ui.classroom.seat import keep_in_url, start_class  # SQLAlchemy

            if start_class() is not None:
                keep_in_url()
                st.rerun()
    with join:
        _join_form()


def _join_form() -> None:
    linked = st.session_state.pop(FORM_CODE_KEY, None)
    if linked:
        st.session_state[CODE_KEY] = linked
    with st.form("class.join.form", border=True):
        st.markdown(f"**{t('class.join')}**")
        code = st.text_input(t("class.join.code"), key=CODE_KEY, max_chars=12,
                             help=t("class.join.code.help"))  # fmt: skip
        name = st.text_input(t("class.join.name"), key=NAME_KEY, max_chars=40,
                             help=t("class.join.name.help"))  # fmt: skip
        if st.form_submit_button(t("class.join.button"), icon=":material/login:"):
            from explorer_core.ui.classroom.seat import join_class, keep_in_url  # SQLAlchemy

            st.query_params.pop(URL_CLASS, None)
            if join_class(code, name) is not None:
                keep_in_url()
                st.rerun()
            show_notice()  # why it failed, under the form


def offer_join(code: str) -> None:
    """The shell found `?class=CODE` without a seat: the home page's form opens on that code."""
    st.session_state[FORM_CODE_KEY] = code
