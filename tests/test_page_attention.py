"""AppTest of the Attention page: every view, every input mode, bad input, chart data."""

from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

from explorer_core.bert.config import BertConfig
from explorer_core.bert.model import BertModel
from explorer_core.ui.state import SHARED_MODEL
from tests.charts import figures, plot_array
from tests.conftest import app_test

PAGE = "lessons/attention.py"


def z_of(figure: dict) -> list[list[float]]:
    return plot_array(figure["data"][0]["z"])


@pytest.fixture(scope="module")
def page():
    """One AppTest shared by the tests below (MiniLM loads once); each test sets what it needs."""
    at = app_test(PAGE)
    assert not at.exception
    return at


def test_default_is_minilm_head_view_with_weights_and_scores(page):
    page.session_state["attn.view"] = "head"
    page.session_state["attn.mode"] = "single"
    page.run()
    assert not page.exception and not page.error
    weights, scores, row = figures(page)
    z = z_of(weights)
    assert len(z) == len(z[0]) >= 10  # [CLS] the cat ... [SEP]
    assert all(abs(sum(r) - 1) < 1e-5 for r in z)  # every row of weights sums to 1
    assert weights["layout"]["xaxis"]["title"]["text"] and weights["layout"]["yaxis"]["title"]
    assert "pretrained model all-MiniLM-L6-v2" in " ".join(c.value for c in page.caption)
    metrics = [m.value for m in page.metric]
    assert len(metrics) == 5 and float(metrics[-1]) == pytest.approx(z[0][0], abs=1e-4)
    assert len(row["data"]) == 2  # bars (weights) and the score line


def test_selected_cell_arithmetic_matches_the_heatmap(page):
    page.session_state["attn.view"] = "head"
    page.session_state["attn.layer"] = 3
    page.session_state["attn.head"] = 5
    page.run()
    page.selectbox("attn.query").set_value(2).run()
    page.selectbox("attn.key").set_value(4).run()
    z = z_of(figures(page)[0])
    assert float(page.metric[-1].value) == pytest.approx(z[2][4], abs=1e-4)
    assert "looking at" in page.markdown[-2].value or any(
        "looking at" in m.value for m in page.markdown
    )


def test_overview_grid_has_every_layer_and_head(page):
    page.session_state["attn.view"] = "overview"
    page.run()
    (grid,) = figures(page)
    assert len(grid["layout"]["yaxis"]["tickvals"]) == 6  # MiniLM: 6 layers
    assert len(grid["layout"]["xaxis"]["tickvals"]) == 12  # 12 heads
    trace = grid["data"][0]
    assert trace["zmin"] == 0 and trace["zmax"] == 1 and trace["colorbar"]["title"]["text"]


def test_padded_batch_shows_pad_columns_with_zero_weight(page):
    page.session_state["attn.mode"] = "batch"
    page.session_state["attn.view"] = "head"
    page.session_state["attn.row"] = 0  # "The cat sat." is the shortest but one
    page.run()
    assert not page.exception
    batch = page.dataframe[0].value
    assert "[PAD]" in batch.iloc[0].tolist()
    z = z_of(figures(page)[0])
    real = batch.iloc[0].tolist().index("[PAD]")
    assert all(max(r[real:]) == 0 for r in z)  # no weight on [PAD] keys
    page.session_state["attn.view"] = "masks"
    page.run()
    allowed = z_of(figures(page)[0])
    assert allowed[0][:real] == [1.0] * real and set(allowed[0][real:]) == {0.0}


def test_causal_mask_and_pair_blocks(page):
    page.session_state["attn.mode"] = "pair"
    page.session_state["attn.view"] = "masks"
    page.session_state["attn.causal"] = True
    page.run()
    assert not page.exception
    allowed = z_of(figures(page)[0])
    assert all(allowed[i][j] == (1.0 if j <= i else 0.0) for i in range(3) for j in range(3))
    blocks = page.dataframe[0].value
    assert list(blocks.columns) == ["A", "B"]
    assert blocks.sum(axis=1).tolist() == pytest.approx([1.0, 1.0])
    assert blocks.loc["A", "B"] == pytest.approx(0.0, abs=1e-6)  # causal: A never sees B
    page.session_state["attn.causal"] = False
    page.session_state["attn.mode"] = "single"
    page.run()


