"""Inside the encoder: one layer with every number, who wrote into a vector, layer by layer, one
word in many contexts, and the same weights as an encoder and as a decoder."""

from __future__ import annotations

import streamlit as st

from explorer_core.ui.encoder import calls, decoder_views, layers_views, views
from explorer_core.ui.i18n import t
from explorer_core.ui.models import differ
from explorer_core.ui.models.picker import pick_source
from explorer_core.ui.settings import bind, init_page
from explorer_core.ui.state import bound, init, link_slot, share_link, url_synced
from explorer_core.ui.taught.views import unavailable

VIEWS = ("layer", "mixing", "stack", "contexts", "decoder", "families")
DEFAULTS = init_page("lessons/encoder.py")  # declared in explorer_core/ui/settings.py
for key, codes in (("enc.source", calls.SOURCES), ("enc.view", VIEWS)):
    url_synced(key, codes)  # translated labels: kept in the URL as codes
LINKED = ("enc.source", "enc.view", "enc.text", "enc.layer", "enc.token", "enc.edit", "enc.set",
          "enc.own", "enc.word", "enc.standardize", "enc.en", "enc.zh")  # fmt: skip

st.title(t("enc.title"))
st.markdown(t("enc.intro"))
kind = pick_source("enc.source", t("enc.source"), lambda v: t(f"attn.src.{v}"),
                   DEFAULTS["enc.source"])  # fmt: skip
text = st.text_input(t("enc.text"), max_chars=2000, **bound("enc.text", DEFAULTS))
link = link_slot()  # the box is drawn in the fragment below, or before a stop


def stop() -> None:
    share_link(LINKED, link, DEFAULTS)  # error views keep their link
    st.stop()


try:
    source = calls.model_source(kind)
except calls.SourceUnavailable as err:
    unavailable(err.key, **err.values)  # MiniLM + 中文 not built: how to build it; or why not
    stop()
if not text.strip():
    st.warning(t("enc.empty"))
    stop()
sentence = calls.sentence(source, text)
limit = calls.too_long(source, len(sentence.ids))
if limit is not None:
    st.warning(t("enc.too_long", n=len(sentence.ids), limit=limit))
    stop()
shown = views.Shown(source, sentence, calls.trace(source, sentence.ids),
                    t(f"attn.src.caption.{kind}", label=source.label))  # fmt: skip


@st.fragment  # the view, layer, token and each view's inputs rerun only this part
def inside(shown: views.Shown) -> None:
    init(DEFAULTS)  # a fragment rerun: keys of widgets the last run did not draw are gone
    view = (
        st.segmented_control(
            t("enc.view"), VIEWS, key="enc.view", format_func=lambda v: t(f"enc.view.{v}")
        )  # fmt: skip
        or "layer"
    )
    url_synced("enc.view", VIEWS)  # also on a fragment rerun: the link follows the view
    if view in ("layer", "mixing"):
        layer, token = views.pickers(shown, "enc.layer", "enc.token", bind)
        if view == "layer" and views.update_question(shown, layer, token):
            views.one_layer(shown, layer, token)
        elif view == "mixing":
            views.mixing(shown, layer)
    elif view == "stack":
        layers_views.stack(shown, bind)
    elif view == "contexts":
        layers_views.contexts(shown, bind)
    elif view == "decoder":
        decoder_views.decoder(shown, bind)
    else:
        differ.differ_view()  # the models on this machine side by side
    st.info(t("enc.note"), icon=":material/info:")
    share_link(LINKED, link, DEFAULTS)


inside(shown)
