"""`train sts` and `embed` on the command line: tiny budgets, files in tmp_path."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from explorer_core.cli import main
from explorer_core.inputs.datasets import builtin_sts_pairs
from tests.models import write_pairs_table


def cli(argv: list[str]) -> int:
    """Run the package's command line in this process (the parser of `python -m explorer_core`)."""
    return main(argv)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """A headed TSV with a split column: the built-in pairs (train, dev, test)."""
    return write_pairs_table(tmp_path_factory.mktemp("data") / "pairs.tsv")


@pytest.fixture(scope="module")
def trained(table, tmp_path_factory):
    out = tmp_path_factory.mktemp("model")
    argv = ["train", "sts", "--train", str(table), "--tokenizer-algo", "wordpiece", "--json",
            "--vocab-size", "1200", "--steps", "4", "--seed", "1", "--out", str(out)]  # fmt: skip
    return argv, out


def test_train_sts_json_report_and_checkpoint(trained, capsys):
    argv, out = trained
    assert cli(argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert report["steps"] == 4 and report["seconds"] > 0
    assert -1 <= report["dev_spearman"] <= 1 and -1 <= report["test_spearman"] <= 1
    assert set(report["test_spearman_by_lang"]) == {"en", "zh"}
    assert (out / "explorer_checkpoint.json").is_file() and (out / "modules.json").is_file()


def test_the_folder_loads_in_sentence_transformers_and_transformers_with_our_vectors(
    trained, capsys
):
    """What README shows: SentenceTransformer("my_model") and AutoModel.from_pretrained
    ("my_model") + mean pooling give `embed`'s vectors (within 1e-4; embed prints 6 decimals)."""
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers import AutoModel, AutoTokenizer

    argv, out = trained
    if not (out / "explorer_checkpoint.json").exists():
        assert cli(argv) == 0
    capsys.readouterr()
    texts = ["A man is playing a guitar.", "一个男人在弹吉他。", "x"]
    assert cli(["embed", "--model", str(out), "--json", "--vectors", "--text", *texts]) == 0
    ours = torch.tensor(json.loads(capsys.readouterr().out)["vectors"])
    st = torch.as_tensor(SentenceTransformer(str(out), device="cpu").encode(texts))
    assert (st - ours).abs().max() < 1e-4
    tokenizer, model = AutoTokenizer.from_pretrained(str(out)), AutoModel.from_pretrained(str(out))
    batch = tokenizer(texts, padding=True, return_tensors="pt")
    with torch.no_grad():
        hidden = model(**batch).last_hidden_state  # (B, T, H)
    mask = batch["attention_mask"].unsqueeze(-1).float()
    mean = (hidden * mask).sum(1) / mask.sum(1)
    assert (mean - ours).abs().max() < 1e-4


def test_embed_reads_a_version_1_folder(tmp_path, capsys):
    """A model saved before the standard layout (our config.json, tokenizer/, hf/) still embeds."""
    from explorer_core.bert.model import BertModel
    from explorer_core.inputs.vocab import BertVocab
    from explorer_core.tokenization import new_tokenizer
    from explorer_core.training.checkpoint import Checkpoint
    from explorer_core.training.presets import PRESETS
    from tests.old_checkpoint import save_version_1

    tokenizer = new_tokenizer("char-bpe")
    tokenizer.train("a cat sat on a mat\n猫坐在垫子上", 40)
    vocab = BertVocab.of(tokenizer)
    ckpt = Checkpoint(
        BertModel(PRESETS["tiny"].config(vocab.size, vocab.pad_id), seed=1), tokenizer
    )
    save_version_1(ckpt, tmp_path / "old")
    assert cli(["embed", "--model", str(tmp_path / "old"), "--json", "--text", "a cat", "猫"]) == 0
    cosine = json.loads(capsys.readouterr().out)["cosine"]
    assert abs(cosine - ckpt.cosine("a cat", "猫")) < 1e-6


def test_chinese_sts_file_without_splits_reports_null(tmp_path, capsys):
    path = tmp_path / "zh.txt"
    pairs = [p for p in builtin_sts_pairs() if p.lang == "zh"][:60]
    path.write_text(
        "".join(f"{i}\t{p.sentence1}\t{i + 1}\t{p.sentence2}\t{p.score}\n" for i, p in
                enumerate(pairs)), encoding="utf-8",
    )  # fmt: skip
    argv = ["train", "sts", "--train", str(path), "--format", "chinese-sts", "--vocab-size", "900",
            "--time-budget", "1", "--out", str(tmp_path / "m"), "--json"]  # fmt: skip
    assert cli(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["dev_spearman"] is None and report["test_spearman"] is None
    assert report["steps"] >= 1 and report["train_pairs"] == 60


def test_embed_cosine_and_vectors(trained, capsys):
    argv, out = trained
    if not (out / "explorer_checkpoint.json").exists():
        assert cli(argv) == 0
    capsys.readouterr()
    assert cli(["embed", "--model", str(out), "--text", "a cat", "a small cat"]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("cosine ") and -1 <= float(line.split()[1]) <= 1
    assert cli(["embed", "--model", str(out), "--text", "猫", "--json"]) == 0
    vectors = json.loads(capsys.readouterr().out)["vectors"]
    assert len(vectors) == 1 and len(vectors[0]) == 128  # the Tiny preset's hidden size


def test_plain_text_report(table, tmp_path, capsys):
    argv = ["train", "sts", "--train", str(table), "--vocab-size", "1200", "--steps", "2",
            "--out", str(tmp_path)]  # fmt: skip
    assert cli(argv) == 0
    out = capsys.readouterr().out
    assert "steps: 2" in out and "test_spearman: " in out


@pytest.mark.parametrize(
    ("make_argv", "message"),
    [
        (lambda d: ["train", "sts", "--train", str(d / "missing.tsv"), "--out", str(d)], "missing"),
        (lambda d: ["train", "sts", "--train", str(d / "empty.tsv"), "--out", str(d)], "empty"),
        (lambda d: ["train", "sts", "--train", str(d / "junk.tsv"), "--out", str(d)], "junk"),
        (lambda d: ["train", "sts", "--train", str(d / "empty.tsv")], "--out"),
        (
            lambda d: [
                "train",
                "sts",
                "--train",
                str(d / "ok.tsv"),
                "--preset",
                "huge",
                "--out",
                str(d),
            ],
            "huge",
        ),  # fmt: skip
        (
            lambda d: [
                "train",
                "sts",
                "--train",
                str(d / "ok.tsv"),
                "--tokenizer",
                str(d / "no"),
                "--out",
                str(d),
            ],
            "no",
        ),  # fmt: skip
        (lambda d: ["embed", "--model", str(d / "nothing"), "--text", "a"], "nothing"),
        (lambda d: ["embed", "--model", str(d)], "--text"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, make_argv, message):
    (tmp_path / "empty.tsv").write_text("")
    (tmp_path / "junk.tsv").write_bytes(b"\x00\x01 binary")
    (tmp_path / "ok.tsv").write_text("sentence1\tsentence2\tscore\na\tb\t3\n")
    assert cli(make_argv(tmp_path)) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error: ") and message in err


def test_vocab_txt_tokenizer(table, tmp_path, capsys):
    """--tokenizer with a BERT vocab.txt folder (here a tiny hand-made vocabulary)."""
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a", "man", "cat", "the", "##s", "."]
    (tmp_path / "vocab").mkdir()
    (tmp_path / "vocab" / "vocab.txt").write_text("\n".join(vocab) + "\n")
    argv = ["train", "sts", "--train", str(table), "--tokenizer", str(tmp_path / "vocab"),
            "--steps", "2", "--out", str(tmp_path / "m"), "--json"]  # fmt: skip
    assert cli(argv) == 0
    assert json.loads(capsys.readouterr().out)["tokenizer"] == "wordpiece, 11 ids"


def test_python_dash_m_embed(trained, root):
    """The real entry point, in a fresh process: two texts give their cosine."""
    argv, out = trained
    if not (out / "explorer_checkpoint.json").exists():
        assert cli(argv) == 0
    done = subprocess.run(
        [sys.executable, "-m", "explorer_core", "embed", "--model", str(out), "--json",
         "--text", "a cat", "a dog"],
        cwd=root, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert -1 <= json.loads(done.stdout)["cosine"] <= 1
