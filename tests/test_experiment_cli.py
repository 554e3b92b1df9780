"""`experiment tokenizers`: a tiny experiment end to end; every bad input is one line, exit 2."""

from __future__ import annotations

import json
import statistics

import pytest

from explorer_core.cli import main as cli
from tests.models import write_pairs_table

TINY = ["--vocab-sizes", "300", "--seeds", "0", "--steps", "3"]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return write_pairs_table(tmp_path_factory.mktemp("pairs") / "pairs.tsv")


def experiment(table, out, workers: str) -> list[str]:
    """2 algorithms x 1 size x 1 seed, 3 steps each, JSON into `out`."""
    return ["experiment", "tokenizers", "--train", str(table), "--algorithms", "byte-bpe", "word",
            *TINY, "--workers", workers, "--json", str(out)]  # fmt: skip


def test_two_tokenizers_one_seed(table, tmp_path, capsys):
    out = tmp_path / "experiment.json"
    assert cli(experiment(table, out, "1")) == 0
    captured = capsys.readouterr()
    report = json.loads(out.read_text(encoding="utf-8"))
    runs = report["runs"]
    assert [(r["algorithm"], r["vocab_size"], r["seed"], r["steps"]) for r in runs] == [
        ("byte-bpe", 300, 0, 3), ("word", 300, 0, 3)]  # fmt: skip
    assert runs[1]["unk_share_en"] > 0 == runs[0]["unk_share_en"]  # bytes spell every word
    test_en = [s for s in report["summary"] if s["split"] == "test" and s["lang"] == "en"]
    assert [s["mean"] for s in test_en] == [r["test_spearman_en"] for r in runs]
    assert all(s["n"] == 1 and s["sd"] == 0 for s in test_en)
    assert set(report["references"]["test"]["lexical"]) == {"en", "zh"}
    lines = captured.out.splitlines()
    assert lines[0].split()[:4] == ["tokenizer", "seed", "steps", "seconds"]
    assert any(line.startswith("lexical (TF-IDF)") for line in lines)
    assert any(line.startswith("word 300") and "±" in line for line in lines)
    assert "[1/2] byte-bpe 300 seed 0" in captured.err and "[2/2] word 300" in captured.err
    # head to head: one seed trained both, per language; the printed line says the same
    heads = {h["lang"]: h for h in report["head_to_head"]}
    assert set(heads) == {"en", "zh"} and all(h["seeds"] == 1 for h in heads.values())
    scores = {r["algorithm"]: r["test_spearman_en"] for r in runs}
    winner = max(scores, key=scores.get)
    assert heads["en"]["first"][0] == winner
    assert heads["en"]["wins"] == (len(set(scores.values())) == 2)  # a tie wins nothing
    assert any(line.split()[:2] == ["en", winner] and line.endswith("of 1") for line in lines)
    # the same runs in two worker processes: the same numbers, in the same order
    assert cli(experiment(table, tmp_path / "pool.json", "2")) == 0
    pool = json.loads((tmp_path / "pool.json").read_text(encoding="utf-8"))["runs"]
    assert [{**r, "seconds": 0} for r in pool] == [{**r, "seconds": 0} for r in runs]
    assert "2 runs in 2 process(es)" in capsys.readouterr().err


def test_json_to_stdout_with_the_builtin_pairs(capsys):
    """Without --train: the built-in pairs; two seeds of one tokenizer give a real sd; MiniLM
    as is is a reference line."""
    argv = ["experiment", "tokenizers", "--algorithms", "byte-bpe", "--vocab-sizes", "300",
            "--seeds", "0", "1", "--steps", "2", "--workers", "1", "--minilm",
            "--json", "-"]  # fmt: skip
    assert cli(argv) == 0
    report = json.loads(capsys.readouterr().out)  # stdout is the JSON object alone
    assert report["settings"]["train_pairs"] == 385
    values = [r["test_spearman_zh"] for r in report["runs"]]
    row = next(s for s in report["summary"] if (s["split"], s["lang"]) == ("test", "zh"))
    assert row["n"] == 2 and row["sd"] == pytest.approx(statistics.stdev(values))
    minilm = report["references"]["test"]["minilm"]  # English-only pre-training shows
    assert minilm["en"] > 0.7 > minilm["zh"]


def test_controlled_settings_seeds_by_commas_and_a_csv_with_the_boards_columns(table, tmp_path):
    """--seeds 0,1 is two seeds; each run trains exactly --steps steps with --preset; the CSV has
    the class board's columns (`results_frame`), seed, steps and preset among them."""
    import pandas as pd

    from explorer_core.analysis.experiment import SCALARS

    out, csv = tmp_path / "runs.json", tmp_path / "runs.csv"
    argv = ["experiment", "tokenizers", "--train", str(table), "--algorithms", "byte-bpe",
            "--vocab-sizes", "300", "--seeds", "0,1", "--steps", "3", "--preset", "tiny",
            "--workers", "1", "--json", str(out), "--csv", str(csv)]  # fmt: skip
    assert cli(argv) == 0
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["settings"]["seeds"] == [0, 1] and report["settings"]["steps"] == 3
    frame = pd.read_csv(csv)
    assert list(frame.columns[: len(SCALARS)]) == list(SCALARS)
    assert frame[["seed", "steps", "preset"]].values.tolist() == [[0, 3, "tiny"], [1, 3, "tiny"]]
    [row] = [s for s in report["summary"] if (s["split"], s["lang"]) == ("test", "en")]
    assert row["n"] == 2 and row["seeds"] == [0, 1]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--algorithms", "sentencepiece"], "sentencepiece"),
        (["--algorithms", "word", "--vocab-sizes", "0"], "not 0"),
        (["--algorithms", "word", "--vocab-sizes", "many"], "many"),
        (["--algorithms", "wordpiece", "--vocab-sizes", "50"], "choose at least"),
        (["--algorithms", "word", "--workers", "0"], "--workers"),
        (["--algorithms", "word", "--steps", "0"], "between 1 and"),
        (["--algorithms", "word", "--seeds", "1,x"], "separated by commas"),
        (["--algorithms", "word", "--seeds", "-1"], "from 0 to"),
        (["--algorithms", "word", "--preset", "huge"], "huge"),
        (["--train", "MISSING", "--algorithms", "word"], "missing.tsv"),
        (["--train", "TRAIN_ONLY", "--algorithms", "word"], "no dev or test pairs"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, extra, message):
    argv = ["experiment", "tokenizers", *TINY, "--workers", "1", *extra]
    (tmp_path / "train_only.tsv").write_text("sentence1\tsentence2\tscore\na\tb\t3\nc\td\t1\n")
    names = {"MISSING": "missing.tsv", "TRAIN_ONLY": "train_only.tsv"}
    argv = [str(tmp_path / names[a]) if a in names else a for a in argv]
    assert cli(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error: ") and message in err
