"""Training loops: losses fall, seeds reproduce, the stop flag works, TrainingRun in a process."""

from __future__ import annotations

import threading

import pytest
import torch

from explorer_core.bert.heads import BertForPreTraining
from explorer_core.bert.model import BertModel
from explorer_core.inputs.datasets import SentencePair, builtin_corpus, builtin_sts_pairs
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import new_tokenizer
from explorer_core.training.finetune import FinetuneConfig, cosent_loss, finetune
from explorer_core.training.loop import EvalRecord, TrainStep, lr_factor
from explorer_core.training.presets import PRESETS, Preset, count_parameters
from explorer_core.training.pretrain import PretrainConfig, corpus_lines, pretrain
from explorer_core.training.run import TrainingPlan, run_plan
from explorer_core.training.worker import TrainingRun

TINY = Preset(name="test", hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
              intermediate_size=37, max_position_embeddings=48)  # fmt: skip
FAST = {"batch_size": 8, "max_length": 32, "eval_every": 0, "learning_rate": 3e-3}


@pytest.fixture(scope="module")
def pairs():
    return [p for p in builtin_sts_pairs() if p.split == "train"]


@pytest.fixture(scope="module")
def dev():
    return [p for p in builtin_sts_pairs() if p.split == "dev"][:40]


@pytest.fixture(scope="module")
def tokenizer(pairs):
    tok = new_tokenizer("wordpiece")
    tok.train("\n".join(s for p in pairs for s in (p.sentence1, p.sentence2)), 1000)
    return tok


def fresh(tokenizer, seed: int = 0) -> BertModel:
    vocab = BertVocab.of(tokenizer)
    return BertModel(TINY.config(vocab.size, vocab.pad_id), seed=seed)


def mean(values):
    return sum(values) / len(values)


def test_lr_schedule_warms_up_and_decays():
    """Warm-up 10%: half-way through warm-up the factor is 0.5; the end of training reaches 0."""
    assert lr_factor(0.05, 0.1, "linear") == pytest.approx(0.5)
    assert lr_factor(0.1, 0.1, "cosine") == pytest.approx(1.0)
    assert lr_factor(1.0, 0.1, "cosine") == pytest.approx(0.0)
    assert lr_factor(0.7, 0.1, "constant") == 1.0


def test_tiny_preset_is_about_one_million_parameters(tokenizer):
    config = PRESETS["tiny"].config(vocab_size=4000)
    assert 0.8e6 < count_parameters(config) < 1.2e6
    for name in PRESETS:  # the formula matches the real modules of every preset
        cfg = PRESETS[name].config(vocab_size=500)
        assert count_parameters(cfg) == sum(p.numel() for p in BertModel(cfg).parameters())


def test_pretraining_loss_falls_over_20_steps(tokenizer):
    vocab = BertVocab.of(tokenizer)
    model = BertForPreTraining(TINY.config(vocab.size, vocab.pad_id))
    log = pretrain(model, tokenizer, builtin_corpus("en"), PretrainConfig(steps=20, **FAST)).log
    losses = [s.loss for s in log.steps]
    assert len(losses) == 20 and log.stop_reason == "steps"
    assert mean(losses[-5:]) < mean(losses[:5]) - 0.3
    assert all(s.mlm_loss is not None and s.nsp_loss is not None for s in log.steps)


def test_finetune_loss_falls_and_dev_is_evaluated(tokenizer, pairs, dev):
    config = FinetuneConfig(steps=20, **{**FAST, "eval_every": 10})
    result = finetune(fresh(tokenizer), tokenizer, pairs, config, dev=dev)
    losses = [s.sim_loss for s in result.log.steps]
    assert mean(losses[-5:]) < mean(losses[:5])
    assert [e.step for e in result.log.evals] == [10, 20]
    assert all(-1 <= e.dev_spearman <= 1 for e in result.log.evals)
    rows = BertVocab.of(tokenizer).encode(tokenizer, ["a b"], max_length=32)
    ids, mask = rows.input_ids, rows.attention_mask
    assert result.model.encode(ids, mask).shape == (1, 32)  # (B, H)


@pytest.mark.parametrize("objective", ["finetune", "pretrain"])
def test_same_seed_same_losses_other_seed_other_losses(tokenizer, pairs, objective):
    def losses(seed: int) -> list[float]:
        if objective == "finetune":
            cfg = FinetuneConfig(steps=4, seed=seed, **FAST)
            return [s.loss for s in finetune(fresh(tokenizer), tokenizer, pairs, cfg).log.steps]
        vocab = BertVocab.of(tokenizer)
        model = BertForPreTraining(TINY.config(vocab.size, vocab.pad_id), seed=seed)
        cfg = PretrainConfig(steps=4, seed=seed, **FAST)
        return [s.loss for s in pretrain(model, tokenizer, builtin_corpus("zh"), cfg).log.steps]

    assert losses(1) == losses(1)
    assert losses(1) != losses(2)


