"""BERT inputs: how masked-LM and next-sentence training examples are built, token by token."""

from __future__ import annotations

import streamlit as st

from explorer_core.bert.pretrained import PretrainedUnavailable
from explorer_core.files import tables
from explorer_core.inputs.pairs import (
    IS_NEXT,
    lines_without_tab,
    make_nsp_examples,
    parse_tab_pairs,
    tutorial_example,
)
from explorer_core.ui import quiz
from explorer_core.ui.attention import (
    corpus_pairs,
    minilm_tokenizer,
    mlm_draw,
    mlm_shares,
    pair_layout,
    word_level_tokenizer,
)
from explorer_core.ui.export import download_csv, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.state import bound, init, share_link, url_synced
from explorer_core.viz import attention as viz

KINDS = ("none", "mask", "random", "keep", "special")
EXPECTED = {"mask": 0.12, "random": 0.015, "keep": 0.015}
LIMIT = 512  # MiniLM's positions
DEFAULTS = {
    "inputs.text": "The quick brown fox jumps over the lazy dog near the quiet river bank.",
    "inputs.seed": 0, "inputs.draws": 1000, "inputs.nsp_source": "en", "inputs.nsp_seed": 0,
    "inputs.pairs": "The cat sat on the mat.\tThen it fell asleep.\n"
                    "Rain fell all night.\tThe streets were wet in the morning.\n"
                    "She opened the book.\tThe first page was blank.",
    "inputs.max_len": 24, "inputs.example": 0, "inputs.predict": False,
}  # fmt: skip
init(DEFAULTS)
url_synced("inputs.nsp_source", ("en", "zh", "own"))  # translated labels: kept as codes
LINKED = ("inputs.text", "inputs.seed", "inputs.draws", "inputs.nsp_source", "inputs.nsp_seed",
          "inputs.max_len")  # fmt: skip
SEEDS = (0, 1_000_000)


def reroll() -> None:
    st.session_state["inputs.seed"] = int(st.session_state["inputs.seed"]) + 1


st.title(t("inputs.title"))
st.markdown(t("inputs.intro"))
try:
    tokenizer = minilm_tokenizer()
except (ImportError, PretrainedUnavailable):
    st.warning(t("inputs.no_tokenizer"))
    st.stop()

st.header(t("inputs.mlm.head"))
text = st.text_input(t("inputs.text"), max_chars=3000, **bound("inputs.text", DEFAULTS))
col_seed, col_button = st.columns([3, 1], vertical_alignment="bottom")
seed = int(col_seed.number_input(t("inputs.seed"), **bound("inputs.seed", DEFAULTS, span=SEEDS)))
col_button.button(t("inputs.reroll"), on_click=reroll, icon=":material/casino:")
predicting = quiz.predict_toggle("inputs")  # hide this draw's outcome until Reveal
link = share_link(LINKED, defaults=DEFAULTS)  # before any st.stop, so error views keep their link
draw = mlm_draw(tokenizer, text, seed) if text.strip() else None
if draw is None:
    st.warning(t("inputs.empty"))
elif len(draw.ids) > LIMIT:
    st.error(t("inputs.too_long", n=len(draw.ids), limit=LIMIT))
elif not predicting or quiz.draw_quiz("inputs", f"{seed}:{text}", draw.tokens, draw.kinds):
    names = [t(f"inputs.kind.{kind}") for kind in KINDS]
    fig = viz.kind_strip(
        draw.tokens,
        draw.shown,
        draw.kinds,
        names,
        title=t("inputs.strip.title"),
        position_title=t("inputs.axis.position"),
        kind_title=t("inputs.axis.kind"),
    )
    show_chart(fig, "inputs.chart.strip")  # fmt: skip
    for col, code in zip(st.columns(4), (1, 2, 3, 0), strict=True):
        col.metric(names[code], draw.kinds.count(code))
    columns = [t(f"inputs.col.{c}") for c in ("position", "token", "kind", "shown", "label")]
    frame = viz.mlm_frame(draw.tokens, draw.shown, draw.kinds, draw.labels, names, columns)
    st.dataframe(frame, hide_index=True, height=240)
    download_csv(frame, f"mlm-draw-seed-{seed}", "inputs.dl.draw", label=t("inputs.dl.draw"))
    st.caption(t("inputs.strip.caption", seed=seed))
    st.markdown(t("inputs.why_specials"))
    st.markdown(t("inputs.where_loss"))
    st.subheader(t("inputs.draws.head"))
    draws = st.select_slider(
        t("inputs.draws"), **bound("inputs.draws", DEFAULTS, choices=(10, 100, 1000, 5000))
    )
    shares = mlm_shares("minilm", draw, int(draws), seed)
    kind_names = {kind: t(f"inputs.kind.{kind}") for kind in EXPECTED}
    show_chart(
        viz.shares_figure(shares, EXPECTED, kind_names, title=t("inputs.draws.title"),
                          x_title=t("inputs.axis.draws"), y_title=t("inputs.axis.share")),
        "inputs.chart.shares",
    )  # fmt: skip
    for col, kind in zip(st.columns(3), EXPECTED, strict=True):
        col.metric(
            kind_names[kind],
            f"{100 * shares[kind][-1]:.2f}%",
            f"{100 * (shares[kind][-1] - EXPECTED[kind]):+.2f}",
            delta_color="off",
        )
    download_csv(lambda: tables.shares_frame(shares),
                 f"mlm-shares-{draws}-draws-seed-{seed}", "inputs.dl.shares",
                 label=t("inputs.dl.shares"))  # fmt: skip
    st.caption(t("inputs.draws.caption", draws=draws, n=len(draw.ids) - 2))  # fmt: skip

