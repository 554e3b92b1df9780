"""Token embeddings: an id selects one row of E (one-hot × E), the matrix itself, and a 2-D map of
the sentence's token vectors beside their nearest neighbours (fresh, trained, pretrained MiniLM or
MiniLM + 中文 taught here)."""

from __future__ import annotations

import streamlit as st

from explorer_core.files import tables
from explorer_core.ui.embeddings.calls import (
    id_labels,
    pick_source,
    pick_token,
    tokens_of,
)
from explorer_core.ui.embeddings.token_map import token_map
from explorer_core.ui.export import download_csv, download_json, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import bind, choices, init_page
from explorer_core.ui.state import share_link, url_synced
from explorer_core.viz import embedding as viz

DEFAULTS = init_page("lessons/embed_tokens.py")  # declared in explorer_core/ui/settings.py
url_synced("emb.tokens.source", choices("emb.tokens.source"))  # translated labels: URL codes
LINKED = ("emb.tokens.text", "emb.tokens.source", "emb.tokens.dim", "emb.tokens.seed",
          "emb.tokens.pick", "emb.tokens.map", "emb.tokens.k")  # fmt: skip

st.title(t("emb.tokens.title"))
st.markdown(t("emb.tokens.intro"))
text = st.text_input(t("emb.tokens.text"), max_chars=300, **bind("emb.tokens.text"))
link = share_link(LINKED, defaults=DEFAULTS)  # before any st.stop, so error views keep their link
source, caption = pick_source("emb.tokens")  # stops with a message when the model is not available
weight = source.embeddings.word_embeddings.weight.detach()
tokens = tokens_of(source.tokenizer, text)
if not tokens:
    st.warning(t("emb.tokens.empty"))
    st.stop()
ids = [tok.id for tok in tokens]
if max(ids) >= weight.shape[0]:
    st.error(t("emb.tokens.mismatch", rows=weight.shape[0]))
    st.stop()
labels = [tok.display for tok in tokens]
vocab_labels = id_labels(source.tokenizer)
st.dataframe(
    {
        t("emb.tokens.col.position"): list(range(len(ids))),
        t("emb.tokens.col.token"): labels,
        t("emb.tokens.col.id"): ids,
    },
    hide_index=True,
    height=min(400, 35 * len(ids) + 38),
)

# 1) one-hot × E
st.subheader(t("emb.tokens.onehot.head"))
names = [t("emb.tokens.pick.item", token=label, id=i) for label, i in zip(labels, ids, strict=True)]
pick = pick_token("emb.tokens.pick", t("emb.tokens.pick"), names, linked=True)
token_id = ids[pick]
rows, dim = weight.shape
st.markdown(t("emb.tokens.onehot.explain", id=token_id, rows=rows, dim=dim, token=labels[pick]))
raw_window = viz.one_hot_window(weight, token_id, vocab_labels)
onehot_col = t("emb.tokens.col.onehot")
window = raw_window.rename(
    columns={
        "row": t("emb.tokens.col.row"),
        "token": t("emb.tokens.col.token"),
        "one_hot": onehot_col,
    }
)
st.dataframe(
    window.style.format(precision=4).apply(
        lambda row: ["font-weight: bold" if row[onehot_col] else "" for _ in row], axis=1
    ),
    hide_index=True,
)
download_csv(raw_window, f"one-hot-{token_id}", "emb.tokens.dl.window",
             label=t("emb.tokens.dl.window"))  # fmt: skip
vectors, gap = viz.lookup_check(weight, [token_id])
show_chart(
    viz.vector_bar(
        vectors[0],
        title=t("emb.tokens.vec.title", id=token_id),
        x_title=t("emb.tokens.axis.dim"),
        y_title=t("emb.tokens.axis.value"),
    ),
    "emb.tokens.vec_chart",
)
st.caption(t("emb.tokens.vec.caption", gap=gap) + " " + caption)

# 2) the rows of E that the sentence uses
st.subheader(t("emb.tokens.matrix.head"))
show_chart(
    viz.matrix_figure(
        weight,
        ids,
        labels,
        title=t("emb.tokens.matrix.title"),
        x_title=t("emb.tokens.axis.dim"),
        y_title=t("emb.tokens.axis.token"),
        value_title=t("emb.tokens.axis.value"),
    ),
    "emb.tokens.matrix_chart",
)
row, model = st.container(horizontal=True), source.label  # no t() inside the callables
download_csv(lambda: tables.vectors_frame(labels, ids, weight[ids]), "embedding-rows",
             "emb.tokens.dl.rows_csv", row, label=t("emb.tokens.dl.rows_csv"))  # fmt: skip
download_json(lambda: tables.vectors_record(labels, ids, weight[ids], model), "embedding-rows",
              "emb.tokens.dl.rows_json", row, label=t("emb.tokens.dl.rows_json"))  # fmt: skip
st.caption(t("emb.tokens.matrix.caption", rows=rows, dim=dim) + " " + caption)

# 3) a 2-D map with nearest neighbours (heavier: behind a toggle)
st.subheader(t("emb.tokens.map.head"))
if st.toggle(t("emb.tokens.map"), **bind("emb.tokens.map")):
    token_map(source, weight, ids, labels, vocab_labels, pick, caption)
share_link(LINKED, link, DEFAULTS)