def test_stop_flag_is_honoured_between_steps(tokenizer, pairs):
    stop = threading.Event()

    def callback(record):
        if isinstance(record, TrainStep) and record.step == 3:
            stop.set()

    cfg = FinetuneConfig(steps=50, **FAST)
    log = finetune(fresh(tokenizer), tokenizer, pairs, cfg, callback=callback, stop=stop).log
    assert [s.step for s in log.steps] == [1, 2, 3]
    assert log.stop_reason == "stopped"


def test_time_budget_ends_training(tokenizer, pairs):
    cfg = FinetuneConfig(steps=None, time_budget=0.5, **FAST)
    log = finetune(fresh(tokenizer), tokenizer, pairs, cfg).log
    assert log.stop_reason == "time" and len(log.steps) >= 1


def test_empty_data_gives_clear_errors(tokenizer):
    with pytest.raises(ValueError, match="no sentence pairs"):
        finetune(fresh(tokenizer), tokenizer, [], FinetuneConfig(steps=2))
    vocab = BertVocab.of(tokenizer)
    model = BertForPreTraining(TINY.config(vocab.size, vocab.pad_id))
    with pytest.raises(ValueError, match="corpus is empty"):
        pretrain(model, tokenizer, "\n\n  \n", PretrainConfig(steps=2))
    with pytest.raises(ValueError, match="training set is empty"):
        TrainingPlan(tokenizer, TINY.config(vocab.size), finetune=FinetuneConfig())
    with pytest.raises(ValueError, match="between 0 and 5"):
        finetune(fresh(tokenizer), tokenizer, [SentencePair("a", "b", 7.0)], FinetuneConfig())


def test_bad_configs_are_refused():
    with pytest.raises(ValueError, match="steps or a time budget"):
        FinetuneConfig(steps=None)
    with pytest.raises(ValueError, match="loss must be one of"):
        FinetuneConfig(loss="hinge")
    with pytest.raises(ValueError, match="pooling must be one of"):
        FinetuneConfig(pooling="sum")


def test_cosent_is_zero_when_the_order_is_right_and_positive_when_wrong():
    """Gold 5 > 0. Cosines (0.9, 0.1): right order, log(1 + e^(20*(0.1-0.9))) ≈ 1e-7.
    Cosines (0.1, 0.9): wrong order, log(1 + e^(20*0.8)) ≈ 16."""
    gold = torch.tensor([5.0, 0.0])
    assert float(cosent_loss(torch.tensor([0.9, 0.1]), gold)) < 1e-6
    assert float(cosent_loss(torch.tensor([0.1, 0.9]), gold)) == pytest.approx(16.0, abs=1e-3)


def test_cosent_and_in_batch_negatives_train(tokenizer, pairs):
    cfg = FinetuneConfig(steps=3, loss="cosent", in_batch_negatives=True, **FAST)
    log = finetune(fresh(tokenizer), tokenizer, pairs, cfg).log
    assert all(s.mnr_loss is not None and s.sim_loss is not None for s in log.steps)
    assert log.steps[0].loss == pytest.approx(log.steps[0].sim_loss + log.steps[0].mnr_loss)


def test_corpus_lines_split_texts_and_tab_pairs():
    assert corpus_lines("a\nb\n\nc\td\ne") == [["a", "b"], ["c", "d"], ["e"]]


def test_run_plan_pretrains_then_finetunes(tokenizer, pairs, dev):
    vocab = BertVocab.of(tokenizer)
    plan = TrainingPlan(
        tokenizer, TINY.config(vocab.size, vocab.pad_id), name="Test",
        corpus=tuple(builtin_corpus("en").splitlines()), pretrain=PretrainConfig(steps=3, **FAST),
        train_pairs=tuple(pairs), dev_pairs=tuple(dev), finetune=FinetuneConfig(steps=3, **FAST),
    )  # fmt: skip
    ckpt = run_plan(plan)
    assert [len(ckpt.log[p].steps) for p in ("pretrain", "finetune")] == [3, 3]
    assert ckpt.label == "Test, trained in this session: 3 pre-training + 3 fine-tuning steps"
    assert not ckpt.model.training
    assert ckpt.embed(["a", "b c"]).shape == (2, 32)


