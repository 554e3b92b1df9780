"""AppTest of the Inside the encoder page: every view in both languages, the charts' numbers
against the core's (bert.trace, analysis.encoder, analysis.contributions, analysis.contexts),
links that restore a view, bad input, the "Predict first" question and its class poll."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
import torch

from explorer_core.analysis import quiz, quiz_poll
from explorer_core.analysis.contexts import builtin_context_sets, many_contexts
from explorer_core.analysis.contributions import contributions
from explorer_core.analysis.encoder import edit_effect, layer_grid, update_ratio
from explorer_core.bert.heads import BertForPreTraining
from explorer_core.bert.model import BertModel
from explorer_core.bert.trace import trace_encoder
from explorer_core.inputs.vocab import BertVocab
from explorer_core.training.presets import TUTORIAL
from explorer_core.ui.state import SHARED_MODEL
from tests.charts import chart_array, figure_with_title, figures
from tests.conftest import app_test
from tests.links import link_text, open_with

PAGE = "lessons/encoder.py"
VIEWS = ("layer", "mixing", "stack", "contexts", "decoder")
TEXT = "I sat by the bank of the river."
FRESH = {"enc.source": "fresh"}


def fresh():
    """The page's fresh model and MiniLM's tokenizer, as the page builds them (cached)."""
    from explorer_core.ui.encoder import calls

    return calls.model_source("fresh")


def sentence_ids(source, text: str = TEXT) -> tuple[int, ...]:  # noqa: ANN001
    from explorer_core.ui.encoder import calls

    return calls.sentence(source, text).ids


def flow_rows(figure: dict) -> list[np.ndarray]:
    """The real values of each strip of the flow chart (its hover data), top to bottom; shorter
    rows are padded with NaN in the chart."""
    rows = chart_array(figure["data"][0]["customdata"]).astype(float)
    return [row[~np.isnan(row)] for row in rows]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("view", VIEWS)
def test_every_view_runs_in_both_languages(view, lang):
    at = app_test(PAGE, state={**FRESH, "enc.view": view, "lang": lang})
    assert not at.exception, [e.message for e in at.exception]
    assert not at.warning, [w.value for w in at.warning]
    assert figures(at), "each view draws at least one chart"
    assert at.caption, "each chart has a caption"


def test_layer_view_strips_are_the_traces_numbers():
    at = app_test(PAGE, state={**FRESH, "enc.layer": 2, "enc.token": 4})
    assert not at.exception
    source = fresh()
    traced = trace_encoder(source.model, torch.tensor(sentence_ids(source))).layers[1]
    flow = figure_with_title(at, "every step")
    rows = flow_rows(flow)
    expected = [traced.input, traced.concat, traced.attention_output, traced.attention_residual,
                traced.ln1.after]  # fmt: skip
    for got, want in zip(rows, expected, strict=False):
        np.testing.assert_allclose(got, want[4].numpy(), atol=1e-5)
    np.testing.assert_allclose(rows[-1], traced.output[4].numpy(), atol=1e-5)
    np.testing.assert_allclose(rows[-4], traced.ffn_activation[4].numpy(), atol=1e-5)
    assert len(rows) == 12  # input .. LayerNorm, γ and β: the post-LN order
    ratio = update_ratio(traced)
    metrics = {m.label: m.value for m in at.metric}
    assert float(metrics["attention update ‖Δ‖ / ‖x‖"]) == pytest.approx(
        float(ratio.attention[4]), abs=1e-3
    )
    assert float(metrics["FFN update ‖Δ‖ / ‖x‖"]) == pytest.approx(float(ratio.ffn[4]), abs=1e-3)
    assert metrics["heads × width"] == "4 × 16"
    cuts = sorted(shape["x0"] for shape in flow["layout"]["shapes"])
    assert cuts == [15.5, 31.5, 47.5]  # the four heads' outputs drawn apart
    neurons = at.dataframe[0].value
    assert neurons.iloc[0, 2] == pytest.approx(float(traced.ffn_activation[4].max()), abs=1e-4)


def test_switching_token_redraws_from_the_cache(monkeypatch):
    from explorer_core.ui.encoder import calls

    at = app_test(PAGE, state=FRESH)
    runs = []
    monkeypatch.setattr(calls, "trace_encoder", lambda *a, **k: runs.append(1))
    at.selectbox("enc.token").set_value(5).run()  # [CLS] i sat by the bank
    at.selectbox("enc.layer").set_value(2).run()
    assert not at.exception and runs == []  # the trace came from the cache both times
    assert "token “bank”" in figure_with_title(at, "every step")["layout"]["title"]["text"]


def test_pre_ln_model_is_drawn_in_its_own_order():
    source = fresh()
    vocab = BertVocab.of(source.tokenizer)
    preset = replace(TUTORIAL, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
                     intermediate_size=40, max_position_embeddings=64)  # fmt: skip
    model = BertModel(preset.config(vocab.size, vocab.pad_id), seed=0).eval()
    shared = SimpleNamespace(model=model, tokenizer=source.tokenizer, label="tutorial preset")
    at = app_test(PAGE, state={"enc.source": "trained", SHARED_MODEL: shared})
    assert not at.exception, [e.message for e in at.exception]
    assert any("Pre-LN" in md.value for md in at.markdown)
    flow = figure_with_title(at, "every step")
    names = flow["data"][0]["y"]
    assert names[1].startswith("LayerNorm(x)") and len(names) == 10
    traced = trace_encoder(model, torch.tensor(sentence_ids(source))).layers[0]
    np.testing.assert_allclose(flow_rows(flow)[1], traced.ln1.after[1].numpy(), atol=1e-5)


def test_who_wrote_into_this_vector_shows_the_three_matrices():
    at = app_test(PAGE, state={**FRESH, "enc.view": "mixing", "enc.layer": 2})
    assert not at.exception
    source = fresh()
    traced = trace_encoder(source.model, torch.tensor(sentence_ids(source))).layers[1]
    found = contributions(source.model.encoder.layer[1], traced)
    (chart,) = figures(at)
    grid, size = chart_array(chart["data"][0]["z"]).astype(float), len(sentence_ids(source))
    assert grid.shape == (size, 3 * size + 2) and np.isnan(grid[:, size]).all()  # a gap column
    for i, want in enumerate((found.attention, found.norm, found.residual_norm)):
        z = grid[:, i * (size + 1) : i * (size + 1) + size]
        np.testing.assert_allclose(z, want.numpy(), atol=1e-5)
        np.testing.assert_allclose(z.sum(axis=1), 1.0, atol=1e-4)
    titles = [a["text"] for a in chart["layout"]["annotations"]]
    assert titles[0].startswith("1.") and titles[2].startswith("3.")
    caption = at.caption[0].value
    assert "Kobayashi et al. 2020" in caption and "Kobayashi et al. 2021" in caption
    kept = [float(m.value) for m in at.metric]
    assert kept[2] == pytest.approx(float(found.residual_norm.diagonal().mean()), abs=0.01)


def test_layer_by_layer_grid_and_pooled_vectors():
    at = app_test(PAGE, state={**FRESH, "enc.view": "stack"})
    assert not at.exception
    source = fresh()
    grid = layer_grid(trace_encoder(source.model, torch.tensor(sentence_ids(source))))
    moved = chart_array(figure_with_title(at, "How far")["data"][0]["z"])
    np.testing.assert_allclose(moved, grid.moved_cosine.numpy().T, atol=1e-5)
    norms = chart_array(figure_with_title(at, "length")["data"][0]["z"])
    np.testing.assert_allclose(norms, grid.norms.numpy().T, atol=1e-4)
    pooled = chart_array(figure_with_title(at, "pooled")["data"][0]["z"])
    assert pooled.shape == (3, 64)  # embeddings + 2 layers, hidden 64
    assert any("No logit lens" in i.value for i in at.info)
    assert any("MiniLM + 中文" in c.value for c in at.caption)  # why there is no language pair


def test_logit_lens_for_a_model_with_an_mlm_head():
    source = fresh()
    vocab = BertVocab.of(source.tokenizer)
    config = replace(source.model.config, hidden_size=32, intermediate_size=40)
    mlm = BertForPreTraining(config, seed=0).eval()
    shared = SimpleNamespace(model=mlm.bert, tokenizer=source.tokenizer, label="mlm", mlm=mlm)
    at = app_test(PAGE, state={"enc.source": "trained", "enc.view": "stack",
                               SHARED_MODEL: shared})  # fmt: skip
    assert not at.exception, [e.message for e in at.exception]
    (table,) = at.dataframe
    assert len(table.value) == config.num_hidden_layers + 1
    assert len(table.value.columns) == len(sentence_ids(source))
    assert vocab.size == config.vocab_size


def test_many_contexts_matches_the_core_and_standardises():
    at = app_test(PAGE, state={**FRESH, "enc.view": "contexts"})
    assert not at.exception
    source = fresh()
    bank = builtin_context_sets()["bank"]
    found = many_contexts(source.model, source.tokenizer, list(bank.sentences), "bank",
                          senses=list(bank.senses))  # fmt: skip
    chart = figures(at)[0]
    np.testing.assert_allclose(chart["data"][0]["y"], found.self_similarity.numpy(), atol=1e-5)
    np.testing.assert_allclose(chart["data"][1]["y"], found.baseline.numpy(), atol=1e-5)
    assert len(chart["data"]) == 4  # + same sense, different senses
    at.toggle("enc.standardize").set_value(True).run()
    assert not at.exception
    assert figures(at)[0]["data"][0]["y"] != chart["data"][0]["y"]


def test_encoder_against_decoder_rows_before_the_edit_are_zero():
    at = app_test(PAGE, state={**FRESH, "enc.view": "decoder"})
    assert not at.exception
    bert, causal = (chart_array(f["data"][0]["z"]) for f in figures(at)[:2])  # the edit's two
    source = fresh()
    a, b = sentence_ids(source), sentence_ids(source, "I sat by the bank of the lake.")
    edit = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y][0]
    assert (causal[:edit] == 0).all() and causal[edit:, 1:].min() >= 0
    assert (bert[:edit, 1:] > 0).all()  # with BERT's mask every token moves from layer 1 on
    want = edit_effect(source.model, torch.tensor(a), torch.tensor(b), causal=True)
    np.testing.assert_allclose(causal, want.numpy().T, atol=1e-5)
    assert any("= 0" in md.value for md in at.markdown)


@pytest.mark.parametrize(
    ("state", "says"),
    [({"enc.text": "   "}, "empty"),
     ({"enc.text": "word " * 200}, "positions"),
     ({"enc.view": "contexts", "enc.set": "own", "enc.word": "zebra"}, "does not occur"),
     ({"enc.view": "decoder", "enc.edit": "A much longer sentence than the first one was."},
      "same number of tokens")],
    ids=["empty", "too-long", "word-missing", "edit-length"],
)  # fmt: skip
def test_bad_input_gives_one_line_not_a_traceback(state, says):
    at = app_test(PAGE, state={**FRESH, **state})
    assert not at.exception, [e.message for e in at.exception]
    assert len(at.warning) == 1 and says in at.warning[0].value, [w.value for w in at.warning]


def test_a_link_restores_the_view():
    params = {"enc.source": "fresh", "enc.view": "mixing", "enc.layer": "2", "enc.token": "3"}
    at = open_with(PAGE, params)
    assert at.session_state["enc.view"] == "mixing" and at.session_state["enc.layer"] == 2
    assert at.session_state["enc.token"] == 3
    assert "Layer 2" in at.caption[0].value
    link = link_text(at)
    assert "enc.view=mixing" in link and "enc.layer=2" in link and "enc.source=fresh" in link


def test_predict_first_hides_the_numbers_until_reveal_and_is_a_class_poll():
    at = app_test(PAGE, state={**FRESH, "enc.predict": True, "enc.layer": 1, "enc.token": 4})
    assert not at.exception
    assert not figures(at) and any("Which writes more" in s.value for s in at.subheader)
    (radio,) = [r for r in at.radio if ".answer." in r.key]
    assert radio.options == ["attention · 注意力", "feed-forward · 前馈"]
    source = fresh()
    traced = trace_encoder(source.model, torch.tensor(sentence_ids(source))).layers[0]
    ratio = update_ratio(traced)
    question = quiz.update_question(float(ratio.attention[4]), float(ratio.ffn[4]))
    radio.set_value(question.answer).run()
    at.button("enc.reveal").click().run()
    assert not at.exception and at.success and figures(at)
    poll = quiz_poll.check(quiz_poll.update_poll(question, "bank", 1, radio.options))
    assert poll["kind"] == "update" and quiz_poll.is_right(poll, question.answer)


def test_minilm_default_has_six_layers_of_twelve_heads():
    at = app_test(PAGE, state={"enc.view": "layer"})
    assert not at.exception
    assert {m.label: m.value for m in at.metric}["heads × width"] == "12 × 32"
    assert at.selectbox("enc.layer").options == [str(i) for i in range(1, 7)]
    assert "pretrained model all-MiniLM-L6-v2" in " ".join(c.value for c in at.caption)


def test_chinese_ui_opens_on_a_chinese_sentence():
    at = app_test(PAGE, state={**FRESH, "lang": "zh"})
    assert not at.exception
    assert "苹果" in at.text_input("enc.text").value
    assert at.title[0].value.startswith("编码器内部")


def test_taught_model_reads_chinese_and_compares_two_languages(taught):
    at = app_test(PAGE, state={"lang": "zh", "enc.view": "stack"}, timeout=120)
    assert not at.exception, [e.message for e in at.exception]
    assert at.session_state["enc.source"] == "taught"  # the Chinese default once built
    assert "[UNK]" not in " ".join(figures(at)[0]["data"][0]["y"])  # 苹果 as characters
    cross = figure_with_title(at, "两个句子")
    assert len(cross["data"][0]["y"]) == 7  # embeddings + MiniLM's 6 layers
    at = app_test(PAGE, state={"lang": "zh", "enc.view": "contexts"}, timeout=120)
    assert not at.exception and at.session_state["enc.set"] == "apple"
    assert "苹果" in figures(at)[0]["layout"]["title"]["text"]
