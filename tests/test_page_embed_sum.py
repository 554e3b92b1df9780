"""AppTest of the Embedding sum page: ids, segments and LayerNorm output against transformers."""

from __future__ import annotations

import numpy as np
import torch

from tests.charts import chart_array, figure_with_title
from tests.conftest import app_test
from tests.models import lab_tokenizer, trained_state

PAGE = "lessons/embed_sum.py"
PAIR = {"emb.sum.a": "The cat sat.", "emb.sum.b": "It slept."}


def test_pair_ids_segments_and_layer1_input_match_transformers(minilm_dir):
    from transformers import BertModel as HFBertModel

    at = app_test(PAGE, state={**PAIR, "emb.sum.pick": 2, "emb.sum.dims": 8})
    assert not at.exception
    table = at.dataframe[0].value
    ids = table["id"].tolist()
    segments = table["segment"].tolist()
    # [CLS] the cat sat . [SEP] it slept . [SEP] in bert-base-uncased ids
    assert ids == [101, 1996, 4937, 2938, 1012, 102, 2009, 7771, 1012, 102]
    assert segments == [0, 0, 0, 0, 0, 0, 1, 1, 1, 1]
    hf = HFBertModel.from_pretrained(minilm_dir).embeddings.eval()
    with torch.no_grad():
        expected = hf(torch.tensor([ids]), torch.tensor([segments]))[0].double().numpy()
    overview = figure_with_title(at, "Input of layer 1")
    z = chart_array(overview["data"][0]["z"]).reshape(len(ids), -1)
    np.testing.assert_allclose(z, expected, atol=1e-5)
    stages = chart_array(figure_with_title(at, "'cat' at position 2")["data"][0]["z"]).reshape(5, 8)
    np.testing.assert_allclose(stages[3], stages[0] + stages[1] + stages[2], atol=1e-6)
    np.testing.assert_allclose(stages[4], expected[2, :8], atol=1e-5)


def test_layer_norm_table_and_metrics():
    at = app_test(PAGE, state={**PAIR, "emb.sum.pick": 2, "emb.sum.dims": 8})
    ln = at.dataframe[1].value
    assert len(ln) == 8
    x, normalised = ln.iloc[:, 1].to_numpy(float), ln.iloc[:, 2].to_numpy(float)
    mean, std = (float(m.value) for m in at.metric[:2])
    np.testing.assert_allclose((x - mean) / std, normalised, atol=1e-3)
    gamma, beta, out = (ln.iloc[:, i].to_numpy(float) for i in (3, 4, 5))
    np.testing.assert_allclose(normalised * gamma + beta, out, atol=1e-6)


def test_segment_changes_only_segment_part():
    at = app_test(PAGE, state={**PAIR, "emb.sum.pick": 6, "emb.sum.dims": 8})
    segment_b = chart_array(figure_with_title(at, "at position 6:")["data"][0]["z"])
    at.selectbox(key="emb.sum.pick").set_value(1).run()
    segment_a = chart_array(figure_with_title(at, "at position 1:")["data"][0]["z"])
    a, b = segment_a.reshape(5, 8), segment_b.reshape(5, 8)
    assert not np.allclose(a[2], b[2])  # segment A and B vectors differ


def test_fresh_and_trained_sources(tmp_path):
    at = app_test(PAGE, state={**PAIR, "emb.sum.source": "fresh"})
    assert not at.exception
    assert any("fresh, untrained model" in c.value for c in at.caption)
    state, _ = trained_state(tmp_path)
    at = app_test(
        PAGE,
        state={
            **state,
            "emb.sum.source": "trained",
            "emb.sum.a": "the cat sat",
            "emb.sum.b": "on the mat",
        },
    )
    assert not at.exception
    assert at.dataframe[0].value["id"].tolist() == [2, 5, 6, 7, 3, 8, 5, 9, 3]
    at = app_test(PAGE, state={"emb.sum.source": "trained"})
    assert "No model has been trained" in at.warning[0].value


def test_empty_sentence_is_explained():
    at = app_test(PAGE, state={"emb.sum.a": "", "emb.sum.b": "x"})
    assert not at.exception
    assert "Sentence A is empty" in at.warning[0].value
    assert at.text_input(key="emb.sum.b").value == "x"


