"""The BERT inputs page's whole-word section: one Chinese text masked character by character and
word by word with the same seed, the counts of each, the shares over many draws, and what the
bench measured when a tiny BERT was pre-trained each way (bench/whole_word_masking.py)."""

from __future__ import annotations

import streamlit as st

from explorer_core.inputs.whole_word import SegmenterMissing
from explorer_core.ui.attention.calls import whole_word_draw
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import bind

KINDS = ("none", "mask", "random", "keep", "special")
EXPECTED = {"mask": 0.12, "random": 0.015, "keep": 0.015}  # 15% x 80 / 10 / 10, both schemes


def whole_word_view(seed: int, draws: int) -> None:
    """The `inputs.wwm_text` box and both maskings of it (the page's seed and draw count)."""
    st.header(t("inputs.wwm.head"))
    st.markdown(t("inputs.wwm.intro"))
    text = st.text_input(t("inputs.wwm.text"), max_chars=500, **bind("inputs.wwm_text"))
    if not text.strip():
        st.warning(t("inputs.empty"))
        return
    try:
        draw = whole_word_draw(text, seed, int(draws))
    except SegmenterMissing:
        st.warning(t("inputs.wwm.missing"))
        return
    if len(draw.pieces) > 512:
        st.error(t("inputs.too_long", n=len(draw.pieces), limit=512))
        return
    st.markdown(t("inputs.wwm.words", words=" / ".join(w for w in draw.words if w.strip())))
    names = [t(f"inputs.kind.{kind}") for kind in KINDS]
    st.dataframe({
        t("inputs.col.token"): draw.pieces,
        t("inputs.wwm.col.char"): draw.shown["char"],
        t("inputs.wwm.col.char_kind"): [names[k] for k in draw.kinds["char"]],
        t("inputs.wwm.col.word"): draw.shown["word"],
        t("inputs.wwm.col.word_kind"): [names[k] for k in draw.kinds["word"]],
    }, hide_index=True, height=260)  # fmt: skip
    counted = ("mask", "random", "keep", "none")
    codes = {kind: KINDS.index(kind) for kind in counted}
    st.dataframe({
        t("inputs.wwm.col.kind"): [t(f"inputs.kind.{kind}") for kind in counted],
        t("inputs.wwm.col.char_once"): [draw.kinds["char"].count(codes[k]) for k in counted],
        t("inputs.wwm.col.word_once"): [draw.kinds["word"].count(codes[k]) for k in counted],
        t("inputs.wwm.col.char_share"): [share(draw.shares["char"], k) for k in counted],
        t("inputs.wwm.col.word_share"): [share(draw.shares["word"], k) for k in counted],
        t("inputs.wwm.col.expected"): [share(EXPECTED, k) for k in counted],
    }, hide_index=True)  # fmt: skip
    st.caption(t("inputs.wwm.caption", seed=seed, chosen=draw.chosen_words, draws=draws,
                 words=sum(1 for w in draw.words if w.strip())))  # fmt: skip
    st.subheader(t("inputs.wwm.bench.head"))
    st.markdown(t("inputs.wwm.bench"))


def share(shares: dict[str, float], kind: str) -> str:
    """A share as a percentage; "–" for the untouched tokens (not a share of the chosen)."""
    return f"{100 * shares[kind]:.2f}%" if kind in shares else "–"
