"""The Similarity page's three heavier views, one at a time, for one model: the cosine matrix of a
list of sentences, the nearest neighbours of a query in it, and predicted vs gold scores on the
dev/test pairs. Each draws its chart, table, downloads and caption; the page picks the view."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import streamlit as st

from explorer_core.analysis.similarity import cosine_matrix, nearest_neighbours, sentence_list
from explorer_core.files import tables
from explorer_core.training.metrics import spearman
from explorer_core.ui.export import download_csv, download_projector, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import bind
from explorer_core.ui.training import calls as ui
from explorer_core.viz import training as viz
from explorer_core.viz.common import heatmap

Embed = Callable[[list[str]], np.ndarray]  # sentences -> (N, H) unit rows of the chosen model


def sentence_rows(embed: Embed, model_name: str) -> tuple[list[str], np.ndarray, object]:
    """The list box's sentences, their vectors and Projector metadata; stops below two."""
    texts = sentence_list(st.text_area(t("sim.list"), height=200, **bind("sim.list")))
    if len(texts) < 2:
        st.warning(t("sim.list.short"))
        st.stop()
    return texts, embed(texts), tables.sentence_metadata(texts, model_name)


def matrix_view(embed: Embed, kind: str, model_name: str, caption: str) -> None:
    """Every pairwise cosine of the list, as a heatmap with its CSV and Projector files."""
    texts, rows, meta = sentence_rows(embed, model_name)
    labels = [f"{i + 1}. {s if len(s) <= 28 else s[:26] + '…'}" for i, s in enumerate(texts)]
    fig = heatmap(
        cosine_matrix(rows), x=labels, y=labels, diverging=True, zmin=-1.0, zmax=1.0,
        title=t("sim.matrix.title"), x_title=t("sim.axis.sentence"),
        y_title=t("sim.axis.sentence"), value_title=t("sim.axis.cosine"),
        text_format=".2f" if len(texts) <= 12 else None, height=max(460, 34 * len(texts) + 220),
    )  # fmt: skip
    fig.update_yaxes(autorange="reversed")
    show_chart(fig, "sim.matrix_chart")
    row = st.container(horizontal=True)
    download_csv(lambda: tables.similarity_frame(cosine_matrix(rows), texts), "similarity-matrix",
                 "sim.dl.matrix", row, label=t("sim.dl.matrix"))  # fmt: skip
    download_projector(rows, meta, f"sentences-{kind}", "sim.dl.projector", row)
    st.caption(t("sim.matrix.caption", n=len(texts), model=caption))


def neighbours_view(embed: Embed, kind: str, model_name: str, caption: str, k: int) -> None:
    """The `k` sentences of the list closest to the query (k: the declared default)."""
    texts, rows, meta = sentence_rows(embed, model_name)
    query = st.text_input(t("sim.query"), max_chars=300, **bind("sim.query")).strip()
    k = st.slider(t("sim.k"), **bind("sim.k", default=min(k, len(texts)), span=(1, len(texts))))
    if not query:
        st.warning(t("sim.empty"))
        st.stop()
    best = nearest_neighbours(embed([query])[0], rows, min(k, len(texts)))
    fig = viz.neighbours_figure(
        [texts[i] for i, _ in best], [c for _, c in best], title=t("sim.nn.title"),
        x_title=t("sim.axis.cosine"), y_title=t("sim.axis.sentence"),
    )  # fmt: skip
    show_chart(fig, "sim.nn_chart")
    row = st.container(horizontal=True)
    download_csv(lambda: tables.neighbours_table(query, texts, best), "neighbours",
                 "sim.dl.neighbours", row, label=t("sim.dl.neighbours"))  # fmt: skip
    download_projector(rows, meta, f"sentences-{kind}", "sim.dl.projector", row)
    st.caption(t("sim.nn.caption", k=len(best), model=caption))


def pairs_view(encoder: object, key: str, kind: str, pooling: str, caption: str) -> None:
    """Predicted cosine vs gold score on the session's (or built-in) dev or test pairs."""
    session = st.session_state.get(ui.PARTS_KEY)
    name, parts = session if session else ("", ui.builtin_parts())
    split = st.segmented_control(
        t("sim.split"), ("dev", "test"), key="sim.split", format_func=lambda s: t(f"sim.split.{s}")
    ) or "dev"  # fmt: skip
    st.caption(t("sim.data.session", name=name) if session else t("sim.data.builtin"))
    pairs = parts.get(split) or []
    if len(pairs) < 2:
        st.info(t("sim.data.none", split=t(f"sim.split.{split}")))
        st.stop()
    texts = tuple((p.sentence1, p.sentence2) for p in pairs)
    cos = ui.cached_pair_cosines(key, pooling, texts, encoder)
    frame = viz.pairs_frame(*zip(*texts, strict=True), [p.score for p in pairs], cos)
    rho = spearman(frame["cosine"].tolist(), frame["gold"].tolist())
    st.metric(t("sim.rho"), f"{rho:.3f}")
    fig = viz.scatter_figure(
        frame, title=t("sim.scatter.title", split=t(f"sim.split.{split}"), rho=f"{rho:.3f}"),
        x_title=t("sim.axis.gold"), y_title=t("sim.axis.predicted"),
        error_title=t("sim.axis.error"),
    )  # fmt: skip
    show_chart(fig, "sim.scatter_chart")
    download_csv(frame, f"pairs-{split}-{kind}", "sim.dl.pairs", label=t("sim.dl.pairs"))
    st.caption(t("sim.scatter.caption", n=len(frame), model=caption))
    st.subheader(t("sim.worst.head"))
    worst = frame.reindex(frame["error"].abs().sort_values(ascending=False).index).head(10)
    worst = worst.drop(columns="cosine")  # on the chart already; keeps the sentences readable
    worst = worst.rename(columns={c: t(f"sim.col.{c}") for c in worst.columns})
    st.dataframe(worst.style.format(precision=2), hide_index=True)
