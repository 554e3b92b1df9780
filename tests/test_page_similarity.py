"""AppTest of the Similarity page: MiniLM alone, then with a model trained in the session."""

from __future__ import annotations

import numpy as np
import pytest

from tests.charts import chart_array, figures
from tests.conftest import app_test
from tests.models import GUITAR, tiny_shared

PAGE = "lessons/similarity.py"


def _metrics(at) -> dict[str, float]:
    return {m.label: float(m.value) for m in at.metric}


def test_minilm_alone_gives_the_known_cosine_and_says_how_to_get_a_model():
    at = app_test(PAGE)
    assert not at.exception
    assert any("Train the model" in info.value for info in at.info)
    metrics = _metrics(at)
    assert list(metrics) == ["cosine: MiniLM (pretrained)"]
    assert metrics["cosine: MiniLM (pretrained)"] == pytest.approx(0.85, abs=0.01)
    assert any("pretrained all-MiniLM-L6-v2" in c.value for c in at.caption)
    # [CLS] pooling is another number (MiniLM was trained with mean pooling)
    at.segmented_control(key="sim.pooling").set_value("cls").run()
    assert _metrics(at)["cosine: MiniLM (pretrained)"] > 0.9


def test_matrix_heatmap_holds_the_cosines_with_colour_bar_and_titles(minilm_dir):
    from explorer_core.analysis.similarity import TextEncoder, cosine_matrix, sentence_list
    from explorer_core.bert.model import BertModel
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    at = app_test(PAGE)
    at.text_area(key="sim.list").set_value("\n".join([*GUITAR, "今天股市大幅下跌。"])).run()
    assert not at.exception
    (fig,) = figures(at)
    trace = fig["data"][0]
    z = chart_array(trace["z"]).reshape(3, 3)
    texts = sentence_list("\n".join([*GUITAR, "今天股市大幅下跌。"]))
    minilm = TextEncoder(
        BertModel.from_transformers(minilm_dir),
        WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt", lowercase=True),
    )
    expected = cosine_matrix(minilm.embed(texts))
    np.testing.assert_allclose(z, expected, atol=1e-6)
    assert z[0, 1] == pytest.approx(0.85, abs=0.01)
    assert (trace["zmin"], trace["zmax"]) == (-1.0, 1.0)
    assert trace["colorbar"]["title"]["text"] == "cosine"
    assert "%{z" in trace["hovertemplate"]
    assert fig["layout"]["xaxis"]["title"]["text"] and fig["layout"]["yaxis"]["title"]["text"]
    at.text_area(key="sim.list").set_value("only one line").run()
    assert not at.exception
    assert any("at least two" in w.value for w in at.warning)


def test_nearest_neighbours_are_ranked_by_cosine():
    at = app_test(PAGE)
    at.segmented_control(key="sim.view").set_value("neighbours").run()
    at.text_input(key="sim.query").set_value("Someone plays an instrument.").run()
    assert not at.exception
    (fig,) = figures(at)
    bars = fig["data"][0]
    values = list(chart_array(bars["x"]))
    assert values == sorted(values, reverse=True)
    assert "guitar" in bars["customdata"][0]
    assert fig["layout"]["xaxis"]["range"] == [-1, 1]


def test_trained_model_next_to_its_start_and_minilm():
    from explorer_core.analysis.similarity import TextEncoder
    from explorer_core.ui.state import SHARED_MODEL
    from explorer_core.ui.training.calls import PARTS_KEY

    shared, parts = tiny_shared()
    at = app_test(PAGE, state={SHARED_MODEL: shared, PARTS_KEY: ("built-in", parts)})
    assert not at.exception
    assert not at.info  # no "train a model first" message
    metrics = _metrics(at)
    assert set(metrics) == {
        "cosine: your model", "cosine: before training", "cosine: MiniLM (pretrained)",
    }  # fmt: skip
    trained = TextEncoder(shared.model, shared.tokenizer, shared.checkpoint.max_length)
    assert metrics["cosine: your model"] == pytest.approx(trained.cosine(*GUITAR), abs=1e-3)
    fresh = TextEncoder(shared.snapshots[0].model(), shared.tokenizer, 24)
    assert metrics["cosine: before training"] == pytest.approx(fresh.cosine(*GUITAR), abs=1e-3)
    assert any(shared.label in c.value for c in at.caption)


