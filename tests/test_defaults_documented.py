"""The defaults that `train sts --help`, the README and docs/training.md quote are the code's.

The help texts are built from `training.presets` (changing a constant changes the help); the docs
are prose, so these tests read the sentences that quote a default and compare the numbers.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from explorer_core.cli import main
from explorer_core.training import presets

ROOT = Path(__file__).resolve().parent.parent
DOCS = {name: ROOT / name for name in ("README.md", "docs/training.md")}


def sts_help(capsys) -> str:
    """`python -m explorer_core train sts --help`, whitespace collapsed."""
    assert main(["train", "sts", "--help"]) == 0
    return " ".join(capsys.readouterr().out.split())


def prose(name: str) -> str:
    """The file's text with every run of whitespace (line breaks too) as one space."""
    return " ".join(DOCS[name].read_text(encoding="utf-8").split())


def test_help_quotes_the_job_defaults(capsys):
    text = sts_help(capsys)
    assert f"characters + {presets.CHAR_MERGES} merges for char-bpe" in text
    assert f"{presets.OTHER_ALGO_VOCAB} for the others" in text
    assert f"{presets.DEFAULT_STEPS} from scratch, {presets.PRETRAINED_STEPS} for a" in text
    assert f"default: {presets.SCRATCH_LOSS} from scratch" in text
    assert f"{presets.PRETRAINED_SECONDS:g} for --init minilm" in text
    lr, batch = (presets.PRETRAINED_FINETUNE[k] for k in ("learning_rate", "batch_size"))
    assert f"lr {lr:.0e}, batch {batch}".replace("e-0", "e-") in text and "57" not in text


def test_help_follows_a_changed_constant(monkeypatch, capsys):
    """The help is computed from the constants, not written next to them."""
    monkeypatch.setattr(presets, "CHAR_MERGES", 151)
    monkeypatch.setattr(presets, "DEFAULT_STEPS", 299)
    monkeypatch.setattr(presets, "PRETRAINED_FINETUNE", {"learning_rate": 3e-5, "batch_size": 8})
    text = sts_help(capsys)
    assert "characters + 151 merges" in text and "299 from scratch" in text
    assert "lr 3e-5, batch 8" in text


@pytest.mark.parametrize("name", sorted(DOCS))
def test_docs_quote_the_char_merges(name):
    found = re.findall(r"characters \+ (\d+) merges", prose(name))
    assert found, f"{name} no longer says how many merges the default char-BPE gets"
    assert {int(n) for n in found} == {presets.CHAR_MERGES}


def test_readme_quotes_the_pretrained_recipe():
    pattern = r"lr ([0-9.e-]+), no pre-training, (\d+) s at most"
    lr, seconds = re.search(pattern, prose("README.md")).groups()
    assert float(lr) == presets.PRETRAINED_FINETUNE["learning_rate"]
    assert float(seconds) == presets.PRETRAINED_SECONDS


def test_training_doc_quotes_the_recipes():
    text = prose("docs/training.md")
    found = re.search(r"fine-tuned with lr ([0-9.e-]+), batch (\d+) .{0,40}at most (\d+) s", text)
    assert found, "docs/training.md no longer states the pretrained recipe"
    lr, batch, seconds = found.groups()
    assert float(lr) == presets.PRETRAINED_FINETUNE["learning_rate"]
    assert int(batch) == presets.PRETRAINED_FINETUNE["batch_size"]
    assert float(seconds) == presets.PRETRAINED_SECONDS
    lr, batch = re.search(r"Tiny at lr ([0-9.e-]+), batch (\d+)", text).groups()
    assert float(lr) == presets.TINY.learning_rate and int(batch) == presets.TINY.batch_size
    assert f"the {presets.SCRATCH_LOSS.replace('cosent', 'CoSENT')} loss plus in-batch" in text
