"""Attention page views: the query/key pickers (kept in the URL) and a click on a heatmap cell that
sets them, "which token does this head look at most?", the three views (one head with the
arithmetic of one weight, every layer and head, the masks) and the page's downloads (every weight
as JSON, one head and one cell as CSV).

The page draws them inside one `st.fragment`: changing the layer, head, view, query or key (or
clicking a cell) reruns only that part; the model run above it comes from the cache."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import streamlit as st

from explorer_core.analysis import quiz
from explorer_core.bert.attention import CellArithmetic
from explorer_core.files import export, tables
from explorer_core.ui import quiz as ask
from explorer_core.ui.attention.calls import AttentionRun, Encoded, ModelSource, explain
from explorer_core.ui.export import download_csv, download_json, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.state import url_synced
from explorer_core.viz import attention as viz

PAGE = "attn"
OVERVIEW_LIMIT = 64  # tokens: beyond this the overview's small squares are unreadable
CLICKABLE = ("attn.chart.head", "attn.chart.scores")  # a click on a cell picks query and key


def clicked_cell(points: Sequence[dict], labels: Sequence[str]) -> tuple[int, int] | None:
    """(query, key) positions of the first clicked heatmap cell (x: key label, y: query label).

    >>> clicked_cell([{"x": "2 · sat", "y": "1 · cat", "z": 0.3}], ["0 · a", "1 · cat", "2 · sat"])
    (1, 2)
    >>> clicked_cell([], ["0 · a"]) is None
    True
    """
    for point in points:
        if point.get("y") in labels and point.get("x") in labels:
            return list(labels).index(point["y"]), list(labels).index(point["x"])
    return None


def pick_clicked(chart_key: str, labels: Sequence[str]) -> None:
    """Callback of a clickable heatmap: its clicked cell becomes the query and key pickers'."""
    selection = (st.session_state.get(chart_key) or {}).get("selection") or {}
    cell = clicked_cell(selection.get("points") or [], labels)
    if cell is not None:
        st.session_state["attn.query"], st.session_state["attn.key"] = cell


def pickers(labels: Sequence[str]) -> tuple[int, int]:
    """The query and key selectboxes ("attn.query", "attn.key"), positions kept in the URL."""
    positions = range(len(labels))
    for name in ("attn.query", "attn.key"):
        url_synced(name, positions)  # a position: the same link text in either language
        st.session_state[name] = min(max(0, int(st.session_state[name])), len(labels) - 1)
    col_q, col_k = st.columns(2)
    query = col_q.selectbox(t("attn.query"), positions, key="attn.query",
                            format_func=labels.__getitem__)  # fmt: skip
    key = col_k.selectbox(t("attn.key"), positions, key="attn.key",
                          format_func=labels.__getitem__)  # fmt: skip
    return query, key


def head_question(
    weights: np.ndarray, allowed: np.ndarray, labels: Sequence[str], query: int, view: str
) -> bool:
    """Ask which key `query` attends to most in this head (weights (T, T), allowed (T, T) bool).

    `view` identifies the sentence, model, layer and head; True when the answer may be shown.
    """
    if not ask.predict_toggle(PAGE):
        return True
    question = quiz.attention_question(weights[query], query, allowed[query])
    return ask.attention_quiz(PAGE, f"{view}|q{query}", question, labels, weights[query])


def all_weights_download(
    run_weights: np.ndarray, tokens: Sequence[str], mask: Sequence[int], model: str, causal: bool,
    container: Any = None,
) -> None:  # fmt: skip
    """Every weight of the shown sentence as JSON: `run_weights` is (L, H, T, T)."""
    download_json(lambda: tables.attention_record(run_weights, tokens, mask, model, causal),
                  f"{export.file_stem('attention', model)}-all-weights", "attn.dl.all", container,
                  label=t("attn.dl.all"))  # fmt: skip


def head_downloads(
    run_weights: np.ndarray, weights: np.ndarray, cell: CellArithmetic, tokens: Sequence[str],
    mask: Sequence[int], model: str, causal: bool, where: dict[str, Any],
) -> None:  # fmt: skip
    """All weights of the sentence (JSON), this head (CSV), this cell's dot product (CSV).

    `run_weights` is (L, H, T, T) for the shown sentence; `where` names layer and head (from 1).
    """
    labels = viz.token_labels(tokens)
    head = export.file_stem("attention", model, "layer", where["layer"], "head", where["head"])
    cols = st.columns(3)
    all_weights_download(run_weights, tokens, mask, model, causal, cols[0])
    download_csv(lambda: export.labelled_matrix(weights, labels, labels), head, "attn.dl.head",
                 cols[1], label=t("attn.dl.head"), index=True)  # fmt: skip
    columns = [t("attn.dot.dim"), "q", "k", "q × k"]
    download_csv(lambda: viz.dot_product_frame(cell, columns),
                 f"{head}-query-{cell.query}-key-{cell.key}", "attn.dl.cell", cols[2],
                 label=t("attn.dl.cell"))  # fmt: skip


