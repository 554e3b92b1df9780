"""Views of the Text -> tokens -> ids page: a tokenizer source's name, and the same text through
every tokenizer side by side (spans, counts per script, the comparison chart and its CSV)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from explorer_core.ui.export import download_csv, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.tokens import calls as cache
from explorer_core.viz import tokens as viz


def source_name(source: str, short: bool = False) -> str:
    if source in (cache.LAB, cache.BERT):
        kind = "short" if short else "src"
        return t(f"tok.encode.{kind}.{source}", name=cache.lab_name())
    algo = t(f"tok.encode.algo.{source}")
    return algo if short else t("tok.encode.src.algo", algo=algo)


def every_tokenizer(text: str, specials: bool, sources: Sequence[str]) -> None:
    """The text through each source: its spans and token count, then the table and chart of
    tokens per character (Chinese and other scripts apart)."""
    rows = {}
    with st.spinner(t("tok.encode.training")):
        for other in sources:
            other_tokenizer, other_key = cache.resolve(other)
            other_tokens = cache.encoded(other_key, other_tokenizer, text, specials)
            name = source_name(other, short=True)
            rows[name] = viz.script_counts(other_tokens, text)
            st.markdown(t("tok.encode.compare.tokens", name=name, n=len(other_tokens)))
            st.markdown(viz.spans_html(other_tokens, text), unsafe_allow_html=True)
    frame = viz.comparison_frame(rows)
    st.dataframe(
        frame.rename(
            columns={
                "tokenizer": t("tok.encode.col.tokenizer"),
                "tokens": t("tok.encode.col.tokens"),
                "per_char": t("tok.encode.col.per_char"),
                "per_cjk_char": t("tok.encode.col.per_cjk"),
                "per_other_char": t("tok.encode.col.per_other"),
            }
        ).style.format(precision=2),
        hide_index=True,
    )
    download_csv(frame, "tokenizers-compared", "tok.encode.dl.compare",
                 label=t("tok.encode.dl.compare"))  # fmt: skip
    figure = viz.comparison_figure(
        frame,
        title=t("tok.encode.chart.title"),
        x_title=t("tok.encode.chart.x"),
        y_title=t("tok.encode.chart.y"),
        series={
            "per_cjk_char": t("tok.encode.col.per_cjk"),
            "per_other_char": t("tok.encode.col.per_other"),
        },
    )
    show_chart(figure, "tok.encode.chart")
    st.caption(t("tok.encode.chart.caption", vocab=cache.DEFAULT_VOCAB))
