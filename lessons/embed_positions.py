"""Position encodings: sinusoidal, learned, relative and rotary side by side on the same sliders,
the position-similarity of each, RoPE up close, and what happens past the trained length."""

from __future__ import annotations

import streamlit as st

from explorer_core.ui.embeddings.model_positions import model_positions
from explorer_core.ui.embeddings.position_views import Sliders, beyond_trained, scheme_view
from explorer_core.ui.embeddings.positions import rope_close_up, scheme_comparison, word_order_view
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import bind, choices, init_page
from explorer_core.ui.state import share_link, url_synced

SCHEMES = choices("emb.pos.scheme")
DEFAULTS = init_page("lessons/embed_positions.py")  # declared in explorer_core/ui/settings.py
url_synced("emb.pos.scheme", SCHEMES)  # translated labels: kept in the URL as codes
LINKED = ("emb.pos.length", "emb.pos.dim", "emb.pos.base", "emb.pos.clip", "emb.pos.trained",
          "emb.pos.scheme", "emb.pos.rope", "emb.pos.pair", "emb.pos.order_a",
          "emb.pos.order_b")  # fmt: skip

st.title(t("emb.pos.title"))
st.markdown(t("emb.pos.intro"))
c1, c2, c3 = st.columns(3)
length = c1.slider(t("emb.pos.length"), step=16, **bind("emb.pos.length"))
dim = c2.select_slider(t("emb.pos.dim"), **bind("emb.pos.dim"))
base = float(c3.select_slider(t("emb.pos.base"), **bind("emb.pos.base")))
c4, c5 = st.columns(2)
clip = c4.slider(t("emb.pos.clip"), **bind("emb.pos.clip"))
trained = c5.slider(t("emb.pos.trained"), step=8, **bind("emb.pos.trained"))
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
sliders = Sliders(length=length, dim=dim, base=base, clip=clip, trained=trained)
scheme_view(scheme, sliders)

# RoPE up close: one pair's rotation, the spectrum, the decay with distance
st.subheader(t("emb.pos.rope.head"))
if st.toggle(t("emb.pos.rope"), **bind("emb.pos.rope")):
    rope_close_up(dim=dim, base=base, length=length, trained=trained)

beyond_trained(sliders)
scheme_comparison(SCHEMES)
word_order_view()  # 狗咬人 / 人咬狗: a bag of token embeddings until positions are added
model_positions(length)  # a real model's own scheme: its table and offset, or its RoPE bases
share_link(LINKED, link, DEFAULTS)
