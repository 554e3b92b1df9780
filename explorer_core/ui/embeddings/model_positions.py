"""The Position encodings page's last section: a real model's own positions.

For the model opened on this machine (`ui.models`, the one every page shares): its learned table
as it is stored, from the row its first token reads (RoBERTa and XLM-R: the padding id + 1), or,
for a rotary model, its bases per layer (ModernBERT: a global base on every n-th layer, a local
one with a sliding window on the others) with the position-only score each base gives, and which
keys a local layer lets a token see.
"""

from __future__ import annotations

import streamlit as st
import torch

from explorer_core.analysis import positions as pa
from explorer_core.bert.config import BertConfig
from explorer_core.bert.masks import window_keys
from explorer_core.ui.export import show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.models import picker
from explorer_core.ui.models.sources import REF_KEY, SourceUnavailable, opened_source
from explorer_core.ui.taught.views import unavailable
from explorer_core.viz import positional as viz

SHOWN = 64  # positions drawn of a real table


def model_positions(length: int) -> None:
    """The chooser, then the opened model's own scheme (nothing more when none is opened)."""
    st.subheader(t("emb.pos.model.head"))
    st.markdown(t("emb.pos.model.intro"))
    picker.take_url_ref()
    picker.chooser()
    if not str(st.session_state.get(REF_KEY) or "").strip():
        return
    try:
        source = opened_source()
    except SourceUnavailable as err:
        unavailable(err.key, **err.values)
        return
    config = source.model.config
    if config.position_embedding_type == "rotary":
        _rotary(config, source.label, length)
    elif config.position_embedding_type == "learned":
        _learned(source.model.embeddings.position_embeddings.weight, config, source.label)
    else:
        st.info(t("emb.pos.model.other", label=source.label,
                  kind=config.position_embedding_type))  # fmt: skip


def _learned(weight: torch.Tensor, config: BertConfig, label: str) -> None:
    first = config.first_position
    table = weight[first : first + SHOWN].detach()  # the rows real tokens read, in order
    left, right = st.columns(2)
    axes = dict(x_title=t("emb.pos.axis.dim"), y_title=t("emb.pos.axis.pos"),
                value_title=t("emb.pos.axis.value"))  # fmt: skip
    show_chart(viz.table_figure(table, title=t("emb.pos.model.table", label=label), **axes),
               "emb.pos.model.table", left)  # fmt: skip
    show_chart(
        viz.square_figure(
            pa.position_similarity(table, normalise=True), title=t("emb.pos.sim.title.learned"),
            value_title=t("emb.pos.axis.cosine"), x_title=t("emb.pos.axis.key"),
            y_title=t("emb.pos.axis.query"),
        ),
        "emb.pos.model.similarity", right,
    )  # fmt: skip
    key = "emb.pos.model.offset" if first else "emb.pos.model.learned"
    st.caption(t(key, label=label, rows=weight.shape[0], first=first, last=first - 1,
                 tokens=config.max_tokens, n=min(SHOWN, table.shape[0])))  # fmt: skip


def _rotary(config: BertConfig, label: str, length: int) -> None:
    layers = config.num_hidden_layers
    kinds = [t("emb.pos.model.global" if config.is_global_layer(i) else "emb.pos.model.local")
             for i in range(layers)]  # fmt: skip
    st.markdown(t("emb.pos.model.layers", label=label, dim=config.head_dim,
                  layers=" · ".join(f"{i + 1} {k}" for i, k in enumerate(kinds))))  # fmt: skip
    bases = sorted({config.layer_rope_base(i) for i in range(layers)}, reverse=True)
    charts = [
        (viz.offset_figure(
            pa.rope_offset_curve(config.head_dim, base, length), config.max_tokens,
            title=t("emb.pos.model.decay", base=f"{base:,.0f}"),
            x_title=t("emb.pos.axis.offset"), y_title=t("emb.pos.axis.score"),
            score_name=t("emb.pos.decay.score"), bound_name=t("emb.pos.decay.bound"),
            line_label=t("emb.pos.trained_line", n=config.max_tokens),
        ), f"emb.pos.model.decay.{int(base)}")
        for base in bases
    ]  # fmt: skip
    if config.local_attention is not None:
        window = config.local_attention // 2
        shown = min(4 * window + 1, 96)
        allowed = window_keys(shown, window).double()[0]  # (T, T): 1 where the key is seen
        charts.append((viz.square_figure(
            allowed, title=t("emb.pos.model.window", w=window), value_title=t("emb.pos.model.sees"),
            x_title=t("emb.pos.axis.key"), y_title=t("emb.pos.axis.query"),
        ), "emb.pos.model.window"))  # fmt: skip
    # two charts a row: three side by side cut the decay chart's legend on a projector
    for i, (figure, key) in enumerate(charts):
        if i % 2 == 0:
            row = st.columns(2)
        show_chart(figure, key, row[i % 2])
    st.caption(t("emb.pos.model.rotary", label=label, dim=config.head_dim, n=length))
