"""The student's own result, kept on the Train page: where the run landed on the class
leaderboard (place of how many runs), its score and the run it was, and the board itself behind
a switch. A toast said it once and was gone in seconds; this card stays.

The row this session posted is remembered (`board.post`); each run of the page reads the board
(one query), so the place follows the runs that land after it. A newer experiment's board does
not hold the row any more, and the card goes.
"""

from __future__ import annotations

import streamlit as st

from explorer_core.analysis.experiment import ExperimentResult, board_place, board_score
from explorer_core.classroom import ClassError
from explorer_core.ui.classroom import board
from explorer_core.ui.classroom.gate import current
from explorer_core.ui.classroom.seat import store as class_store
from explorer_core.ui.i18n import t

BOARD_KEY = "class.s.board"  # show the class board under the card


def card() -> None:
    """The card (call it where the page reports its run); nothing before a result is posted."""
    seat = current()
    known = st.session_state.get(board.MINE_KEY)
    if seat is None or seat.teacher or known is None or known[0] != seat.code:
        return
    try:
        rows = class_store().results(seat.code)
    except ClassError:
        return  # the class bar says what is wrong
    posted = known[1]
    if not any(_same_run(row, posted) for row in rows):
        return  # a newer experiment's board
    mine = ExperimentResult.from_row(posted)
    results = board.readable(rows)
    with st.container(border=True):
        st.markdown(t("class.student.result", place=board_place(mine, results), n=len(results)))
        st.markdown(_score_line(mine))
        st.caption(t("class.student.result.run", algo=mine.algorithm, vocab=mine.vocab_size,
                     seed=mine.seed, steps=mine.steps, seconds=round(mine.seconds)))  # fmt: skip
        if st.toggle(t("class.student.board"), key=BOARD_KEY, help=t("class.student.board.help")):
            board.leaderboard(rows, wide=False)


def _score_line(mine: ExperimentResult) -> str:
    score = board_score(mine)
    if score is None:
        return t("class.student.result.no_score")
    names = {lang: t(f"cmp.lang.{lang}") for lang in ("en", "zh", "all")}
    found = sorted((lang, v) for lang, v in mine.test_spearman.items() if v is not None)
    scores = [f"{names.get(lang, lang)} {value:.3f}" for lang, value in found]
    return t("class.student.result.score", score=f"{score:.3f}", scores=" · ".join(scores))


def _same_run(row: dict, posted: dict) -> bool:
    """The board's row is the one this session posted (the store adds its nickname and time)."""
    return all(row.get(key) == value for key, value in posted.items() if key != "nickname")
