"""Figures for the Sequence models page: hidden states, gates, the n-gram window, steps and time,
gradient over distance, and the recall task's accuracy.

Inputs are numpy arrays and plain lists (the UI turns the core's tensors and records into them);
titles come translated from the page. Token labels carry their position ("3 · the"), as on the
Attention page, because plotly merges equal category names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from explorer_core.viz.common import CATEGORICAL, heatmap, style

GATE_RANGE = (-1.0, 1.0)  # sigmoid gates lie in [0, 1], the candidates g and n in [-1, 1]


def colour(index: int) -> str:
    return CATEGORICAL[index % len(CATEGORICAL)]


def states_figure(
    states: np.ndarray, labels: Sequence[str], *, title: str, unit_title: str, token_title: str,
    value_title: str, height: int = 360,
) -> go.Figure:  # fmt: skip
    """One model's h_1 .. h_L: tokens down, hidden units across, diverging around 0."""
    states = np.asarray(states, dtype=float)  # (T, width)
    fig = heatmap(
        states, x=list(range(states.shape[1])), y=list(labels), title=title, x_title=unit_title,
        y_title=token_title, value_title=value_title, diverging=True, height=height,
    )  # fmt: skip
    fig.update_yaxes(autorange="reversed", type="category")
    return fig


def gates_figure(
    means: Mapping[str, np.ndarray], labels: Sequence[str], *, title: str, gate_title: str,
    token_title: str, value_title: str, gate_names: Mapping[str, str], height: int = 260,
) -> go.Figure:  # fmt: skip
    """A strip per gate: the gate's mean over the units at each token (tokens across)."""
    names = list(means)
    z = np.stack([np.asarray(means[name], dtype=float) for name in names])  # (gates, T)
    fig = heatmap(
        z, x=list(labels), y=[gate_names[name] for name in names], title=title,
        x_title=token_title, y_title=gate_title, value_title=value_title, diverging=True,
        zmin=GATE_RANGE[0], zmax=GATE_RANGE[1], text_format=".2f", height=height,
    )  # fmt: skip
    fig.update_xaxes(type="category", tickangle=-45)
    fig.update_yaxes(type="category", autorange="reversed")
    return fig


def window_figure(
    allowed: Sequence[Sequence[bool]], labels: Sequence[str], *, title: str, read_title: str,
    at_title: str, value_title: str, yes: str, no: str, height: int = 420,
) -> go.Figure:  # fmt: skip
    """Which tokens (across) position t (down) can read: 1 inside the window, 0 outside."""
    z = np.asarray(allowed, dtype=float)  # (T, T)
    words = np.where(z > 0, yes, no)
    fig = heatmap(
        z, x=list(labels), y=list(labels), title=title, x_title=read_title, y_title=at_title,
        value_title=value_title, zmin=0.0, zmax=1.0, height=height,
    )  # fmt: skip
    fig.update_traces(
        customdata=words, colorbar=dict(tickvals=[0, 1], ticktext=[no, yes]),
        hovertemplate=f"{at_title}: %{{y}}<br>{read_title}: %{{x}}<br>%{{customdata}}"
        "<extra></extra>",
    )  # fmt: skip
    fig.update_xaxes(type="category", tickangle=-45)
    fig.update_yaxes(type="category", autorange="reversed")
    return fig


def lines_figure(
    series: Mapping[str, tuple[Sequence[float], Sequence[float]]], *, title: str, x_title: str,
    y_title: str, log_x: bool = False, log_y: bool = False, dashed: Sequence[str] = (),
    value_format: str = ".3g", height: int = 420,
) -> go.Figure:  # fmt: skip
    """One line per named series {name: (x, y)}; hover gives the series, x and y. Zeros and
    negatives are left out of a log axis (plotly would draw nothing for them anyway)."""
    fig = go.Figure()
    for index, (name, (xs, ys)) in enumerate(series.items()):
        ys = [None if (log_y and (y is None or y <= 0)) else y for y in ys]
        fig.add_trace(go.Scatter(
            x=list(xs), y=ys, mode="lines+markers", name=name,
            line=dict(color=colour(index), dash="dash" if name in dashed else "solid"),
            hovertemplate=f"{name}<br>{x_title}: %{{x}}<br>{y_title}: %{{y:{value_format}}}"
            "<extra></extra>",
        ))  # fmt: skip
    style(fig, title=title, x_title=x_title, y_title=y_title, height=height)
    fig.update_xaxes(type="log" if log_x else "linear")
    fig.update_yaxes(type="log" if log_y else "linear", exponentformat="power")
    if log_y:
        fig.update_yaxes(dtick=1)  # powers of ten only: minor labels crowd a projector
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.2, x=0))
    fig.update_layout(margin=dict(b=110))
    return fig


def accuracy_figure(
    series: Mapping[str, tuple[Sequence[int], Sequence[float]]], chance: float, *, title: str,
    x_title: str, y_title: str, chance_name: str, height: int = 420,
) -> go.Figure:  # fmt: skip
    """Accuracy against k per model, with chance as a dotted line; y from 0 to 1."""
    fig = lines_figure(series, title=title, x_title=x_title, y_title=y_title, log_x=True,
                       value_format=".3f", height=height)  # fmt: skip
    ks = sorted({k for xs, _ in series.values() for k in xs})
    fig.add_trace(go.Scatter(
        x=ks, y=[chance] * len(ks), mode="lines", name=chance_name,
        line=dict(color="grey", dash="dot"),
        hovertemplate=f"{chance_name}: {chance:.3f}<extra></extra>",
    ))  # fmt: skip
    fig.update_yaxes(range=[0, 1.05])
    fig.update_xaxes(tickvals=ks)
    return fig
