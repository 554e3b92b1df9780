"""Sequence models: the n-gram window, RNN, bidirectional RNN, LSTM, GRU and one self-attention
layer on the learner's sentence, and why attention replaced them (issue #36)."""

from __future__ import annotations

import streamlit as st

from explorer_core.bert.pretrained import PretrainedUnavailable
from explorer_core.ui.i18n import current_language, t
from explorer_core.ui.sequence import calls, views
from explorer_core.ui.settings import bind, init_page
from explorer_core.ui.state import bound, init, link_slot, share_link, url_synced

PAGE = "lessons/sequence_models.py"
VIEWS = ("states", "steps", "gradient", "recall")
DEFAULTS = init_page(PAGE)  # declared in explorer_core/ui/settings.py
url_synced("seq.view", VIEWS)  # translated labels: kept in the URL as codes
LINKED = ("seq.text", "seq.window", "seq.seed", "seq.view")

st.title(t("seq.title"))
st.markdown(t("seq.intro"))
text = st.text_input(t("seq.text"), max_chars=2000, **bound("seq.text", DEFAULTS))
col_n, col_seed = st.columns(2)
n = int(col_n.number_input(t("seq.window"), step=1, help=t("seq.window.help"),
                           **bind("seq.window")))  # fmt: skip
seed = int(col_seed.number_input(t("seq.seed"), step=1, help=t("seq.seed.help"),
                                 **bind("seq.seed")))  # fmt: skip
link = link_slot()  # the box is drawn in the fragment below, or before a stop


def stop() -> None:
    share_link(LINKED, link, DEFAULTS)  # error views keep their link
    st.stop()


if not text.strip():
    st.warning(t("seq.empty"))
    stop()
try:
    sentence = calls.sentence(text, current_language() == "zh")
except (ImportError, PretrainedUnavailable):
    st.warning(t("attn.src.no_pretrained"))
    stop()
if not sentence.ids:
    st.warning(t("seq.empty"))
    stop()
if n - 1 > len(sentence.ids):
    st.error(t("seq.too_short", context=n - 1, tokens=len(sentence.ids)))
    stop()
run = calls.comparison(sentence.ids, n, seed, sentence.vocab_size)
shown = views.Shown(sentence, run, n, seed)
views.tokens(sentence)


@st.fragment  # a view switch, the question and the recall run rerun only this part
def chosen_view(shown: views.Shown) -> None:
    init(DEFAULTS)  # a fragment rerun: keys of widgets the last run did not draw are gone
    view = (
        st.segmented_control(
            t("seq.view"), VIEWS, key="seq.view", format_func=lambda v: t(f"seq.view.{v}")
        )
        or "states"
    )
    url_synced("seq.view", VIEWS)  # also on a fragment rerun: the link follows the view
    if view == "states":
        views.states(shown)
    elif view == "steps":
        views.steps()
    elif view == "gradient":
        if views.reach_question(shown):  # Predict first: the answer is in the chart
            views.gradient(shown)
    else:
        views.recall()
    st.info(t("seq.note"), icon=":material/info:")
    share_link(LINKED, link, DEFAULTS)


chosen_view(shown)
