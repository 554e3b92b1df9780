"""`python -m explorer_core sequence-models`: the JSON's keys and shapes equal the core's numbers;
bad input is one line on stderr with exit code 2."""

from __future__ import annotations

import json

import pytest
import torch

from explorer_core.cli import main
from explorer_core.sequence.compare import MODELS, ComparisonConfig, compare_models

TEXT = "The cat sat on the mat."
TOKENS = ["the", "cat", "sat", "on", "the", "mat", "."]


def run(argv, capsys) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def ids(minilm_dir) -> list[int]:
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    return WordPieceTokenizer.from_vocab(minilm_dir / "vocab.txt", lowercase=True).encode(TEXT)


def test_json_keys_shapes_and_numbers(ids, capsys):
    code, out, err = run(["sequence-models", "--text", TEXT, "--seed", 3, "--json"], capsys)
    assert code == 0, err
    report = json.loads(out)
    assert report["tokens"] == TOKENS
    assert report["embeddings"] == "random, seed 3"
    assert set(report["models"]) == set(MODELS)
    views = compare_models(ids, ComparisonConfig(seed=3))
    for name, got in report["models"].items():
        assert set(got) == {"hidden_states", "gradient_over_distance"}
        width = 32 if name == "birnn" else 16
        assert [len(row) for row in got["hidden_states"]] == [width] * len(TOKENS)
        assert len(got["gradient_over_distance"]) == len(TOKENS)  # one number per distance
        torch.testing.assert_close(torch.tensor(got["hidden_states"]), views[name].hidden_states,
                                   rtol=1e-6, atol=1e-7)  # fmt: skip
        torch.testing.assert_close(
            torch.tensor(got["gradient_over_distance"]),
            torch.tensor(views[name].gradient.norms),
            rtol=1e-6,
            atol=0,
        )


def test_same_seed_same_json_and_the_summary_without_json(capsys):
    argv = ["sequence-models", "--text", "a cat", "--json"]
    first, again = run(argv, capsys)[1], run(argv, capsys)[1]
    assert first == again
    assert run([*argv[:-1], "--seed", 1, "--json"], capsys)[1] != first
    code, out, _ = run(argv[:-1], capsys)
    assert code == 0 and "attention" in out and "by distance" in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--text", "   "], "--text is empty"),
        (["--text", "cat sat", "--window", 4], "--window 4 reads 3 tokens"),
        (["--text", "cat sat", "--window", 1], "at least 2"),
        (["--text", "cat", "--seed", "one"], "invalid int"),
        ([], "--text"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    code, out, err = run(["sequence-models", *argv, "--json"], capsys)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err
