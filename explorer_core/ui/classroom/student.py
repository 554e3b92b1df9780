"""The student's class bar, above whatever page the student is on: the teacher's current question
(answered once, then the verdict after the reveal), "Go to the teacher's view" (or auto-follow),
the experiment's tokenizer, the quiz points when the teacher shows them, and Leave.

It is one `st.fragment` that reruns by itself every REFRESH_S seconds and then reads one row
(`ClassStore.pulse`: one indexed query); the poll, the student's answer and the scores are read
only when the pulse says they changed. Nothing here reruns the page, except following the teacher.
"""

from __future__ import annotations

import streamlit as st

from explorer_core.analysis.quiz import MASK_KINDS
from explorer_core.analysis.quiz_poll import is_right, mask_value, value_label
from explorer_core.classroom import ClassError, Poll, Pulse
from explorer_core.ui.classroom import board, follow
from explorer_core.ui.classroom.gate import current, notice, rerun_part, show_notice
from explorer_core.ui.classroom.seat import Seat, forget, report
from explorer_core.ui.classroom.seat import store as class_store
from explorer_core.ui.i18n import t

REFRESH_S = 3.0  # "at most every 3 s with one indexed query"
SEEN_KEY = "class.s.follow_seen"  # the follow_seq this session last followed or dismissed
AUTO_KEY = "class.s.auto"  # follow the teacher at once
POLL_KEY = "class.s.poll"  # (poll id, revealed, Poll, my answer) last read
GO_KEY = "class.s.go_target"  # a target to open on the next full run (the shell opens it)


def bar() -> None:
    """The student's bar (call it at the top of the page)."""
    seat = current()
    if seat is None or seat.teacher:
        return
    with st.container(border=True):
        st.fragment(run_every=REFRESH_S)(_bar)()


def _bar() -> None:
    seat = current()
    if seat is None:
        return
    show_notice()
    try:
        pulse = class_store().pulse(seat.code)
    except ClassError as err:
        report(err, seat.code)
        show_notice()
        return
    if pulse.closed:
        forget()
        notice("class.student.gone", level="warning", code=seat.code)
        st.rerun(scope="app")
    head, leave = st.columns([4, 1], vertical_alignment="center")
    head.text(t("class.student.head", code=seat.code, name=seat.nickname))  # text: never markup
    if leave.button(t("class.student.leave"), key="class.s.leave", icon=":material/logout:"):
        _leave(seat)
    try:
        _follow(pulse)
        _experiment(pulse)
        _question(seat, pulse)
        if pulse.show_scores:
            board.scores_table(class_store().scores(seat.code))
    except ClassError as err:
        report(err, seat.code)
        show_notice()


def _leave(seat: Seat) -> None:
    try:
        class_store().leave(seat.code, seat.token or "")
    except ClassError:
        pass  # leaving works even when the database is away: the seat is forgotten here
    forget()
    notice("class.student.left", level="info")
    st.rerun(scope="app")


def _follow(pulse: Pulse) -> None:
    seen = st.session_state.get(SEEN_KEY, 0)
    st.toggle(t("class.follow.auto"), key=AUTO_KEY, help=t("class.follow.auto.help"))
    if pulse.follow_target and pulse.follow_seq > seen:
        if st.session_state.get(AUTO_KEY):
            _go(pulse)
        title = follow.page_title_key(pulse.follow_target.split("?")[0])
        st.info(t("class.follow.new", page=t(title) if title else pulse.follow_target),
                icon=":material/campaign:")  # fmt: skip
        if st.button(t("class.follow.button"), key="class.s.go", type="primary",
                     icon=":material/arrow_forward:"):  # fmt: skip
            _go(pulse)
    elif follow.can_go_back():
        if st.button(t("class.follow.back"), key="class.s.back", help=t("class.follow.back.help")):
            st.session_state[GO_KEY] = None  # None: back to the view before following
            st.rerun(scope="app")


