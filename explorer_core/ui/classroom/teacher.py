"""The teacher's panel, beside whatever page the teacher shows: the room code, join link and QR
code, who joined, the current poll's answers, the quiz points, "bring everyone here", the class
experiment and closing the class.

It is one `st.fragment` that reruns by itself every REFRESH_S seconds (a few indexed queries),
so the roster and the answers fill in live without rerunning the page. In the sidebar normally;
while presenting, across the top of the page in large type (`wide=True`), readable from the
back of a room: three columns, the experiment's leaderboard across the page below them, and a
switch that shows the experiment and its board alone, across the projector's full width.
"""

from __future__ import annotations

import html
import time

import streamlit as st

from explorer_core.analysis.quiz_poll import value_label
from explorer_core.classroom import ClassError, ClassInfo, join_link
from explorer_core.classroom.qr import qr_png
from explorer_core.ui.classroom import board, follow
from explorer_core.ui.classroom.gate import current, rerun_part, show_notice
from explorer_core.ui.classroom.seat import Seat, base_url, forget, report
from explorer_core.ui.classroom.seat import store as class_store
from explorer_core.ui.export import show_chart
from explorer_core.ui.i18n import t
from explorer_core.viz.classroom import poll_figure

# the panel's own rerun. "Within 2 s" of the last answer: 60 answers at once take ~1 s to reach
# the database, so a 2 s tick let the teacher wait up to 3 s (7 polls in 27, bench/classroom_load.py
# --class); the panel's run is cheap (p50 20-80 ms) and there is one teacher per class.
REFRESH_S = 1.0
QR_KEY = "class.t.qr"  # show the QR code (off: it takes room)
SCORES_KEY = "class.t.scores"
CONFIRM_KEY = "class.t.confirm_close"
OPEN_KEY = "class.t.open"  # while presenting: the whole panel, or one line
BOARD_KEY = "class.t.board_wide"  # while presenting: the experiment's board alone, full width
URL_LINE = "<div style='font-size:{size}rem;font-weight:600;word-break:break-all'>{url}</div>"
BIG_CODE = "<div style='font-size:{size}rem;font-weight:700;letter-spacing:0.15em;line-height:1.1'>{code}</div>"  # noqa: E501


def panel(wide: bool = False) -> None:
    """The teacher's panel (call it where it should appear: the sidebar, or the page's top)."""
    seat = current()
    if seat is None or not seat.teacher:
        return
    st.fragment(run_every=REFRESH_S)(_panel)(wide)


def _panel(wide: bool) -> None:
    seat = current()
    if seat is None:
        return
    show_notice()
    try:
        _draw(seat, wide)
    except ClassError as err:  # the database went away, or the class was closed elsewhere
        report(err, seat.code)
        show_notice()


def _draw(seat: Seat, wide: bool) -> None:
    store = class_store()
    info = store.check_teacher(seat.code, seat.secret or "")
    pulse = store.pulse(seat.code)
    roster = store.roster(seat.code)
    if wide and not _opened(seat, roster, pulse.poll_id):
        return
    if wide and st.session_state.get(BOARD_KEY):  # the results, alone across the screen
        board.teacher_board(seat, pulse.experiment_id, wide)
        return
    columns = st.columns(3, gap="large") if wide else [st.container()] * 3
    with columns[0]:
        _code_box(seat, info, wide)
        _roster(roster)
    with columns[1]:
        _poll(seat, pulse.poll_id, wide)
        _scores(seat, pulse.show_scores)
    with columns[2]:
        _bring_here(seat)
        rows = board.teacher_board(seat, pulse.experiment_id, wide, board_here=not wide)
        _close(seat)
    if wide and rows:  # a third of a projector cut the tables' columns off: the full width
        board.leaderboard(rows, wide)


def _opened(seat: Seat, roster: list, poll_id: int | None) -> bool:
    """While presenting: one line (code, joined, answers) and the switch that opens the panel."""
    line = t("class.teacher.strip", code=seat.code, n=len(roster))
    if poll_id is not None:
        tally = class_store().tally(seat.code, poll_id)
        line += " · " + t("class.teacher.poll.count", answered=tally.answered, joined=tally.joined)
    left, middle, right = st.columns([3, 2, 1], vertical_alignment="center")
    left.markdown(f"**{line}**")
    opened = right.toggle(t("class.teacher.open"), key=OPEN_KEY, value=True)
    if opened:
        middle.toggle(t("class.teacher.board_wide"), key=BOARD_KEY,
                      help=t("class.teacher.board_wide.help"))  # fmt: skip
    return opened


