"""Attention: every weight of every head for the learner's sentence, and the arithmetic of one."""

from __future__ import annotations

import streamlit as st

from explorer_core.ui.attention import views
from explorer_core.ui.attention.calls import run_attention
from explorer_core.ui.i18n import t
from explorer_core.ui.models.picker import pick_source
from explorer_core.ui.models.sources import (
    SOURCES,
    SourceUnavailable,
    batch_key,
    encode,
    model_source,
    snapshots,
)
from explorer_core.ui.settings import init_page
from explorer_core.ui.state import bound, init, link_slot, share_link, url_synced
from explorer_core.ui.taught.views import unavailable
from explorer_core.viz import attention as viz

MODES, VIEWS = ("single", "pair", "batch"), ("head", "overview", "masks")
DEFAULTS = init_page("lessons/attention.py")  # declared in explorer_core/ui/settings.py
for key, codes in (("attn.source", SOURCES), ("attn.mode", MODES), ("attn.view", VIEWS)):
    url_synced(key, codes)  # translated labels: kept in the URL as codes
LINKED = ("attn.source", "attn.mode", "attn.view", "attn.text", "attn.a", "attn.b",
          "attn.causal", "attn.layer", "attn.head", "attn.query", "attn.key")  # fmt: skip

st.title(t("attn.title"))
st.markdown(t("attn.intro"))
kind = pick_source("attn.source", t("attn.source"), lambda v: t(f"attn.src.{v}"),
                   DEFAULTS["attn.source"])  # fmt: skip
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
link = link_slot()  # the box is drawn in the fragment below, or before a stop


def stop() -> None:
    share_link(LINKED, link, DEFAULTS)  # error views keep their link
    st.stop()


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
    unavailable(err.key, **err.values)  # MiniLM + 中文 not built: how to build it; or why not
    stop()
if not texts or not all(text.strip() for text in texts) or (pair is not None and not pair.strip()):
    st.warning(t("attn.empty"))
    stop()
enc = encode(source.tokenizer, texts, pair)
config = source.model.config
length = len(enc.input_ids[0])
if config.position_embedding_type == "learned" and length > config.max_tokens:
    st.error(t("attn.too_long", n=length, limit=config.max_tokens))
    stop()
run = run_attention(source.key, source.model, *batch_key(enc), causal)
source_caption = t(f"attn.src.caption.{kind}", label=source.label)


@st.fragment  # layer, head, view, query, key and a clicked cell rerun only this part
def per_head(source, enc, run, texts, causal, pair, caption) -> None:  # noqa: ANN001
    init(DEFAULTS)  # a fragment rerun: keys of widgets the last run did not draw are gone
    row = 0
    if mode == "batch":
        st.dataframe(viz.batch_frame(enc.tokens, enc.attention_mask, t("attn.pad_col")))
        st.caption(t("attn.batch.caption"))
        st.session_state["attn.row"] = min(st.session_state["attn.row"], len(texts) - 1)
        row = st.selectbox(t("attn.row"), range(len(texts)), key="attn.row",
                           format_func=lambda i: f"{i + 1}: {texts[i]}")  # fmt: skip
    shown = views.Shown(source, enc, run, row, causal, pair, caption)
    layers, heads = source.model.config.num_hidden_layers, source.model.config.num_attention_heads
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
    url_synced("attn.view", VIEWS)  # also on a fragment rerun: the link follows the view
    if view == "head":
        query, key = views.pickers(shown.labels)
        this_head = f"{source.key}|{enc.input_ids[row]}|{enc.token_type_ids[row]}|{causal}|{layer}"
        weights = run.weights[row, layer - 1, head - 1]
        if views.head_question(weights, run.allowed[row], shown.labels, query,
                               f"{this_head}|{head}"):  # fmt: skip
            views.one_head(shown, layer, head, query, key)
    elif view == "overview":
        views.overview(shown)
    else:
        views.masks(shown, layer, head)
    st.info(t("attn.note"), icon=":material/info:")
    share_link(LINKED, link, DEFAULTS)


per_head(source, enc, run, texts, causal, pair is not None, source_caption)
