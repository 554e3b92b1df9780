"""`train sts --init FOLDER|NAME` fine-tunes a brought model of every family: the plan keeps the
family's switches, its own tokenizer (special ids included) and its authors' pooling; a few steps
give a finite loss; the checkpoint reloads and embeds as the trained model does; a refused start
is one line, exit code 2."""

from __future__ import annotations

import json
import math
import pickle

import pytest
import torch

from explorer_core.bert.families import FAMILIES
from explorer_core.cli import main
from explorer_core.inputs.vocab import BertVocab
from explorer_core.models.opened import open_model
from explorer_core.training.base_models import describe
from explorer_core.training.checkpoint import load_checkpoint
from tests import opened_models
from tests.models import write_pairs_table

POOLING = {"roberta": "cls", "albert": "cls"}  # the others: mean


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("starts")
    return {f: opened_models.model_folder(f, root / f, pooling=POOLING.get(f, "mean"))
            for f in FAMILIES}  # fmt: skip


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return write_pairs_table(tmp_path_factory.mktemp("data") / "pairs.tsv")


@pytest.mark.parametrize("family", FAMILIES)
def test_the_start_is_the_model_itself(folders, family, tmp_path, monkeypatch):
    """describe reads what open_model reads: config (switches), tokenizer ids, pooling."""
    monkeypatch.setenv("EXPLORER_MODEL_DIRS", str(folders[family].parent))
    opened = open_model(str(folders[family]))
    base = describe(str(folders[family]))
    assert base.config == opened.model.config and base.config.model_type == family
    assert base.pooling == POOLING.get(family, "mean")
    text = "A man is playing a guitar, 猫."
    assert base.tokenizer.encode(text) == opened.tokenizer.encode(text)
    vocab, roles = BertVocab.of(base.tokenizer), base.tokenizer.file_info.specials
    assert (vocab.cls_id, vocab.sep_id, vocab.pad_id) == (roles["cls"], roles["sep"], roles["pad"])
    assert vocab.size <= base.config.vocab_size and vocab.added == ()
    pickle.loads(pickle.dumps(base.tokenizer))  # a plan travels to the worker process


@pytest.mark.parametrize("family", FAMILIES)
def test_a_few_steps_then_the_checkpoint_reloads(folders, family, table, tmp_path, capsys):
    out = tmp_path / "m"
    argv = ["train", "sts", "--train", table, "--init", folders[family], "--steps", "3",
            "--device", "cpu", "--out", out, "--json"]  # fmt: skip
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    report = json.loads(captured.out)
    assert report["finetune_steps"] == 3 and report["pretrain_steps"] == 0
    ckpt = load_checkpoint(out)
    losses = [step.loss for step in ckpt.log["finetune"].steps]
    assert len(losses) == 3 and all(math.isfinite(x) for x in losses)
    assert ckpt.config.model_type == family and ckpt.pooling == POOLING.get(family, "mean")
    before = describe(str(folders[family]))
    assert ckpt.tokenizer.encode("a cat 猫") == before.tokenizer.encode("a cat 猫")
    vectors = ckpt.embed(["a cat", "a dog"], normalize=False)
    assert vectors.shape == (2, ckpt.config.hidden_size) and torch.isfinite(vectors).all()
    assert main(["embed", "--model", str(out), "--text", "a cat", "a dog"]) == 0
    cosine = float(torch.nn.functional.cosine_similarity(vectors[0], vectors[1], dim=0))
    assert capsys.readouterr().out == f"cosine {cosine:.4f}\n"


def test_a_hub_name_start(tmp_path, table, monkeypatch, capsys):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    opened_models.cache_entry(tmp_path / "cache", "someone/tiny-roberta", "roberta")
    argv = ["train", "sts", "--train", table, "--init", "someone/tiny-roberta", "--steps", "1",
            "--device", "cpu", "--out", tmp_path / "m", "--json"]  # fmt: skip
    assert main([str(a) for a in argv]) == 0, capsys.readouterr().err
    assert load_checkpoint(tmp_path / "m").config.model_type == "roberta"


@pytest.mark.parametrize(
    ("case", "message"),
    [("nobody/not-cached", "not in this machine's Hugging Face cache"),
     ("remote", "auto_map"), ("too large", "EXPLORER_MODEL_MAX_MB")],
)  # fmt: skip
def test_a_refused_start_is_one_line(folders, table, tmp_path, monkeypatch, case, message,
                                     capsys):  # fmt: skip
    import shutil

    init = case
    if case == "remote":
        init = shutil.copytree(folders["bert"], tmp_path / "remote")
        config = json.loads((init / "config.json").read_text())
        (init / "config.json").write_text(json.dumps({**config, "auto_map": {"AutoModel": "x"}}))
    elif case == "too large":
        init = folders["bert"]
        monkeypatch.setenv("EXPLORER_MODEL_MAX_MB", "0")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    argv = ["train", "sts", "--train", table, "--init", init, "--steps", "1",
            "--out", tmp_path / "m"]  # fmt: skip
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err, err