@dataclass(frozen=True)
class Shown:
    """What the views draw: one row of the batch through one model, and where it came from."""

    source: ModelSource
    enc: Encoded
    run: AttentionRun
    row: int
    causal: bool
    pair: bool  # a sentence pair: A/B blocks outlined, the block table on the masks view
    caption: str  # "where the numbers come from", for the captions

    @property
    def labels(self) -> list[str]:
        return viz.token_labels(self.enc.tokens[self.row])


def overview(shown: Shown) -> None:
    """Every head of every layer as small multiples (the first OVERVIEW_LIMIT tokens)."""
    tokens = shown.enc.tokens[shown.row]
    cut = min(len(tokens), OVERVIEW_LIMIT)
    if cut < len(tokens):
        st.info(t("attn.overview.cut", n=len(tokens), limit=OVERVIEW_LIMIT))
    fig = viz.overview_figure(
        shown.run.weights[shown.row, :, :, :cut, :cut], title=t("attn.overview.title"),
        layer_title=t("attn.axis.layer"), head_title=t("attn.axis.head"),
        value_title=t("attn.axis.weight"), query_title=t("attn.axis.query"),
        key_title=t("attn.axis.key"),
    )  # fmt: skip
    show_chart(fig, "attn.chart.overview")
    st.caption(t("attn.overview.caption", src=shown.caption, n=cut))
    all_weights_download(shown.run.weights[shown.row], tokens, shown.enc.attention_mask[shown.row],
                         shown.source.label, shown.causal)  # fmt: skip


def one_head(shown: Shown, layer: int, head: int, query: int, key: int) -> None:
    """Weights and scores of one head (click a cell to pick it), then one weight step by step."""
    weights = shown.run.weights[shown.row, layer - 1, head - 1]  # (T, T)
    scores = shown.run.scores[shown.row, layer - 1, head - 1]  # (T, T)
    labels, row = shown.labels, shown.row
    axes = {"query_title": t("attn.axis.query"), "key_title": t("attn.axis.key")}
    segments = shown.enc.token_type_ids[row] if shown.pair else None
    col_w, col_s = st.columns(2)
    pick = {"on_click": pick_clicked, "click_args": (labels,)}
    fig = viz.head_figure(weights, labels, title=t("attn.head.title", layer=layer, head=head),
                          value_title=t("attn.axis.weight"), segments=segments, **axes)  # fmt: skip
    show_chart(viz.add_click_targets(fig, labels, (query, key)), "attn.chart.head", col_w, **pick)
    title = t("attn.scores.title", layer=layer, head=head)
    fig = viz.scores_figure(scores, labels, value_title=t("attn.axis.score"), title=title, **axes)
    show_chart(viz.add_click_targets(fig, labels, (query, key)), "attn.chart.scores", col_s, **pick)
    st.caption(t("attn.head.caption", src=shown.caption) + " " + t("attn.cell.click"))
    st.subheader(t("attn.cell.title"))
    cell = explain(shown.source, shown.enc, row, shown.causal, layer=layer - 1, head=head - 1,
                   query=query, key=key)  # fmt: skip
    for col, (name, value) in zip(st.columns(5), viz.cell_steps(cell), strict=True):
        col.metric(t(f"attn.cell.{name}"), value)
    numbers = viz.cell_numbers(cell, labels)
    st.markdown(t("attn.cell.formula", **numbers))
    if cell.relative:
        st.markdown(t("attn.cell.relative", **numbers))
    show_chart(
        viz.row_figure(cell, labels, title=t("attn.row.title", query=labels[query]),
                       key_title=t("attn.axis.key"), score_title=t("attn.axis.score"),
                       weight_title=t("attn.axis.weight")),
        "attn.chart.row",
    )  # fmt: skip
    columns = [t("attn.dot.dim"), "q", "k", "q × k"]
    st.dataframe(viz.dot_product_frame(cell, columns), height=220, hide_index=True)
    st.caption(t("attn.cell.caption", d=cell.head_dim, src=shown.caption))
    head_downloads(shown.run.weights[row], weights, cell, shown.enc.tokens[row],
                   shown.enc.attention_mask[row], shown.source.label, shown.causal,
                   {"layer": layer, "head": head})  # fmt: skip


def masks(shown: Shown, layer: int, head: int) -> None:
    """Which keys each query may see; for a pair, how much weight stays inside each block."""
    labels = shown.labels
    axes = {"query_title": t("attn.axis.query"), "key_title": t("attn.axis.key")}
    show_chart(
        viz.allowed_figure(shown.run.allowed[shown.row], labels, title=t("attn.masks.title"),
                           value_title=t("attn.axis.allowed"), **axes),
        "attn.chart.mask",
    )  # fmt: skip
    st.caption(t("attn.masks.caption", src=shown.caption))
    st.markdown(t("attn.masks.explain"))
    if shown.pair:
        weights = shown.run.weights[shown.row, layer - 1, head - 1]
        names = [t("attn.block.a"), t("attn.block.b")]
        st.dataframe(viz.block_frame(weights, shown.enc.token_type_ids[shown.row],
                                     shown.enc.attention_mask[shown.row], names))  # fmt: skip
        st.caption(t("attn.block.caption", layer=layer, head=head, src=shown.caption))
