"""Train a decoder: a GPT-style model trained here in a worker (the Train section's admission,
queue and Stop), its loss against ln V and a bigram, samples from noise to words, then its
next-token probabilities under temperature, top-k and top-p, saved as a GPT-2 folder."""

from __future__ import annotations

import streamlit as st

from explorer_core.ui.decoder import calls, views
from explorer_core.ui.i18n import current_language, t
from explorer_core.ui.settings import init_page
from explorer_core.ui.state import share_link
from explorer_core.ui.training import run as runs

# the corpus follows the app's language unless the learner (or a link) chose one
DEFAULTS = init_page("lessons/train_decoder.py", {"dec.lang": current_language()})
LINKED = ("dec.lang", "dec.seconds", "dec.seed", "dec.scale", "dec.tie", "dec.prompt",
          "dec.temperature", "dec.top_k", "dec.top_p")  # fmt: skip

calls.sync()  # a run that ended while the learner was on another page: its decoder
place = calls.poll()  # 0: training, k: waiting k-th, None: neither
st.title(t("dec.title"))
st.markdown(t("dec.intro"))
link = share_link(LINKED, defaults=DEFAULTS)

# 1) settings and the buttons
config = views.settings_panel(locked=place is not None)
views.buttons(config, place)

# 2) the run, polled while it trains or waits
st.subheader(t("dec.run.head"))
st.fragment(run_every=runs.poll_every(place))(views.progress_panel)()

# 3) the trained decoder: next-token bars, a continuation, the folder and its zip
views.model_panel(locked=place is not None)
share_link(LINKED, link, DEFAULTS)
