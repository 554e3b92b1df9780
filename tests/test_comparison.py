"""The comparison (core, chart, Train page) and the page's "Start from" choice."""

from __future__ import annotations

import json

import pytest

from explorer_core.analysis.comparison import ComparisonRow, Contender, compare, summarize
from explorer_core.bert.model import BertModel
from explorer_core.inputs.datasets import builtin_sts_pairs, split_pairs
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization.char_bpe import CharBPETokenizer
from explorer_core.training.baselines import evaluate_baseline
from explorer_core.training.choices import TrainChoices, build_plan, start_from
from explorer_core.training.finetune import predict_cosines
from explorer_core.training.metrics import spearman
from explorer_core.training.presets import Preset
from explorer_core.viz.comparison import comparison_figure
from tests.conftest import app_test
from tests.models import tiny_shared
from tests.translation import untranslated

PAGE = "lessons/train_model.py"
SMALL = Preset(name="test", hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
               intermediate_size=37, max_position_embeddings=48)  # fmt: skip


@pytest.fixture(scope="module")
def parts():
    return split_pairs(builtin_sts_pairs())


@pytest.fixture(scope="module")
def tokenizer(parts):
    tok = CharBPETokenizer(lowercase=True)
    tok.train("\n".join(s for p in parts["train"] for s in (p.sentence1, p.sentence2)), 900)
    return tok


def test_compare_scores_each_language_like_the_references(parts, tokenizer):
    """Each row equals an independent computation: the baseline's own evaluation, and Spearman
    of the cosines the fine-tuning code predicts, per language."""
    vocab = BertVocab.of(tokenizer)
    model = BertModel(SMALL.config(vocab.size, vocab.pad_id), seed=1).eval()
    rows = compare([Contender("fresh", model, tokenizer)], parts["train"], parts["test"], 32)
    assert [(r.model, r.lang) for r in rows] == [("lexical", "en"), ("fresh", "en"),
                                                ("lexical", "zh"), ("fresh", "zh")]  # fmt: skip
    for row in rows:
        test = [p for p in parts["test"] if p.lang == row.lang]
        train = [p for p in parts["train"] if p.lang == row.lang]
        if row.model == "lexical":
            assert row.spearman == pytest.approx(evaluate_baseline(train, test))
            assert row.unk_share is None
        else:
            from explorer_core.bert.pooling import SentenceEncoder

            cos = predict_cosines(SentenceEncoder(model), tokenizer, test, 32).tolist()
            assert row.spearman == pytest.approx(spearman(cos, [p.score for p in test]))
            assert 0 <= row.unk_share < 0.5 and row.pairs == len(test)


def test_minilm_maps_most_chinese_tokens_to_unk(parts, minilm_dir):
    from explorer_core.analysis.comparison import unk_share
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    tok = WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt", lowercase=True)
    zh = [s for p in parts["test"] if p.lang == "zh" for s in (p.sentence1, p.sentence2)]
    en = [s for p in parts["test"] if p.lang == "en" for s in (p.sentence1, p.sentence2)]
    assert unk_share(tok, zh) > 0.5 and unk_share(tok, en) < 0.01


def test_summary_is_mean_and_sample_sd_over_seeds():
    runs = [[ComparisonRow("trained", "zh", v, 5)] for v in (0.6, 0.7, 0.8)]
    (row,) = summarize(runs)
    assert row.mean == pytest.approx(0.7) and row.sd == pytest.approx(0.1) and row.runs == 3


def test_chart_has_one_bar_per_model_and_language_with_titles():
    rows = [ComparisonRow(m, lang, v, 10) for m, v in (("lexical", 0.7), ("trained", 0.6))
            for lang in ("en", "zh")]  # fmt: skip
    fig = comparison_figure(rows, {"lexical": "Lex"}, title="T", x_title="model",
                            y_title="Spearman", lang_names={"en": "English"})  # fmt: skip
    assert [trace.name for trace in fig.data] == ["English", "zh"]
    assert list(fig.data[0].x) == ["Lex", "trained"] and list(fig.data[0].y) == [0.7, 0.6]
    assert fig.layout.yaxis.title.text == "Spearman" and fig.layout.xaxis.title.text == "model"


