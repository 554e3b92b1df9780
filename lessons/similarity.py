"""Similarity: the model trained in this session next to real MiniLM: cosine of two sentences, a
similarity matrix, nearest neighbours, and predicted vs gold scores on the dev/test pairs."""

from __future__ import annotations

import streamlit as st

from explorer_core.analysis.similarity import cosine_matrix, nearest_neighbours, sentence_list
from explorer_core.bert.pooling import POOLING_MODES
from explorer_core.files import tables
from explorer_core.training.metrics import spearman
from explorer_core.ui import training as ui
from explorer_core.ui.export import download_csv, download_json, download_projector, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.state import bound, init, share_link, url_synced
from explorer_core.viz import training as viz
from explorer_core.viz.common import heatmap

VIEWS = ("matrix", "neighbours", "pairs")
DEFAULTS = {
        "sim.a": t("sim.default_a"), "sim.b": t("sim.default_b"),
        "sim.pooling": "mean", "sim.view": "matrix", "sim.model": "trained",
        "sim.list": t("sim.default_list"), "sim.query": t("sim.default_query"), "sim.k": 5,
        "sim.split": "dev",
}  # fmt: skip
init(DEFAULTS)
for key, codes in (
    ("sim.pooling", POOLING_MODES),
    ("sim.view", VIEWS),
    ("sim.model", ("trained", "fresh", "minilm")),
    ("sim.split", ("dev", "test")),
):
    url_synced(key, codes)  # translated labels: kept in the URL as codes
LINKED = ("sim.a", "sim.b", "sim.pooling", "sim.view", "sim.model", "sim.list", "sim.query",
          "sim.k", "sim.split")  # fmt: skip
for key in ("sim.list", "sim.query", "sim.k"):  # subtle: keep text while its widget is hidden
    st.session_state[key] = st.session_state[key]

ui.sync_run()
shared, minilm = ui.shared_model(), ui.try_minilm()
st.title(t("sim.title"))
st.markdown(t("sim.intro"))
if shared is None:
    st.info(t("sim.no_trained"), icon=":material/info:")
if minilm is None:
    st.warning(t("sim.no_minilm"))
encoders = {}  # kind -> (TextEncoder, cache key, caption)
if shared is not None:
    encoders["trained"] = (ui.trained_encoder(shared), f"trained-{shared.uid}",
                           t(f"sim.src.{shared.source}", label=ui.model_label(shared)))  # fmt: skip
    if (fresh := ui.fresh_encoder(shared)) is not None:
        encoders["fresh"] = (fresh, f"fresh-{shared.uid}", t("sim.src.fresh"))
if minilm is not None:
    encoders["minilm"] = (minilm, "minilm", t("sim.src.minilm"))
if not encoders:
    st.error(t("sim.nothing"))
    st.stop()

pooling = st.segmented_control(
    t("sim.pooling"), POOLING_MODES, key="sim.pooling",
    format_func=lambda p: t(f"sim.pooling.{p}"),
) or "mean"  # fmt: skip
st.caption(t("sim.pooling.note"))


def vectors(kind: str, texts: list[str]):  # noqa: ANN201 - (N, H) unit rows, numpy
    encoder, key, _ = encoders[kind]
    return ui.cached_embed(key, pooling, tuple(texts), encoder)


# 1) two sentences, every model side by side
st.subheader(t("sim.pair.head"))
col_a, col_b = st.columns(2)
first = col_a.text_input(t("sim.a"), max_chars=300, **bound("sim.a", DEFAULTS)).strip()
second = col_b.text_input(t("sim.b"), max_chars=300, **bound("sim.b", DEFAULTS)).strip()
if first and second:
    pair_cos = {}  # model -> cosine of the two sentences
    for column, kind in zip(st.columns(len(encoders)), encoders, strict=True):
        u, v = vectors(kind, [first, second])
        pair_cos[kind] = float(u @ v)
        column.metric(t(f"sim.cos.{kind}"), f"{pair_cos[kind]:.3f}")
    models = " ".join(caption for _, _, caption in encoders.values())
    st.caption(t("sim.pair.caption", pooling=t(f"sim.pooling.{pooling}"), models=models))
    record = {"a": first, "b": second, "pooling": pooling, "cosine": pair_cos}
    download_json(record, "sentence-pair", "sim.dl.pair", label=t("sim.dl.pair"))
else:
    st.warning(t("sim.empty"))

# 2) one heavier view at a time, for one model
st.divider()
view = st.segmented_control(
    t("sim.view"), VIEWS, key="sim.view", format_func=lambda v: t(f"sim.view.{v}")
) or "matrix"  # fmt: skip
if st.session_state["sim.model"] not in encoders:
    st.session_state["sim.model"] = next(iter(encoders))
kind = st.segmented_control(
    t("sim.model"), tuple(encoders), key="sim.model", format_func=lambda k: t(f"sim.model.{k}")
) or next(iter(encoders))  # fmt: skip
caption, model_name = encoders[kind][2], t(f"sim.model.{kind}")
link = share_link(LINKED, defaults=DEFAULTS)  # before any st.stop, so error views keep their link

if view in ("matrix", "neighbours"):
    texts = sentence_list(st.text_area(t("sim.list"), height=200, **bound("sim.list", DEFAULTS)))
    if len(texts) < 2:
        st.warning(t("sim.list.short"))
        st.stop()
    rows = vectors(kind, texts)
    labels = [f"{i + 1}. {s if len(s) <= 28 else s[:26] + '…'}" for i, s in enumerate(texts)]
    meta = tables.sentence_metadata(texts, model_name)
if view == "matrix":
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
elif view == "neighbours":
    query = st.text_input(t("sim.query"), max_chars=300, **bound("sim.query", DEFAULTS)).strip()
    k_default = {"sim.k": min(DEFAULTS["sim.k"], len(texts))}  # the slider ends at len(texts)
    k = st.slider(t("sim.k"), **bound("sim.k", k_default, span=(1, len(texts))))
    if not query:
        st.warning(t("sim.empty"))
        st.stop()
    best = nearest_neighbours(vectors(kind, [query])[0], rows, min(k, len(texts)))
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
else:
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
    encoder, key, _ = encoders[kind]
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
share_link(LINKED, link, DEFAULTS)