def _code_box(seat: Seat, info: ClassInfo, wide: bool) -> None:
    if not wide:
        st.markdown(f"**{t('class.teacher.head', code=seat.code)}**")
    st.html(BIG_CODE.format(size=3.4 if wide else 2.4, code=html.escape(seat.code)))
    base = base_url(st.session_state.get(follow.LAST_PAGE_KEY, ""))
    st.markdown(t("class.teacher.join"))
    st.html(URL_LINE.format(size=1.3 if wide else 1.0, url=html.escape(base)))
    if st.toggle(t("class.teacher.qr"), key=QR_KEY, value=wide):
        link = join_link(base, seat.code, page="", param="class")
        st.image(qr_png(link, scale=10), width=320 if wide else 220,
                 caption=t("class.teacher.qr.caption", code=seat.code))  # fmt: skip
    ends = time.strftime("%H:%M", time.localtime(info.expires))
    if time.localtime(info.expires).tm_yday != time.localtime().tm_yday:
        ends = time.strftime("%d %b %H:%M", time.localtime(info.expires))
    st.caption(t("class.teacher.expires", time=ends))
    with st.popover(t("class.teacher.link"), icon=":material/key:"):
        st.caption(t("class.teacher.link.help"))
        st.code(f"{base}?class={seat.code}&teacher={seat.secret}", language=None, wrap_lines=True)


def _roster(roster: list) -> None:
    st.markdown(f"**{t('class.teacher.roster', n=len(roster))}**")
    if not roster:
        st.caption(t("class.teacher.roster.none"))
        return
    st.text(", ".join(row.nickname for row in roster))  # as text: a nickname is never markup


def _poll(seat: Seat, poll_id: int | None, wide: bool) -> None:
    st.markdown(f"**{t('class.teacher.poll')}**")
    if poll_id is None:
        st.caption(t("class.teacher.poll.none"))
        return
    store = class_store()
    poll, tally = store.poll(seat.code, poll_id), store.tally(seat.code, poll_id)
    payload = poll.payload
    key, values = payload["ask"]
    st.markdown(t(key, **values))
    st.markdown(t("class.teacher.poll.count", answered=tally.answered, joined=tally.joined))
    right = payload.get("answers", []) if poll.revealed else []
    choices = [tuple(c) for c in payload.get("choices", [])]
    fig = poll_figure(
        choices, tally.counts, right=right, title=t("class.teacher.poll.chart"),
        x_title=t("class.teacher.poll.x"), y_title=t("class.teacher.poll.y"),
    )  # fmt: skip
    show_chart(fig, key=f"class.t.poll.{poll_id}")
    if poll.revealed:
        shown = " / ".join(value_label(payload, v) for v in payload.get("answers", []))
        st.success(t("class.teacher.revealed", answer=shown))
    elif st.button(t("class.teacher.reveal"), key="class.t.reveal", icon=":material/visibility:",
                   type="primary", use_container_width=not wide):  # fmt: skip
        store.reveal(seat.code, seat.secret or "", poll_id)
        rerun_part()


def _scores(seat: Seat, shown: bool) -> None:
    wanted = st.toggle(t("class.teacher.scores"), key=SCORES_KEY, value=shown)
    if wanted != shown:
        class_store().set_show_scores(seat.code, seat.secret or "", wanted)
    if wanted:
        board.scores_table(class_store().scores(seat.code))


def _bring_here(seat: Seat) -> None:
    if st.button(t("class.teacher.bring"), key="class.t.bring", icon=":material/campaign:",
                 help=t("class.teacher.bring.help"), use_container_width=True):  # fmt: skip
        target = follow.target_here()
        class_store().bring_here(seat.code, seat.secret or "", target)
        title = follow.page_title_key(target.split("?")[0])
        st.toast(t("class.teacher.brought", page=t(title) if title else target))


def _close(seat: Seat) -> None:
    if not st.session_state.get(CONFIRM_KEY):
        if st.button(t("class.teacher.close"), key="class.t.close", icon=":material/close:",
                     help=t("class.teacher.close.help")):  # fmt: skip
            st.session_state[CONFIRM_KEY] = True
            rerun_part()
        return
    if st.button(t("class.teacher.close.sure"), key="class.t.close_sure", type="primary"):
        st.session_state.pop(CONFIRM_KEY, None)
        class_store().close_class(seat.code, seat.secret or "")
        forget()
        st.session_state["class.notice"] = ("class.teacher.closed", {}, "info")
        st.rerun(scope="app")
