"""The eight screens of the guided lesson that run a model (MiniLM, or the opened one): one-hot,
vector, + position, attention, one layer's steps, pooled vector, cosine (see `screens`, which
shows them and holds the first four); and why attention (`why_screen`: an RNN against one
attention layer on the lesson's tokens)."""

from __future__ import annotations

import streamlit as st

from explorer_core.analysis import lesson as core
from explorer_core.analysis.encoder import update_ratio
from explorer_core.bert.embeddings import layer_norm_trace
from explorer_core.files.export import labelled_matrix
from explorer_core.ui.attention.views import clicked_cell
from explorer_core.ui.embeddings.calls import family_notes, pair_components, pick_token
from explorer_core.ui.export import download_csv, download_json, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.lesson import calls as data
from explorer_core.ui.lesson.frame import Lesson, table, variant
from explorer_core.ui.lesson.why_screen import screen_why
from explorer_core.ui.state import bound
from explorer_core.viz import attention as viz_attn
from explorer_core.viz import embedding as viz_emb
from explorer_core.viz import encoder as viz_enc
from explorer_core.viz import lesson as viz

STAGES = ("token", "position", "segment", "sum", "output")  # as on the Embedding sum page
VECTOR_DIMS, STAGE_DIMS, POOL_DIMS = 32, 6, 6  # numbers shown: readable on a projector
CELL_FONT = 15  # px: numbers written in heatmap cells
MAX_HEIGHT = 760  # px: the tallest chart (before presentation mode's growth)


def pick(lesson: Lesson, left) -> int:  # noqa: ANN001 - a column
    """The token to follow on the embedding screens (its position in the row)."""
    names = [tok if not cover or cover.lower() == tok else f"{tok} ({cover})"
             for tok, cover in zip(lesson.row.tokens, lesson.row.covers, strict=True)]  # fmt: skip
    with left:
        return pick_token("lesson.token", t("lesson.token"), names)


def unknown_note(lesson: Lesson, at: int, left) -> None:  # noqa: ANN001 - a column
    if lesson.row.kinds[at] == "unknown":
        key = variant("lesson.unknown_row", lesson.model)
        left.info(t(key, covers=lesson.row.covers[at], id=lesson.row.ids[at], **lesson.sizes))


def screen_onehot(lesson: Lesson, left, right) -> None:  # noqa: ANN001 - columns
    at = pick(lesson, left)
    token, token_id = lesson.row.tokens[at], lesson.row.ids[at]
    weight = data.embeddings(lesson.model).word_embeddings.weight
    hot = core.one_hot_step(weight, token_id)
    fig = viz.one_hot_figure(
        token_id, hot.vocab_size, token, title=t("lesson.onehot.title", token=token),
        x_title=t("lesson.axis.vocab"), y_title=t("lesson.axis.value"),
    )  # fmt: skip
    show_chart(fig, "lesson.chart.onehot", right)
    left.metric(t("lesson.onehot.gap"), f"{hot.max_gap:g}")
    unknown_note(lesson, at, left)
    window = viz_emb.one_hot_window(
        weight, token_id, data.vocab_labels(lesson.model), radius=2, dims=4
    )
    table(window.round(4), right)
    lo, hi = int(window["row"].min()), int(window["row"].max())
    caption = t(variant("lesson.onehot.caption", lesson.model), id=token_id, lo=lo, hi=hi,
                dims=4, gap=f"{hot.max_gap:g}", **lesson.sizes)  # fmt: skip
    right.caption(caption + " " + lesson.source)


def screen_vector(lesson: Lesson, left, right) -> None:  # noqa: ANN001 - columns
    at = pick(lesson, left)
    token, token_id = lesson.row.tokens[at], lesson.row.ids[at]
    vector = (
        data.embeddings(lesson.model).word_embeddings.weight[token_id].detach().double().numpy()
    )
    fig = viz_emb.vector_bar(
        vector[:VECTOR_DIMS], title=t("lesson.vector.title", token=token, id=token_id),
        x_title=t("lesson.axis.dim"), y_title=t("lesson.axis.value"),
    )  # fmt: skip
    show_chart(fig, "lesson.chart.vector", right)
    unknown_note(lesson, at, left)
    download_csv(lambda v=vector: core.vector_frame(v), f"lesson-embedding-{token_id}",
                 "lesson.csv.vector", left)  # fmt: skip
    norm = float((vector**2).sum() ** 0.5)
    caption = t(variant("lesson.vector.caption", lesson.model), id=token_id, norm=norm,
                dims=VECTOR_DIMS, hidden=len(vector), **lesson.sizes)  # fmt: skip
    right.caption(caption + " " + lesson.source)


