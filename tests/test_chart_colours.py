"""Bars coloured by value: the CSS colours we send equal plotly's own colour-scale sampling, and
the colour bar still shows the numeric scale."""

from __future__ import annotations

import numpy as np
import plotly.colors
import pytest

from explorer_core.viz.common import DIVERGING, SEQUENTIAL, coloured_bars, scale_colours
from explorer_core.viz.embedding import vector_bar


def _rgb(text: str) -> np.ndarray:
    return np.array([float(v) for v in text[text.index("(") + 1 : -1].split(",")])


@pytest.mark.parametrize("scale", [DIVERGING, SEQUENTIAL])
def test_colours_equal_plotly_sampling(scale):
    values = np.random.default_rng(0).uniform(-0.3, 0.3, 384)
    ours = scale_colours(values, scale, -0.3, 0.3)
    reference = plotly.colors.sample_colorscale(scale, list((values + 0.3) / 0.6))
    for mine, theirs in zip(ours, reference, strict=True):
        assert np.abs(_rgb(mine) - _rgb(theirs)).max() <= 0.5  # rounded to whole channels


def test_values_outside_the_range_take_the_end_colours():
    low, high = scale_colours([-5.0, 5.0], SEQUENTIAL, -1.0, 1.0)
    assert (low, high) == tuple(scale_colours([-1.0, 1.0], SEQUENTIAL, -1.0, 1.0))


def test_bars_carry_css_colours_and_a_numeric_colour_bar():
    vector = np.array([-0.5, 0.0, 0.25, 0.5])
    fig = vector_bar(vector, title="v", x_title="dimension", y_title="value").to_plotly_json()
    bars, scale = fig["data"]
    assert all(c.startswith("rgb(") for c in bars["marker"]["color"])  # no numbers: see common
    assert bars["marker"]["color"][0] == scale_colours([-0.5], DIVERGING, -0.5, 0.5)[0]
    assert scale["marker"]["cmin"] == -0.5 and scale["marker"]["cmax"] == 0.5
    assert scale["marker"]["colorscale"] and scale["marker"]["showscale"] is True
    assert scale["marker"]["colorbar"]["title"]["text"] == "value"
    assert scale["hoverinfo"] == "skip" and list(scale["x"]) == [None]
    marker, _ = coloured_bars([1.0], colorscale=SEQUENTIAL, cmin=0.0, cmax=1.0, title="t")
    assert marker == {"color": scale_colours([1.0], SEQUENTIAL, 0.0, 1.0)}
