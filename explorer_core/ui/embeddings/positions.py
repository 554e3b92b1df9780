"""Parts of the Position encodings page: RoPE up close (one pair's rotation, the spectrum of its
angles, the score's decay with distance, each with its numbers as CSV) and the table comparing
the four schemes."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from explorer_core.analysis import positions as pa
from explorer_core.files.tables import series_frame
from explorer_core.ui.export import download_csv, show_chart
from explorer_core.ui.i18n import t
from explorer_core.ui.settings import bind, declared
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
