""" "Ask the class": the teacher's button beside a page's "Predict first" question."""

from __future__ import annotations

from typing import Any

import streamlit as st

from explorer_core.classroom import ClassError
from explorer_core.ui.classroom.gate import current, show_notice
from explorer_core.ui.classroom.seat import report
from explorer_core.ui.classroom.seat import store as class_store
from explorer_core.ui.i18n import t


def ask_button(payload: dict[str, Any], key: str) -> None:
    """For a teacher in a class: put this question (`analysis.quiz_poll`'s payload) to the whole
    class. Nothing is drawn for anyone else."""
    seat = current()
    if seat is None or not seat.teacher:
        return
    if st.button(t("class.ask"), key=key, icon=":material/campaign:", help=t("class.ask.help")):
        try:
            class_store().ask(seat.code, seat.secret or "", payload)
        except ClassError as err:
            report(err, seat.code)
            show_notice()
            return
        st.success(t("class.asked"))
