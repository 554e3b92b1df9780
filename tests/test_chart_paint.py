"""What a chart costs the browser to paint: Streamlit draws every changed chart anew (a plotly
chart's element id hashes its figure, so a new figure is a new element and `Plotly.newPlot`), and
the machines that show this app often have no GPU, where Chromium draws WebGL in software: a
WebGL trace then pays a new context on every change. The charts stay SVG."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from explorer_core.viz.encoder import dots_figure

ROOT = Path(__file__).resolve().parents[1]
WEBGL = re.compile(r"\b(Scattergl|Scatter3d|Heatmapgl|Pointcloud|Surface|Mesh3d|Splom|Parcoords)\(")


def test_no_chart_is_drawn_with_webgl():
    """Inside the encoder's LayerNorm and GELU dot plots were Scattergl: with the page's flow
    strip they took a token change to ~6.7 s painted on a loaded 2-core machine, ~3.8 s as SVG
    (bench A/B, same load)."""
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for folder in ("explorer_core", "lessons")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if WEBGL.search(line)
    ]
    assert found == []


def test_the_dot_plot_keeps_every_dimension_in_svg():
    """One SVG dot per dimension (37, odd on purpose), the values as given."""
    before = np.linspace(-2, 2, 37)
    fig = dots_figure(before, np.tanh(before), title="t", x_title="x", y_title="y")
    (trace,) = fig.data
    assert trace.type == "scatter" and trace.mode == "markers"
    assert np.array_equal(trace.x, before) and len(trace.customdata) == 37
