"""BERT inputs: how masked-LM and next-sentence training examples are built, token by token."""

from __future__ import annotations

import streamlit as st

from explorer_core.bert.pretrained import PretrainedUnavailable
from explorer_core.inputs.pairs import (
    lines_without_tab,
    make_nsp_examples,
    parse_tab_pairs,
)
from explorer_core.ui import quiz
from explorer_core.ui.attention.calls import (
    corpus_pairs,
    minilm_tokenizer,
    mlm_draw,
    pair_layout,
)
from explorer_core.ui.attention.inputs_views import mlm_views, tutorial_view
from explorer_core.ui.attention.whole_word_views import whole_word_view
from explorer_core.ui.export import download_csv
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import bind, choices, init_page
from explorer_core.ui.state import share_link, url_synced
from explorer_core.viz import attention as viz

LIMIT = 512  # MiniLM's positions
DEFAULTS = init_page("lessons/bert_inputs.py")  # declared in explorer_core/ui/settings.py
url_synced("inputs.nsp_source", choices("inputs.nsp_source"))  # translated labels: as codes
LINKED = ("inputs.text", "inputs.seed", "inputs.draws", "inputs.nsp_source", "inputs.nsp_seed",
          "inputs.max_len", "inputs.wwm_text")  # fmt: skip


def reroll() -> None:
    st.session_state["inputs.seed"] = int(st.session_state["inputs.seed"]) + 1


st.title(t("inputs.title"))
st.markdown(t("inputs.intro"))
try:
    tokenizer = minilm_tokenizer()
except (ImportError, PretrainedUnavailable):
    st.warning(t("inputs.no_tokenizer"))
    st.stop()

st.header(t("inputs.mlm.head"))
text = st.text_input(t("inputs.text"), max_chars=3000, **bind("inputs.text"))
col_seed, col_button = st.columns([3, 1], vertical_alignment="bottom")
seed = int(col_seed.number_input(t("inputs.seed"), **bind("inputs.seed")))
col_button.button(t("inputs.reroll"), on_click=reroll, icon=":material/casino:")
predicting = quiz.predict_toggle("inputs")  # hide this draw's outcome until Reveal
link = share_link(LINKED, defaults=DEFAULTS)  # before any st.stop, so error views keep their link
draw = mlm_draw(tokenizer, text, seed) if text.strip() else None
if draw is None:
    st.warning(t("inputs.empty"))
elif len(draw.ids) > LIMIT:
    st.error(t("inputs.too_long", n=len(draw.ids), limit=LIMIT))
elif not predicting or quiz.draw_quiz("inputs", f"{seed}:{text}", draw.tokens, draw.kinds):
    mlm_views(draw, seed)

st.header(t("inputs.nsp.head"))
st.markdown(t("inputs.nsp.intro"))
source = st.segmented_control(
    t("inputs.nsp.source"), choices("inputs.nsp_source"), key="inputs.nsp_source",
    format_func=lambda v: t(f"inputs.nsp.src.{v}"),
) or "en"  # fmt: skip
if source == "own":
    raw = st.text_area(t("inputs.pairs"), key="inputs.pairs", help=t("inputs.pairs.help"))
    bad = lines_without_tab(raw.splitlines())
    if bad:
        st.error(t("inputs.no_tab", lines=", ".join(map(str, bad[:10]))))
        st.stop()
    pairs = parse_tab_pairs(raw.splitlines())
else:
    pairs = corpus_pairs(source)
if len(pairs) < 2:
    st.warning(t("inputs.need_two"))
    st.stop()
col_s, col_l = st.columns(2)
nsp_seed = int(col_s.number_input(t("inputs.nsp_seed"), **bind("inputs.nsp_seed")))
max_len = col_l.slider(t("inputs.max_len"), **bind("inputs.max_len"))
examples = make_nsp_examples(pairs, seed=nsp_seed)
label_name = {0: t("inputs.nsp.is_next"), 1: t("inputs.nsp.not_next")}
shown = examples[:12]
nsp_columns = [t("inputs.col.a"), t("inputs.col.b"), t("inputs.col.nsp")]
st.dataframe(viz.nsp_frame(shown, label_name, nsp_columns))
download_csv(lambda: viz.nsp_frame(examples, label_name, nsp_columns),
             f"nsp-pairs-{source}-seed-{nsp_seed}", "inputs.dl.nsp",
             label=t("inputs.dl.nsp"))  # fmt: skip
share = sum(ex.label for ex in examples) / len(examples)
st.caption(t("inputs.nsp.caption", n=len(examples), share=f"{100 * share:.1f}", seed=nsp_seed))
st.session_state["inputs.example"] = min(st.session_state["inputs.example"], len(shown) - 1)
pick = st.selectbox(t("inputs.example"), range(len(shown)), key="inputs.example",
                    format_func=lambda i: f"{i}: {label_name[shown[i].label]}")  # fmt: skip
ex = shown[pick]
bert_rows, truncated = pair_layout(tokenizer, ex, max_len, nsp_seed)
st.dataframe(viz.layout_frame(bert_rows))
st.caption(t("inputs.layout.caption", truncated=truncated, n=max_len, seed=nsp_seed))

tutorial_view(ex, "zh" if source == "zh" else "en", max_len, nsp_seed)
# MLM again, on Chinese: characters against whole words (last: the views above keep their order)
draws = st.session_state.get("inputs.draws")  # the slider's value (a pack may hold any number)
whole_word_view(seed, draws if draws in choices("inputs.draws") else DEFAULTS["inputs.draws"])
share_link(LINKED, link, DEFAULTS)
