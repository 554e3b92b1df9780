"""Train a tokenizer on a built-in, pasted or uploaded corpus; replay every merge step by step."""

from __future__ import annotations

import streamlit as st

from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.tokenization import ALGORITHMS
from explorer_core.tokenization.base import VocabTooSmall
from explorer_core.ui import lab_views, quiz
from explorer_core.ui import tokenizer as lab
from explorer_core.ui.export import show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.state import (
    SHARED_TOKENIZER,
    SHARED_TOKENIZER_NAME,
    bound,
    init,
    share_link,
    url_synced,
)
from explorer_core.viz import tokenizer as viz
from explorer_core.viz.tokens import spans_html

PLAY_SECONDS = 0.8  # one scrubber step per tick while playing
SOURCES = ("builtin", "paste", "upload")
LANGS = ("mixed", "en", "zh")

DEFAULTS = {
    "tok.train.source": "builtin",
    "tok.train.lang": "mixed",
    "tok.train.paste": "",
    "tok.train.algo": "byte-bpe",
    "tok.train.vocab": 1000,
    "tok.train.k": 0,
    "tok.train.play": False,
    "tok.train.all": False,
    "tok.train.probe": t("tok.train.probe.default"),
    "tok.train.predict": False,
}
init(DEFAULTS)
for key, codes in (
    ("tok.train.source", SOURCES), ("tok.train.lang", LANGS), ("tok.train.algo", ALGORITHMS)
):  # fmt: skip
    url_synced(key, codes)  # translated labels: kept in the URL as codes
from_link = lab_views.step_from_url()  # a link with ?tok.train.k= trains on opening (built-in)
LINKED = ("tok.train.source", "tok.train.lang", "tok.train.algo", "tok.train.vocab",
          "tok.train.probe")  # fmt: skip

st.title(t("tok.train.title"))
st.markdown(t("tok.train.intro"))
source = st.segmented_control(
    t("tok.train.source"), SOURCES, key="tok.train.source",
    format_func=lambda s: t(f"tok.train.src.{s}"),
) or "builtin"  # fmt: skip
upload = None
if source == "builtin":
    lang = st.segmented_control(
        t("tok.train.lang"), LANGS, key="tok.train.lang",
        format_func=lambda s: t(f"tok.train.lang.{s}"),
    ) or "mixed"  # fmt: skip
    st.caption(t("tok.train.builtin.caption", chars=len(builtin_corpus(lang))))
elif source == "paste":
    st.text_area(
        t("tok.train.paste"), key="tok.train.paste", height=160,
        help=t("tok.train.paste.help", limit=lab.MAX_CORPUS_CHARS),
    )  # fmt: skip
else:
    upload = st.file_uploader(t("tok.train.upload"), type=["txt"], key="tok.train.upload")
left, right = st.columns(2)
algo = left.selectbox(
    t("tok.train.algo"), ALGORITHMS, key="tok.train.algo",
    format_func=lambda a: t(f"tok.train.algo.{a}"),
)  # fmt: skip
vocab = right.number_input(
    t("tok.train.vocab"), step=100, help=t("tok.train.vocab.help"),
    **bound("tok.train.vocab", DEFAULTS, span=(2, lab.MAX_VOCAB)),
)  # fmt: skip
link = share_link(LINKED, defaults=DEFAULTS)  # before any st.stop, so error views keep their link


def corpus_text() -> tuple[str, str]:
    """(corpus, a short label of where it came from); raises lab.CorpusProblem."""
    if source == "builtin":
        lang = st.session_state["tok.train.lang"] or "mixed"
        return builtin_corpus(lang), t("tok.train.builtin.label", lang=t(f"tok.train.lang.{lang}"))
    if source == "paste":
        return lab.check_text(st.session_state["tok.train.paste"]), t("tok.train.paste.label")
    if upload is None:
        raise lab.CorpusProblem("tok.train.err.no_file")
    return lab.decode_upload(upload.getvalue()), upload.name


