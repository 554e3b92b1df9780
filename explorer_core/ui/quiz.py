"""Predict, then reveal: the "Predict first" switch, the question, the Reveal button, the verdict.

A page calls `predict_toggle(page)`; when it is on, one of `merge_quiz`, `mask_quiz`,
`attention_quiz` or a page's own `choice_quiz` asks about the current view and returns False
until the learner presses Reveal:
the page keeps the views that would give the answer away hidden until then. Each question has an
id built from the view (step, seed, layer, head, query...), so a new view asks a new question.
The session's score lives in st.session_state[SCORE_KEY] as {page: (right, asked)}; a question is
graded once (explorer_core.analysis.quiz.record).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from explorer_core.analysis import quiz, quiz_poll
from explorer_core.ui.classroom.gate import in_class
from explorer_core.ui.i18n import t

SCORE_KEY = "quiz.score"  # {page: (right, asked)}
GRADED_KEY = "quiz.graded"  # frozenset of "page|question id" already graded
VERDICT_KEY = "quiz.verdicts"  # {"page|question id": (answer, right, asked)}


def predict_toggle(page: str, container: Any = None) -> bool:
    """The "Predict first" switch of `page` (key "<page>.predict", off by default)."""
    key = f"{page}.predict"
    st.session_state.setdefault(key, False)
    where = container if container is not None else st
    return bool(where.toggle(t("quiz.toggle"), key=key, help=t("quiz.toggle.help")))


def score(page: str) -> tuple[int, int]:
    """(right, asked) on `page` in this session."""
    return tuple(st.session_state.get(SCORE_KEY, {}).get(page, (0, 0)))  # type: ignore[return-value]


def show_score(page: str) -> None:
    right, asked = score(page)
    st.markdown(t("quiz.score", right=right, asked=asked))


def _ask(
    page: str, qid: str, ask: Callable[[str], Any], grade: Callable[[Any], tuple[int, int]],
    show: Callable[[Any], None], poll: dict[str, Any],
) -> bool:  # fmt: skip
    """Draw the question (ask(widget key prefix) -> answer) until Reveal; then the verdict.

    A teacher in a class also gets "Ask the class", which puts `poll` (the same question as
    data, `analysis.quiz_poll`) to every student.
    """
    done = f"{page}|{qid}"
    verdicts = st.session_state.setdefault(VERDICT_KEY, {})
    if done not in verdicts:
        digest = hashlib.sha1(qid.encode("utf-8")).hexdigest()[:10]
        slot = st.empty()  # the question's widgets, cleared once graded
        with slot.container():
            answer = ask(f"{page}.answer.{digest}")
            reveal = st.button(t("quiz.reveal"), key=f"{page}.reveal", icon=":material/visibility:")
            if in_class():  # class mode's modules load only for a session in a class
                from explorer_core.ui.classroom.ask import ask_button

                ask_button(poll, key=f"{page}.ask_class")
        if not reveal:
            show_score(page)
            return False
        slot.empty()
        right, asked = grade(answer)
        new_score, graded = quiz.record(
            st.session_state.get(SCORE_KEY, {}), st.session_state.get(GRADED_KEY, frozenset()),
            page, qid, right, asked,
        )  # fmt: skip
        st.session_state[SCORE_KEY], st.session_state[GRADED_KEY] = new_score, graded
        verdicts[done] = (answer, right, asked)
    answer, right, asked = verdicts[done]
    verdict = st.success if right == asked else st.warning
    verdict(t("quiz.right" if right == asked else "quiz.wrong", right=right, asked=asked))
    show(answer)
    show_score(page)
    return True


def merge_quiz(page: str, qid: str, question: quiz.MergeQuestion) -> bool:
    """Which pair merges next? True once revealed."""
    st.subheader(t("quiz.merge.title", rank=question.step + 1))
    names = [f"{left} + {right}" for left, right in question.options]

    def ask(key: str) -> int | None:
        return st.radio(
            t("quiz.merge.ask", rank=question.step + 1), range(len(names)), index=None, key=key,
            format_func=names.__getitem__, horizontal=True,
        )  # fmt: skip

    def show(choice: int | None) -> None:
        values = {"pair": names[question.answer], "count": question.count,
                  "runner": question.runner_up, "rank": question.step + 1}  # fmt: skip
        picked = names[choice] if choice is not None else t("quiz.none")
        st.markdown(t("quiz.merge.answer", picked=picked, **values))
        st.markdown(t("quiz.merge.tie" if question.tie else "quiz.merge.ahead", **values))

    grade = lambda choice: (int(quiz.grade_merge(question, choice)), 1)  # noqa: E731
    return _ask(page, qid, ask, grade, show, quiz_poll.merge_poll(question))


def mask_quiz(page: str, qid: str, question: quiz.MaskQuestion, tokens: Sequence[str]) -> bool:
    """Which selected tokens became [MASK], a random token, or stayed? True once revealed."""
    st.subheader(t("quiz.mask.title"))
    asked = set(question.positions)
    marked = " ".join(
        f"**:orange-background[{i} · {tok}]**" if i in asked else f"{tok}"
        for i, tok in enumerate(tokens)
    )
    st.markdown(t("quiz.mask.ask", n=question.selected) + "\n\n" + marked)
    if question.selected > len(question.positions):
        st.caption(t("quiz.mask.first", n=len(question.positions), total=question.selected))
    kind_name = {kind: t(f"inputs.kind.{kind}") for kind in quiz.MASK_KINDS}

    def ask(key: str) -> list[str | None]:
        return [
            st.segmented_control(
                t("quiz.mask.item", pos=pos, token=tok),
                quiz.MASK_KINDS,
                key=f"{key}.{pos}",
                format_func=kind_name.__getitem__,
            )  # fmt: skip
            for pos, tok in zip(question.positions, question.tokens, strict=True)
        ]

    def show(guesses: list[str | None]) -> None:
        marks = quiz.grade_mask(question, guesses)
        frame = pd.DataFrame({
            t("inputs.col.position"): question.positions, t("inputs.col.token"): question.tokens,
            t("quiz.col.guess"): [kind_name.get(g, t("quiz.none")) for g in guesses],
            t("quiz.col.real"): [kind_name[k] for k in question.truth],
            t("quiz.col.ok"): ["✓" if ok else "✗" for ok in marks],
        })  # fmt: skip
        st.dataframe(frame, hide_index=True)
        n = len(question.positions)
        st.markdown(t("quiz.mask.lesson", mask=quiz.always_mask(question), n=n))

    grade = lambda guesses: (sum(quiz.grade_mask(question, guesses)), len(question.truth))  # noqa: E731
    return _ask(page, qid, ask, grade, show, quiz_poll.mask_poll(question))


def attention_quiz(
    page: str, qid: str, question: quiz.AttentionQuestion, labels: Sequence[str],
    row: Sequence[float],
) -> bool:  # fmt: skip
    """Which token does this head's query look at most? True once revealed."""
    st.subheader(t("quiz.attn.title"))

    def ask(key: str) -> int | None:
        return st.selectbox(
            t("quiz.attn.ask", query=labels[question.query]), question.options, index=None,
            key=key, format_func=labels.__getitem__, placeholder=t("quiz.attn.placeholder"),
        )  # fmt: skip

    def show(choice: int | None) -> None:
        best = ", ".join(labels[i] for i in question.answers)
        picked = labels[choice] if choice is not None else t("quiz.none")
        mine = f"{float(row[choice]):.3f}" if choice is not None else "–"
        st.markdown(t("quiz.attn.answer", best=best, weight=f"{question.weight:.3f}",
                      picked=picked, mine=mine))  # fmt: skip
        if question.tie:
            st.markdown(t("quiz.attn.tie", n=len(question.answers)))

    grade = lambda choice: (int(quiz.grade_attention(question, choice)), 1)  # noqa: E731
    return _ask(page, qid, ask, grade, show, quiz_poll.attention_poll(question, labels))


def choice_quiz(
    page: str, qid: str, ask: Callable[[str], Any], grade: Callable[[Any], tuple[int, int]],
    show: Callable[[Any], None], poll: dict[str, Any],
) -> bool:  # fmt: skip
    """A page's own single-choice question: `ask(key)` draws it and returns the answer,
    `grade(answer)` gives (right, asked), `show(answer)` explains after Reveal, `poll` is the
    same question for a class (`analysis.quiz_poll`). True once revealed."""
    return _ask(page, qid, ask, grade, show, poll)


def draw_quiz(page: str, qid: str, tokens: Sequence[str], kinds: Sequence[int]) -> bool:
    """The masking question for one draw (`mask_quiz`); True when there is nothing to ask."""
    try:
        question = quiz.mask_question(tokens, kinds)
    except ValueError:
        st.info(t("quiz.mask.nothing"), icon=":material/casino:")
        return True
    return mask_quiz(page, qid, question, tokens)
