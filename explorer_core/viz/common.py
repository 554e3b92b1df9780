"""Chart style shared by every figure: colour-blind-safe scales, labelled axes, hover values."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.colors
import plotly.graph_objects as go
import plotly.io as pio

# The house template, as the default of every figure this process builds. plotly applies the
# default template when a figure is made, without validating it again; `update_layout(template=
# "plotly_white")` validates and deep-copies the whole template instead, ~8 ms a chart, which was
# a third of an Attention head change's server time (bench/page_latency.py, py-spy).
pio.templates.default = "plotly_white"

SEQUENTIAL = "Viridis"  # perceptually uniform, readable in grey and with colour blindness
DIVERGING = "RdBu_r"  # blue negative, red positive; centre at 0 with zmid=0
_DIVERGING_STOPS = plotly.colors.get_colorscale(DIVERGING)  # [[position, colour], ...]
POSITIVE = _DIVERGING_STOPS[-2][1]  # a clearly positive value's red: the second stop from the top
NEGATIVE = _DIVERGING_STOPS[1][1]  # and a clearly negative value's blue
CATEGORICAL = (  # Okabe-Ito, safe for the common colour-vision deficiencies
    "#0072B2",
    "#E69F00",
    "#009E73",
    "#CC79A7",
    "#56B4E9",
    "#D55E00",
    "#F0E442",
    "#000000",
)
FONT = dict(size=14)
TITLE_TOP = 30  # px kept free above each chart's title for plotly's button bar


def scale_colours(
    values: np.ndarray | Sequence[float], colorscale: str, cmin: float, cmax: float
) -> list[str]:
    """The colour of each value on `colorscale` between `cmin` and `cmax`, as plotly.js picks it
    (linear in RGB between the scale's stops; values outside are clipped to the ends).

    >>> scale_colours([0.0, 0.5, 2.0], "Greys", 0.0, 1.0)  # plotly's Greys: white to black
    ['rgb(255,255,255)', 'rgb(150,150,150)', 'rgb(0,0,0)']
    """
    stops = plotly.colors.get_colorscale(colorscale)
    where = np.array([position for position, _ in stops], dtype=float)
    rgb, _ = plotly.colors.convert_colors_to_same_type([c for _, c in stops], colortype="tuple")
    channels = 255 * np.asarray(rgb, dtype=float)
    span = (cmax - cmin) or 1.0
    at = np.clip((np.asarray(values, dtype=float) - cmin) / span, 0.0, 1.0)
    mixed = np.rint(np.stack([np.interp(at, where, channels[:, i]) for i in range(3)], axis=1))
    return [f"rgb({r:.0f},{g:.0f},{b:.0f})" for r, g, b in mixed]


def coloured_bars(
    values: np.ndarray | Sequence[float], *, colorscale: str, cmin: float, cmax: float,
    title: str,
) -> tuple[dict, go.Scatter]:  # fmt: skip
    """Bars coloured by value with a colour bar: (the bars' `marker`, a trace that draws only the
    colour bar; add it after the bars, and give the bars `showlegend=False`: two traces would
    otherwise get a legend).

    subtle: a bar trace with numbers as `marker.color` makes Streamlit's plotly.js (3.x) log a
    console.trace warning 2-3 times per bar ("Invalid color specifier"), ~90 ms for MiniLM's 384
    dimensions on every redraw (Chromium's JS profiler, bench/page_latency.py). The bars get CSS
    colours instead; the empty scatter trace carries the numeric scale and its colour bar.
    """
    marker = dict(color=scale_colours(values, colorscale, cmin, cmax))
    scale = go.Scatter(
        x=[None], y=[None], mode="markers", showlegend=False, hoverinfo="skip",
        marker=dict(color=[cmin, cmax], colorscale=colorscale, cmin=cmin, cmax=cmax,
                    showscale=True, colorbar=dict(title=dict(text=title))),
    )  # fmt: skip
    return marker, scale


def signed_bars(values: np.ndarray | Sequence[float], hovertemplate: str) -> list[go.Scatter]:
    """Bars for many values, red above zero and blue below (the diverging scale's colours for a
    clearly positive and negative value): three traces, the first holding the exact values (x =
    index, y = value) and the hover, drawn as nothing; then the red and the blue bars.

    subtle: each colour's bars are one filled outline (two points a bar, a "hv" step back to 0
    between bars), not a `go.Bar` of one SVG element per bar: for MiniLM's 384 dimensions the
    browser drew the page's model-source change ~70 ms sooner (bench/page_latency.py, p50).
    """
    v = np.asarray(values, dtype=float)
    index = np.arange(len(v), dtype=float)
    traces = [
        go.Scatter(x=index, y=v, mode="lines", line=dict(width=0), showlegend=False,
                   hovertemplate=hovertemplate)
    ]  # fmt: skip
    edges = np.stack([index - 0.4, index + 0.4], axis=1).ravel()  # each bar's left and right
    for part, colour in ((np.maximum(v, 0.0), POSITIVE), (np.minimum(v, 0.0), NEGATIVE)):
        tops = np.stack([part, np.zeros_like(part)], axis=1).ravel()  # up at the left, down after
        traces.append(
            go.Scatter(x=edges, y=tops, mode="lines", line=dict(shape="hv", width=0),
                       fill="tozeroy", fillcolor=colour, showlegend=False, hoverinfo="skip")
        )  # fmt: skip
    return traces


def plain_text(labels: Sequence) -> list:
    """Labels as plotly must be given them to draw them as written: it reads a few HTML tags in
    text, so RoBERTa's "<s>" would strike through the rest of its label and "</s>" vanish.

    >>> plain_text(["0: <s> (A)", "R&D", 3])
    ['0: &lt;s&gt; (A)', 'R&amp;D', 3]
    """
    return [
        x.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;") if isinstance(x, str)
        else x
        for x in labels
    ]  # fmt: skip


def heatmap(
    z: np.ndarray | Sequence[Sequence[float]],
    *,
    x: Sequence[str] | Sequence[int] | None = None,
    y: Sequence[str] | Sequence[int] | None = None,
    title: str,
    x_title: str,
    y_title: str,
    value_title: str,
    diverging: bool = False,
    zmin: float | None = None,
    zmax: float | None = None,
    text_format: str | None = None,
    height: int = 420,
) -> go.Figure:
    """A labelled heatmap with a colour bar; `diverging` centres the scale at 0.

    `text_format` (e.g. ".2f") writes each value in its cell, for small matrices.
    """
    z = np.asarray(z, dtype=float)
    if diverging and zmin is None and zmax is None:
        bound = float(np.nanmax(np.abs(z))) if z.size else 1.0
        zmin, zmax = -bound, bound
    trace = go.Heatmap(
        z=z,
        x=plain_text(x) if x is not None else None,
        y=plain_text(y) if y is not None else None,
        colorscale=DIVERGING if diverging else SEQUENTIAL,
        zmin=zmin,
        zmax=zmax,
        zmid=0.0 if diverging and zmin is None else None,
        colorbar=dict(title=dict(text=value_title)),
        hovertemplate=f"{y_title}: %{{y}}<br>{x_title}: %{{x}}<br>{value_title}: %{{z:.4f}}"
        "<extra></extra>",
        texttemplate=f"%{{z:{text_format}}}" if text_format else None,
    )
    fig = go.Figure(trace)
    style(fig, title=title, x_title=x_title, y_title=y_title, height=height)
    return fig


def style(
    fig: go.Figure, *, title: str, x_title: str, y_title: str, height: int = 420
) -> go.Figure:
    """Apply the house style: a title, both axis titles, readable fonts, compact margins (the
    plotly_white template comes with every figure: see `pio.templates.default` above)."""
    fig.update_layout(
        # subtle: the download/zoom bar is always shown at the chart's top right; the title sits
        # in the strip below it, so a long title is never drawn under the buttons.
        title=dict(text=title, yref="container", y=1.0, yanchor="top", pad=dict(t=TITLE_TOP)),
        xaxis_title=x_title,
        yaxis_title=y_title,
        font=FONT,
        height=height,
        margin=dict(l=60, r=20, t=TITLE_TOP + 50, b=60),
    )
    return fig
