"""The guided lesson's engine: every number against an independent reference.

Bytes against str.encode, tokens and ids against Hugging Face's own tokenizer, one-hot × E against
the row itself (bit for bit), attention and the pooled vector against transformers' BertModel with
sentence-transformers' mean pooling, the cosine against a hand-worked example.
"""

from __future__ import annotations

import doctest

import numpy as np
import pytest
import torch

from explorer_core.analysis import lesson
from explorer_core.viz import lesson as viz

AWKWARD = ["", "a", "The cat sat on the doormat.", "猫坐在垫子上。", "e\u0301", "😀!", "a b\tc"]
SENTENCES = [
    "The cat sat on the doormat.",
    "猫坐在垫子上。",
    "Tokenization is unbelievable!",
    "Mixed 中文 and English, 123.",
]


@pytest.fixture(scope="module")
def tokenizer(minilm_dir):
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    return WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt", lowercase=True)


@pytest.fixture(scope="module")
def model(minilm_dir):
    from explorer_core.bert.model import BertModel

    return BertModel.from_transformers(minilm_dir)


@pytest.fixture(scope="module")
def hf(minilm_dir):
    from transformers import AutoModel, AutoTokenizer

    model = AutoModel.from_pretrained(minilm_dir, attn_implementation="eager").eval()
    return AutoTokenizer.from_pretrained(minilm_dir), model


def test_doctests():
    assert doctest.testmod(lesson).failed == 0
    assert doctest.testmod(viz).failed == 0


@pytest.mark.parametrize("text", AWKWARD)
def test_characters_and_bytes_match_python(text):
    chars = lesson.char_frame(text)
    assert chars["decimal"].tolist() == [ord(c) for c in text]
    assert chars["code_point"].tolist() == [f"U+{ord(c):04X}" for c in text]
    joined = b"".join(bytes.fromhex(h.replace(" ", "")) for h in chars["utf8"])
    assert joined == text.encode("utf-8")
    assert chars["n_bytes"].sum() == len(text.encode("utf-8"))
    raw = lesson.byte_frame(text)
    assert bytes(raw["decimal"].tolist()) == text.encode("utf-8")
    assert bytes.fromhex("".join(raw["hex"])) == text.encode("utf-8")
    assert [int(b, 2) for b in raw["binary"]] == list(text.encode("utf-8"))
    assert raw["byte"].tolist() == list(range(len(text.encode("utf-8"))))


def test_chinese_character_is_three_bytes_and_spaces_are_visible():
    """猫 is U+732B = 29,483; UTF-8 writes it as e7 8c ab (1110 0111, 10 001100, 10 101011)."""
    chars = lesson.char_frame("猫 a")
    assert chars["char"].tolist() == ["猫", "·", "a"]
    assert chars.loc[0, ["decimal", "utf8", "n_bytes"]].tolist() == [29483, "e7 8c ab", 3]
    assert lesson.byte_frame("猫")["char_position"].tolist() == [0, 0, 0]


@pytest.mark.parametrize("text", SENTENCES)
def test_tokens_and_ids_match_hugging_face(text, tokenizer, hf):
    hf_tokenizer, _ = hf
    expected = hf_tokenizer(text)["input_ids"]
    row = lesson.tokenize(tokenizer, text)
    assert list(row.ids) == expected
    assert list(row.tokens) == hf_tokenizer.convert_ids_to_tokens(expected)
    assert row.unknown == expected.count(hf_tokenizer.unk_token_id)
    assert row.kinds[0] == row.kinds[-1] == "special"
    assert row.content == len(expected) - 2


def test_word_pieces_and_unknown_characters(tokenizer):
    row = lesson.tokenize(tokenizer, "The doormat.")
    assert row.tokens == ("[CLS]", "the", "door", "##mat", ".", "[SEP]")
    assert row.ids == (101, 1996, 2341, 18900, 1012, 102)
    assert row.covers == ("", "The", "door", "mat", ".", "")
    assert row.kinds == ("special", "word", "word", "piece", "word", "special")
    chinese = lesson.tokenize(tokenizer, "猫坐在垫子上。")
    assert chinese.tokens[1:-1] == ("[UNK]",) * 4 + ("子", "上", "。")
    assert chinese.covers[1:5] == ("猫", "坐", "在", "垫")
    assert chinese.unknown == 4
    frame = lesson.token_frame(chinese)
    assert frame["id"].tolist() == list(chinese.ids)
    assert frame["kind"].tolist()[1:5] == ["unknown"] * 4


