"""The decoder's charts: the language model's loss against its two references, the next-token
bars (what temperature, top-k and top-p keep), the three objectives side by side, and each
token's share of a causal mean. Every label arrives as an argument (catalogue text)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from explorer_core.viz.common import CATEGORICAL, SEQUENTIAL, plain_text, style

CUT_COLOUR = "#BBBBBB"  # a token top-k or top-p removed: grey, its raw probability still drawn


def lm_loss_frame(records: Sequence[object]) -> pd.DataFrame:
    """Columns step, seconds, loss: one row per evaluation record (anything with those fields).

    >>> from types import SimpleNamespace as R
    >>> lm_loss_frame([R(step=10, seconds=0.5, loss=5.2)]).values.tolist()
    [[10.0, 0.5, 5.2]]
    """
    rows = [(float(r.step), float(r.seconds), float(r.loss)) for r in records]
    return pd.DataFrame(rows, columns=["step", "seconds", "loss"])


def lm_loss_figure(
    frame: pd.DataFrame, *, uniform: float | None, bigram: float | None, names: Mapping[str, str],
    title: str, x_title: str, y_title: str,
) -> go.Figure:  # fmt: skip
    """The held-out loss per step, with ln V (guessing uniformly) and the bigram model as
    dashed lines; `names` has the keys "loss", "uniform", "bigram"."""
    fig = go.Figure()
    fig.add_scatter(
        x=frame["step"], y=frame["loss"], mode="lines+markers", name=names["loss"],
        line=dict(color=CATEGORICAL[0], width=2),
        hovertemplate=f"{x_title}: %{{x}}<br>{y_title}: %{{y:.3f}}<extra></extra>",
    )  # fmt: skip
    last = float(frame["step"].max()) if len(frame) else 1.0
    for key, value, colour in (("uniform", uniform, CATEGORICAL[5]),
                               ("bigram", bigram, CATEGORICAL[2])):  # fmt: skip
        if value is None:
            continue
        fig.add_scatter(
            x=[0.0, max(last, 1.0)], y=[value, value], mode="lines", name=names[key],
            line=dict(color=colour, width=2, dash="dash"),
            hovertemplate=f"{names[key]}: {value:.3f}<extra></extra>",
        )  # fmt: skip
    style(fig, title=title, x_title=x_title, y_title=y_title, height=380)
    fig.update_layout(showlegend=True, legend=dict(orientation="h", y=-0.25))
    fig.update_xaxes(rangemode="tozero", tickformat="d")
    return fig


def distribution_figure(
    labels: Sequence[str], raw: Sequence[float], kept: Sequence[float], *, names: Mapping[str, str],
    title: str, x_title: str,
) -> go.Figure:  # fmt: skip
    """Horizontal bars for the most likely next tokens, most likely on top: the raw softmax
    probability (outline) and the probability after temperature, top-k and top-p (filled; grey
    and 0 where top-k or top-p cut the token). `names`: "raw", "kept", "cut"."""
    y = plain_text([f"{i + 1}. {label}" for i, label in enumerate(labels)])
    kept = np.asarray(kept, dtype=float)
    colours = [CATEGORICAL[0] if k > 0 else CUT_COLOUR for k in kept]
    status = [names["kept"] if k > 0 else names["cut"] for k in kept]
    fig = go.Figure()
    fig.add_bar(
        y=y, x=list(raw), orientation="h", name=names["raw"],
        marker=dict(color="rgba(0,0,0,0)", line=dict(color=CATEGORICAL[1], width=2)),
        hovertemplate=f"%{{y}}<br>{names['raw']}: %{{x:.4f}}<extra></extra>",
    )  # fmt: skip
    fig.add_bar(
        y=y, x=kept.tolist(), orientation="h", name=names["kept"], marker=dict(color=colours),
        customdata=status,
        hovertemplate=f"%{{y}}<br>{names['kept']}: %{{x:.4f}} (%{{customdata}})<extra></extra>",
    )  # fmt: skip
    style(fig, title=title, x_title=x_title, y_title="", height=max(320, 26 * len(labels) + 140))
    fig.update_layout(barmode="overlay", showlegend=True, legend=dict(orientation="h", y=-0.15))
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(range=[0, max(1e-9, float(max([*raw, *kept.tolist(), 0.0]))) * 1.05])
    return fig


def objectives_figure(
    loss: Sequence[Sequence[bool]], texts: Sequence[Sequence[str]], labels: Sequence[str],
    rows: Sequence[str], *, title: str, x_title: str, value_title: str,
) -> go.Figure:  # fmt: skip
    """Objectives (rows) × positions (columns): a filled cell carries a loss; each cell's text
    is what that position predicts there (`texts`, "" where nothing)."""
    z = np.asarray(loss, dtype=float)  # (3, T)
    fig = go.Figure(go.Heatmap(
        z=z, x=plain_text(labels), y=plain_text(rows), zmin=0, zmax=1,
        colorscale=[[0, "#F2F2F2"], [1, CATEGORICAL[0]]], text=texts,
        texttemplate="%{text}", textfont=dict(size=12), xgap=2, ygap=2,
        colorbar=dict(title=dict(text=value_title), tickvals=[0, 1]),
        hovertemplate="%{y}<br>%{x}<br>%{text}<extra></extra>",
    ))  # fmt: skip
    style(fig, title=title, x_title=x_title, y_title="", height=300)
    fig.update_yaxes(autorange="reversed")
    return fig


def visibility_figure(
    matrices: Sequence[Sequence[Sequence[bool]]], labels: Sequence[str], names: Sequence[str], *,
    title: str, x_title: str, y_title: str, value_title: str,
) -> go.Figure:  # fmt: skip
    """What each token may see, one (T, T) panel per objective: row i (query), column j (key)."""
    fig = make_subplots(rows=1, cols=len(matrices), subplot_titles=list(names),
                        horizontal_spacing=0.06)  # fmt: skip
    axis = plain_text(labels)
    for col, matrix in enumerate(matrices, start=1):
        fig.add_trace(go.Heatmap(
            z=np.asarray(matrix, dtype=float), x=axis, y=axis, zmin=0, zmax=1,
            colorscale=[[0, "#F2F2F2"], [1, CATEGORICAL[2]]], xgap=1, ygap=1,
            showscale=col == 1, colorbar=dict(title=dict(text=value_title), tickvals=[0, 1]),
            hovertemplate=f"{y_title}: %{{y}}<br>{x_title}: %{{x}}<br>{value_title}: %{{z}}"
            "<extra></extra>",
        ), row=1, col=col)  # fmt: skip
        fig.update_yaxes(autorange="reversed", showticklabels=col == 1, row=1, col=col)
        fig.update_xaxes(title_text=x_title, row=1, col=col)
    style(fig, title=title, x_title=x_title, y_title=y_title, height=420)
    fig.update_yaxes(title_text=y_title, row=1, col=1)
    return fig


def shares_figure(
    shares: Sequence[float], labels: Sequence[str], *, title: str, x_title: str, y_title: str,
) -> go.Figure:  # fmt: skip
    """Each token's share of a causal mean (bars, the first token's tallest)."""
    values = np.asarray(shares, dtype=float)
    top = float(values.max()) if values.size else 1.0
    fig = go.Figure(go.Bar(
        x=plain_text(labels), y=values, text=[f"{v:.3f}" for v in values], textposition="outside",
        marker=dict(color=values.tolist(), colorscale=SEQUENTIAL, cmin=0, cmax=top),
        hovertemplate=f"%{{x}}<br>{y_title}: %{{y:.4f}}<extra></extra>",
    ))  # fmt: skip
    style(fig, title=title, x_title=x_title, y_title=y_title, height=360)
    fig.update_yaxes(range=[0, top * 1.2 if top > 0 else 1.0])
    return fig
