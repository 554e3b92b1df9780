"""Fine-tuning MiniLM + 中文 in place: the start "taught" (base_models), `start_from`, and
`train sts --init taught` on the command line, with the small taught model of tests/taught.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from explorer_core.cli import main
from explorer_core.files import taught_model
from explorer_core.inputs.datasets import builtin_sts_pairs, split_pairs
from explorer_core.inputs.vocab import BertVocab
from explorer_core.training.base_models import (
    INITS,
    TAUGHT_LABEL,
    check_init,
    describe,
    load_weights_of,
)
from explorer_core.training.checkpoint import load_checkpoint
from explorer_core.training.choices import TrainChoices, build_plan, start_from

MINILM_IDS = 30522  # bert-base-uncased's WordPiece: the taught vocabulary extends it


@pytest.fixture
def no_taught(tmp_path, monkeypatch) -> Path:
    """An install on which MiniLM + 中文 has not been built (an empty cache folder)."""
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def small_table(path: Path, train: int = 24) -> Path:
    """A headed TSV of the built-in pairs: the first `train` training pairs (both languages) and
    every dev and test pair."""
    parts = split_pairs(builtin_sts_pairs())
    chosen = [p for lang in ("zh", "en") for p in parts["train"] if p.lang == lang][: train // 2]
    chosen += [p for lang in ("en", "zh") for p in parts["train"] if p.lang == lang][: train // 2]
    rows = ["sentence1\tsentence2\tscore\tsplit\tlang"]
    for p in [*dict.fromkeys(chosen), *parts["dev"], *parts["test"]]:
        rows.append(f"{p.sentence1}\t{p.sentence2}\t{p.score}\t{p.split}\t{p.lang}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_taught_is_a_start_and_describe_keeps_its_own_tokenizer(taught):
    """describe("taught") is the installed model's: the extended WordPiece (more ids than
    MiniLM's 30,522, Chinese without [UNK]), its config, mean pooling, a fixed label."""
    assert "taught" in INITS
    check_init("taught")
    base = describe("taught")
    installed = taught_model.load()
    assert base.init == "taught" and base.label == TAUGHT_LABEL and base.pooling == "mean"
    assert base.config == installed.config and base.config.hidden_size == 384
    size = BertVocab.of(base.tokenizer).size
    assert size == BertVocab.of(installed.tokenizer).size and size > MINILM_IDS
    ids = base.tokenizer.encode("一个男人在弹吉他。")
    assert ids == installed.tokenizer.encode("一个男人在弹吉他。")
    assert base.tokenizer.token_to_id("[UNK]") not in ids


def test_load_weights_of_taught_are_the_installed_weights(taught):
    weights = load_weights_of("taught")
    installed = taught_model.load().model.state_dict()
    assert weights.keys() == installed.keys()
    assert all(torch.equal(weights[name], installed[name]) for name in installed)
    rows = weights["embeddings.word_embeddings.weight"].shape[0]
    assert rows == BertVocab.of(describe("taught").tokenizer).size > MINILM_IDS


def test_missing_taught_model_is_one_line_saying_how_to_build_it(no_taught):
    for read in (describe, load_weights_of):
        with pytest.raises(ValueError, match="build it first") as err:
            read("taught")
        text = str(err.value)
        assert "\n" not in text and "Teach MiniLM Chinese" in text and "background" in text


def test_start_from_taught_fine_tunes_with_its_tokenizer(taught):
    parts = split_pairs(builtin_sts_pairs())
    plan = build_plan(TrainChoices(preset="tiny", finetune_steps=5), describe("taught").tokenizer,
                      parts)  # fmt: skip
    tuned = start_from(plan, "taught")
    assert tuned.init == "taught" and tuned.pretrain is None and tuned.corpus == ()
    assert BertVocab.of(tuned.tokenizer).size > MINILM_IDS
    assert tuned.model_config.vocab_size == BertVocab.of(tuned.tokenizer).size
    assert tuned.finetune.learning_rate == 2e-5 and tuned.finetune.steps == 5
    assert tuned.name == TAUGHT_LABEL and tuned.pooling == "mean"


@pytest.mark.slow
def test_cli_fine_tunes_the_taught_model_into_a_loadable_folder(taught, tmp_path, capsys):
    table = small_table(tmp_path / "pairs.tsv")
    out = tmp_path / "tuned"
    argv = ["train", "sts", "--train", str(table), "--init", "taught", "--steps", "2",
            "--out", str(out), "--json"]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    size = BertVocab.of(describe("taught").tokenizer).size
    assert report["tokenizer"] == f"wordpiece, {size} ids" and report["pretrain_steps"] == 0
    assert report["finetune_steps"] == 2
    assert set(report["test_spearman_by_lang"]) == {"en", "zh"}
    tuned = load_checkpoint(out)
    assert tuned.config.vocab_size == size and tuned.label.startswith(TAUGHT_LABEL)
    before = load_weights_of("taught")["encoder.layer.0.attention.self.query.weight"]
    after = tuned.model.state_dict()["encoder.layer.0.attention.self.query.weight"]
    assert not torch.equal(before, after)  # it was trained, not copied
    assert (out / "modules.json").is_file()


def test_cli_init_taught_without_the_model_exits_2_with_one_line(no_taught, capsys):
    table = small_table(no_taught / "pairs.tsv")
    argv = ["train", "sts", "--train", str(table), "--init", "taught", "--steps", "1",
            "--out", str(no_taught / "out")]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error: ") and "build it first" in err
    assert "Traceback" not in err and not (no_taught / "out").exists()


def test_cli_help_names_the_taught_start(capsys):
    assert main(["train", "sts", "--help"]) == 0
    assert "taught (MiniLM + 中文" in " ".join(capsys.readouterr().out.split())
