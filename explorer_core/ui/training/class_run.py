"""The Train page in a class experiment: the tokenizer the experiment assigns, and the result
posted to the class leaderboard when the run ends (see `ui.classroom.board`).

Outside a class nothing here loads class mode (`classroom.gate`).
"""

from __future__ import annotations

import streamlit as st

from explorer_core.tokenization.base import VocabTooSmall
from explorer_core.ui.classroom.gate import current, in_class
from explorer_core.ui.i18n import t
from explorer_core.ui.training import calls
from explorer_core.ui.training.panels import VOCAB_SIZES

ASSIGNED_KEY = "train.class_assigned"  # (algorithm, vocab size) of the run being started


def apply_assignment(running: bool, text: str) -> None:
    """A student in a running experiment trains the tokenizer it assigns: the page's tokenizer
    choice is set to it (before the tokenizer panel draws) and a line says so. A size below what
    the algorithm needs for `text` (a character vocabulary holds every character first) is
    raised to the smallest that works, rounded up to a hundred, and the line says that too."""
    if not in_class() or current().teacher:
        return
    from explorer_core.classroom import ClassError
    from explorer_core.ui.classroom.board import assignment
    from explorer_core.ui.classroom.seat import store

    try:
        pulse = store().pulse(current().code)
    except ClassError:
        return  # the class bar says what is wrong
    given = assignment(pulse.experiment_id)
    if given is None or given.algorithm is None:
        st.session_state.pop(ASSIGNED_KEY, None)
        return
    size = given.vocab_size
    if size is not None:
        size = fitting_size(given.algorithm, size, text)
    if not running:
        st.session_state["train.tok"] = "train"
        st.session_state["train.algo"] = given.algorithm
        if size is not None:
            st.session_state["train.vocab_size"] = size
    vocab = given.vocab_size if given.vocab_size is not None else t("class.exp.vocab.any")
    st.info(t("class.exp.assigned", algo=given.algorithm, vocab=vocab), icon=":material/science:")
    if size is not None and size != given.vocab_size:
        st.caption(t("class.exp.raised", size=size))
    st.session_state[ASSIGNED_KEY] = (given.algorithm, given.vocab_size)


def fitting_size(algorithm: str, size: int, text: str) -> int:
    """`size` inside the page's range, raised to what `algorithm` needs for `text`."""
    low, high = VOCAB_SIZES
    size = min(max(int(size), low), high)
    try:
        calls.trained_tokenizer(algorithm, size, text)  # the page trains the same one (cached)
    except VocabTooSmall as err:
        size = min(-(-err.minimum // 100) * 100, high)
    except ValueError:
        pass  # the tokenizer panel says what is wrong
    return size


def post_result(parts: dict) -> None:
    """Call when the session's run has just ended: its result goes to the class leaderboard
    (once per run), measured on the run's own dev and test pairs."""
    if not in_class() or current().teacher:
        return
    from explorer_core.analysis.experiment import result_from_run
    from explorer_core.classroom import ClassError
    from explorer_core.ui.classroom.board import post
    from explorer_core.ui.classroom.seat import store
    from explorer_core.ui.training.run import current_run

    run = current_run()
    if run is None or run.result() is None:
        return
    seat = current()
    try:
        if store().pulse(seat.code).experiment_id is None:
            return  # no experiment running: nothing to post to
    except ClassError:
        return
    with st.spinner(t("cmp.running")):
        result = result_from_run(run, parts, nickname=seat.nickname)
    if post(id(run), result.to_row()):
        st.toast(t("class.student.posted"), icon=":material/leaderboard:")