def screen_position(lesson: Lesson, left, right) -> None:  # noqa: ANN001 - columns
    at = pick(lesson, left)
    embeddings = data.embeddings(lesson.model)
    parts = pair_components(embeddings, list(lesson.row.ids), [0] * len(lesson.row.ids))
    fig = viz_emb.stage_figure(
        parts, at, {stage: t(f"emb.sum.stage.{stage}") for stage in STAGES}, STAGE_DIMS,
        title=t("lesson.position.title", token=lesson.row.tokens[at], pos=at),
        x_title=t("lesson.axis.dim"), y_title=t("lesson.axis.stage"),
        value_title=t("lesson.axis.value"),
    )  # fmt: skip
    fig.update_traces(textfont_size=CELL_FONT)
    show_chart(fig, "lesson.chart.position", right)
    if data.is_opened(lesson.model):
        with left:  # what this family does otherwise: no segments, rotary positions, E -> H
            family_notes(embeddings.config)
    stages = {stage: parts[stage][0, at] for stage in STAGES}
    download_csv(lambda s=stages: core.stages_frame(s), f"lesson-layer1-input-{at}",
                 "lesson.csv.position", left)  # fmt: skip
    trace = layer_norm_trace(parts["sum"][0, at], embeddings.LayerNorm)
    numbers = {"mean": float(trace["mean"]), "std": float(trace["std"])}
    hidden = parts["sum"].shape[-1]
    caption = t("lesson.position.caption", dims=STAGE_DIMS, hidden=hidden, **numbers)
    right.caption(caption + " " + lesson.source)


def screen_attention(lesson: Lesson, left, right) -> None:  # noqa: ANN001 - columns
    run = data.sentence_run(lesson.row.ids, lesson.model)
    layers, heads = run.attentions.shape[:2]
    layer_col, head_col = left.columns(2)
    layer = layer_col.selectbox(
        t("lesson.layer"),
        range(1, layers + 1),
        **bound("lesson.layer", lesson.defaults, range(1, layers + 1)),
    )
    head = head_col.selectbox(
        t("lesson.head"),
        range(1, heads + 1),
        **bound("lesson.head", lesson.defaults, range(1, heads + 1)),
    )
    weights = run.attentions[layer - 1, head - 1]  # (T, T)
    labels = viz_attn.token_labels(lesson.row.tokens)
    fig = viz_attn.head_figure(
        weights, labels, title=t("lesson.attention.title", layer=layer, head=head),
        query_title=t("lesson.axis.query"), key_title=t("lesson.axis.key"),
        value_title=t("lesson.axis.weight"),
    )  # fmt: skip
    fig.update_traces(textfont_size=CELL_FONT)
    fig.update_layout(height=min(fig.layout.height, MAX_HEIGHT))  # long sentences: scroll less
    tokens = list(lesson.row.tokens)
    query = min(int(st.session_state.get("lesson.token") or 0), len(lesson.row.tokens) - 1)
    best = int(weights[query].argmax())
    key = st.session_state.get(CELL_KEY, best)
    key = key if 0 <= key < len(tokens) else best  # a shorter sentence since the click
    fig = viz_attn.add_click_targets(fig, labels, (query, key))
    show_chart(fig, "lesson.chart.attention", right, on_click=pick_cell, click_args=(labels,))
    download_csv(lambda w=weights, k=tokens: labelled_matrix(w, k, k),
                 f"lesson-attention-L{layer}-H{head}", "lesson.csv.attention", left,
                 index=True)  # fmt: skip
    numbers = {"query": lesson.row.tokens[query], "read": lesson.row.tokens[best],
               "weight": float(weights[query, best])}  # fmt: skip
    text_key = variant("lesson.attention.caption", lesson.model)  # (`key` is the clicked cell's)
    caption = t(text_key, layer=layer, head=head, **numbers, **lesson.sizes)
    right.caption(caption + " " + t("lesson.attention.click") + " " + lesson.source)
    cell = data.cell(tuple(lesson.row.ids), layer - 1, head - 1, query, key, lesson.model)
    left.markdown(t("attn.cell.formula", **viz_attn.cell_numbers(cell, labels)))


def screen_layer(lesson: Lesson, left, right) -> None:  # noqa: ANN001 - columns
    """One layer's steps for one token (the Inside the encoder page's strips)."""
    from explorer_core.ui.encoder import calls as encoder_calls
    from explorer_core.ui.encoder import views as encoder_views

    traced = encoder_calls.model_trace(lesson.model, data.bert(lesson.model),
                                       tuple(lesson.row.ids))  # fmt: skip
    layers = len(traced.layers)
    token = pick(lesson, left)
    layer = left.selectbox(
        t("lesson.layer"), range(1, layers + 1),
        **bound("lesson.layer", lesson.defaults, range(1, layers + 1)),
    )  # fmt: skip
    name = lesson.row.tokens[token]
    steps, names = encoder_views.flow(traced.layers[layer - 1], token, name, lesson.source,
                                      right, "lesson.chart.layer")  # fmt: skip
    download_csv(lambda: viz_enc.flow_frame(steps, names), f"lesson-layer-{layer}-token-{token}",
                 "lesson.csv.layer", left)  # fmt: skip
    ratio = update_ratio(traced.layers[layer - 1])
    left.metric(t("enc.metric.attn"), f"{float(ratio.attention[token]):.3f}")
    left.metric(t("enc.metric.ffn"), f"{float(ratio.ffn[token]):.3f}")


