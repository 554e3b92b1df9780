"""Attention: every weight of every head for the learner's sentence, and the arithmetic of one."""

from __future__ import annotations

import streamlit as st

from explorer_core.ui import attention_views as views
from explorer_core.ui.attention import (
    SOURCES,
    SourceUnavailable,
    encode,
    explain,
    model_source,
    run_attention,
    snapshots,
)
from explorer_core.ui.export import show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.state import bound, init, share_link, url_synced
from explorer_core.viz import attention as viz

MODES, VIEWS = ("single", "pair", "batch"), ("head", "overview", "masks")
OVERVIEW_LIMIT = 64
DEFAULTS = {
    "attn.source": "pretrained", "attn.mode": "single", "attn.view": "head",
    "attn.text": "The cat sat on the mat because it was tired.",
    "attn.a": "The cat sat on the mat.", "attn.b": "It fell asleep in the sun.",
    "attn.batch": "The cat sat.\nA dog barked at the mailman all morning.\nHello!",
    "attn.causal": False, "attn.row": 0, "attn.layer": 1, "attn.head": 1,
    "attn.query": 0, "attn.key": 0, "attn.predict": False,
}  # fmt: skip
init(DEFAULTS)
for key, codes in (("attn.source", SOURCES), ("attn.mode", MODES), ("attn.view", VIEWS)):
    url_synced(key, codes)  # translated labels: kept in the URL as codes
LINKED = ("attn.source", "attn.mode", "attn.view", "attn.text", "attn.a", "attn.b",
          "attn.causal", "attn.layer", "attn.head", "attn.query", "attn.key")  # fmt: skip

st.title(t("attn.title"))
st.markdown(t("attn.intro"))
pick = {"format_func": lambda v: t(f"attn.src.{v}")}
kind = st.segmented_control(t("attn.source"), SOURCES, key="attn.source", **pick) or "pretrained"
mode = (
    st.segmented_control(
        t("attn.mode"), MODES, key="attn.mode", format_func=lambda v: t(f"attn.mode.{v}")
    )
    or "single"
)
pair = None
if mode == "single":
    texts = [st.text_input(t("attn.text"), max_chars=5000, **bound("attn.text", DEFAULTS))]
elif mode == "pair":
    col_a, col_b = st.columns(2)
    texts = [col_a.text_input(t("attn.a"), max_chars=3000, **bound("attn.a", DEFAULTS))]
    pair = col_b.text_input(t("attn.b"), max_chars=3000, **bound("attn.b", DEFAULTS))
else:
    raw = st.text_area(t("attn.batch"), key="attn.batch", help=t("attn.batch.help"))
    texts = [line.strip() for line in raw.splitlines() if line.strip()][:8]
causal = st.toggle(t("attn.causal"), help=t("attn.causal.help"), **bound("attn.causal", DEFAULTS))
link = share_link(LINKED, defaults=DEFAULTS)

snaps, snapshot = snapshots() if kind == "trained" else (), None
if len(snaps) > 1:  # before / during / after training, from the Train page
    if st.session_state.get("attn.snapshot") not in range(len(snaps)):
        st.session_state["attn.snapshot"] = len(snaps) - 1
    snapshot = st.select_slider(
        t("attn.snapshot"), range(len(snaps)), key="attn.snapshot", help=t("attn.snapshot.help"),
        format_func=lambda i: t("attn.snapshot.item", phase=snaps[i].phase, step=snaps[i].step),
    )  # fmt: skip
try:
    source = model_source(kind, snapshot)
except SourceUnavailable as err:
    st.warning(t(err.key))
    st.stop()
if not texts or not all(text.strip() for text in texts) or (pair is not None and not pair.strip()):
    st.warning(t("attn.empty"))
    st.stop()
enc = encode(source.tokenizer, texts, pair)
config = source.model.config
length = len(enc.input_ids[0])
if config.position_embedding_type == "learned" and length > config.max_position_embeddings:
    st.error(t("attn.too_long", n=length, limit=config.max_position_embeddings))
    st.stop()
run = run_attention(source.key, source.model, tuple(map(tuple, enc.input_ids)),
                    tuple(map(tuple, enc.token_type_ids)), tuple(map(tuple, enc.attention_mask)),
                    causal)  # fmt: skip
source_caption = t(f"attn.src.caption.{kind}", label=source.label)

