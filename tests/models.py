"""Small models and runs shared by page tests: a trained model in session state, a Lab tokenizer,
a very short training run through the Train page (AppTest), and a real tiny TrainingRun."""

from __future__ import annotations

import time
from functools import lru_cache
from types import SimpleNamespace

GUITAR = ("A man is playing a guitar.", "A person plays the guitar.")


def write_pairs_table(path):
    """The built-in scored pairs as a headed TSV with split and lang columns (what `train sts`
    reads), written to `path`; returns `path`."""
    from explorer_core.inputs.datasets import builtin_sts_pairs

    rows = ["sentence1\tsentence2\tscore\tsplit\tlang"]
    rows += [f"{p.sentence1}\t{p.sentence2}\t{p.score}\t{p.split}\t{p.lang}"
             for p in builtin_sts_pairs()]  # fmt: skip
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@lru_cache(maxsize=1)
def tiny_shared():
    """A SharedModel from a real (very short) TrainingRun: hidden 32, 1 layer, 3 fine-tuning steps,
    a snapshot every step, so it has a before-training snapshot (step 0) and a final one."""
    from explorer_core.inputs.datasets import builtin_sts_pairs, split_pairs
    from explorer_core.tokenization import new_tokenizer
    from explorer_core.training.choices import SharedModel, TrainChoices, build_plan
    from explorer_core.training.worker import TrainingRun

    parts = split_pairs(builtin_sts_pairs())
    tokenizer = new_tokenizer("wordpiece")
    tokenizer.train("\n".join(p.sentence1 + "\n" + p.sentence2 for p in parts["train"]), 1000)
    choices = TrainChoices(
        objective="finetune", hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=37, max_length=24, finetune_steps=3, batch_size=8,
        eval_every=0, snapshot_every=1,
    )  # fmt: skip
    run = TrainingRun(build_plan(choices, tokenizer, parts))
    assert run.start()
    assert run.join(120)
    assert run.status().state == "finished", run.status().error
    return SharedModel(run.result(), "trained", tuple(run.snapshots())), parts


def trained_state(tmp_path):
    """Session state holding a tiny WordPiece BERT as the Train page publishes it, and the model."""
    from explorer_core.bert.config import BertConfig
    from explorer_core.bert.model import BertModel
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "the", "cat", "sat", "on", "mat", "."]
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("\n".join(words) + "\n", encoding="utf-8")
    tokenizer = WordPieceTokenizer.from_vocab(vocab, lowercase=True)
    config = BertConfig(
        vocab_size=len(words),
        hidden_size=32,
        num_hidden_layers=1,
        num_attention_heads=4,
        intermediate_size=37,
        max_position_embeddings=16,
    )
    model = BertModel(config, seed=3).eval()
    shared = SimpleNamespace(model=model, tokenizer=tokenizer, label="test model, 0 steps")
    return {"shared.model": shared}, model


def lab_tokenizer():
    """A byte-level BPE as the Tokenizer Lab makes: 273 ids and no special tokens."""
    from explorer_core.tokenization import new_tokenizer

    tokenizer = new_tokenizer("byte-bpe")
    tokenizer.train("the cat sat on the mat. the dog sat on the log. " * 20, 280)
    return tokenizer


def small(at, *, pre: int = 2, fine: int = 4, objective: str = "pretrain+finetune"):
    """A very small model and run, so a test trains in seconds on a busy 2-core machine."""
    at.toggle(key="train.edit").set_value(True).run()
    values = {"train.hidden": 32, "train.layers": 1, "train.heads": 2, "train.ffn": 64,
              "train.max_length": 24, "train.batch": 8, "train.fine_steps": fine,
              "train.budget": 0}  # fmt: skip
    for key, value in values.items():
        at.number_input(key=key).set_value(value)
    at.radio(key="train.objective").set_value(objective).run()
    if objective != "finetune":
        at.number_input(key="train.pre_steps").set_value(pre).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    return at


def wait_for_end(at, timeout: float = 120.0):
    """Re-run the page (as the polling fragment would) until the session's run has ended."""
    deadline = time.monotonic() + timeout
    run = at.session_state["train.run"]
    while run.running and time.monotonic() < deadline:
        time.sleep(0.5)
        at.run()
    assert not run.running, "the run did not end in time"
    return at.run()


def tiny_parts():
    """(WordPiece 1,000 trained on the built-in train pairs, a 1-layer hidden-32 config, the
    pairs by split): what `tiny_plan` trains, for tests that build their own plans."""
    from explorer_core.inputs.datasets import builtin_sts_pairs, split_pairs
    from explorer_core.inputs.vocab import BertVocab
    from explorer_core.tokenization import new_tokenizer
    from explorer_core.training.presets import TINY

    parts = split_pairs(builtin_sts_pairs())
    tokenizer = new_tokenizer("wordpiece")
    tokenizer.train("\n".join(p.sentence1 + "\n" + p.sentence2 for p in parts["train"]), 1000)
    vocab = BertVocab.of(tokenizer)
    config = TINY.config(vocab.size, vocab.pad_id)
    small = {"hidden_size": 32, "intermediate_size": 37, "num_hidden_layers": 1}
    return tokenizer, config.__class__(**{**config.__dict__, **small}), parts


def tiny_plan(fine_steps: int, pre_steps: int = 0, snapshot_every: int = 0, seed: int = 3):
    """A small, seeded plan (1 layer, hidden 32) on the built-in pairs: seconds on one core."""
    from explorer_core.training.finetune import FinetuneConfig
    from explorer_core.training.pretrain import PretrainConfig
    from explorer_core.training.run import TrainingPlan

    tokenizer, config, parts = tiny_parts()
    fast = {"batch_size": 4, "max_length": 16, "eval_every": 2, "snapshot_every": snapshot_every}
    lines = tuple(p.sentence1 + "\t" + p.sentence2 for p in parts["train"][:40])
    return TrainingPlan(
        tokenizer, config, corpus=lines,
        pretrain=PretrainConfig(steps=pre_steps, **fast) if pre_steps else None,
        train_pairs=tuple(parts["train"][:60]), dev_pairs=tuple(parts["dev"][:8]),
        finetune=FinetuneConfig(steps=fine_steps, **fast), seed=seed,
    )  # fmt: skip
