"""The Position encodings page's main view: one scheme's table (or distance matrix) beside the
position similarity it gives, with both as CSV, and the metrics past the trained length."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import streamlit as st

from explorer_core.analysis import positions as pa
from explorer_core.bert.positional import sinusoidal_table
from explorer_core.files.tables import grid_frame
from explorer_core.ui.embeddings.calls import SourceUnavailable, pretrained_position_table
from explorer_core.ui.export import download_csv, show_chart
from explorer_core.ui.i18n import t
from explorer_core.viz import positional as viz

RELATIVE_SHOWN = 48  # positions drawn for the relative scheme: a thin band on 512, so zoom in


@dataclass(frozen=True)
class Sliders:
    """The page's shared sliders."""

    length: int  # positions
    dim: int  # model width
    base: float  # the sinusoid's and RoPE's base (10 000 in the papers)
    clip: int  # relative distances are clipped to ±clip
    trained: int  # the length the model was trained on


def _table(scheme: str, s: Sliders, where: Any) -> tuple[Any, tuple, str]:
    """Draw the scheme's table in `where`: (similarity, grid for the CSV, its origin)."""
    axes = dict(x_title=t("emb.pos.axis.dim"), y_title=t("emb.pos.axis.pos"),
                value_title=t("emb.pos.axis.value"))  # fmt: skip
    if scheme == "sinusoidal":
        table = sinusoidal_table(s.length, s.dim, s.base)
        figure = viz.table_figure(table, trained_length=s.trained, title=t("emb.pos.sin.title"),
                                  **axes)  # fmt: skip
        similarity = pa.sinusoidal_similarity(s.length, s.dim, s.base)
        grid, origin = (table, "position", "dim_"), t("emb.pos.origin.formula")
    elif scheme == "learned":
        try:
            table = pretrained_position_table(s.length)
        except SourceUnavailable as err:
            st.warning(t(err.key, **err.values))
            st.stop()
        figure = viz.table_figure(table, title=t("emb.pos.learned.title"), **axes)
        similarity = pa.position_similarity(table, normalise=True)
        grid, origin = (table, "position", "dim_"), t("emb.pos.origin.pretrained")
    elif scheme == "relative":
        shown = min(s.length, RELATIVE_SHOWN)
        table = pa.relative_distance_matrix(shown, s.clip)
        figure = viz.square_figure(
            table, text_format=".0f", title=t("emb.pos.rel.title", clip=s.clip, shown=shown),
            value_title=t("emb.pos.axis.distance"), x_title=t("emb.pos.axis.key"),
            y_title=t("emb.pos.axis.query"),
        )  # fmt: skip
        similarity = pa.relative_bias_matrix(shown, s.clip, s.dim, seed=0)
        grid, origin = (table, "query", "key_"), t("emb.pos.origin.fresh")
    else:
        table = pa.rope_cos_table(s.length, s.dim, s.base)
        figure = viz.table_figure(
            table, trained_length=s.trained, title=t("emb.pos.rope.title"),
            x_title=t("emb.pos.axis.pair"), y_title=t("emb.pos.axis.pos"), value_title="cos(m·θᵢ)",
        )  # fmt: skip
        similarity = pa.rope_score_matrix(s.length, s.dim, s.base)
        grid, origin = (table, "position", "pair_"), t("emb.pos.origin.formula")
    show_chart(figure, "emb.pos.table", where)
    return similarity, grid, origin


def scheme_view(scheme: str, s: Sliders) -> None:
    """The scheme's table and its position similarity side by side, their CSVs, a caption."""
    left, right = st.columns(2)
    similarity, grid, origin = _table(scheme, s, left)
    show_chart(
        viz.square_figure(
            similarity, title=t(f"emb.pos.sim.title.{scheme}"),
            value_title=t("emb.pos.axis.bias" if scheme == "relative" else "emb.pos.axis.cosine"),
            x_title=t("emb.pos.axis.key"), y_title=t("emb.pos.axis.query"),
        ),
        "emb.pos.similarity", right,
    )  # fmt: skip
    row = st.container(horizontal=True)
    download_csv(lambda: grid_frame(*grid), f"positions-{scheme}", "emb.pos.dl.table", row,
                 label=t("emb.pos.dl.table"), index=True)  # fmt: skip
    sim_grid = (similarity, "query", "key_")
    download_csv(lambda: grid_frame(*sim_grid), f"similarity-{scheme}", "emb.pos.dl.similarity",
                 row, label=t("emb.pos.dl.similarity"), index=True)  # fmt: skip
    values = dict(length=s.length, dim=s.dim, base=int(s.base), clip=s.clip)
    st.caption(t(f"emb.pos.caption.{scheme}", **values) + " " + origin)


def beyond_trained(s: Sliders) -> None:
    """What each scheme does past the trained length: three metrics and the explanation."""
    st.subheader(t("emb.pos.beyond.head", n=s.trained))
    b1, b2, b3 = st.columns(3)
    b1.metric(t("emb.pos.beyond.sin"), t("emb.pos.beyond.sin_value"))
    unseen = pa.pairs_unseen_beyond(s.dim, s.base, s.trained)
    b2.metric(t("emb.pos.beyond.rope"), f"{unseen} / {s.dim // 2}")
    if pa.learned_reaches(s.trained, s.length):
        b3.metric(t("emb.pos.beyond.learned"), t("emb.pos.beyond.learned_ok"))
    else:
        b3.metric(t("emb.pos.beyond.learned"), t("emb.pos.beyond.learned_value", n=s.trained))
    st.markdown(t("emb.pos.beyond.text", n=s.trained, unseen=unseen, pairs=s.dim // 2,
                  clip=s.clip))  # fmt: skip
