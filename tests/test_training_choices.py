"""From the Train page's choices to a plan: sizes, budgets, memory check, scores vs the baseline."""

from __future__ import annotations

import pytest

from explorer_core.bert.model import BertModel
from explorer_core.inputs.sts_format import SentencePair
from explorer_core.tokenization import new_tokenizer
from explorer_core.training.baselines import evaluate_baseline
from explorer_core.training.checkpoint import Checkpoint
from explorer_core.training.choices import (
    TrainChoices,
    build_plan,
    check_memory,
    estimate_training_bytes,
    model_config,
    split_scores,
)
from explorer_core.training.presets import PRESETS

PAIRS = [
    SentencePair("a cat sleeps on the mat", "a kitten naps on the rug", 4.5, "train"),
    SentencePair("a cat sleeps on the mat", "stocks fell today", 0.0, "train"),
    SentencePair("the dog runs in the park", "a dog is running outside", 4.0, "train"),
    SentencePair("the dog runs in the park", "the park is closed", 1.5, "dev"),
    SentencePair("it rains in town", "rain falls on the town", 4.2, "dev"),
    SentencePair("it rains in town", "a cat sleeps", 0.2, "dev"),
]


@pytest.fixture(scope="module")
def tokenizer():
    tok = new_tokenizer("wordpiece")
    tok.train("\n".join(p.sentence1 + "\n" + p.sentence2 for p in PAIRS), 80)
    return tok


def parts(pairs=PAIRS):
    return {s: [p for p in pairs if p.split == s] for s in ("train", "dev", "test")}


def test_choices_take_the_presets_sizes_unless_edited():
    tiny = TrainChoices()
    assert (tiny.hidden_size, tiny.num_hidden_layers, tiny.learning_rate) == (128, 2, 1e-3)
    small = TrainChoices(preset="small", hidden_size=64)
    assert (small.hidden_size, small.num_hidden_layers, small.learning_rate) == (64, 4, 5e-4)
    with pytest.raises(ValueError, match="objective"):
        TrainChoices(objective="guess")
    with pytest.raises(ValueError, match="preset"):
        TrainChoices(preset="huge")


def test_model_config_keeps_the_tutorial_choices_and_validates(tokenizer):
    choices = TrainChoices(preset="tutorial", hidden_size=64, max_length=100)
    config = model_config(choices, tokenizer)
    assert (config.norm_placement, config.position_embedding_type) == ("pre", "sinusoidal")
    assert config.type_vocab_size == 0 and config.hidden_size == 64
    assert config.max_position_embeddings == 200  # pre-training rows hold two sentences
    with pytest.raises(ValueError):
        model_config(TrainChoices(hidden_size=30, num_attention_heads=4), tokenizer)


def test_plan_phases_budgets_and_corpus(tokenizer):
    both = TrainChoices(pretrain_steps=7, finetune_steps=9, time_budget=50.0, max_length=20)
    plan = build_plan(both, tokenizer, parts(), corpus="line one\nline two")
    assert [name for name, _ in plan.phases] == ["pretrain", "finetune"]
    assert (plan.pretrain.steps, plan.pretrain.time_budget) == (7, 20.0)
    assert (plan.finetune.steps, plan.finetune.time_budget) == (9, 30.0)
    assert (plan.pretrain.max_length, plan.finetune.max_length) == (40, 20)
    # related training pairs (score >= 2.5) become ready-made next-sentence pairs
    assert plan.corpus[:2] == ("line one", "line two")
    assert "a cat sleeps on the mat\ta kitten naps on the rug" in plan.corpus
    assert not any("stocks fell" in line for line in plan.corpus)
    direct = build_plan(TrainChoices(objective="finetune"), tokenizer, parts())
    assert [name for name, _ in direct.phases] == ["finetune"] and direct.corpus == ()
    assert direct.finetune.time_budget is None and len(direct.dev_pairs) == 3
    only = build_plan(TrainChoices(objective="pretrain", time_budget=50.0), tokenizer, parts())
    assert [name for name, _ in only.phases] == ["pretrain"] and only.finetune is None
    assert only.pretrain.time_budget == 50.0 and only.corpus  # the whole budget pre-trains
    with pytest.raises(ValueError, match="no sentence pairs"):
        build_plan(TrainChoices(), tokenizer, {"train": [], "dev": PAIRS})


def test_memory_estimate_grows_and_refuses_what_does_not_fit(tokenizer):
    config = PRESETS["tiny"].config(4000)
    assert estimate_training_bytes(config, 64, 64) > estimate_training_bytes(config, 32, 64)
    assert estimate_training_bytes(config, 32, 128) > estimate_training_bytes(config, 32, 64)
    check_memory(2**20, available=2**30)
    with pytest.raises(ValueError, match="needs about 1024 MB but only 512 MB"):
        check_memory(2**30, available=2**30)
    with pytest.raises(ValueError, match="MB but only"):
        build_plan(TrainChoices(batch_size=512), tokenizer, parts(), available=2**28)


def test_split_scores_put_the_model_next_to_the_baseline(tokenizer):
    from explorer_core.training.finetune import predict_cosines
    from explorer_core.training.metrics import spearman

    config = model_config(TrainChoices(hidden_size=32, num_attention_heads=2), tokenizer)
    ckpt = Checkpoint(BertModel(config, seed=0), tokenizer, max_length=32)
    rows = split_scores(ckpt, parts())
    assert [r["split"] for r in rows] == ["dev", "test"]
    dev, test = rows
    assert dev["pairs"] == 3 and dev["baseline"] == evaluate_baseline(parts()["train"], PAIRS[3:])
    cos = predict_cosines(ckpt.encoder(), tokenizer, PAIRS[3:], 32).tolist()
    assert dev["model"] == pytest.approx(spearman(cos, [p.score for p in PAIRS[3:]]))
    assert test == {"split": "test", "pairs": 0, "model": None, "baseline": None}
