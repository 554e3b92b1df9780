"""Training the decoder (explorer_core.decoder): the corpus and its baselines, records and samples
where the config says, the same run for the same seed, a budget in steps, seconds or a stop
callback, and a sentence for every bad config or corpus."""

from __future__ import annotations

import math

import pytest
import torch

from explorer_core.decoder import LMTrainConfig, bigram_loss, prepare_lm, train_lm, uniform_loss
from explorer_core.decoder.train import heldout_loss
from tests.decoder_models import tiny_run


@pytest.fixture(scope="module")
def data():
    return prepare_lm(tiny_run())


def test_the_builtin_corpus_gives_ids_windows_and_both_lines(data):
    assert data.vocab_size == 300 and data.train_ids.dtype == torch.long
    assert len(data.heldout_ids) % 16 == 1  # 1 + k × block_size: whole windows
    windows = data.heldout_windows(16)  # (k, 17): consecutive windows share one id
    assert windows.shape == ((len(data.heldout_ids) - 1) // 16, 17)
    assert torch.equal(windows[1:, 0], windows[:-1, -1])
    assert data.uniform_loss == pytest.approx(math.log(300))
    assert 0 < data.bigram_loss < data.uniform_loss
    text = data.tokenizer.decode(data.train_ids[:50].tolist())
    assert "language model" in text.lower() or "token" in text.lower()


def test_the_bigram_line_by_hand():
    """Training pairs (0,1), (1,0), (0,1), (1,1): P(1|0) = (2+1)/(2+2), P(1|1) = (1+1)/(2+2);
    the held-out pairs (0,1), (1,1) -> -(ln 3/4 + ln 1/2) / 2. With k = 0.5 the unseen pair
    (0,0) gets P(0|0) = (0 + 0.5) / (2 + 0.5 × 2) = 1/6, not 0."""
    assert bigram_loss([0, 1, 0, 1, 1], [0, 1, 1], 2, k=1.0) == pytest.approx(
        -(math.log(3 / 4) + math.log(1 / 2)) / 2
    )
    assert bigram_loss([0, 1, 0, 1, 1], [0, 0], 2, k=0.5) == pytest.approx(-math.log(1 / 6))
    assert uniform_loss(7) == pytest.approx(math.log(7))
    with pytest.raises(ValueError, match="at least two tokens"):
        bigram_loss([0, 1], [1], 2)


def test_the_heldout_loss_is_the_mean_over_every_transition(data):
    """The decoder is scored on the bigram line's transitions: recompute it one by one."""
    result = train_lm(tiny_run(steps=1), data=data)
    ids = data.heldout_ids
    with torch.no_grad():
        total = 0.0
        for window in data.heldout_windows(16):
            logits = result.model(window[None, :-1])[0]  # (16, V)
            total += float(torch.nn.functional.cross_entropy(logits, window[1:], reduction="sum"))
    assert heldout_loss(result.model, data, 16) == pytest.approx(total / (len(ids) - 1), rel=1e-5)


def test_records_and_samples_come_where_the_config_says(data):
    seen = []
    result = train_lm(tiny_run(), data=data, on_record=seen.append)
    assert [r.step for r in result.records] == [0, 3, 6] and seen == result.records
    assert [s.step for s in result.samples] == [4, 6]
    assert all(isinstance(s.text, str) and s.text for s in result.samples)
    assert result.steps == 6 and result.records[0].loss == pytest.approx(math.log(300), abs=0.3)
    assert result.bigram_loss == data.bigram_loss and result.uniform_loss == data.uniform_loss
    assert result.model.config.causal and not result.model.training
    logits = result.model(torch.tensor([[1, 2, 3]]))
    assert logits.shape == (1, 3, 300)


def test_the_same_seed_gives_the_same_run_and_another_seed_another(data):
    first, second = train_lm(tiny_run(), data=data), train_lm(tiny_run(), data=data)
    torch.manual_seed(123)  # the caller's global generator does not matter
    third = train_lm(tiny_run(), data=data)
    losses = [r.loss for r in first.records]
    assert losses == [r.loss for r in second.records] == [r.loss for r in third.records]
    assert [s.text for s in first.samples] == [s.text for s in third.samples]
    other = train_lm(tiny_run(seed=1), data=data)
    assert [r.loss for r in other.records] != losses


def test_the_loss_falls(data):
    result = train_lm(tiny_run(steps=40, eval_every=40, learning_rate=1e-2), data=data)
    assert result.records[-1].loss < result.records[0].loss - 0.5


def test_a_seconds_budget_and_a_stop_callback_end_the_run(data):
    timed = train_lm(tiny_run(steps=None, seconds=0.3, eval_every=1000, sample_every=1000),
                     data=data)  # fmt: skip
    assert timed.steps >= 1 and timed.records[-1].step == timed.steps
    assert timed.records[-1].seconds >= 0.3
    calls = []
    stopped = train_lm(tiny_run(steps=100), data=data,
                       should_stop=lambda: calls.append(1) or len(calls) > 2)  # fmt: skip
    assert stopped.steps == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "the corpus is empty"), ("   \n\n", "the corpus is empty"),
     ("one line\nand another\n", "too short"), ("x" * 40 + "\n" + "y" * 5, "too short")],
)  # fmt: skip
def test_an_empty_or_too_short_corpus_is_a_sentence(text, message):
    with pytest.raises(ValueError, match=message):
        prepare_lm(tiny_run(), text=text)


@pytest.mark.parametrize(
    ("fields", "message"),
    [({"lang": "fr"}, "lang must be one of en, zh, both"),
     ({"seconds": None, "steps": None}, "give a budget"),
     ({"seconds": 0}, "seconds must be more than 0"), ({"steps": 0}, "steps must be"),
     ({"hidden_size": 30}, "divisible by num_attention_heads"),
     ({"vocab_size": 100}, "vocab_size must be between 257"),
     ({"learning_rate": 0}, "learning_rate"), ({"sample_prompt": " "}, "sample_prompt"),
     ({"dropout": 1.0}, "dropout")],
)  # fmt: skip
def test_a_bad_config_is_a_sentence(fields, message):
    with pytest.raises(ValueError, match=message):
        LMTrainConfig(**fields)


def test_the_default_config_is_valid_and_hashable():
    config = LMTrainConfig()
    assert config.seconds == 60 and config.prompt == "The model" and hash(config)
    assert LMTrainConfig(lang="zh").prompt == "模型"


@pytest.mark.parametrize("lang", ["zh", "both"])
def test_the_chinese_and_mixed_corpora_prepare_too(lang):
    data = prepare_lm(tiny_run(lang=lang))
    held = data.tokenizer.decode(data.heldout_ids.tolist())
    assert any("\u4e00" <= ch <= "\u9fff" for ch in held)
    assert 0 < data.bigram_loss < data.uniform_loss