go = st.button(t("tok.train.go"), key="tok.train.go", type="primary", icon=":material/play_arrow:")
auto = from_link and source == "builtin" and "tok.train.result" not in st.session_state
if go or auto:
    wanted_k = int(st.session_state["tok.train.k"])
    try:
        text, label = corpus_text()
        lab.check_vocab(algo, int(vocab))
        with st.spinner(t("tok.train.training")):
            tokenizer, trace = lab.train_tokenizer(algo, int(vocab), lab.corpus_hash(text), text)
    except lab.CorpusProblem as problem:
        st.error(t(problem.key, **problem.values), icon=":material/error:")
    except VocabTooSmall as err:
        st.error(
            t("tok.train.err.vocab_min", algo=t(f"tok.train.algo.{algo}"), minimum=err.minimum,
              requested=err.requested),
            icon=":material/error:",
        )  # fmt: skip
    except ValueError as err:
        st.error(t("tok.train.err.train", detail=str(err)), icon=":material/error:")
    else:
        st.session_state["tok.train.result"] = (tokenizer, trace, algo, label)
        st.session_state["tok.train.k"] = len(trace) if go else min(wanted_k, len(trace))
        st.session_state["tok.train.play"] = False
        st.session_state[SHARED_TOKENIZER] = tokenizer
        st.session_state[SHARED_TOKENIZER_NAME] = t(
            "tok.train.shared", algo=t(f"tok.train.algo.{algo}"), vocab=tokenizer.vocab_size
        )

result = st.session_state.get("tok.train.result")
if result is None:
    st.info(t("tok.train.hint"), icon=":material/info:")
    st.stop()
tokenizer, trace, trained_algo, label = result
algo_name = t(f"tok.train.algo.{trained_algo}")
st.success(
    t("tok.train.done", algo=algo_name, source=label, vocab=tokenizer.vocab_size, steps=len(trace)),
    icon=":material/check_circle:",
)
probe = st.text_input(t("tok.train.probe"), max_chars=400, **bound("tok.train.probe", DEFAULTS))
share_link(*lab_views.linked(LINKED, link, DEFAULTS))
COLUMNS = {k: t(f"tok.train.col.{k}") for k in ("rank", "place", "left", "right", "count")}
COLUMNS |= {"new token": t("tok.train.col.new"), "id": t("tok.train.col.id")}
COLUMNS |= {"behind": t("tok.train.col.behind")}


def show_probe(k: int | None, heading: str) -> None:
    tokens = tokenizer.explain(probe, steps=k) if k is not None else tokenizer.explain(probe)
    st.subheader(heading)
    st.markdown(spans_html(tokens, probe), unsafe_allow_html=True)
    st.caption(t("tok.train.segmented.caption", tokens=len(tokens), chars=len(probe)))


def replay(playing: bool) -> None:
    """Scrubber and every view of step k; reruns on its own (a fragment) while playing."""
    total = len(tokenizer.merges)
    k = min(int(st.session_state["tok.train.k"]), total)
    if playing:
        k = min(total, k + max(1, total // 60))
    st.session_state["tok.train.k"] = k
    if playing and k >= total:
        st.session_state["tok.train.play"] = False
    scrub, play = st.columns([6, 1], vertical_alignment="bottom")
    if total:
        scrub.slider(t("tok.train.k"), 0, total, key="tok.train.k", help=t("tok.train.k.help"))
    play.toggle(t("tok.train.play"), key="tok.train.play", disabled=not total)
    if st.session_state["tok.train.play"] != playing:
        st.rerun()  # switch the fragment's timer on or off
    lab_views.keep_step_in_url(k, playing)
    show_probe(k, t("tok.train.segmented", k=k, total=total))
    predicting = quiz.predict_toggle("tok.train")
    shown = k >= total or lab_views.merge_question(tokenizer, k, predicting)
    if k < total and shown:
        st.subheader(t("tok.train.cands", rank=k + 1))
        st.dataframe(viz.candidate_frame(tokenizer, k).rename(columns=COLUMNS), hide_index=True)
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
    st.dataframe(merges.rename(columns=COLUMNS), hide_index=True, height=320)
    st.caption(t("tok.train.merges.caption"))
    if shown:
        lab_views.lab_downloads(tokenizer, trace, trained_algo)


if viz.is_replayable(tokenizer):
    playing = bool(st.session_state["tok.train.play"])
    st.fragment(replay, run_every=PLAY_SECONDS if playing else None)(playing)
else:
    show_probe(None, t("tok.train.final"))
    st.subheader(t("tok.train.trace"))
    trace_table = viz.trace_frame(trace)
    names = {c: t(f"tok.trace.col.{c}") for c in trace_table.columns}
    st.dataframe(trace_table.rename(columns=names), hide_index=True, height=360)
    st.caption(t("tok.train.trace.caption", algo=algo_name, steps=len(trace)))
    lab_views.lab_downloads(tokenizer, trace, trained_algo)
