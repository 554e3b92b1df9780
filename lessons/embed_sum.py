"""Embedding sum: for a sentence pair, token + position + segment, then LayerNorm, token by token,
with the numbers that enter layer 1."""

from __future__ import annotations

import streamlit as st

from explorer_core.bert.embeddings import layer_norm_trace
from explorer_core.files import tables
from explorer_core.ui.embeddings.calls import (
    encode_pair,
    family_notes,
    pair_components,
    pick_source,
    pick_token,
)
from explorer_core.ui.export import download_csv, download_json, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import bind, choices, init_page
from explorer_core.ui.state import share_link, url_synced
from explorer_core.viz import embedding as viz
from explorer_core.viz.common import heatmap

STAGES = ("token", "position", "segment", "sum", "output")
DEFAULTS = init_page("lessons/embed_sum.py")  # declared in explorer_core/ui/settings.py
url_synced("emb.sum.source", choices("emb.sum.source"))  # translated labels: URL codes
LINKED = ("emb.sum.a", "emb.sum.b", "emb.sum.source", "emb.sum.seed", "emb.sum.pick",
          "emb.sum.dims", "emb.sum.overview")  # fmt: skip

st.title(t("emb.sum.title"))
st.markdown(t("emb.sum.intro"))
col_a, col_b = st.columns(2)
first = col_a.text_input(t("emb.sum.a"), max_chars=200, **bind("emb.sum.a"))
second = col_b.text_input(t("emb.sum.b"), max_chars=200, **bind("emb.sum.b"))
link = share_link(LINKED, defaults=DEFAULTS)  # before any st.stop, so error views keep their link
source, caption = pick_source("emb.sum")  # stops with a message when the model is not available
if not first.strip():
    st.warning(t("emb.sum.empty"))
    st.stop()
labels, ids, segments = encode_pair(source.tokenizer, first, second)
config = source.embeddings.config
if len(ids) > config.max_tokens:
    st.error(t("emb.sum.too_long", n=len(ids), max=config.max_tokens))
    st.stop()
if max(ids) >= config.vocab_size:
    st.error(t("emb.tokens.mismatch", rows=config.vocab_size))
    st.stop()
parts = pair_components(source.embeddings, ids, segments)
family_notes(config)  # what this family's embeddings lack or add: segments, offsets, E -> H
stage_names = {name: t(f"emb.sum.stage.{name}") for name in STAGES}

# 1) every token: ids, segments, lengths of each part
st.subheader(t("emb.sum.table.head"))
raw_table = viz.sum_table(labels, ids, segments, parts)
table = raw_table.rename(columns={c: t(f"emb.sum.col.{c}") for c in raw_table.columns})
st.dataframe(table.style.format(precision=3), hide_index=True, height=min(420, 35 * len(ids) + 38))
row, model = st.container(horizontal=True), source.label  # no t() inside the callables
download_csv(raw_table, "embedding-sum", "emb.sum.dl.table", row, label=t("emb.sum.dl.table"))
download_json(lambda: tables.embedding_parts_record(labels, ids, segments, parts, model),
              "embedding-parts", "emb.sum.dl.parts", row, label=t("emb.sum.dl.parts"))  # fmt: skip
st.caption(t("emb.sum.table.caption") + " " + caption)

# 2) one token, stage by stage
st.subheader(t("emb.sum.token.head"))
names = [f"{label} ({'AB'[segment]})" for label, segment in zip(labels, segments, strict=True)]
pick = pick_token("emb.sum.pick", t("emb.sum.pick"), names, linked=True)
hidden = parts["sum"].shape[-1]
dims = st.slider(t("emb.sum.dims"), **bind("emb.sum.dims", span=(4, min(64, hidden))))
show_chart(
    viz.stage_figure(
        parts,
        pick,
        stage_names,
        dims,
        title=t("emb.sum.stage.title", token=labels[pick], pos=pick),
        x_title=t("emb.tokens.axis.dim"),
        y_title=t("emb.sum.axis.stage"),
        value_title=t("emb.tokens.axis.value"),
    ),
    "emb.sum.stage_chart",
)
st.caption(t("emb.sum.stage.caption", dims=dims, hidden=hidden) + " " + caption)

trace = layer_norm_trace(parts["sum"][0, pick], source.embeddings.LayerNorm)
m1, m2 = st.columns(2)
m1.metric(t("emb.sum.ln.mean"), f"{float(trace['mean']):.4f}")
m2.metric(t("emb.sum.ln.std"), f"{float(trace['std']):.4f}")
st.markdown(t("emb.sum.ln.explain"))
ln_frame = tables.series_frame(
    {"dim": range(dims), "x": parts["sum"][0, pick, :dims],
     **{name: trace[name][:dims] for name in ("normalised", "gamma", "beta", "output")}}
)  # fmt: skip
st.dataframe(
    ln_frame.rename(columns={"dim": t("emb.tokens.axis.dim"), "x": t("emb.sum.ln.x"),
                             "normalised": t("emb.sum.ln.norm"), "gamma": "γ", "beta": "β",
                             "output": t("emb.sum.ln.out")}),
    hide_index=True,
)  # fmt: skip
download_csv(ln_frame, f"layer-norm-{pick}", "emb.sum.dl.ln", label=t("emb.sum.dl.ln"))

# 3) what enters layer 1, every token at once
st.subheader(t("emb.sum.overview.head"))
if st.toggle(t("emb.sum.overview"), **bind("emb.sum.overview")):
    rows = [
        f"{i}: {label} ({'AB'[seg]})"
        for i, (label, seg) in enumerate(zip(labels, segments, strict=True))
    ]
    entering = parts.get("projected", parts["output"])[0]  # (T, H): what layer 1 reads
    hidden = entering.shape[-1]
    show_chart(
        heatmap(
            entering.double().numpy(),
            x=list(range(hidden)),
            y=rows,
            diverging=True,
            title=t("emb.sum.overview.title"),
            x_title=t("emb.tokens.axis.dim"),
            y_title=t("emb.tokens.axis.token"),
            value_title=t("emb.tokens.axis.value"),
            height=max(320, 26 * len(ids) + 140),
        ),
        "emb.sum.overview_chart",
    )
    download_csv(lambda: tables.vectors_frame(labels, ids, entering), "layer-1-input",
                 "emb.sum.dl.output", label=t("emb.sum.dl.output"))  # fmt: skip
    st.caption(t("emb.sum.overview.caption", n=len(ids), hidden=hidden) + " " + caption)
share_link(LINKED, link, DEFAULTS)