st.header(t("inputs.nsp.head"))
st.markdown(t("inputs.nsp.intro"))
source = st.segmented_control(
    t("inputs.nsp.source"), ("en", "zh", "own"), key="inputs.nsp_source",
    format_func=lambda v: t(f"inputs.nsp.src.{v}"),
) or "en"  # fmt: skip
if source == "own":
    raw = st.text_area(t("inputs.pairs"), key="inputs.pairs", help=t("inputs.pairs.help"))
    bad = lines_without_tab(raw.splitlines())
    if bad:
        st.error(t("inputs.no_tab", lines=", ".join(map(str, bad[:10]))))
        st.stop()
    pairs = parse_tab_pairs(raw.splitlines())
else:
    pairs = corpus_pairs(source)
if len(pairs) < 2:
    st.warning(t("inputs.need_two"))
    st.stop()
col_s, col_l = st.columns(2)
nsp_seed = int(
    col_s.number_input(t("inputs.nsp_seed"), **bound("inputs.nsp_seed", DEFAULTS, span=SEEDS))
)
max_len = col_l.slider(t("inputs.max_len"), **bound("inputs.max_len", DEFAULTS, span=(8, 64)))
examples = make_nsp_examples(pairs, seed=nsp_seed)
label_name = {0: t("inputs.nsp.is_next"), 1: t("inputs.nsp.not_next")}
shown = examples[:12]
nsp_columns = [t("inputs.col.a"), t("inputs.col.b"), t("inputs.col.nsp")]
st.dataframe(viz.nsp_frame(shown, label_name, nsp_columns))
download_csv(lambda: viz.nsp_frame(examples, label_name, nsp_columns),
             f"nsp-pairs-{source}-seed-{nsp_seed}", "inputs.dl.nsp",
             label=t("inputs.dl.nsp"))  # fmt: skip
share = sum(ex.label for ex in examples) / len(examples)
st.caption(t("inputs.nsp.caption", n=len(examples), share=f"{100 * share:.1f}", seed=nsp_seed))
st.session_state["inputs.example"] = min(st.session_state["inputs.example"], len(shown) - 1)
pick = st.selectbox(t("inputs.example"), range(len(shown)), key="inputs.example",
                    format_func=lambda i: f"{i}: {label_name[shown[i].label]}")  # fmt: skip
ex = shown[pick]
bert_rows, truncated = pair_layout(tokenizer, ex, max_len, nsp_seed)
st.dataframe(viz.layout_frame(bert_rows))
st.caption(t("inputs.layout.caption", truncated=truncated, n=max_len, seed=nsp_seed))

st.header(t("inputs.tut.head"))
st.markdown(t("inputs.tut.intro"))
words = word_level_tokenizer("zh" if source == "zh" else "en")
tut = tutorial_example(
    [tok.text for tok in words.explain(ex.a)], [tok.text for tok in words.explain(ex.b)],
    words.vocab, seq_len=max_len, seed=nsp_seed, is_next=ex.label == IS_NEXT,
)  # fmt: skip
tut_rows = {
    "tokens": tut.tokens, "bert_input": tut.bert_input, "segment_label": tut.segment_label,
    "bert_label": tut.bert_label, "is_next": [tut.is_next] + [""] * (max_len - 1),
}  # fmt: skip
st.dataframe(viz.layout_frame(tut_rows))
st.caption(t("inputs.tut.caption", size=len(words.vocab), n=max_len))
rows = ("start", "separator", "segments", "padding", "no_loss", "is_next", "vocab")
st.table(viz.conventions_frame(
    [(t(f"inputs.conv.{r}"), t(f"inputs.conv.{r}.bert"), t(f"inputs.conv.{r}.tut")) for r in rows],
    [t("inputs.conv.what"), t("inputs.conv.bert"), t("inputs.conv.tut")],
))  # fmt: skip
share_link(LINKED, link, DEFAULTS)