def test_fresh_model_and_missing_trained_model():
    at = app_test(PAGE, state={"attn.source": "fresh"})
    assert not at.exception
    assert "fresh, untrained" in " ".join(c.value for c in at.caption)
    at.session_state["attn.source"] = "trained"
    at.run()
    assert not at.exception and "No model has been trained" in at.warning[0].value


def test_trained_model_from_the_shared_state_with_snapshots(minilm_dir):
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    tokenizer = WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt")
    config = BertConfig(vocab_size=30522, hidden_size=32, num_hidden_layers=1,
                        num_attention_heads=2, intermediate_size=37,
                        position_embedding_type="rotary", norm_placement="pre")  # fmt: skip
    models = [BertModel(config, seed=seed).eval() for seed in (0, 1)]
    snaps = tuple(
        SimpleNamespace(phase="pretrain", step=step, model=lambda m=m: m)
        for step, m in zip((0, 50), models, strict=True)
    )
    shared = SimpleNamespace(model=models[1], tokenizer=tokenizer, label="test run",
                             snapshots=snaps)  # fmt: skip
    at = app_test(PAGE, state={"attn.source": "trained", SHARED_MODEL: shared})
    assert not at.exception and not at.error
    assert "test run; pretrain 50" in " ".join(c.value for c in at.caption)
    after = z_of(figures(at)[0])
    at.select_slider("attn.snapshot").set_value(0).run()
    assert not at.exception and "pretrain 0" in " ".join(c.value for c in at.caption)
    assert z_of(figures(at)[0]) != after  # another model, other weights


def test_bad_input_gives_messages_not_tracebacks():
    at = app_test(PAGE, state={"attn.text": "   "})
    assert not at.exception and "empty" in at.warning[0].value
    at.text_input("attn.text").input("word " * 600).run()
    assert not at.exception and "only 512 positions" in at.error[0].value
    assert at.text_input("attn.text").value.startswith("word word")  # the text stays
    at.session_state["lang"] = "zh"
    at.run()
    assert not at.exception and "512" in at.error[0].value


def test_long_input_overview_is_cut_to_the_first_64_tokens():
    at = app_test(PAGE, state={"attn.text": "word " * 80, "attn.view": "overview"})
    assert not at.exception and "first 64" in at.info[0].value
    grid = json.loads(at.get("plotly_chart")[0].proto.spec)
    assert len(plot_array(grid["data"][0]["z"])) == 6 * 65 - 1  # 6 layers of 64 rows, 5 gaps


# ---- predict, then reveal; downloads -------------------------------------------------------


def answer_box(at):
    (box,) = [s for s in at.selectbox if s.key.startswith("attn.answer.")]
    return box


