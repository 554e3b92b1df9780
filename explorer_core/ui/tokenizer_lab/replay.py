"""The Tokenizer Lab after training: the probe sentence re-cut, and every view of merge step k.

`replay` is the scrubber and the views of step k (the probe after k merges, the candidate pairs,
tokens per character, the merge list, downloads); the page runs it as a fragment that reruns on
its own while "play" is on. `final_views` is what a tokenizer without a merge replay shows
(WordPiece, Unigram, word-level): the probe and the training trace.
"""

from __future__ import annotations

import streamlit as st

from explorer_core.tokenization import Tokenizer
from explorer_core.ui import quiz
from explorer_core.ui.export import show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.tokenizer_lab import views as lab_views
from explorer_core.viz import tokenizer as viz
from explorer_core.viz.tokens import spans_html

K_KEY, PLAY_KEY = "tok.train.k", "tok.train.play"


def columns() -> dict[str, str]:
    """Column names of the candidate and merge tables, in the UI language."""
    names = {k: t(f"tok.train.col.{k}") for k in ("rank", "place", "left", "right", "count")}
    return names | {"new token": t("tok.train.col.new"), "id": t("tok.train.col.id"),
                    "behind": t("tok.train.col.behind")}  # fmt: skip


def show_probe(tokenizer: Tokenizer, probe: str, k: int | None, heading: str) -> None:
    """The probe sentence cut by the tokenizer after `k` merges (None: the trained tokenizer)."""
    tokens = tokenizer.explain(probe, steps=k) if k is not None else tokenizer.explain(probe)
    st.subheader(heading)
    st.markdown(spans_html(tokens, probe), unsafe_allow_html=True)
    st.caption(t("tok.train.segmented.caption", tokens=len(tokens), chars=len(probe)))


def _step(playing: bool, total: int) -> int:
    """Step k from the session, one tick further while playing (play stops at the end)."""
    k = min(int(st.session_state[K_KEY]), total)
    if playing:
        k = min(total, k + max(1, total // 60))
    st.session_state[K_KEY] = k
    if playing and k >= total:
        st.session_state[PLAY_KEY] = False
    return k


def replay(tokenizer: Tokenizer, trace: list, algo: str, probe: str, playing: bool) -> None:
    """Scrubber and every view of step k; reruns on its own (a fragment) while playing."""
    total = len(tokenizer.merges)
    k = _step(playing, total)
    scrub, play = st.columns([6, 1], vertical_alignment="bottom")
    if total:
        scrub.slider(t("tok.train.k"), 0, total, key=K_KEY, help=t("tok.train.k.help"))
    play.toggle(t("tok.train.play"), key=PLAY_KEY, disabled=not total)
    if st.session_state[PLAY_KEY] != playing:
        st.rerun()  # switch the fragment's timer on or off
    lab_views.keep_step_in_url(k, playing)
    show_probe(tokenizer, probe, k, t("tok.train.segmented", k=k, total=total))
    predicting = quiz.predict_toggle("tok.train")
    shown = k >= total or lab_views.merge_question(tokenizer, k, predicting)
    names = columns()
    if k < total and shown:
        st.subheader(t("tok.train.cands", rank=k + 1))
        st.dataframe(viz.candidate_frame(tokenizer, k).rename(columns=names), hide_index=True)
        st.caption(t("tok.train.cands.caption", rank=k + 1))
    elif k >= total:
        st.info(t("tok.train.cands.end", total=total), icon=":material/flag:")
    frame = viz.tokens_per_char_frame(tokenizer, k)
    labels = {s: t(f"tok.train.curve.{s}") for s in viz.SCRIPTS}
    figure = viz.tokens_per_char_figure(
        frame, k, labels, title=t("tok.train.curve.title"), x_title=t("tok.train.curve.x"),
        y_title=t("tok.train.curve.y"),
    )  # fmt: skip
    show_chart(figure, "tok.train.curve")
    st.caption(t("tok.train.curve.caption"))
    st.subheader(t("tok.train.merges"))
    show_all = st.toggle(t("tok.train.merges.all"), key="tok.train.all")
    merges = viz.merge_frame(tokenizer, around=None if show_all else k)
    merges = merges if shown else lab_views.merges_before(merges, tokenizer, k)
    st.dataframe(merges.rename(columns=names), hide_index=True, height=320)
    st.caption(t("tok.train.merges.caption"))
    if shown:
        lab_views.lab_downloads(tokenizer, trace, algo)


def final_views(tokenizer: Tokenizer, trace: list, algo: str, probe: str) -> None:
    """The probe and the training trace of a tokenizer without a merge replay."""
    show_probe(tokenizer, probe, None, t("tok.train.final"))
    st.subheader(t("tok.train.trace"))
    trace_table = viz.trace_frame(trace)
    names = {c: t(f"tok.trace.col.{c}") for c in trace_table.columns}
    st.dataframe(trace_table.rename(columns=names), hide_index=True, height=360)
    st.caption(t("tok.train.trace.caption", algo=t(f"tok.train.algo.{algo}"), steps=len(trace)))
    lab_views.lab_downloads(tokenizer, trace, algo)
