"""Position encodings: sinusoidal, learned, relative and rotary side by side on the same sliders,
the position-similarity of each, RoPE up close, and what happens past the trained length."""

from __future__ import annotations

import streamlit as st

from explorer_core.analysis import positions as pa
from explorer_core.bert.positional import sinusoidal_table
from explorer_core.files.tables import grid_frame
from explorer_core.ui.embedding import SourceUnavailable, pretrained_position_table
from explorer_core.ui.export import download_csv, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.positions import rope_close_up, scheme_comparison
from explorer_core.ui.state import bound, init, share_link, url_synced
from explorer_core.viz import positional as viz

SCHEMES = ("sinusoidal", "learned", "relative", "rotary")
RELATIVE_SHOWN = 48  # positions drawn for the relative scheme
DEFAULTS = {
    "emb.pos.length": 128,
    "emb.pos.dim": 64,
    "emb.pos.base": 10000,
    "emb.pos.clip": 4,
    "emb.pos.trained": 64,
    "emb.pos.scheme": "sinusoidal",
    "emb.pos.rope": True,
    "emb.pos.pair": 4,
}
init(DEFAULTS)
url_synced("emb.pos.scheme", SCHEMES)  # translated labels: kept in the URL as codes
LINKED = ("emb.pos.length", "emb.pos.dim", "emb.pos.base", "emb.pos.clip", "emb.pos.trained",
          "emb.pos.scheme", "emb.pos.rope", "emb.pos.pair")  # fmt: skip
DIMS = (8, 16, 32, 64, 128, 256)  # model widths the tables can be drawn for

st.title(t("emb.pos.title"))
st.markdown(t("emb.pos.intro"))
c1, c2, c3 = st.columns(3)
length = c1.slider(
    t("emb.pos.length"), step=16, **bound("emb.pos.length", DEFAULTS, span=(16, 512))
)
dim = c2.select_slider(t("emb.pos.dim"), **bound("emb.pos.dim", DEFAULTS, choices=DIMS))
base = float(
    c3.select_slider(
        t("emb.pos.base"),
        **bound("emb.pos.base", DEFAULTS, choices=(100, 1000, 10_000, 100_000, 1_000_000)),
    )
)
c4, c5 = st.columns(2)
clip = c4.slider(t("emb.pos.clip"), **bound("emb.pos.clip", DEFAULTS, span=(1, 32)))
trained = c5.slider(
    t("emb.pos.trained"), step=8, **bound("emb.pos.trained", DEFAULTS, span=(8, 512))
)
scheme = (
    st.segmented_control(
        t("emb.pos.scheme"),
        SCHEMES,
        key="emb.pos.scheme",
        format_func=lambda s: t(f"emb.pos.scheme.{s}"),
    )
    or "sinusoidal"
)
link = share_link(LINKED, defaults=DEFAULTS)  # before any st.stop, so error views keep their link
st.markdown(t(f"emb.pos.about.{scheme}", clip=clip))
axes = dict(
    x_title=t("emb.pos.axis.dim"),
    y_title=t("emb.pos.axis.pos"),
    value_title=t("emb.pos.axis.value"),
)
pair_axes = dict(x_title=t("emb.pos.axis.key"), y_title=t("emb.pos.axis.query"))
left, right = st.columns(2)

if scheme == "sinusoidal":
    table = sinusoidal_table(length, dim, base)
    show_chart(
        viz.table_figure(table, trained_length=trained, title=t("emb.pos.sin.title"), **axes),
        "emb.pos.table",
        left,
    )
    similarity = pa.sinusoidal_similarity(length, dim, base)
    grid = (table, "position", "dim_")
    origin = t("emb.pos.origin.formula")
elif scheme == "learned":
    try:
        table = pretrained_position_table(length)
    except SourceUnavailable as err:
        st.warning(t(err.key, **err.values))
        st.stop()
    show_chart(
        viz.table_figure(table, title=t("emb.pos.learned.title"), **axes), "emb.pos.table", left
    )
    similarity = pa.position_similarity(table, normalise=True)
    grid = (table, "position", "dim_")
    origin = t("emb.pos.origin.pretrained")
elif scheme == "relative":
    shown = min(length, RELATIVE_SHOWN)  # a thin band on 512 positions: zoom on the start
    distance = pa.relative_distance_matrix(shown, clip)
    show_chart(
        viz.square_figure(
            distance,
            text_format=".0f",
            title=t("emb.pos.rel.title", clip=clip, shown=shown),
            value_title=t("emb.pos.axis.distance"),
            **pair_axes,
        ),
        "emb.pos.table",
        left,
    )
    similarity = pa.relative_bias_matrix(shown, clip, dim, seed=0)
    grid = (distance, "query", "key_")
    origin = t("emb.pos.origin.fresh")
else:
    table = pa.rope_cos_table(length, dim, base)
    show_chart(
        viz.table_figure(
            table,
            trained_length=trained,
            title=t("emb.pos.rope.title"),
            x_title=t("emb.pos.axis.pair"),
            y_title=t("emb.pos.axis.pos"),
            value_title="cos(m·θᵢ)",
        ),
        "emb.pos.table",
        left,
    )
    similarity = pa.rope_score_matrix(length, dim, base)
    grid = (table, "position", "pair_")
    origin = t("emb.pos.origin.formula")
show_chart(
    viz.square_figure(
        similarity,
        title=t(f"emb.pos.sim.title.{scheme}"),
        value_title=t("emb.pos.axis.bias" if scheme == "relative" else "emb.pos.axis.cosine"),
        **pair_axes,
    ),
    "emb.pos.similarity",
    right,
)
row = st.container(horizontal=True)
download_csv(lambda: grid_frame(*grid), f"positions-{scheme}", "emb.pos.dl.table", row,
             label=t("emb.pos.dl.table"), index=True)  # fmt: skip
sim_grid = (similarity, "query", "key_")
download_csv(lambda: grid_frame(*sim_grid), f"similarity-{scheme}", "emb.pos.dl.similarity", row,
             label=t("emb.pos.dl.similarity"), index=True)  # fmt: skip
st.caption(
    t(f"emb.pos.caption.{scheme}", length=length, dim=dim, base=int(base), clip=clip) + " " + origin
)

# RoPE up close: one pair's rotation, the spectrum, the decay with distance
st.subheader(t("emb.pos.rope.head"))
if st.toggle(t("emb.pos.rope"), **bound("emb.pos.rope", DEFAULTS)):
    rope_close_up(dim=dim, base=base, length=length, trained=trained,
                  default_pair=DEFAULTS["emb.pos.pair"])  # fmt: skip

# Beyond the trained length
st.subheader(t("emb.pos.beyond.head", n=trained))
b1, b2, b3 = st.columns(3)
b1.metric(t("emb.pos.beyond.sin"), t("emb.pos.beyond.sin_value"))
unseen = pa.pairs_unseen_beyond(dim, base, trained)
b2.metric(t("emb.pos.beyond.rope"), f"{unseen} / {dim // 2}")
if pa.learned_reaches(trained, length):
    b3.metric(t("emb.pos.beyond.learned"), t("emb.pos.beyond.learned_ok"))
else:
    b3.metric(t("emb.pos.beyond.learned"), t("emb.pos.beyond.learned_value", n=trained))
st.markdown(t("emb.pos.beyond.text", n=trained, unseen=unseen, pairs=dim // 2, clip=clip))

scheme_comparison(SCHEMES)
share_link(LINKED, link, DEFAULTS)
