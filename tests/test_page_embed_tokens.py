"""AppTest of the Token embeddings page, with the chart data checked against the models' weights."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.charts import chart_array, figure_with_title
from tests.conftest import app_test
from tests.models import lab_tokenizer, trained_state

PAGE = "lessons/embed_tokens.py"


def _minilm_weight(minilm_dir) -> torch.Tensor:
    from explorer_core.bert.embeddings import load_word_embedding_matrix

    return load_word_embedding_matrix(minilm_dir)


def test_pretrained_numbers_are_minilm_rows(minilm_dir):
    at = app_test(PAGE, state={"emb.tokens.pick": 0})
    assert not at.exception
    ids = at.dataframe[0].value.iloc[:, 2].tolist()
    # bert-base-uncased ids: the=1996, king=2332, and=1998, queen=3035, castle=3317, .=1012
    assert ids == [1996, 2332, 1998, 1996, 3035, 2939, 2000, 1996, 3317, 1012]
    weight = _minilm_weight(minilm_dir).double().numpy()
    bar = figure_with_title(at, "one-hot(1996)")
    np.testing.assert_allclose(chart_array(bar["data"][0]["y"]), weight[1996], atol=1e-7)
    assert bar["layout"]["xaxis"]["title"]["text"] and bar["layout"]["yaxis"]["title"]["text"]
    heights = chart_array(bar["data"][1]["y"]) + chart_array(bar["data"][2]["y"])  # red + blue
    np.testing.assert_allclose(heights[::2], weight[1996], atol=1e-7)  # each bar's top, then 0
    matrix = figure_with_title(at, "Rows of E")
    z = chart_array(matrix["data"][0]["z"]).reshape(len(ids), -1)
    np.testing.assert_allclose(z, weight[ids], atol=1e-7)
    assert "%{z" in matrix["data"][0]["hovertemplate"]
    assert any("pretrained all-MiniLM-L6-v2" in c.value for c in at.caption)


def test_one_hot_window_marks_the_id(minilm_dir):
    at = app_test(PAGE, state={"emb.tokens.pick": 1})  # "king", id 2332
    window = at.dataframe[1].value
    hot = window[window["one-hot"] == 1]
    assert hot.iloc[0, 0] == 2332 and hot.iloc[0, 1] == "king"
    assert window["one-hot"].sum() == 1
    weight = _minilm_weight(minilm_dir)
    np.testing.assert_allclose(hot.iloc[0, 3:].to_numpy(float), weight[2332, :8].numpy(), atol=1e-7)


def test_neighbours_of_king_are_royal():
    at = app_test(PAGE)
    table = at.dataframe[-1].value
    king = table[table.iloc[:, 0] == "king"].iloc[:, 2].tolist()
    assert "queen" in king and "kings" in king
    cos = table.iloc[:, 4].to_numpy(float)
    assert (cos <= 1.0).all() and (cos > 0).all()
    pca = figure_with_title(at, "PCA map")
    assert pca["data"][0]["marker"]["cmin"] == -1 and pca["data"][0]["marker"]["cmax"] == 1
    assert "principal component 1" in pca["layout"]["xaxis"]["title"]["text"]


def test_fresh_model_is_seeded_and_sized():
    state = {"emb.tokens.source": "fresh", "emb.tokens.dim": 16, "emb.tokens.seed": 7}
    first, second = app_test(PAGE, state=state), app_test(PAGE, state=state)
    assert not first.exception
    a = chart_array(figure_with_title(first, "one-hot")["data"][0]["y"])
    b = chart_array(figure_with_title(second, "one-hot")["data"][0]["y"])
    assert a.shape == (16,) and np.array_equal(a, b)
    assert 0.005 < a.std() < 0.05  # BERT's N(0, 0.02) initialisation
    other = app_test(PAGE, state={**state, "emb.tokens.seed": 8})
    assert not np.array_equal(a, chart_array(figure_with_title(other, "one-hot")["data"][0]["y"]))
    assert any("fresh, untrained model" in c.value for c in first.caption)


def test_trained_model_absent_and_present(tmp_path):
    at = app_test(PAGE, state={"emb.tokens.source": "trained"})
    assert not at.exception
    assert "No model has been trained" in at.warning[0].value
    assert not at.get("plotly_chart")
    state, model = trained_state(tmp_path)
    state.update(
        {
            "emb.tokens.source": "trained",
            "emb.tokens.text": "The cat sat on the mat.",
            "emb.tokens.pick": 0,
        }
    )
    at = app_test(PAGE, state=state)
    assert not at.exception
    assert at.dataframe[0].value.iloc[:, 2].tolist() == [5, 6, 7, 8, 5, 9, 10]
    bar = figure_with_title(at, "one-hot(5)")
    weight = model.embeddings.word_embeddings.weight.detach().double().numpy()
    np.testing.assert_allclose(chart_array(bar["data"][0]["y"]), weight[5], atol=1e-7)
    assert any("test model, 0 steps" in c.value for c in at.caption)


@pytest.mark.parametrize("text", ["", "   "])
def test_empty_sentence_warns_and_keeps_text(text):
    at = app_test(PAGE, state={"emb.tokens.text": text})
    assert not at.exception
    assert at.warning and "no tokens" in at.warning[0].value
    assert at.text_input(key="emb.tokens.text").value == text


def test_chinese_interface_and_widget_change():
    at = app_test(PAGE, state={"lang": "zh"})
    assert not at.exception
    assert at.title[0].value.startswith("词元嵌入")
    at.text_input(key="emb.tokens.text").set_value("queen").run()
    assert not at.exception
    assert at.dataframe[0].value.iloc[:, 2].tolist() == [3035]
    at.toggle(key="emb.tokens.map").set_value(False).run()
    assert len(at.get("plotly_chart")) == 2


def test_fresh_model_with_a_lab_tokenizer():
    tokenizer = lab_tokenizer()
    state = {
        "shared.tokenizer": tokenizer,
        "shared.tokenizer_name": "byte-bpe, 273 tokens",
        "emb.tokens.source": "fresh",
        "emb.tokens.text": "the cat sat",
    }
    at = app_test(PAGE, state=state)
    assert not at.exception
    assert at.dataframe[0].value.iloc[:, 2].tolist() == tokenizer.encode("the cat sat")
    matrix = figure_with_title(at, "Rows of E")
    assert chart_array(matrix["data"][0]["z"]).size == 3 * 64
    assert any("byte-bpe, 273 tokens" in c.value for c in at.caption)


@pytest.fixture
def no_minilm(tmp_path, monkeypatch):
    """Point the pretrained model at an empty folder, with the model caches emptied around it."""
    from explorer_core.ui.embeddings import calls as ui

    caches = (ui.minilm_embeddings, ui.minilm_tokenizer, ui.pretrained_position_table)
    for cache in caches:
        cache.clear()
    monkeypatch.setenv("EXPLORER_MINILM_PATH", str(tmp_path))
    yield
    monkeypatch.delenv("EXPLORER_MINILM_PATH")
    for cache in caches:
        cache.clear()


def test_missing_pretrained_model_is_explained(no_minilm):
    at = app_test(PAGE)
    assert not at.exception
    assert "pretrained MiniLM model is not available" in at.warning[0].value
    at = app_test(PAGE, state={"emb.tokens.source": "fresh"})
    assert not at.exception
    assert "No tokenizer is available" in at.warning[0].value
    at = app_test("lessons/embed_positions.py", state={"emb.pos.scheme": "learned"})
    assert not at.exception
    assert "pretrained MiniLM model is not available" in at.warning[0].value


def test_the_map_is_computed_once_per_sentence(monkeypatch):
    """Picking another token or flipping the model source and back reuses the session's map: it
    compares the sentence with all 30,522 rows of MiniLM's table."""
    from explorer_core.ui.embeddings import token_map

    calls = []
    real = token_map.neighbourhood_map
    monkeypatch.setattr(
        token_map, "neighbourhood_map", lambda *a, **k: calls.append(1) or real(*a, **k)
    )
    at = app_test(PAGE)
    assert len(calls) == 1
    at.session_state["emb.tokens.pick"] = 3
    at.run()
    at.session_state["emb.tokens.source"] = "fresh"
    at.run()
    at.session_state["emb.tokens.source"] = "pretrained"
    at.run()
    assert not at.exception
    assert len(calls) == 2  # MiniLM once, the fresh model once
    at.session_state["emb.tokens.text"] = "a queen"
    at.run()
    assert len(calls) == 3


