"""Attention page helpers: the query/key pickers (kept in the URL), "which token does this head
look at most?", and the page's downloads (every weight as JSON, one head and one cell as CSV)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import streamlit as st

from explorer_core.analysis import quiz
from explorer_core.bert.attention import CellArithmetic
from explorer_core.files import export, tables
from explorer_core.ui import quiz as ask
from explorer_core.ui.export import download_csv, download_json
from explorer_core.ui.i18n import t
from explorer_core.ui.state import url_synced
from explorer_core.viz import attention as viz

PAGE = "attn"


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