def test_one_hot_times_matrix_is_the_row_exactly(model):
    weight = model.embeddings.word_embeddings.weight
    step = lesson.one_hot_step(weight, 4937)  # "cat"
    assert step.vocab_size == 30522 and step.ones == 1
    assert step.max_gap == 0.0
    assert np.array_equal(step.product, weight[4937].detach().double().numpy())
    assert np.array_equal(step.product, step.row)


def test_one_hot_hand_worked():
    """E = [[1, 2], [3, 4], [5, 6]], id 1: 0·[1, 2] + 1·[3, 4] + 0·[5, 6] = [3, 4]."""
    step = lesson.one_hot_step(torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]), 1)
    assert step.product.tolist() == [3.0, 4.0] and step.vocab_size == 3
    with pytest.raises(ValueError, match="outside the table"):
        lesson.one_hot_step(torch.zeros(3, 2), 3)


@pytest.mark.parametrize("text", ["The cat sat on the doormat.", "猫坐在垫子上。"])
def test_attention_and_pooled_vector_match_transformers(text, tokenizer, model, hf):
    hf_tokenizer, hf_model = hf
    row = lesson.tokenize(tokenizer, text)
    run = lesson.run_sentence(model, row.ids)
    batch = hf_tokenizer(text, return_tensors="pt")
    with torch.no_grad():
        out = hf_model(**batch, output_attentions=True)
    expected_attention = torch.stack(out.attentions, dim=1)[0].double().numpy()  # (L, H, T, T)
    np.testing.assert_allclose(run.attentions, expected_attention, atol=1e-5)
    np.testing.assert_allclose(run.attentions.sum(-1), 1.0, atol=1e-6)
    # sentence-transformers: mean over the tokens where the mask is 1, then L2-normalise
    hidden = out.last_hidden_state  # (1, T, H)
    mask = batch["attention_mask"].unsqueeze(-1).float()
    mean = (hidden * mask).sum(1) / mask.sum(1)
    unit = torch.nn.functional.normalize(mean, dim=-1)[0].double().numpy()
    np.testing.assert_allclose(run.mean, mean[0].double().numpy(), atol=1e-5)
    np.testing.assert_allclose(run.vector, unit, atol=1e-5)
    assert run.vector.shape == (384,)
    assert np.linalg.norm(run.vector) == pytest.approx(1.0, abs=1e-6)  # float32 maths
    assert run.length == pytest.approx(float(np.linalg.norm(run.mean)))


def test_pooled_vector_matches_the_similarity_encoder(tokenizer, model):
    from explorer_core.analysis.similarity import TextEncoder

    text = "The cat sat on the doormat."
    run = lesson.run_sentence(model, lesson.tokenize(tokenizer, text).ids)
    reference = TextEncoder(model, tokenizer).embed([text])[0]
    np.testing.assert_allclose(run.vector, reference, atol=1e-6)
    rows = lesson.pooling_rows(run, lesson.tokenize(tokenizer, text).tokens, 6)
    assert rows.shape == (len(run.last_hidden) + 2, 6)
    np.testing.assert_allclose(rows.iloc[-2].to_numpy(), run.mean[:6])
    np.testing.assert_allclose(rows.iloc[-1].to_numpy(), run.vector[:6])
    np.testing.assert_allclose(rows.iloc[:-2].to_numpy().mean(0), run.mean[:6], atol=1e-6)
    short = lesson.pooling_rows(run, lesson.tokenize(tokenizer, text).tokens, 6, max_tokens=4)
    assert list(short.index[3:]) == ["3 · sat", "…", "mean", "unit"]
    assert short.loc["…"].isna().all()
    np.testing.assert_allclose(short.loc["mean"].to_numpy(), run.mean[:6])


