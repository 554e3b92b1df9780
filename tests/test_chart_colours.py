"""Bars coloured by value: the CSS colours we send equal plotly's own colour-scale sampling, and
the colour bar still shows the numeric scale. A vector's bars: red up, blue down, exact hover."""

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


def test_coloured_bars_carry_css_colours_and_a_numeric_colour_bar():
    values = np.array([-0.5, 0.0, 0.25, 0.5])
    marker, scale = coloured_bars(values, colorscale=DIVERGING, cmin=-0.5, cmax=0.5, title="value")
    assert all(c.startswith("rgb(") for c in marker["color"])  # no numbers: see common
    assert marker["color"][0] == scale_colours([-0.5], DIVERGING, -0.5, 0.5)[0]
    scale = scale.to_plotly_json()
    assert scale["marker"]["cmin"] == -0.5 and scale["marker"]["cmax"] == 0.5
    assert scale["marker"]["colorscale"] and scale["marker"]["showscale"] is True
    assert scale["marker"]["colorbar"]["title"]["text"] == "value"
    assert scale["hoverinfo"] == "skip" and list(scale["x"]) == [None]


def _step_height(trace, x: float) -> float:
    """The height at `x` of a filled "hv" step outline: each point's y holds until the next x."""
    xs, ys = np.asarray(trace["x"], dtype=float), np.asarray(trace["y"], dtype=float)
    before = np.flatnonzero(xs <= x)
    return float(ys[before[-1]]) if len(before) else 0.0


def test_vector_bars_are_the_values_red_up_blue_down():
    vector = np.array([-0.5, 0.0, 0.25, 0.5, -0.125])
    values, up, down = vector_bar(vector, title="v", x_title="dimension", y_title="value").data
    np.testing.assert_array_equal(values["x"], np.arange(5))
    np.testing.assert_array_equal(values["y"], vector)  # what the hover reads: the exact numbers
    assert "%{y:.4f}" in values["hovertemplate"] and values["line"]["width"] == 0
    assert up["fillcolor"] == plotly.colors.sequential.RdBu_r[-2]  # the heatmaps' clear red
    assert down["fillcolor"] == plotly.colors.sequential.RdBu_r[1]  # and clear blue
    for bars in (up, down):
        assert bars["fill"] == "tozeroy" and bars["line"]["shape"] == "hv"
        assert bars["hoverinfo"] == "skip" and bars["line"]["width"] == 0
    for i, value in enumerate(vector):
        for x in (i - 0.39, i, i + 0.39):  # inside bar i
            assert _step_height(up, x) == max(value, 0.0)
            assert _step_height(down, x) == min(value, 0.0)
        assert _step_height(up, i + 0.5) == _step_height(down, i + 0.5) == 0.0  # the gap
