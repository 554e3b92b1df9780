"""The BERT inputs page's views: one MLM draw token by token with the shares over many draws,
and the from-scratch tutorial's layout of the same NSP pair beside BERT's conventions."""

from __future__ import annotations

import streamlit as st

from explorer_core.files import tables
from explorer_core.inputs.pairs import IS_NEXT, NspExample, tutorial_example
from explorer_core.ui.attention.calls import MlmDraw, mlm_shares, word_level_tokenizer
from explorer_core.ui.export import download_csv, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import bind
from explorer_core.viz import attention as viz

KINDS = ("none", "mask", "random", "keep", "special")
EXPECTED = {"mask": 0.12, "random": 0.015, "keep": 0.015}  # 15% x 80 / 10 / 10
CONVENTIONS = ("start", "separator", "segments", "padding", "no_loss", "is_next", "vocab")


def mlm_views(draw: MlmDraw, seed: int) -> None:
    """The draw as a coloured strip, counts and a table; then the shares over many draws."""
    names = [t(f"inputs.kind.{kind}") for kind in KINDS]
    fig = viz.kind_strip(
        draw.tokens, draw.shown, draw.kinds, names, title=t("inputs.strip.title"),
        position_title=t("inputs.axis.position"), kind_title=t("inputs.axis.kind"),
    )  # fmt: skip
    show_chart(fig, "inputs.chart.strip")
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
    draws = st.select_slider(t("inputs.draws"), **bind("inputs.draws"))
    shares = mlm_shares("minilm", draw, int(draws), seed)
    kind_names = {kind: t(f"inputs.kind.{kind}") for kind in EXPECTED}
    show_chart(
        viz.shares_figure(shares, EXPECTED, kind_names, title=t("inputs.draws.title"),
                          x_title=t("inputs.axis.draws"), y_title=t("inputs.axis.share")),
        "inputs.chart.shares",
    )  # fmt: skip
    for col, kind in zip(st.columns(3), EXPECTED, strict=True):
        col.metric(
            kind_names[kind], f"{100 * shares[kind][-1]:.2f}%",
            f"{100 * (shares[kind][-1] - EXPECTED[kind]):+.2f}", delta_color="off",
        )  # fmt: skip
    download_csv(lambda: tables.shares_frame(shares),
                 f"mlm-shares-{draws}-draws-seed-{seed}", "inputs.dl.shares",
                 label=t("inputs.dl.shares"))  # fmt: skip
    st.caption(t("inputs.draws.caption", draws=draws, n=len(draw.ids) - 2))


def tutorial_view(ex: NspExample, lang: str, max_len: int, seed: int) -> None:
    """The tutorial's four tensors for the same pair, and the two conventions side by side."""
    st.header(t("inputs.tut.head"))
    st.markdown(t("inputs.tut.intro"))
    words = word_level_tokenizer(lang)
    tut = tutorial_example(
        [tok.text for tok in words.explain(ex.a)], [tok.text for tok in words.explain(ex.b)],
        words.vocab, seq_len=max_len, seed=seed, is_next=ex.label == IS_NEXT,
    )  # fmt: skip
    tut_rows = {
        "tokens": tut.tokens, "bert_input": tut.bert_input, "segment_label": tut.segment_label,
        "bert_label": tut.bert_label, "is_next": [tut.is_next] + [""] * (max_len - 1),
    }  # fmt: skip
    st.dataframe(viz.layout_frame(tut_rows))
    st.caption(t("inputs.tut.caption", size=len(words.vocab), n=max_len))
    rows = [(t(f"inputs.conv.{r}"), t(f"inputs.conv.{r}.bert"), t(f"inputs.conv.{r}.tut"))
            for r in CONVENTIONS]  # fmt: skip
    st.table(viz.conventions_frame(
        rows, [t("inputs.conv.what"), t("inputs.conv.bert"), t("inputs.conv.tut")]
    ))  # fmt: skip
