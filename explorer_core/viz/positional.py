"""Position encodings: tables, position-similarity matrices, RoPE's rotation, spectrum and decay.

Every builder returns a plotly figure with axis titles, hover values and (where colour carries a
number) a colour bar; texts come from the caller (the page passes catalogue strings).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import torch

from explorer_core.viz.common import CATEGORICAL, coloured_bars, heatmap, style


def table_figure(
    table: torch.Tensor, *, trained_length: int | None = None, **texts: str
) -> go.Figure:
    """Heatmap of an encoding table, positions down the y axis, dimensions along x.

    A dashed line marks `trained_length` when the table runs past it (extrapolation).
    """
    z = table.detach().double().numpy()
    fig = heatmap(
        z, x=list(range(z.shape[1])), y=list(range(z.shape[0])), diverging=True, height=460, **texts
    )
    fig.update_traces(colorbar=dict(title=dict(side="right")))
    fig.update_yaxes(autorange="reversed")
    if trained_length is not None and trained_length < z.shape[0]:
        fig.add_hline(y=trained_length - 0.5, line_dash="dash", line_color="black")
    return fig


def square_figure(
    matrix: torch.Tensor, *, text_format: str | None = None, **texts: str
) -> go.Figure:
    """Heatmap of a (T, T) position-by-position matrix, position 0 at the top left, square cells;
    `text_format` (e.g. ".0f") writes the values in small matrices."""
    z = matrix.detach().double().numpy()
    axis = list(range(z.shape[0]))
    fig = heatmap(
        z,
        x=axis,
        y=axis,
        diverging=True,
        height=460,
        text_format=text_format if z.shape[0] <= 16 else None,
        **texts,
    )
    fig.update_traces(colorbar=dict(title=dict(side="right")))
    fig.update_xaxes(constrain="domain")
    fig.update_yaxes(autorange="reversed", scaleanchor="x", constrain="domain")
    return fig


def rotation_figure(
    path: dict[str, torch.Tensor],
    *,
    title: str,
    x_title: str,
    y_title: str,
    value_title: str,
    angle_title: str = "angle (rad)",
) -> go.Figure:
    """The pair's point at each position on the unit circle, coloured by position (colour bar)."""
    positions = path["position"].numpy()
    x, y = path["x"].double().numpy(), path["y"].double().numpy()
    circle = np.linspace(0, 2 * np.pi, 200)
    fig = go.Figure(
        go.Scatter(
            x=np.cos(circle),
            y=np.sin(circle),
            mode="lines",
            line=dict(color="#bbbbbb"),
            hoverinfo="skip",
            showlegend=False,
        )
    )
    fig.add_trace(
        go.Scatter(
            x=x,
            y=y,
            mode="markers+lines",
            line=dict(color="#dddddd", width=1),
            marker=dict(
                size=9,
                color=positions,
                colorscale="Viridis",
                colorbar=dict(title=dict(text=value_title)),
            ),
            customdata=np.stack([positions, path["angle"].double().numpy()], axis=1),
            hovertemplate=f"{value_title}: %{{customdata[0]}}<br>"
            f"{angle_title}: %{{customdata[1]:.3f}}<br>"
            f"{x_title}: %{{x:.4f}}<br>{y_title}: %{{y:.4f}}<extra></extra>",
            showlegend=False,
        )
    )
    fig.update_xaxes(range=[-1.25, 1.25])
    fig.update_yaxes(range=[-1.25, 1.25], scaleanchor="x")
    return style(fig, title=title, x_title=x_title, y_title=y_title, height=460)


def _level_line(bars: int, level: float, label: str) -> go.Scatter:
    """A dashed horizontal line across `bars` bars at `level`, as a trace with a legend entry.

    subtle: shapes (add_hline) on a log axis take log10 coordinates; a trace takes the value.
    """
    return go.Scatter(
        x=[-0.5, bars - 0.5],
        y=[level, level],
        mode="lines",
        name=label,
        line=dict(color="black", dash="dash"),
        hovertemplate=f"{label}<extra></extra>",
    )


def spectrum_figure(
    spectrum: dict[str, torch.Tensor],
    trained_length: int,
    *,
    title: str,
    x_title: str,
    y_title: str,
    value_title: str,
    line_label: str,
) -> go.Figure:
    """Wavelength (positions per full turn) of each pair on a log axis, coloured by θ_i, with the
    trained length as a horizontal line: pairs above it never turned once in training."""
    theta = spectrum["theta"].numpy()
    log_theta = np.log10(theta)
    marker, scale = coloured_bars(
        log_theta, colorscale="Viridis", cmin=float(log_theta.min()),
        cmax=float(log_theta.max()), title=value_title,
    )  # fmt: skip
    fig = go.Figure(
        [
            go.Bar(
                showlegend=False,
                x=spectrum["pair"].numpy(),
                y=spectrum["wavelength"].numpy(),
                marker=marker,
                customdata=theta,
                hovertemplate=f"{x_title}: %{{x}}<br>{y_title}: %{{y:.1f}}<br>"
                "θ: %{customdata:.3g} rad<extra></extra>",
            ),
            scale,
        ]
    )
    fig.add_trace(_level_line(len(theta), trained_length, line_label))
    fig.update_layout(legend=dict(orientation="h", y=-0.25))
    # subtle: plotly labels a log axis's minor ticks (2, 5) in 9 px type, unreadable on a
    # projector; dtick=1 labels only the powers of ten, in the chart's own font.
    fig.update_yaxes(type="log", dtick=1)
    return style(fig, title=title, x_title=x_title, y_title=y_title, height=400)


def offset_figure(
    curve: dict[str, torch.Tensor],
    trained_length: int,
    *,
    title: str,
    x_title: str,
    y_title: str,
    score_name: str,
    bound_name: str,
    line_label: str,
) -> go.Figure:
    """q·k against the offset m - n (RoPE, all-ones q = k) and RoFormer's decaying bound."""
    offsets = curve["offset"].numpy()
    fig = go.Figure()
    for key, name, colour in (
        ("score", score_name, CATEGORICAL[0]),
        ("bound", bound_name, CATEGORICAL[1]),
    ):
        fig.add_trace(
            go.Scatter(
                x=offsets,
                y=curve[key].double().numpy(),
                mode="lines",
                name=name,
                line=dict(color=colour),
                hovertemplate=f"{x_title}: %{{x}}<br>{name}: %{{y:.4f}}<extra></extra>",
            )
        )
    if trained_length <= int(offsets[-1]):
        fig.add_vline(
            x=trained_length,
            line_dash="dash",
            line_color="black",
            annotation_text=line_label,
            annotation_position="top right",
        )
    fig.update_layout(legend=dict(orientation="h", y=-0.25))
    return style(fig, title=title, x_title=x_title, y_title=y_title, height=420)