def _go(pulse: Pulse) -> None:
    st.session_state[SEEN_KEY] = pulse.follow_seq
    st.session_state[GO_KEY] = pulse.follow_target
    st.rerun(scope="app")  # the shell opens it: switching pages belongs to the whole run


def open_pending() -> None:
    """The shell calls this after the navigation: open the teacher's view a click asked for."""
    if GO_KEY not in st.session_state:
        return
    target = st.session_state.pop(GO_KEY)
    if target is None:
        follow.go_back()
    else:
        follow.go(target)


def _experiment(pulse: Pulse) -> None:
    if pulse.experiment_id is None:
        return
    given = board.assignment(pulse.experiment_id)
    if given is None or given.algorithm is None:
        st.caption(t("class.student.experiment.choice"))
        return
    vocab = given.vocab_size if given.vocab_size is not None else t("class.exp.vocab.any")
    if given.controlled:
        st.markdown(t("class.student.experiment.fixed", algo=given.algorithm, vocab=vocab,
                      seed=given.seed, steps=given.steps))  # fmt: skip
    else:
        st.markdown(t("class.student.experiment", algo=given.algorithm, vocab=vocab))


def _question(seat: Seat, pulse: Pulse) -> None:
    if pulse.poll_id is None:
        return
    known = st.session_state.get(POLL_KEY)
    if known is None or known[0] != pulse.poll_id or known[1] != pulse.revealed:
        poll = class_store().poll(seat.code, pulse.poll_id)
        mine = class_store().my_answer(seat.code, seat.token or "", pulse.poll_id)
        known = (pulse.poll_id, pulse.revealed, poll, mine)
        st.session_state[POLL_KEY] = known
    _, revealed, poll, mine = known
    payload = poll.for_student()  # no answer in it before the reveal
    st.markdown(f"**{t('class.poll.head')}**")
    key, values = payload["ask"]
    st.markdown(t(key, **values))
    if revealed:
        _verdict(poll, mine)
    elif mine is not None:
        st.success(t("class.poll.sent", answer=value_label(payload, mine)))
    else:
        _answer_form(seat, poll)


def _answer_form(seat: Seat, poll: Poll) -> None:
    payload, base = poll.for_student(), f"class.s.answer.{poll.poll_id}"
    if payload["kind"] == "mask":
        names = {kind: t(f"inputs.kind.{kind}") for kind in MASK_KINDS}
        guesses = [
            st.segmented_control(t("quiz.mask.item", pos=pos, token=token), MASK_KINDS,
                                 key=f"{base}.{pos}", format_func=names.__getitem__)
            for pos, token in payload["items"]
        ]  # fmt: skip
        value = mask_value(guesses)
    else:
        labels = dict(map(tuple, payload["choices"]))
        value = st.radio(t("class.poll.head"), list(labels), index=None, key=base,
                         format_func=labels.__getitem__, label_visibility="collapsed")  # fmt: skip
    if st.button(t("class.poll.send"), key=f"{base}.send", type="primary", icon=":material/send:"):
        if value is None:
            st.warning(t("class.poll.pick"))
            return
        recorded = class_store().answer(seat.code, seat.token or "", poll.poll_id, value)
        if not recorded:
            st.info(t("class.poll.once"))
        st.session_state.pop(POLL_KEY, None)  # read the answer back on the next pass
        rerun_part()


def _verdict(poll: Poll, mine: str | None) -> None:
    payload = poll.payload
    right = " / ".join(value_label(payload, v) for v in payload.get("answers", []))
    if mine is None:
        st.info(t("class.poll.missed", right=right))
    elif is_right(payload, mine):
        st.success(t("class.poll.right", answer=value_label(payload, mine)))
    else:
        st.warning(t("class.poll.wrong", answer=value_label(payload, mine), right=right))
    key, values = payload.get("explain", ["", {}])
    if key:
        st.markdown(t(key, **values))