def test_training_run_in_a_worker_process_refuses_a_second_start_and_stops(tokenizer, pairs, dev):
    vocab = BertVocab.of(tokenizer)
    cfg = FinetuneConfig(steps=10_000, snapshot_every=2, **{**FAST, "eval_every": 2})
    plan = TrainingPlan(
        tokenizer, TINY.config(vocab.size, vocab.pad_id), train_pairs=tuple(pairs),
        dev_pairs=tuple(dev[:10]), finetune=cfg,
    )  # fmt: skip
    run = TrainingRun(plan, max_snapshots=4)
    assert run.status().state == "idle" and run.result() is None
    assert run.start() is True
    assert run.start() is False  # a second click while it runs starts nothing
    while len([r for r in run.records() if isinstance(r, EvalRecord)]) < 2:
        assert run.join(timeout=0.05) is False, run.status().error
    status = run.status()
    assert status.state == "running" and status.phase == "finetune" and status.step >= 4
    assert status.total_steps == 10_000 and status.eta_seconds is not None
    run.stop()
    assert run.join(timeout=120)
    status = run.status()
    assert status.state == "stopped" and status.fraction == 1.0
    assert run.start() is False
    ckpt = run.result()
    assert ckpt is not None and "stopped early" in ckpt.label
    snaps = run.snapshots()
    assert 2 <= len(snaps) <= 4
    assert snaps[0].step == 0 and snaps[-1].phase == "final"
    before, after = snaps[0].model(), ckpt.model
    rows = vocab.encode(tokenizer, ["a cat"], max_length=32)
    ids, mask = rows.input_ids, rows.attention_mask
    assert not torch.equal(before(ids, mask).last_hidden_state, after(ids, mask).last_hidden_state)
    assert torch.equal(snaps[-1].model()(ids, mask).last_hidden_state,
                       after(ids, mask).last_hidden_state)  # fmt: skip


def test_stop_before_the_first_step_is_labelled_stopped_with_zero_steps(tokenizer, pairs):
    """Stop pressed while the model is still being built: no phase runs, and the label says so."""
    vocab = BertVocab.of(tokenizer)
    plan = TrainingPlan(
        tokenizer, TINY.config(vocab.size, vocab.pad_id), name="Test",
        train_pairs=tuple(pairs), finetune=FinetuneConfig(steps=10, **FAST),
    )  # fmt: skip
    stop = threading.Event()
    stop.set()
    ckpt = run_plan(plan, stop=stop)
    assert ckpt.log == {}
    assert ckpt.label == "Test, trained in this session: 0 fine-tuning steps (stopped early)"


def test_training_run_reports_failures_instead_of_raising(tokenizer, pairs):
    vocab = BertVocab.of(tokenizer)
    bad = TINY.config(vocab.size, vocab.pad_id)
    long = SentencePair(" ".join(["cat"] * 100), "a cat", 3.0)  # longer than 48 positions
    plan = TrainingPlan(
        tokenizer, bad, train_pairs=(long,), finetune=FinetuneConfig(steps=2, max_length=200)
    )
    run = TrainingRun(plan)
    run.start()
    assert run.join(timeout=120)
    status = run.status()
    assert status.state == "failed" and "ValueError" in status.error and run.result() is None


def test_memory_check_refuses_a_config_that_cannot_fit():
    from explorer_core.bert.config import BertConfig
    from explorer_core.training.presets import check_fits_in_memory, training_memory_bytes

    huge = BertConfig(vocab_size=30000, hidden_size=4096, num_hidden_layers=48,
                      num_attention_heads=32, intermediate_size=16384)  # fmt: skip
    assert training_memory_bytes(huge, 64, 128) > 100 * 2**30
    with pytest.raises(ValueError, match="GB to train"):
        check_fits_in_memory(huge, 64, 128, limit=16 * 2**30)
    check_fits_in_memory(PRESETS["tiny"].config(4000), 64, 64, limit=16 * 2**30)


def test_tutorial_architecture_pretrains_and_finetunes(tokenizer, pairs):
    """Pre-LN, sinusoidal positions, ReLU and no segment embedding: NSP runs without segments."""
    small = {"hidden_size": 32, "intermediate_size": 37, "num_hidden_layers": 1}
    tutorial = Preset(**{**PRESETS["tutorial"].__dict__, **small})
    vocab = BertVocab.of(tokenizer)
    config = tutorial.config(vocab.size, vocab.pad_id)
    assert config.type_vocab_size == 0 and not config.bert_compatible
    plan = TrainingPlan(
        tokenizer, config, corpus=tuple(builtin_corpus("zh").splitlines()),
        pretrain=PretrainConfig(steps=2, **FAST), train_pairs=tuple(pairs),
        finetune=FinetuneConfig(steps=2, **FAST),
    )  # fmt: skip
    ckpt = run_plan(plan)
    assert all(s.nsp_loss is not None for s in ckpt.log["pretrain"].steps)
    assert ckpt.embed(["猫"]).shape == (1, 32)
