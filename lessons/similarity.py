"""Similarity: the model trained in this session next to real MiniLM (and MiniLM + 中文 once it is
built here): cosine of two sentences, a similarity matrix, nearest neighbours, and predicted vs
gold scores on the dev/test pairs."""

from __future__ import annotations

from functools import partial

import streamlit as st

from explorer_core.ui.export import download_json
from explorer_core.ui.i18n import t
from explorer_core.ui.models import picker
from explorer_core.ui.settings import bind, choices, init_page
from explorer_core.ui.similarity import calls, views
from explorer_core.ui.state import share_link, url_synced
from explorer_core.ui.taught.views import not_built
from explorer_core.ui.training import calls as ui

VIEWS, POOLING_MODES = choices("sim.view"), choices("sim.pooling")
DEFAULTS = init_page("lessons/similarity.py")  # declared in explorer_core/ui/settings.py
for key in ("sim.pooling", "sim.view", "sim.model", "sim.split"):
    url_synced(key, choices(key))  # translated labels: kept in the URL as codes
LINKED = ("sim.a", "sim.b", "sim.pooling", "sim.view", "sim.model", "sim.list", "sim.query",
          "sim.k", "sim.split")  # fmt: skip

ui.sync_run()
shared, minilm, taught = ui.shared_model(), ui.try_minilm(), calls.taught_encoder()
st.title(t("sim.title"))
st.markdown(t("sim.intro"))
picker.take_url_ref()
picker.chooser()  # a model on this machine beside the others (the one every page shares)
opened = calls.opened_encoder()  # None: none opened, or it cannot be opened (said below)
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
if taught is not None:
    encoders["taught"] = (*taught, t("sim.src.taught"))
if opened is not None:
    encoders["opened"] = opened
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
first = col_a.text_input(t("sim.a"), max_chars=300, **bind("sim.a")).strip()
second = col_b.text_input(t("sim.b"), max_chars=300, **bind("sim.b")).strip()
if first and second:
    pair_cos = {}  # model -> cosine of the two sentences
    for column, kind in zip(st.columns(len(encoders)), encoders, strict=True):
        u, v = vectors(kind, [first, second])
        pair_cos[kind] = float(u @ v)
        label = encoders[kind][0].opened.label if kind == "opened" else ""
        column.metric(t(f"sim.cos.{kind}", label=label), f"{pair_cos[kind]:.3f}")
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
offered = calls.offered(tuple(encoders))  # MiniLM + 中文 too, even before it is built
if st.session_state["sim.model"] not in offered:
    st.session_state["sim.model"] = calls.first_choice(tuple(encoders))
kind = st.segmented_control(
    t("sim.model"), offered, key="sim.model", format_func=lambda k: t(f"sim.model.{k}")
) or calls.first_choice(tuple(encoders))  # fmt: skip
link = share_link(LINKED, defaults=DEFAULTS)  # before any st.stop, so error views keep their link
if kind not in encoders:  # MiniLM + 中文 before it is built: how to build it
    not_built()
    st.stop()
caption, model_name = encoders[kind][2], t(f"sim.model.{kind}")

if view == "matrix":
    views.matrix_view(partial(vectors, kind), kind, model_name, caption)
elif view == "neighbours":
    views.neighbours_view(partial(vectors, kind), kind, model_name, caption, DEFAULTS["sim.k"])
else:
    views.pairs_view(encoders[kind][0], encoders[kind][1], kind, pooling, caption)
share_link(LINKED, link, DEFAULTS)