CELL_KEY = "lesson.cell_key"  # the key position of the clicked cell (the query is "lesson.token")


def pick_cell(chart_key: str, labels: list[str]) -> None:
    """Callback of the attention heatmap: the clicked cell's row becomes the followed token."""
    selection = (st.session_state.get(chart_key) or {}).get("selection") or {}
    cell = clicked_cell(selection.get("points") or [], labels)
    if cell is not None:
        st.session_state["lesson.token"], st.session_state[CELL_KEY] = cell


def screen_pooled(lesson: Lesson, left, right) -> None:  # noqa: ANN001 - columns
    run = data.sentence_run(lesson.row.ids, lesson.model)
    rows = core.pooling_rows(run, lesson.row.tokens, POOL_DIMS)
    names = [t(variant(f"lesson.pooled.{row}", lesson.model), **lesson.sizes)
             for row in ("mean", "unit")]  # fmt: skip
    rows.index = [*rows.index[:-2], *names]
    hidden = run.vector.shape[0]
    left.metric(t(variant("lesson.pooled.length", lesson.model)), f"{run.length:.3f}")
    fig = viz.pooling_figure(
        rows, title=t("lesson.pooled.title"), x_title=t("lesson.axis.dim"),
        y_title=t("lesson.axis.row"), value_title=t("lesson.axis.value"),
    )  # fmt: skip
    fig.update_traces(textfont_size=CELL_FONT)
    show_chart(fig, "lesson.chart.pooled", right)
    download_csv(lambda v=run.vector: core.vector_frame(v), "lesson-sentence-vector",
                 "lesson.csv.pooled", left)  # fmt: skip
    caption = t(variant("lesson.pooled.caption", lesson.model), n=len(lesson.row.tokens),
                norm=run.length, hidden=hidden, dims=POOL_DIMS, **lesson.sizes)  # fmt: skip
    right.caption(caption + " " + lesson.source)


def screen_cosine(lesson: Lesson, left, right) -> None:  # noqa: ANN001 - columns
    compared = [s for s in (lesson.other, lesson.third) if s.strip()]
    if not lesson.other.strip():
        lesson.body.warning(t("lesson.other_empty"))
        return
    rows = [data.tokens(s, lesson.model) for s in compared]
    if any(len(r.ids) > lesson.limit for r in rows):
        longest = max(len(r.ids) for r in rows)
        lesson.body.error(t(variant("lesson.too_long", lesson.model), n=longest,
                            limit=lesson.limit, **lesson.sizes))  # fmt: skip
        return
    mine = data.sentence_run(lesson.row.ids, lesson.model).mean
    parts = [core.cosine_parts(mine, data.sentence_run(r.ids, lesson.model).mean) for r in rows]
    first = parts[0]
    left.metric(t("lesson.cosine.metric"), f"{first.cosine:.3f}")
    left.latex(  # two lines: fits the narrow column, also on a projector
        r"\begin{aligned}\cos(u, v) &= \frac{u \cdot v}{\lVert u \rVert \, \lVert v \rVert} \\ "
        rf"&= \frac{{{first.dot:.3f}}}{{{first.norm_u:.3f} \times {first.norm_v:.3f}}}"
        rf" = {first.cosine:.3f}\end{{aligned}}"
    )
    fig = viz.cosine_figure(
        [lesson.text, *compared],
        [core.cosine_parts(mine, mine).cosine] + [p.cosine for p in parts],
        title=t("lesson.cosine.title"), x_title=t("lesson.axis.sentence"),
        y_title=t("lesson.axis.cosine"),
    )  # fmt: skip
    show_chart(fig, "lesson.chart.cosine", right)
    record = {"sentence": lesson.text, "compared": [
        {"sentence": s, **vars(p)} for s, p in zip(compared, parts, strict=True)]}  # fmt: skip
    download_json(record, "lesson-cosine", "lesson.json.cosine", left)
    if any(r.unknown * 3 > r.content for r in (lesson.row, *rows)):
        right.info(t(variant("lesson.cosine.unknown", lesson.model), **lesson.sizes))
    caption = t(variant("lesson.cosine.caption", lesson.model), **lesson.sizes)
    right.caption(caption + " " + lesson.source)


SCREENS = {
    "onehot": screen_onehot, "vector": screen_vector, "position": screen_position,
    "attention": screen_attention, "layer": screen_layer, "pooled": screen_pooled,
    "cosine": screen_cosine, "why": screen_why,
}  # fmt: skip