def test_cosine_hand_worked_and_on_minilm(tokenizer, model):
    """u = [1, 0], v = [1, 1]: u·v = 1, |u| = 1, |v| = √2, cos = 1/√2."""
    parts = lesson.cosine_parts(np.array([1.0, 0.0]), np.array([1.0, 1.0]))
    assert (parts.dot, parts.norm_u) == (1.0, 1.0)
    assert parts.norm_v == pytest.approx(2**0.5) and parts.cosine == pytest.approx(2**-0.5)
    assert lesson.cosine_parts(np.zeros(3), np.ones(3)).cosine == 0.0
    with pytest.raises(ValueError, match="same length"):
        lesson.cosine_parts(np.ones(2), np.ones(3))

    def mean(text):
        return lesson.run_sentence(model, lesson.tokenize(tokenizer, text).ids).mean

    cat, rug = mean("The cat sat on the doormat."), mean("A cat is sleeping on a rug.")
    stocks = mean("The stock market fell sharply today.")
    near, far = lesson.cosine_parts(cat, rug), lesson.cosine_parts(cat, stocks)
    unit = np.dot(cat / np.linalg.norm(cat), rug / np.linalg.norm(rug))
    assert near.cosine == pytest.approx(unit, abs=1e-9)  # normalising first changes nothing
    assert near.cosine == pytest.approx(near.dot / (near.norm_u * near.norm_v))
    assert near.cosine > 0.4 > 0.2 > far.cosine


def test_too_long_for_the_positions(model):
    with pytest.raises(ValueError, match="513 tokens do not fit the model's 512 positions"):
        lesson.run_sentence(model, [101] + [1996] * 511 + [102])
    lesson.check_length([101] * 512, 512)  # exactly full is fine


def test_figures():
    html = viz.chips_html(["[CLS]", "<b>", "[UNK]"], ["special", "word", "unknown"], [101, 7, 100])
    assert "&lt;b&gt;" in html and "<b>" not in html.replace("<br>", "")
    assert html.count("dashed") == 1 and 'inherit">101</span>' in html
    assert "<br>" not in viz.chips_html(["a"], ["word"])  # no ids: no second line
    fig = viz.one_hot_figure(4937, 30522, "cat", title="t", x_title="x", y_title="y")
    line, spike = fig.data
    assert max(line.y) == 1 and line.x[list(line.y).index(1)] == 4937
    assert list(spike.x) == [4937] and list(spike.y) == [1]
    bars = viz.cosine_figure(["a", "b c"], [1.0, -0.3], title="t", x_title="x", y_title="y")
    assert list(bars.data[0].y) == [1.0, -0.3] and bars.layout.yaxis.range[0] <= -0.3


def test_download_tables_round_trip(model):
    import io

    import pandas as pd

    from explorer_core.files.export import frame_csv

    row = torch.tensor([[101, 4937, 102]])
    parts = model.embeddings.components(row, torch.zeros_like(row))
    stages = {name: parts[name][0, 1] for name in ("token", "position", "segment", "sum")}
    frame = lesson.stages_frame(stages)
    assert frame.shape == (384, 5) and frame["dimension"].tolist() == list(range(384))
    np.testing.assert_allclose(
        frame["sum"], frame["token"] + frame["position"] + frame["segment"], atol=1e-6
    )
    vector = lesson.vector_frame(model.embeddings.word_embeddings.weight[4937])
    back = pd.read_csv(io.BytesIO(frame_csv(vector)), encoding="utf-8-sig")
    np.testing.assert_allclose(
        back["value"], model.embeddings.word_embeddings.weight[4937].detach().numpy(), atol=1e-7
    )


def test_run_is_deterministic_and_leaves_the_model_as_it_was(tokenizer, model):
    ids = lesson.tokenize(tokenizer, "The cat sat.").ids
    model.encoder.layer[0].train()  # one submodule in training mode (dropout on)
    try:
        first, second = lesson.run_sentence(model, ids), lesson.run_sentence(model, ids)
        assert model.encoder.layer[0].training and not model.embeddings.training
    finally:
        model.eval()
    np.testing.assert_array_equal(first.vector, second.vector)  # dropout was off for the run