def test_too_long_pair_is_explained(tmp_path):
    state, _ = trained_state(tmp_path)  # a model with 16 positions
    long_text = "the cat sat on the mat " * 2
    at = app_test(
        PAGE,
        state={
            **state,
            "emb.sum.source": "trained",
            "emb.sum.a": long_text,
            "emb.sum.b": long_text,
        },
    )
    assert not at.exception
    assert "The pair has 27 tokens but the model has only 16 positions" in at.error[0].value
    assert at.text_input(key="emb.sum.a").value == long_text


def test_chinese_interface():
    at = app_test(PAGE, state={"lang": "zh", **PAIR})
    assert not at.exception
    assert at.title[0].value.startswith("嵌入求和")
    assert "词元" in at.dataframe[0].value.columns


def test_fresh_model_with_a_lab_tokenizer_without_specials():
    """A byte-level BPE from the Tokenizer Lab has no [CLS]/[SEP]/[PAD]: BertVocab adds them after
    its last id (273 -> [PAD] 273, [CLS] 274, [SEP] 275), as the Train page's models do."""
    tokenizer = lab_tokenizer()
    state = {
        "shared.tokenizer": tokenizer,
        "shared.tokenizer_name": "byte-bpe, 273 tokens",
        "emb.sum.source": "fresh",
        "emb.sum.a": "the cat",
        "emb.sum.b": "the dog",
    }
    at = app_test(PAGE, state=state)
    assert not at.exception
    ids = at.dataframe[0].value["id"].tolist()
    cat, dog = tokenizer.encode("the cat"), tokenizer.encode("the dog")
    assert ids == [274, *cat, 275, *dog, 275]
    assert at.dataframe[0].value["segment"].tolist() == [0] * (len(cat) + 2) + [1] * (len(dog) + 1)
    assert any("byte-bpe, 273 tokens" in c.value for c in at.caption)


def test_remembered_widgets_outside_their_new_range_are_clamped():
    """64 dimensions picked on MiniLM (384 wide), then a fresh model only 32 wide; token 9 picked,
    then a shorter pair."""
    at = app_test(PAGE, state={**PAIR, "emb.sum.dims": 64, "emb.sum.pick": 9})
    assert not at.exception
    at.segmented_control(key="emb.sum.source").set_value("fresh").run()
    assert not at.exception
    assert at.slider(key="emb.sum.dims").value == 32
    at.text_input(key="emb.sum.a").set_value("Hi.").run()
    at.text_input(key="emb.sum.b").set_value("Yo.").run()
    assert not at.exception
    assert at.selectbox(key="emb.sum.pick").value == 6  # [CLS] hi . [SEP] yo . [SEP]: last is 6


def test_taught_model_sums_chinese_characters(taught):
    """MiniLM + 中文: the pair is cut into characters (no [UNK]) and what enters layer 1 is the
    taught model's LayerNorm(token + position + segment), worked out here from its tables."""
    from explorer_core.files import taught_model

    emb = taught_model.load().model.embeddings
    state = {"emb.sum.source": "taught", "emb.sum.a": "猫坐在垫子上。", "emb.sum.b": "它睡了。"}
    at = app_test(PAGE, state=state)
    assert not at.exception
    table = at.dataframe[0].value
    tokens, ids, segments = (table[c].tolist() for c in ("token", "id", "segment"))
    assert tokens == ["[CLS]", *"猫坐在垫子上。", "[SEP]", *"它睡了。", "[SEP]"]
    with torch.no_grad():
        parts = (
            emb.word_embeddings.weight[ids]
            + emb.position_embeddings.weight[: len(ids)]
            + emb.token_type_embeddings.weight[segments]
        )
        ln = emb.LayerNorm
        expected = torch.nn.functional.layer_norm(
            parts, parts.shape[-1:], ln.weight, ln.bias, ln.eps
        ).double().numpy()  # fmt: skip
    overview = figure_with_title(at, "Input of layer 1")
    z = chart_array(overview["data"][0]["z"]).reshape(len(ids), -1)
    np.testing.assert_allclose(z, expected, atol=1e-5)
    assert any("MiniLM + 中文, taught here" in c.value for c in at.caption)