def test_any_model_with_the_shared_contract_is_used():
    from types import SimpleNamespace

    from explorer_core.ui.state import SHARED_MODEL

    shared, _ = tiny_shared()
    plain = SimpleNamespace(model=shared.model, tokenizer=shared.tokenizer, label="from elsewhere")
    at = app_test(PAGE, state={SHARED_MODEL: plain})
    assert not at.exception
    assert "cosine: your model" in [m.label for m in at.metric]
    assert any("from elsewhere" in c.value for c in at.caption)


def test_dev_pairs_scatter_shows_where_the_model_is_wrong():
    from explorer_core.analysis.similarity import TextEncoder, pair_cosines
    from explorer_core.training.metrics import spearman
    from explorer_core.ui.state import SHARED_MODEL
    from explorer_core.ui.training.calls import PARTS_KEY

    shared, parts = tiny_shared()
    at = app_test(PAGE, state={SHARED_MODEL: shared, PARTS_KEY: ("built-in", parts)})
    at.segmented_control(key="sim.view").set_value("pairs").run()
    assert not at.exception
    (fig,) = figures(at)
    points = fig["data"][1]
    dev = parts["dev"]
    cos = pair_cosines(
        TextEncoder(shared.model, shared.tokenizer, 24), [(p.sentence1, p.sentence2) for p in dev]
    )
    np.testing.assert_allclose(chart_array(points["y"]), cos, atol=1e-6)
    np.testing.assert_allclose(chart_array(points["x"]), [p.score for p in dev])
    assert points["customdata"][0][:2] == [dev[0].sentence1, dev[0].sentence2]
    assert "customdata[0]" in points["hovertemplate"]
    assert points["marker"]["colorbar"]["title"]["text"]
    rho = spearman(cos.tolist(), [p.score for p in dev])
    assert _metrics(at)["Spearman ρ (rank agreement with people)"] == pytest.approx(rho, abs=1e-3)
    assert "your model" in at.caption[-1].value.lower() or shared.label in at.caption[-1].value
    assert len(at.dataframe[0].value) == 10  # the ten worst pairs


def test_page_reads_in_chinese():
    from explorer_core.ui.state import SHARED_MODEL

    shared, _ = tiny_shared()
    at = app_test(PAGE, state={"lang": "zh", SHARED_MODEL: shared})
    assert not at.exception
    assert at.title[0].value == "句子相似度"
    assert "余弦：MiniLM（预训练）" in [m.label for m in at.metric]
    assert any("Tiny，本次会话中训练：微调 3 步" in c.value for c in at.caption)


def test_taught_model_next_to_minilm(taught):
    """MiniLM + 中文 gets its own cosine beside MiniLM's, and its matrix when picked: the numbers
    of the taught model with its own vocabulary (MiniLM reads these sentences as [UNK]s)."""
    from explorer_core.analysis.similarity import TextEncoder, cosine_matrix, sentence_list
    from explorer_core.files import taught_model

    ckpt = taught_model.load()
    encoder = TextEncoder(ckpt.model, ckpt.tokenizer, max_length=128)
    first, second, listed = (
        "一个男人在弹吉他。",
        "有人在切菜。",
        "猫坐在垫子上。\n狗在院子里跑。\n今天下雨了。",
    )
    state = {"sim.a": first, "sim.b": second, "sim.model": "taught", "sim.list": listed}
    at = app_test(PAGE, state=state)
    assert not at.exception
    metrics = _metrics(at)
    assert set(metrics) == {"cosine: MiniLM (pretrained)", "cosine: MiniLM + 中文 (taught here)"}
    taught_cos = metrics["cosine: MiniLM + 中文 (taught here)"]
    assert taught_cos == pytest.approx(encoder.cosine(first, second), abs=1e-3)
    assert taught_cos != pytest.approx(metrics["cosine: MiniLM (pretrained)"], abs=1e-3)
    (fig,) = figures(at)
    z = chart_array(fig["data"][0]["z"]).reshape(3, 3)
    np.testing.assert_allclose(z, cosine_matrix(encoder.embed(sentence_list(listed))), atol=1e-6)
    assert any("MiniLM + 中文, taught here" in c.value for c in at.caption)
