"""Train a tokenizer on a built-in, pasted or uploaded corpus; replay every merge step by step."""

from __future__ import annotations

import streamlit as st

from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.tokenization.base import VocabTooSmall
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import bind, choices, init_page
from explorer_core.ui.state import (
    SHARED_TOKENIZER,
    SHARED_TOKENIZER_NAME,
    share_link,
    url_synced,
)
from explorer_core.ui.tokenizer_lab import calls as lab
from explorer_core.ui.tokenizer_lab import replay as lab_replay
from explorer_core.ui.tokenizer_lab import views as lab_views
from explorer_core.viz import tokenizer as viz

PLAY_SECONDS = 0.8  # one scrubber step per tick while playing
SOURCES, LANGS = choices("tok.train.source"), choices("tok.train.lang")
ALGORITHMS = choices("tok.train.algo")

DEFAULTS = init_page("lessons/tokenizer_train.py")  # declared in explorer_core/ui/settings.py
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
    **bind("tok.train.vocab"),
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
probe = st.text_input(t("tok.train.probe"), max_chars=400, **bind("tok.train.probe"))
share_link(*lab_views.linked(LINKED, link, DEFAULTS))
if viz.is_replayable(tokenizer):
    playing = bool(st.session_state["tok.train.play"])
    run_every = PLAY_SECONDS if playing else None
    st.fragment(lab_replay.replay, run_every=run_every)(
        tokenizer, trace, trained_algo, probe, playing
    )
else:
    lab_replay.final_views(tokenizer, trace, trained_algo, probe)
