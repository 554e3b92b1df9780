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

from explorer_core.viz.common import (
    CATEGORICAL,
    DIVERGING,
    FONT,
    TITLE_TOP,
    heatmap,
    plain_text,
    style,
)

GATE_RANGE = (-1.0, 1.0)  # sigmoid gates lie in [0, 1], the candidates g and n in [-1, 1]


def colour(index: int) -> str:
    return CATEGORICAL[index % len(CATEGORICAL)]


def _span(low: float, high: float) -> list[float]:
    """An axis domain inside [0, 1] (plotly refuses 1.0000000000000002 from float sums)."""
    return [max(0.0, round(low, 6)), min(1.0, round(high, 6))]


def states_grid_figure(
    states: Mapping[str, np.ndarray], names: Mapping[str, str], labels: Sequence[str], *,
    title: str, unit_title: str, token_title: str, value_title: str, columns: int = 2,
) -> go.Figure:  # fmt: skip
    """Every model's h_1 .. h_L in one figure: a heatmap per model (tokens down, hidden units
    across), `columns` side by side, each titled `names[model]` and coloured on its own scale,
    diverging around 0, with its own colour bar.

    # subtle: one figure, not one per model: Streamlit mounts each chart anew when its numbers
    # change and plotly.js lays out and draws each one twice; six heatmaps as six charts cost the
    # browser ~780 ms a mount against ~440 ms as one (Chromium's TaskDuration, 2 cores)."""
    models = list(states)
    rows = -(-len(models) // columns)
    gap_x, gap_y, title_px = 0.12, 0.09, 70
    width = (1 - gap_x * (columns - 1)) / columns
    tall = (1 - gap_y * (rows - 1)) / rows
    row_px = 40 + 22 * len(labels)
    fig = go.Figure()
    layout: dict = {}
    notes = []
    for index, model in enumerate(models):
        row, col = divmod(index, columns)
        x0 = col * (width + gap_x)
        y1 = 1 - row * (tall + gap_y)
        suffix = "" if index == 0 else str(index + 1)
        values = np.asarray(states[model], dtype=float)  # (T, width)
        bound = float(np.nanmax(np.abs(values))) if values.size else 1.0
        fig.add_trace(go.Heatmap(
            z=values, x=list(range(values.shape[1])), y=plain_text(labels), name=names[model],
            xaxis=f"x{suffix}", yaxis=f"y{suffix}", colorscale=DIVERGING,
            zmin=-bound, zmax=bound,
            colorbar=dict(title=dict(text=value_title if col == columns - 1 else ""),
                          x=x0 + width + 0.005, xanchor="left", y=y1, yanchor="top", len=tall,
                          thickness=12),
            hovertemplate=f"{plain_text([names[model]])[0]}<br>{token_title}: %{{y}}<br>"
            f"{unit_title}: %{{x}}<br>{value_title}: %{{z:.4f}}<extra></extra>",
        ))  # fmt: skip
        layout[f"xaxis{suffix}"] = dict(
            domain=_span(x0, x0 + width), anchor=f"y{suffix}", showgrid=False, zeroline=False,
            title=dict(text=unit_title) if row == rows - 1 else None,
        )  # fmt: skip
        layout[f"yaxis{suffix}"] = dict(
            domain=_span(y1 - tall, y1), anchor=f"x{suffix}", type="category", autorange="reversed",
            showgrid=False, title=dict(text=token_title) if col == 0 else None,
            showticklabels=col == 0,  # a row's models share its tokens: named once, at the left
        )  # fmt: skip
        notes.append(dict(text=f"<b>{plain_text([names[model]])[0]}</b>", x=x0, xref="paper",
                          xanchor="left", y=y1, yref="paper", yanchor="bottom", yshift=4,
                          showarrow=False))  # fmt: skip
    fig.update_layout(
        title=dict(text=title, yref="container", y=1.0, yanchor="top", pad=dict(t=TITLE_TOP)),
        font=FONT, height=rows * row_px + (rows - 1) * title_px + 170, annotations=notes,
        margin=dict(l=60, r=70, t=TITLE_TOP + 80, b=60), **layout,
    )  # fmt: skip
    return fig


def gates_grid_figure(
    gates: Mapping[str, Mapping[str, np.ndarray]], names: Mapping[str, str],
    labels: Sequence[str], *, title: str, gate_title: str, token_title: str, value_title: str,
    gate_names: Mapping[str, str],
) -> go.Figure:  # fmt: skip
    """The gates of several models in one figure, one strip per gate and a block per model
    (`names[kind]` above it), tokens across; one colour bar, as every gate shares GATE_RANGE.
    One figure for the reason `states_grid_figure` gives."""
    kinds = list(gates)
    counts = [len(gates[kind]) for kind in kinds]
    strip_px, gap_px = 34, 150  # the gap holds the upper block's slanted token names and a title
    plot_px = strip_px * sum(counts) + gap_px * (len(kinds) - 1)
    unit, gap = strip_px / plot_px, gap_px / plot_px
    fig = go.Figure()
    layout: dict = {}
    notes = []
    top = 1.0
    for index, kind in enumerate(kinds):
        suffix = "" if index == 0 else str(index + 1)
        means = gates[kind]
        z = np.stack([np.asarray(means[name], dtype=float) for name in means])  # (gates, T)
        bottom = top - unit * len(means)
        fig.add_trace(go.Heatmap(
            z=z, x=plain_text(labels), y=[gate_names[name] for name in means], name=names[kind],
            xaxis=f"x{suffix}", yaxis=f"y{suffix}", colorscale=DIVERGING, zmin=GATE_RANGE[0],
            zmax=GATE_RANGE[1], showscale=index == 0, texttemplate="%{z:.2f}",
            colorbar=dict(title=dict(text=value_title), thickness=14),
            hovertemplate=f"{plain_text([names[kind]])[0]}<br>{gate_title}: %{{y}}<br>"
            f"{token_title}: %{{x}}<br>{value_title}: %{{z:.4f}}<extra></extra>",
        ))  # fmt: skip
        last = index == len(kinds) - 1
        layout[f"xaxis{suffix}"] = dict(
            anchor=f"y{suffix}", type="category", tickangle=-45, matches="x" if suffix else None,
            title=dict(text=token_title) if last else None,
        )  # fmt: skip
        layout[f"yaxis{suffix}"] = dict(domain=_span(bottom, top), anchor=f"x{suffix}",
                                        type="category", autorange="reversed",
                                        title=dict(text=gate_title))  # fmt: skip
        notes.append(dict(text=f"<b>{plain_text([names[kind]])[0]}</b>", x=0, xref="paper",
                          xanchor="left", y=top, yref="paper", yanchor="bottom", yshift=4,
                          showarrow=False))  # fmt: skip
        top = bottom - gap
    fig.update_layout(
        title=dict(text=title, yref="container", y=1.0, yanchor="top", pad=dict(t=TITLE_TOP)),
        font=FONT, height=plot_px + 260, annotations=notes,
        margin=dict(l=60, r=20, t=TITLE_TOP + 80, b=60), **layout,
    )  # fmt: skip
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
