"""`python -m explorer_core inspect`: the JSON equals the layer trace (MiniLM, a pair, the causal
mask, a model folder trained here, pre-LN, the taught model); bad input is one line, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import torch

from explorer_core.bert.model import BertModel
from explorer_core.bert.trace import trace_encoder
from explorer_core.cli import main
from explorer_core.cli.inspect import FIELDS

TEXT = "The cat sat on the mat."


def run(argv, capsys) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def inspect_json(argv, capsys) -> dict:
    code, out, err = run(["inspect", *argv, "--json"], capsys)
    assert code == 0, err
    return json.loads(out)


def assert_equals_trace(report: dict, trace) -> None:
    """Every list in the JSON equals the trace to float32's 7 significant digits."""

    def close(values, tensor) -> None:
        torch.testing.assert_close(torch.tensor(values), tensor, rtol=1e-6, atol=1e-7)

    assert report["ids"] == trace.tokens_ids.tolist()
    assert len(report["tokens"]) == len(report["ids"])
    close(report["embeddings"], trace.embeddings)
    assert len(report["layers"]) == len(trace.layers)
    for got, layer in zip(report["layers"], trace.layers, strict=True):
        assert set(got) == set(FIELDS)
        for name in FIELDS:
            close(got[name], getattr(layer, name))


@pytest.fixture(scope="module")
def minilm(minilm_dir):
    from explorer_core.inputs.vocab import BertVocab
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    tokenizer = WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt", lowercase=True)
    return BertModel.from_transformers(minilm_dir), tokenizer, BertVocab.of(tokenizer)


@pytest.mark.parametrize("mask", ["bert", "causal"])
def test_minilm_json_equals_the_trace(minilm, mask, capsys):
    model, tokenizer, vocab = minilm
    report = inspect_json(["--model", "minilm", "--text", TEXT, "--mask", mask], capsys)
    rows = vocab.encode(tokenizer, [TEXT])
    trace = trace_encoder(model, rows.input_ids[0], token_type_ids=rows.token_type_ids[0],
                          causal=mask == "causal")  # fmt: skip
    assert report["tokens"] == ["[CLS]", "the", "cat", "sat", "on", "the", "mat", ".", "[SEP]"]
    assert report["mask"] == mask and report["norm_placement"] == "post"
    assert report["final_norm"] is None
    assert_equals_trace(report, trace)
    assert len(report["layers"][0]["ffn_activation"][0]) == 1536


def test_a_pair_uses_segment_b(minilm, capsys):
    model, tokenizer, vocab = minilm
    report = inspect_json(["--model", "minilm", "--text", "a cat", "--text-b", "a dog"], capsys)
    assert report["tokens"] == ["[CLS]", "a", "cat", "[SEP]", "a", "dog", "[SEP]"]
    rows = vocab.encode(tokenizer, ["a cat"], ["a dog"])
    assert rows.token_type_ids[0].tolist() == [0, 0, 0, 0, 1, 1, 1]
    trace = trace_encoder(model, rows.input_ids[0], token_type_ids=rows.token_type_ids[0])
    assert_equals_trace(report, trace)


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_a_model_folder_trained_here(norm, tmp_path, capsys):
    """A folder `train` writes (save_checkpoint): post-LN, and the tutorial preset's pre-LN, whose
    JSON carries the final LayerNorm's output."""
    from explorer_core.inputs.vocab import BertVocab
    from explorer_core.training.checkpoint import Checkpoint, save_checkpoint
    from tests.encoder_models import ENGLISH, pretrained_here

    model, tokenizer = pretrained_here(norm)
    save_checkpoint(Checkpoint(model.bert, tokenizer, max_length=48), tmp_path)
    report = inspect_json(["--model", tmp_path, "--text", ENGLISH[1]], capsys)
    rows = BertVocab.of(tokenizer).encode(tokenizer, [ENGLISH[1]])
    types = rows.token_type_ids[0] if model.config.type_vocab_size else None
    trace = trace_encoder(model.bert, rows.input_ids[0], token_type_ids=types)
    assert report["norm_placement"] == norm
    assert_equals_trace(report, trace)
    if norm == "pre":
        torch.testing.assert_close(torch.tensor(report["final_norm"]), trace.final_norm,
                                   rtol=1e-6, atol=1e-7)  # fmt: skip


def test_a_transformers_folder_and_the_summary(minilm_dir, capsys):
    code, out, err = run(["inspect", "--model", minilm_dir, "--text", TEXT], capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"{minilm_dir.name} · 9 tokens")  # a folder: its name
    assert lines[1] == "tokens: [CLS] the cat sat on the mat . [SEP]"
    assert [line.split()[0] for line in lines[4:]] == ["1", "2", "3", "4", "5", "6"]


def test_the_taught_model(taught, capsys):
    report = inspect_json(["--model", "taught", "--text", "我吃苹果"], capsys)
    assert report["tokens"] == ["[CLS]", "我", "吃", "苹", "果", "[SEP]"]
    assert len(report["layers"]) == 6


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--model", "minilm", "--text", "   "], "--text is empty"),
        (["--model", "minilm", "--text", "a", "--text-b", ""], "--text-b is empty"),
        (["--model", "minilm", "--text", "word " * 600], "602 tokens, longer than"),
        (["--model", "nobody/not-cached", "--text", "a"], "not in this machine's Hugging Face"),
        (["--model", "taught", "--text", "a"], "has not been built"),
        (["--model", "minilm", "--text", "a", "--mask", "sideways"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line(argv, message, capsys):
    code, out, err = run(["inspect", *argv], capsys)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err


def test_a_missing_folder_from_the_shell_shows_no_traceback(tmp_path):
    missing = tmp_path / "nowhere"
    result = subprocess.run(
        [sys.executable, "-m", "explorer_core", "inspect", "--model", str(missing), "--text", "a"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1 and "is not a folder" in result.stderr