def test_start_from_minilm_and_session(parts, tokenizer):
    plan = build_plan(TrainChoices(preset="tiny", finetune_steps=5), tokenizer, parts)
    assert start_from(plan, "fresh") is plan
    tuned = start_from(plan, "minilm")
    assert tuned.init == "minilm" and tuned.pretrain is None and tuned.corpus == ()
    assert tuned.tokenizer.algo == "wordpiece" and tuned.model_config.hidden_size == 384
    assert tuned.finetune.learning_rate == 2e-5 and tuned.finetune.steps == 5
    with pytest.raises(ValueError, match="first"):
        start_from(plan, "session")
    shared, _ = tiny_shared()
    again = start_from(plan, "session", shared.checkpoint)
    assert again.base_model is shared.model and again.tokenizer is shared.tokenizer
    assert again.pretrain is None


@pytest.mark.slow
def test_train_page_shows_the_comparison_in_both_languages():
    shared, _ = tiny_shared()
    from explorer_core.ui.state import SHARED_MODEL

    at = app_test(PAGE, state={SHARED_MODEL: shared}, timeout=180)
    assert not at.exception, at.exception
    table = next(d.value for d in at.dataframe if "model" in d.value.columns)
    assert list(table["model"]) == ["Lexical baseline (TF-IDF)", "Before training",
                                    "Trained from scratch", "MiniLM as is"]  # fmt: skip
    assert set(table.columns) >= {"English", "Chinese", "[UNK] Chinese"}
    share = table.set_index("model").loc["MiniLM as is", "[UNK] Chinese"]
    assert share.endswith("%") and float(share[:-1]) > 50
    chart = [el for el in at.get("plotly_chart") if "Test Spearman" in el.proto.spec]
    assert len(chart) == 1 and len(json.loads(chart[0].proto.spec)["data"]) == 2
    assert any("Why MiniLM fails on Chinese" in m.value for m in at.markdown)
    zh = app_test(PAGE, state={SHARED_MODEL: shared, "lang": "zh"}, timeout=180)
    assert not zh.exception
    assert any("为什么 MiniLM 在中文上不行" in m.value for m in zh.markdown)
    assert not untranslated(zh), untranslated(zh)


def test_train_page_start_choice_minilm_renders():
    at = app_test(PAGE, timeout=120)
    at.radio(key="train.start_from").set_value("minilm").run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert any("22.7 M parameters" in c.value for c in at.caption)
    at.radio(key="train.start_from").set_value("session").run()
    assert any("first" in e.value for e in at.error)  # no model in this session yet


def test_train_page_offers_the_gpu_only_when_torch_sees_one(monkeypatch):
    at = app_test(PAGE, timeout=120)
    assert not [r for r in at.radio if r.key == "train.device"]
    monkeypatch.setattr("torch.cuda.is_available", lambda: True)
    at = app_test(PAGE, timeout=120)
    assert not at.exception
    device = at.radio(key="train.device")
    assert device.value == "cuda" and list(device.options) == ["GPU (CUDA)", "CPU"]


@pytest.mark.slow
def test_minilm_and_the_baseline_are_scored_once_per_server(monkeypatch):
    """Thirty sessions whose runs end together must not each score MiniLM
    (ui/training/comparison.py)."""
    from explorer_core.ui.state import SHARED_MODEL
    from explorer_core.ui.training import comparison as panel

    panel._rows_as_is.clear()
    scored, real = [], panel.compare

    def counting(contenders, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        scored.extend(c.key for c in contenders)
        scored.extend(["lexical"] if kwargs.get("baseline", True) else [])
        return real(contenders, *args, **kwargs)

    monkeypatch.setattr(panel, "compare", counting)
    shared, _ = tiny_shared()
    tables = []
    for _ in range(2):  # two sessions, each with its own model
        at = app_test(PAGE, state={SHARED_MODEL: shared}, timeout=180)
        assert not at.exception, at.exception
        tables.append(next(d.value for d in at.dataframe if "model" in d.value.columns))
    assert scored.count("minilm") == 1 and scored.count("lexical") == 1
    assert scored.count("trained") == 2
    assert tables[0].equals(tables[1])
    assert "MiniLM as is" in list(tables[0]["model"])
