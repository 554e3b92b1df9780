"""`train lm` and `generate` on the command line: JSON per evaluation, a folder that generates,
the same text for the same seed, and bad input as one line on stderr with exit code 2."""

from __future__ import annotations

import json

import pytest

from explorer_core.cli import main
from explorer_core.decoder import save_decoder
from tests.decoder_models import decoder, tokenizer


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("lm") / "model"
    save_decoder(decoder(), tokenizer(), out)
    return out


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.slow
def test_train_lm_prints_json_per_evaluation_and_writes_a_folder(tmp_path, capsys):
    out = tmp_path / "lm"
    code, stdout, stderr = run(capsys, "train", "lm", "--out", out, "--steps", 3, "--seed", 1)
    assert code == 0, stderr
    lines = [json.loads(line) for line in stdout.splitlines()]
    assert [line["step"] for line in lines] == [0, 3, 3]
    assert all({"step", "seconds", "loss"} <= set(line) for line in lines)
    last = lines[-1]
    assert last["bigram_loss"] < last["uniform_loss"] and last["steps"] == 3
    assert last["out"] == str(out) and (out / "model.safetensors").is_file()
    code, text, stderr = run(capsys, "generate", "--model", out, "--prompt", "The", "--top-k", 1,
                             "--max-new-tokens", 5)  # fmt: skip
    assert code == 0 and text.startswith("The") and len(text) > len("The\n"), stderr


def test_generate_prints_the_prompt_and_its_continuation(folder, capsys):
    argv = ("generate", "--model", folder, "--prompt", "the cat", "--max-new-tokens", 8,
            "--temperature", 1.3, "--top-p", 0.9, "--seed", 4)  # fmt: skip
    code, first, err = run(capsys, *argv)
    assert code == 0, err
    assert first.startswith("the cat") and first.endswith("\n")
    assert run(capsys, *argv)[1] == first
    assert run(capsys, *argv[:-1], 5)[1] != first


@pytest.mark.parametrize(
    ("extra", "message"),
    [(["--prompt", ""], "prompt is empty"), (["--prompt", "   "], "prompt is empty"),
     (["--prompt", "a", "--temperature", "0"], "temperature must be above 0"),
     (["--prompt", "a", "--temperature", "-1"], "temperature must be above 0"),
     (["--prompt", "a", "--top-k", "0"], "top_k must be"),
     (["--prompt", "a", "--top-p", "1.5"], "top_p must be"),
     (["--prompt", "a", "--top-k", "two"], "invalid int value")],
)  # fmt: skip
def test_bad_generate_input_is_one_line_and_exit_2(folder, capsys, extra, message):
    code, out, err = run(capsys, "generate", "--model", folder, *extra)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert "Traceback" not in err


def test_a_missing_folder_is_one_line(tmp_path, capsys):
    code, _, err = run(capsys, "generate", "--model", tmp_path / "nowhere", "--prompt", "a")
    assert code == 2 and "no such folder" in err and err.count("\n") == 1
    code, _, err = run(capsys, "generate", "--model", tmp_path, "--prompt", "a")
    assert code == 2 and "not a saved decoder" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "message"),
    [(["--corpus", "SHORT"], "the corpus is too short"), (["--corpus", "EMPTY"], "corpus is empty"),
     (["--corpus", "MISSING"], "No such file"), (["--lang", "fr"], "invalid choice"),
     (["--steps", "3", "--seconds", "2"], "not allowed with argument"),
     (["--steps", "0"], "steps must be"), (["--seconds", "-1"], "seconds must be more than 0")],
)  # fmt: skip
def test_bad_train_lm_input_is_one_line_and_exit_2(tmp_path, capsys, argv, message):
    files = {"SHORT": "a few words\nand a second line\n", "EMPTY": ""}
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    argv = [str(tmp_path / a) if a in (*files, "MISSING") else a for a in argv]
    code, out, err = run(capsys, "train", "lm", "--out", tmp_path / "out", *argv)
    assert code == 2 and out == "" and not (tmp_path / "out").exists()
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_inspect_runs_a_decoder_under_its_own_causal_mask(folder, capsys):
    """`inspect` on a saved decoder: family gpt2, its causal mask unless --mask bert is asked."""
    code, out, err = run(capsys, "inspect", "--model", folder, "--text", "the cat sat", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert (report["family"], report["mask"]) == ("gpt2", "causal")
    code, out, _ = run(capsys, "inspect", "--model", folder, "--text", "the cat", "--mask", "bert",
                       "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["mask"] == "bert"
