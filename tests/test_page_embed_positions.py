"""AppTest of the Position encodings page: every scheme, chart data against the core formulas."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explorer_core.bert.positional import sinusoidal_table
from tests.charts import chart_array, figure_with_title
from tests.conftest import app_test

PAGE = "lessons/embed_positions.py"
SMALL = {"emb.pos.length": 32, "emb.pos.dim": 16, "emb.pos.trained": 16}


def _z(spec: dict, rows: int) -> np.ndarray:
    return chart_array(spec["data"][0]["z"]).reshape(rows, -1)


def test_sinusoidal_table_and_similarity():
    at = app_test(PAGE, state={**SMALL, "emb.pos.base": 100})
    assert not at.exception
    table = _z(figure_with_title(at, "Sinusoidal table"), 32)
    np.testing.assert_allclose(table, sinusoidal_table(32, 16, 100.0).numpy(), atol=1e-7)
    assert table[1, 0] == pytest.approx(math.sin(1.0), abs=1e-7)
    sim = _z(figure_with_title(at, "similarity of positions"), 32)
    assert np.allclose(np.diag(sim), 1.0, atol=1e-6)
    assert sim[3, 10] == pytest.approx(sim[10, 17], abs=1e-6)  # depends on distance only
    spec = figure_with_title(at, "Sinusoidal table")
    assert spec["data"][0]["colorbar"]["title"]["text"]
    assert spec["layout"]["xaxis"]["title"]["text"] == "dimension (index)"
    assert any(shape.get("line", {}).get("dash") == "dash" for shape in spec["layout"]["shapes"])


def test_learned_is_minilm_table(minilm_dir):
    from explorer_core.bert.embeddings import load_pretrained_embeddings

    at = app_test(PAGE, state={**SMALL, "emb.pos.scheme": "learned"})
    assert not at.exception
    table = _z(figure_with_title(at, "Learned position table"), 32)
    weight = load_pretrained_embeddings(minilm_dir).position_embeddings.weight.detach()
    np.testing.assert_allclose(table, weight[:32].double().numpy(), atol=1e-7)
    sim = _z(figure_with_title(at, "PE·PEᵀ"), 32)
    unit = table / np.linalg.norm(table, axis=1, keepdims=True)
    np.testing.assert_allclose(sim, unit @ unit.T, rtol=1e-5, atol=1e-5)
    assert np.allclose(np.diag(sim), 1.0, atol=1e-5)
    assert any("all-MiniLM-L6-v2" in c.value for c in at.caption)


def test_relative_clip_window_slider():
    at = app_test(PAGE, state={**SMALL, "emb.pos.scheme": "relative", "emb.pos.clip": 3})
    assert not at.exception
    dist = _z(figure_with_title(at, "clipped to ±3"), 32)
    assert dist[0, :6].tolist() == [0, 1, 2, 3, 3, 3] and dist.min() == -3
    at.slider(key="emb.pos.clip").set_value(5).run()
    dist = _z(figure_with_title(at, "clipped to ±5"), 32)
    assert dist.max() == 5
    bias = _z(figure_with_title(at, "q·r[j − i]"), 32)
    assert bias[0, 10] == pytest.approx(bias[0, 20])  # both beyond the window


def test_rotary_views_and_decay():
    at = app_test(
        PAGE,
        state={**SMALL, "emb.pos.scheme": "rotary", "emb.pos.base": 100, "emb.pos.pair": 1,
               "emb.pos.rope": True},
    )  # fmt: skip
    assert not at.exception
    sim = _z(figure_with_title(at, "position-only q·k"), 32)
    assert np.allclose(np.diag(sim), 1.0, atol=1e-6)
    rot = figure_with_title(at, "Pair 1 of (1, 0)")["data"][1]
    theta = 100 ** (-2 / 16)
    np.testing.assert_allclose(chart_array(rot["x"])[:5], np.cos(theta * np.arange(5)), atol=1e-6)
    np.testing.assert_allclose(chart_array(rot["y"])[:5], np.sin(theta * np.arange(5)), atol=1e-6)
    assert "colorbar" in rot["marker"]
    spectrum = figure_with_title(at, "Frequency spectrum")["data"][0]
    np.testing.assert_allclose(
        chart_array(spectrum["y"]), 2 * np.pi / 100 ** (-np.arange(0, 16, 2) / 16), rtol=1e-9
    )
    decay = figure_with_title(at, "long-range decay")
    score = chart_array(decay["data"][0]["y"])
    assert score[0] == pytest.approx(1.0) and len(score) == 33
    assert decay["layout"]["xaxis"]["title"]["text"] == "offset m − n (positions)"


def test_beyond_trained_length_metrics():
    at = app_test(PAGE, state={**SMALL, "emb.pos.base": 100})
    values = {m.label: m.value for m in at.metric}
    assert values["Learned table"] == "no row past 16"
    # d = 16, base 100: wavelength 2π·100^(i/8) = 6.3, 11.2, 19.9, ... > 16 for i >= 2 -> 6 of 8
    assert values["RoPE pairs never turned once"] == "6 / 8"
    at.slider(key="emb.pos.trained").set_value(32).run()
    assert {m.label: m.value for m in at.metric}["Learned table"] == "covers T"


def test_comparison_table_and_chinese():
    at = app_test(PAGE, state={"lang": "zh", **SMALL})
    assert not at.exception
    table = at.dataframe[0].value
    assert table.shape == (4, 5)
    assert "RoPE" in table.iloc[3, 0] and "LLaMA" in table.iloc[3, 4]
    assert len(at.get("plotly_chart")) == 2  # RoPE up close is off by default
    at.toggle(key="emb.pos.rope").set_value(True).run()
    assert len(at.get("plotly_chart")) == 5


def test_remembered_pair_outside_a_narrower_width_is_clamped():
    at = app_test(PAGE, state={"emb.pos.dim": 8, "emb.pos.pair": 20, "emb.pos.rope": True})
    assert not at.exception
    assert at.slider(key="emb.pos.pair").value == 3
    assert "Pair 3 of (1, 0)" in figure_with_title(at, "Pair 3")["layout"]["title"]["text"]