def test_taught_model_reads_chinese_characters(taught):
    """MiniLM + 中文: every character of the sentence is its own token with a row of the taught
    table (猫 is a row added after MiniLM's 30,522), and the page draws that table's numbers."""
    from explorer_core.files import taught_model

    ckpt = taught_model.load()
    text = "猫坐在垫子上。"
    state = {"emb.tokens.source": "taught", "emb.tokens.text": text, "emb.tokens.pick": 0}
    at = app_test(PAGE, state=state)
    assert not at.exception
    tokens, ids = at.dataframe[0].value.iloc[:, 1].tolist(), at.dataframe[0].value.iloc[:, 2]
    assert tokens == list(text) and "[UNK]" not in tokens
    assert ids.tolist() == [ckpt.tokenizer.vocab[c] for c in text] and ids[0] >= 30522
    weight = ckpt.model.embeddings.word_embeddings.weight.detach().double().numpy()
    bar = figure_with_title(at, f"one-hot({ids[0]})")
    np.testing.assert_allclose(chart_array(bar["data"][0]["y"]), weight[ids[0]], atol=1e-7)
    matrix = figure_with_title(at, "Rows of E")
    z = chart_array(matrix["data"][0]["z"]).reshape(len(ids), -1)
    np.testing.assert_allclose(z, weight[ids.tolist()], atol=1e-7)
    assert any("猫" in str(label) for label in matrix["data"][0]["y"])
    neighbours = at.dataframe[-1].value  # the map's table: the taught vocabulary's strings
    assert list(dict.fromkeys(neighbours.iloc[:, 0])) == list(text)
    assert any("MiniLM + 中文, taught here" in c.value for c in at.caption)
