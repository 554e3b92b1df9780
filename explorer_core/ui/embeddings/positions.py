"""Parts of the Position encodings page: RoPE up close (one pair's rotation, the spectrum of its
angles, the score's decay with distance, each with its numbers as CSV), the table comparing
the four schemes, and word order (the same tokens in two orders, with and without positions)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from explorer_core.analysis import positions as pa
from explorer_core.files import taught_model
from explorer_core.files.tables import series_frame
from explorer_core.tokenization import Token, Tokenizer
from explorer_core.ui.embeddings.calls import SourceUnavailable, embedding_source
from explorer_core.ui.export import download_csv, show_chart
from explorer_core.ui.i18n import current_language, t
from explorer_core.ui.settings import TAUGHT, bind, declared
from explorer_core.ui.taught.views import unavailable
from explorer_core.viz import positional as viz


def rope_close_up(*, dim: int, base: float, length: int, trained: int) -> None:
    """The pair slider (`emb.pos.pair`, kept in the URL) and the three RoPE charts."""
    top = dim // 2 - 1  # the last frequency pair of this width
    default = min(declared()["emb.pos.pair"].default, top)  # inside the slider
    pair = st.slider(t("emb.pos.pair"), **bind("emb.pos.pair", default=default, span=(0, top)))
    path = pa.rope_pair_path(pair, dim, base, min(length, 64))
    spectrum, decay = pa.rope_spectrum(dim, base), pa.rope_offset_curve(dim, base, length)
    r1, r2 = st.columns(2)
    show_chart(
        viz.rotation_figure(
            path,
            title=t("emb.pos.rot.title", pair=pair, theta=float(path["theta"])),
            x_title=t("emb.pos.axis.x", a=pair),
            y_title=t("emb.pos.axis.y", b=pair + dim // 2),
            value_title=t("emb.pos.axis.pos"),
            angle_title=t("emb.pos.axis.angle"),
        ),
        "emb.pos.rotation",
        r1,
    )
    show_chart(
        viz.spectrum_figure(
            spectrum,
            trained,
            title=t("emb.pos.spec.title"),
            x_title=t("emb.pos.axis.pair"),
            y_title=t("emb.pos.axis.wavelength"),
            value_title="log₁₀ θ",
            line_label=t("emb.pos.trained_line", n=trained),
        ),
        "emb.pos.spectrum",
        r2,
    )
    row = st.container(horizontal=True)
    download_csv(series_frame(path), f"rope-pair-{pair}", "emb.pos.dl.rotation", row,
                 label=t("emb.pos.dl.rotation"))  # fmt: skip
    download_csv(series_frame(spectrum), "rope-spectrum", "emb.pos.dl.spectrum", row,
                 label=t("emb.pos.dl.spectrum"))  # fmt: skip
    st.caption(t("emb.pos.rot.caption", pair=pair, dim=dim))
    show_chart(
        viz.offset_figure(
            decay,
            trained,
            title=t("emb.pos.decay.title"),
            x_title=t("emb.pos.axis.offset"),
            y_title=t("emb.pos.axis.score"),
            score_name=t("emb.pos.decay.score"),
            bound_name=t("emb.pos.decay.bound"),
            line_label=t("emb.pos.trained_line", n=trained),
        ),
        "emb.pos.decay",
    )
    download_csv(series_frame(decay), "rope-decay", "emb.pos.dl.decay",
                 label=t("emb.pos.dl.decay"))  # fmt: skip
    st.caption(t("emb.pos.decay.caption", dim=dim, base=int(base)))


def scheme_comparison(schemes: Sequence[str]) -> None:
    """How, strengths, weaknesses and users of each scheme, side by side."""
    st.subheader(t("emb.pos.compare.head"))
    columns = ("how", "strengths", "weaknesses", "used")
    st.dataframe(
        {
            t("emb.pos.compare.scheme"): [t(f"emb.pos.compare.{row}") for row in schemes],
            **{
                t(f"emb.pos.compare.col.{c}"): [t(f"emb.pos.compare.{row}.{c}") for row in schemes]
                for c in columns
            },
        },
        hide_index=True,
    )


def word_order_view() -> None:
    """Two orders of the same words (`emb.pos.order_a` / `_b`, kept in the URL): one bag of token
    embeddings, two different inputs once positions are added. MiniLM's tables; in a Chinese UI
    MiniLM + 中文's once it is built (it reads 狗 and 咬; MiniLM reads them as [UNK])."""
    st.subheader(t("emb.pos.order.head"))
    st.markdown(t("emb.pos.order.intro"))
    left, right = st.columns(2)
    text_a = left.text_input(t("emb.pos.order.a"), max_chars=200, **bind("emb.pos.order_a"))
    text_b = right.text_input(t("emb.pos.order.b"), max_chars=200, **bind("emb.pos.order_b"))
    chinese = current_language() == "zh" and taught_model.built_folder() is not None
    try:
        source = embedding_source(TAUGHT if chinese else "pretrained")
    except SourceUnavailable as err:
        unavailable(err.key, **err.values)
        return
    tokens_a, tokens_b = (
        text_tokens(source.tokenizer, text_a),
        text_tokens(source.tokenizer, text_b),
    )
    if not tokens_a or not tokens_b or source.embeddings.position_embeddings is None:
        st.warning(t("emb.pos.order.empty"))
        return
    positions = source.embeddings.position_embeddings.weight.detach()[1:]  # [CLS] holds 0
    try:
        weights = source.embeddings.word_embeddings.weight.detach()
        ids_a, ids_b = [tok.id for tok in tokens_a], [tok.id for tok in tokens_b]
        names_a = [text_a[tok.start : tok.end] for tok in tokens_a]
        names_b = [text_b[tok.start : tok.end] for tok in tokens_b]
        found = pa.word_order(weights, positions, ids_a, ids_b, names_a, names_b)
    except ValueError:
        st.warning(t("emb.pos.order.too_long", limit=positions.shape[0]))
        return
    bag, inputs = st.columns(2)
    bag.metric(t("emb.pos.order.bag"), f"{found.bag_gap:.4f}")
    inputs.metric(t("emb.pos.order.inputs"), f"{found.input_gap:.3f}")
    st.markdown(t("emb.pos.order.same" if found.same_bag else "emb.pos.order.not_same",
                  gap=found.bag_gap))  # fmt: skip
    st.dataframe({
        t("emb.pos.order.col.token"): [names_a[i] for _, i, _, _ in found.moved],
        t("emb.pos.order.col.id"): [token for token, _, _, _ in found.moved],
        t("emb.pos.order.col.a"): [i + 1 for _, i, _, _ in found.moved],
        t("emb.pos.order.col.b"): [j + 1 for _, _, j, _ in found.moved],
        t("emb.pos.order.col.gap"): [round(gap, 4) for _, _, _, gap in found.moved],
    }, hide_index=True)  # fmt: skip
    st.caption(t("emb.pos.order.caption", model=source.label))


def text_tokens(tokenizer: Tokenizer, text: str) -> list[Token]:
    """The tokens that cover text ([UNK] included: it stands for its characters)."""
    return [tok for tok in tokenizer.explain(text) if tok.end > tok.start]
