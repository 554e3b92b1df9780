"""The command line: train and encode end to end; every bad input is one line and exit code 2."""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys

import pytest

import explorer_core.cli as cli
from explorer_core.cli import COMMANDS, main
from explorer_core.tokenization import ALGORITHMS, load_tokenizer

CORPUS = "hello world, hello tokens. the tokenizer learns 你好世界，你好！ again and again.\n" * 20
SIZES = {"byte-bpe": 300, "char-bpe": 60, "wordpiece": 60, "unigram": 300, "word": 30}


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "corpus.txt"
    path.write_text(CORPUS, encoding="utf-8")
    return path


def run(argv, capsys) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_train_then_encode(algo, corpus, tmp_path, capsys):
    out_dir = tmp_path / algo
    argv = ["tokenizer", "train", "--algo", algo, "--vocab-size", SIZES[algo]]
    code, out, err = run([*argv, "--input", corpus, "--out", out_dir, "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["algo"] == algo and report["out"] == str(out_dir)
    text = "hello 你好 tokens"
    code, out, err = run(
        ["tokenizer", "encode", "--tokenizer", out_dir, "--text", text, "--json"], capsys
    )
    assert code == 0, err
    encoded = json.loads(out)
    tokenizer = load_tokenizer(out_dir)
    assert encoded["ids"] == tokenizer.encode(text)
    assert len(encoded["tokens"]) == len(encoded["ids"])


def test_plain_output(corpus, tmp_path, capsys):
    argv = ["tokenizer", "train", "--algo", "byte-bpe", "--vocab-size", 280]
    code, out, _ = run([*argv, "--input", corpus, "--out", tmp_path / "t"], capsys)
    assert code == 0 and out.startswith("trained byte-bpe: 280 tokens")
    code, out, _ = run(
        ["tokenizer", "encode", "--tokenizer", tmp_path / "t", "--text", "hi"], capsys
    )
    assert code == 0 and out.strip()


def bad_files(tmp_path):
    binary = tmp_path / "binary.bin"
    binary.write_bytes(bytes(range(256)))
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("café".encode("latin-1"))
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n", encoding="utf-8")
    return {"binary": binary, "latin1": latin1, "empty": empty, "missing": tmp_path / "nope.txt"}


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("binary", "binary"),
        ("latin1", "not UTF-8"),
        ("empty", "no text"),
        ("missing", "not a file"),
    ],
)
def test_bad_input_files(case, message, tmp_path, capsys):
    path = bad_files(tmp_path)[case]
    argv = ["tokenizer", "train", "--algo", "byte-bpe", "--vocab-size", 300]
    code, out, err = run([*argv, "--input", path, "--out", tmp_path / "o"], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["tokenizer"],
        [
            "tokenizer",
            "train",
            "--algo",
            "nope",
            "--vocab-size",
            "300",
            "--input",
            "x",
            "--out",
            "y",
        ],
        [
            "tokenizer",
            "train",
            "--algo",
            "byte-bpe",
            "--vocab-size",
            "lots",
            "--input",
            "x",
            "--out",
            "y",
        ],
        ["tokenizer", "encode", "--text", "no tokenizer given"],
        ["tokenizer", "encode", "--tokenizer", "/no/such/folder", "--text", "x"],
    ],
)
def test_bad_arguments_are_one_line(argv, capsys):
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")


def test_vocab_below_the_alphabet(corpus, tmp_path, capsys):
    argv = ["tokenizer", "train", "--algo", "byte-bpe", "--vocab-size", 100]
    code, _, err = run([*argv, "--input", corpus, "--out", tmp_path / "o"], capsys)
    assert code == 2 and "at least 256" in err and err.count("\n") == 1


def test_every_command_module_is_registered():
    modules = {m.name for m in pkgutil.iter_modules(cli.__path__)}
    assert modules == set(COMMANDS)


def test_module_entry_point_never_shows_a_traceback(tmp_path):
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes(b"caf\xe9")
    result = subprocess.run(
        [sys.executable, "-m", "explorer_core", "tokenizer", "train", "--algo", "byte-bpe",
         "--vocab-size", "300", "--input", str(latin1), "--out", str(tmp_path / "o")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.startswith("error: ") and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