def test_predict_the_most_attended_token_hides_the_head_then_grades():
    """Layer 2, head 3, query "cat": while unanswered no heatmap, score chart, row chart or cell
    numbers; the options are the sentence's tokens; Reveal grades against the argmax of the row
    the heatmap then shows."""
    at = app_test(PAGE, state={"attn.predict": True, "attn.layer": 2, "attn.head": 3})
    at.selectbox("attn.query").set_value(2).run()
    assert not at.exception
    assert not at.get("plotly_chart") and not at.metric and not at.get("download_button")
    box = answer_box(at)
    assert box.options[:3] == ["0 · [CLS]", "1 · the", "2 · cat"] and len(box.options) >= 10
    box.set_value(0).run()
    at.button(key="attn.reveal").click().run()
    assert not at.exception
    row = z_of(figures(at)[0])[2]  # the heatmap is back: query 2's weights
    best = max(range(len(row)), key=row.__getitem__)
    right = int(best == 0)
    assert at.session_state["quiz.score"]["attn"] == (right, 1)
    text = " ".join(m.value for m in at.markdown)
    assert f"{row[best]:.3f}" in text and f"weight {row[0]:.3f}" in text
    assert len(at.get("download_button")) == 3
    at.selectbox("attn.key").set_value(4).run()  # another key: the same question, no new grade
    assert at.session_state["quiz.score"]["attn"] == (right, 1) and figures(at)
    at.selectbox("attn.query").set_value(3).run()  # another query: a new question
    assert not at.get("plotly_chart") and answer_box(at)
    answer_box(at).set_value(best).run()
    at.session_state["lang"] = "zh"  # the last run (AppTest formats options in English)
    at.button(key="attn.reveal").click().run()
    assert not at.exception
    assert any(s.value == "预测注意力" for s in at.subheader)
    assert "本次会话得分" in " ".join(m.value for m in at.markdown)
    assert at.session_state["quiz.score"]["attn"][1] == 2


def test_head_charts_are_clickable_and_outline_the_picked_cell(page):
    """Each cell of both head charts carries a click target (a heatmap reports no clicked point);
    the cell picked in the two dropdowns is the one selected (drawn as an outline)."""
    page.session_state["attn.view"] = "head"
    page.session_state["attn.layer"], page.session_state["attn.head"] = 1, 1
    page.run()
    page.selectbox("attn.query").set_value(3).run()
    page.selectbox("attn.key").set_value(2).run()
    charts = page.get("plotly_chart")
    weights, scores = figures(page)[:2]
    size = len(z_of(weights))
    for chart, figure in zip(charts[:2], (weights, scores), strict=True):
        assert chart.proto.selection_mode  # on_select: a click reruns the page
        targets = figure["data"][1]
        assert targets["type"] == "scatter" and len(targets["x"]) == size * size
        assert targets["selectedpoints"] == [3 * size + 2]
        picked = 3 * size + 2
        assert (targets["y"][picked], targets["x"][picked]) == ("3 · sat", "2 · cat")
        assert figure["layout"]["xaxis"]["range"] == [-0.5, size - 0.5]  # cells stay in place


def test_a_click_on_a_cell_picks_query_and_key():
    """The chart's callback turns a clicked point (x: key label, y: query label) into positions."""
    from explorer_core.ui.attention.views import clicked_cell

    labels = ["0 · [CLS]", "1 · the", "2 · cat", "3 · sat"]
    assert clicked_cell([{"x": "2 · cat", "y": "3 · sat", "z": 0.1}], labels) == (3, 2)
    assert clicked_cell([{"x": "9 · gone", "y": "3 · sat"}], labels) is None
    assert clicked_cell([], labels) is None


def test_taught_model_attends_over_chinese_characters(taught):
    """MiniLM + 中文: the axes are the sentence's characters (no [UNK]) and the weights are the
    taught model's own, layer 1 head 1."""
    import torch

    from explorer_core.files import taught_model

    ckpt = taught_model.load()
    text = "猫坐在垫子上。"
    at = app_test(PAGE, state={"attn.source": "taught", "attn.text": text})
    assert not at.exception and not at.error
    weights = figures(at)[0]
    labels = [str(label).split(" · ", 1)[1] for label in weights["data"][0]["x"]]
    assert (
        labels == ["[CLS]", *text, "[SEP]"] and weights["data"][0]["y"] == weights["data"][0]["x"]
    )
    ids = [ckpt.tokenizer.vocab[c] for c in text]
    row = torch.tensor([[ckpt.tokenizer.vocab["[CLS]"], *ids, ckpt.tokenizer.vocab["[SEP]"]]])
    with torch.no_grad():
        expected = ckpt.model(row, torch.ones_like(row), output_attentions=True).attentions[0]
    np.testing.assert_allclose(z_of(weights), expected[0, 0].numpy(), atol=1e-5)
    assert "MiniLM + 中文, taught here" in " ".join(c.value for c in at.caption)