row = 0
if mode == "batch":
    st.dataframe(viz.batch_frame(enc.tokens, enc.attention_mask, t("attn.pad_col")))
    st.caption(t("attn.batch.caption"))
    st.session_state["attn.row"] = min(st.session_state["attn.row"], len(texts) - 1)
    row = st.selectbox(t("attn.row"), range(len(texts)), key="attn.row",
                       format_func=lambda i: f"{i + 1}: {texts[i]}")  # fmt: skip
tokens, segments = enc.tokens[row], enc.token_type_ids[row]
labels = viz.token_labels(tokens)
axes = {"query_title": t("attn.axis.query"), "key_title": t("attn.axis.key")}
layers, heads = config.num_hidden_layers, config.num_attention_heads
for name, top in (("attn.layer", layers), ("attn.head", heads)):
    st.session_state[name] = min(max(1, st.session_state[name]), top)
col_l, col_h = st.columns(2)
layer = col_l.selectbox(
    t("attn.layer"), range(1, layers + 1), **bound("attn.layer", DEFAULTS, range(1, layers + 1))
)
head = col_h.selectbox(
    t("attn.head"), range(1, heads + 1), **bound("attn.head", DEFAULTS, range(1, heads + 1))
)
view = (
    st.segmented_control(
        t("attn.view"), VIEWS, key="attn.view", format_func=lambda v: t(f"attn.view.{v}")
    )
    or "head"
)
weights = run.weights[row, layer - 1, head - 1]  # (T, T)
scores = run.scores[row, layer - 1, head - 1]  # (T, T)
hidden = False  # predicting in the head view: the weights stay hidden until Reveal
if view == "head":
    query, key = views.pickers(labels)
    this_head = f"{source.key}|{enc.input_ids[row]}|{enc.token_type_ids[row]}|{causal}|{layer}"
    hidden = not views.head_question(
        weights, run.allowed[row], labels, query, f"{this_head}|{head}"
    )
if view == "overview":
    shown = min(len(tokens), OVERVIEW_LIMIT)  # beyond this the small squares are unreadable
    if shown < len(tokens):
        st.info(t("attn.overview.cut", n=len(tokens), limit=OVERVIEW_LIMIT))
    fig = viz.overview_figure(
        run.weights[row, :, :, :shown, :shown], title=t("attn.overview.title"),
        layer_title=t("attn.axis.layer"),
        head_title=t("attn.axis.head"), value_title=t("attn.axis.weight"),
        query_title=t("attn.axis.query"), key_title=t("attn.axis.key"),
    )  # fmt: skip
    show_chart(fig, "attn.chart.overview")
    st.caption(t("attn.overview.caption", src=source_caption, n=shown))
    views.all_weights_download(run.weights[row], tokens, enc.attention_mask[row], source.label,
                               causal)  # fmt: skip
elif view == "head" and not hidden:
    col_w, col_s = st.columns(2)
    title = t("attn.head.title", layer=layer, head=head)
    show_chart(
        viz.head_figure(weights, labels, title=title, value_title=t("attn.axis.weight"),
                        segments=segments if pair is not None else None, **axes),
        "attn.chart.head", col_w,
    )  # fmt: skip
    show_chart(
        viz.scores_figure(scores, labels, title=t("attn.scores.title", layer=layer, head=head),
                          value_title=t("attn.axis.score"), **axes),
        "attn.chart.scores", col_s,
    )  # fmt: skip
    st.caption(t("attn.head.caption", src=source_caption))
    st.subheader(t("attn.cell.title"))
    cell = explain(source, enc, row, causal, layer=layer - 1, head=head - 1, query=query, key=key)
    viz_cols = st.columns(5)
    for col, (name, value) in zip(viz_cols, viz.cell_steps(cell), strict=True):
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
    st.caption(t("attn.cell.caption", d=cell.head_dim, src=source_caption))
    views.head_downloads(run.weights[row], weights, cell, tokens, enc.attention_mask[row],
                         source.label, causal, {"layer": layer, "head": head})  # fmt: skip
elif view == "masks":
    allowed = run.allowed[row]
    show_chart(
        viz.allowed_figure(allowed, labels, title=t("attn.masks.title"),
                           value_title=t("attn.axis.allowed"), **axes),
        "attn.chart.mask",
    )  # fmt: skip
    st.caption(t("attn.masks.caption", src=source_caption))
    st.markdown(t("attn.masks.explain"))
    if pair is not None:
        names = [t("attn.block.a"), t("attn.block.b")]
        st.dataframe(viz.block_frame(weights, segments, enc.attention_mask[row], names))
        st.caption(t("attn.block.caption", layer=layer, head=head, src=source_caption))
st.info(t("attn.note"), icon=":material/info:")
share_link(LINKED, link, DEFAULTS)
