"""The class experiment's core: assignments, results as rows, the summary, the chart, real runs."""

from __future__ import annotations

import json
import math
import statistics
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from explorer_core import tokenization
from explorer_core.analysis.experiment import (
    ExperimentResult,
    reference_scores,
    result_from_run,
    run_job,
    summarise,
)
from explorer_core.inputs.datasets import builtin_sts_pairs, split_pairs
from explorer_core.inputs.vocab import BertVocab
from explorer_core.training.choices import TrainChoices, build_plan
from explorer_core.training.experiment import (
    ALGORITHMS,
    assign_round_robin,
    train_tokenizer,
    with_tokenizer,
)
from explorer_core.training.jobs import StsJob
from explorer_core.viz.experiment import (
    experiment_figure,
    results_frame,
    spread_frame,
    summary_frame,
)
from tests.models import write_pairs_table

ALGOS, SIZES = ["char-bpe", "byte-bpe", "wordpiece"], [1000, None]


def result(algo="char-bpe", size=1000, seed=0, test_en=0.5, test_zh=None, nickname="", dev=None):
    return ExperimentResult(
        nickname, algo, size, "tiny", 40, 12.5, seed, {"en": dev, "zh": None},
        {"en": test_en, "zh": test_zh}, {"en": 0.0, "zh": 0.25},
    )  # fmt: skip


def test_algorithms_are_the_train_pages():
    assert ALGORITHMS is tokenization.ALGORITHMS


def test_round_robin_fills_every_cell_before_repeating_one():
    """3 algorithms x 2 sizes = 6 cells; runs 0-5 take each once, in order, sizes fastest;
    run 6 starts over and run 13 is cell 13 mod 6 = 1 (char-bpe, default size)."""
    first = [assign_round_robin(i, ALGOS, SIZES) for i in range(6)]
    assert first == [(a, s) for a in ALGOS for s in SIZES]
    assert assign_round_robin(6, ALGOS, SIZES) == ("char-bpe", 1000)
    assert assign_round_robin(13, ALGOS, SIZES) == ("char-bpe", None)


@pytest.mark.parametrize(
    "index, algos, sizes, message",
    [(-1, ALGOS, SIZES, "counts from 0"), (0, ["bpe"], SIZES, "Unknown tokenizer"),
     (0, ALGOS, [0], "positive whole number"), (0, ALGOS, [], "at least one")],
)  # fmt: skip
def test_round_robin_refuses_bad_input(index, algos, sizes, message):
    with pytest.raises(ValueError, match=message):
        assign_round_robin(index, algos, sizes)


def test_row_round_trip_json_and_csv(tmp_path):
    runs = [result(nickname="小明", test_zh=0.71, dev=0.4), result("word", 300, 1, test_en=None)]
    for r in runs:
        row = r.to_row()
        assert row["dev_spearman_en"] == r.dev_spearman["en"] and row["unk_share_zh"] == 0.25
        assert ExperimentResult.from_row(json.loads(json.dumps(row))) == r
    path = tmp_path / "runs.csv"
    results_frame(runs, sort=False).to_csv(path, index=False)
    back = [ExperimentResult.from_row(row) for row in pd.read_csv(path).to_dict("records")]
    assert back == runs  # NaN cells come back as None, the empty nickname as ""


def test_summarise_worked_by_hand():
    """Test Spearman en of char-bpe 1000: 0.5, 0.6, 0.8 -> mean 1.9 / 3 = 0.6333; deviations
    -0.1333, -0.0333, 0.1667, squares summing to 0.04667, / (3 - 1) = 0.02333, sd = 0.1528.
    byte-bpe 300 has one run: sd 0. A None (no zh pairs) is no value; dev en of one run only."""
    runs = [result(test_en=v, seed=i) for i, v in enumerate((0.5, 0.6, 0.8))]
    runs[0] = result(test_en=0.5, dev=0.3)
    runs.append(result("byte-bpe", 300, test_en=0.45, test_zh=0.7))
    rows = {(s.algorithm, s.split, s.lang): s for s in summarise(runs)}
    char = rows[("char-bpe", "test", "en")]
    assert (char.n, char.min, char.max) == (3, 0.5, 0.8)
    assert char.mean == pytest.approx(0.6333, abs=1e-4) == statistics.fmean([0.5, 0.6, 0.8])
    assert char.sd == pytest.approx(0.1528, abs=1e-4) == statistics.stdev([0.5, 0.6, 0.8])
    assert char.unk_share == 0.0
    assert ("char-bpe", "test", "zh") not in rows
    assert rows[("char-bpe", "dev", "en")].n == 1 and rows[("char-bpe", "dev", "en")].sd == 0.0
    assert rows[("byte-bpe", "test", "zh")].sd == 0.0
    order = [(s.algorithm, s.split, s.lang) for s in summarise(runs)]
    assert order[0] == ("char-bpe", "test", "en") and order[-1][0] == "byte-bpe"
    assert list(summary_frame(summarise(runs)).columns[:4]) == ["algorithm", "vocab_size",
                                                                "split", "lang"]  # fmt: skip


def test_figure_has_a_point_per_run_a_mean_per_tokenizer_and_reference_lines():
    runs = [result(test_en=v, test_zh=v + 0.1, seed=i, nickname=f"s{i}")
            for i, v in enumerate((0.5, 0.6, 0.8))]  # fmt: skip
    runs.append(result("word", 300, test_en=0.2))
    refs = {"Lexical": {"en": 0.65, "zh": 0.75}, "MiniLM": {"en": 0.9, "zh": None}}
    langs = {"en": "English", "zh": "中文"}
    fig = experiment_figure(runs, title="T", x_title="Tokenizer", y_title="Spearman",
                            lang_names=langs, references=refs)  # fmt: skip
    names = [t.name for t in fig.data]
    assert names == ["English", "English: mean ± sd", "中文", "中文: mean ± sd",
                     "Lexical (English)", "Lexical (中文)", "MiniLM (English)"]  # fmt: skip
    points, means = fig.data[0], fig.data[1]
    assert sorted(points.y) == [0.2, 0.5, 0.6, 0.8]
    assert len(set(points.x)) == 4  # jittered apart, the same way every time
    again = experiment_figure(runs, title="T", x_title="x", y_title="y", references=refs)
    assert list(again.data[0].x) == list(points.x)
    assert means.y[0] == pytest.approx(statistics.fmean([0.5, 0.6, 0.8]))
    assert means.error_y.array[0] == pytest.approx(statistics.stdev([0.5, 0.6, 0.8]))
    assert means.customdata[0][2] == means.error_y.array[0]  # the sd on hover
    assert list(fig.data[4].y) == [0.65, 0.65] and list(fig.data[6].y) == [0.9, 0.9]
    assert "s0" in [row[0] for row in points.customdata] and "seed" in points.hovertemplate
    assert list(fig.layout.xaxis.ticktext) == ["char-bpe 1000", "word 300"]
    assert fig.layout.xaxis.title.text == "Tokenizer" and fig.layout.title.text == "T"
    empty = experiment_figure([], title="T", x_title="x", y_title="y", references=refs)
    assert [t.name for t in empty.data] == ["Lexical (en)", "Lexical (zh)", "MiniLM (en)"]


@pytest.fixture(scope="module")
def parts():
    return split_pairs(builtin_sts_pairs())


def tiny_plan(parts):
    choices = TrainChoices(
        objective="finetune", hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=37, max_length=24, finetune_steps=3, batch_size=8, eval_every=0,
    )  # fmt: skip
    tokenizer = train_tokenizer("word", 500, [p.sentence1 for p in parts["train"]])
    return build_plan(choices, tokenizer, parts)


def test_the_spread_over_seeds_per_tokenizer_and_size():
    """Two sizes of char-bpe, seeds 0-2 each: one summary row per size, n = 3 and the seeds.
    Size 1000: 0.5, 0.6, 0.8 -> mean 0.6333, sd 0.1528 (worked in the test above); size 2000:
    0.4, 0.4, 0.4 -> mean 0.4, sd 0. The seeds are a column of the runs' frame too."""
    runs = [result(size=1000, seed=i, test_en=v) for i, v in enumerate((0.5, 0.6, 0.8))]
    runs += [result(size=2000, seed=i, test_en=0.4) for i in range(3)]
    tests = [s for s in summarise(runs) if (s.split, s.lang) == ("test", "en")]
    assert [(s.vocab_size, s.n, s.seeds) for s in tests] == [(1000, 3, (0, 1, 2)),
                                                             (2000, 3, (0, 1, 2))]  # fmt: skip
    assert tests[0].mean == pytest.approx(0.6333, abs=1e-4)
    assert tests[0].sd == pytest.approx(0.1528, abs=1e-4)
    assert tests[1].mean == pytest.approx(0.4) and tests[1].sd == 0.0
    frame = summary_frame(tests)
    assert frame["seeds"].tolist() == ["0, 1, 2", "0, 1, 2"] and frame["n"].tolist() == [3, 3]
    assert results_frame(runs, sort=False)["seed"].tolist() == [0, 1, 2, 0, 1, 2]
    board = spread_frame(runs)  # the teacher's table: test split only
    assert board[["tokenizer", "lang", "mean_sd", "n"]].values.tolist() == [
        ["char-bpe 1000", "en", "0.633 ± 0.153", 3],
        ["char-bpe 2000", "en", "0.400 ± 0.000", 3],
    ]


def test_a_controlled_run_trains_exactly_its_steps_with_train_stss_recipe(parts):
    """The plan a student's run in a class experiment trains: fine-tuning only, no time budget,
    stopped by its step count (7 steps: 7 records), with the assigned seed; its fine-tuning
    recipe is `train sts`'s (what `experiment tokenizers` runs), bar the views' snapshots."""
    from explorer_core.training.experiment import controlled_plan
    from explorer_core.training.jobs import build_plan as sts_plan
    from explorer_core.training.run import run_plan

    tokenizer = train_tokenizer("byte-bpe", 300, [p.sentence1 for p in parts["train"]])
    plan = controlled_plan("tiny", 7, 3, tokenizer, parts)
    assert plan.pretrain is None and plan.seed == 3 and plan.finetune.time_budget is None
    cli = sts_plan(StsJob(Path(), Path(), steps=7, seed=3), tokenizer, parts).finetune
    assert replace(plan.finetune, snapshot_every=0, eval_every=cli.eval_every) == cli
    log = run_plan(plan).log["finetune"]
    assert len(log.steps) == 7 and log.steps[-1].step == 7 and log.stop_reason == "steps"


def test_with_tokenizer_swaps_tokenizer_and_vocabulary(parts):
    plan = tiny_plan(parts)
    new = with_tokenizer(plan, "byte-bpe", 300)
    vocab = BertVocab.of(new.tokenizer)
    assert new.tokenizer.algo == "byte-bpe" and len(new.tokenizer.vocab) == 300
    config = new.model_config
    assert (config.vocab_size, config.pad_token_id) == (vocab.size, vocab.pad_id)
    assert new.model_config.hidden_size == 32 and new.finetune == plan.finetune
    with pytest.raises(ValueError, match="at least"):  # 300 < the pairs' 700 characters
        with_tokenizer(plan, "wordpiece", 300)


def test_result_from_a_real_train_page_run(parts):
    from explorer_core.training.worker import TrainingRun

    run = TrainingRun(with_tokenizer(tiny_plan(parts), "byte-bpe", 300))
    with pytest.raises(ValueError, match="no trained model"):
        result_from_run(run, parts, "ana")
    assert run.start() and run.join(120), run.status()
    r = result_from_run(run, parts, "ana")
    assert (r.nickname, r.algorithm, r.vocab_size, r.preset, r.steps, r.seed) == (
        "ana",
        "byte-bpe",
        300,
        "tiny",
        3,
        0,
    )
    assert set(r.test_spearman) == set(r.dev_spearman) == set(r.unk_share) == {"en", "zh"}
    assert all(-1 <= v <= 1 for v in r.test_spearman.values()) and r.seconds > 0
    assert r.unk_share == {"en": 0.0, "zh": 0.0}  # byte-level: every character has bytes


def test_run_job_is_deterministic_and_counts_unknown_tokens(tmp_path):
    train = write_pairs_table(tmp_path / "pairs.tsv")
    job = StsJob(train=train, out=Path(), tokenizer_algo="word", vocab_size=300, steps=3)
    first, second = run_job(job), run_job(job)
    assert first.steps == 3 and first.algorithm == "word" and first.vocab_size == 300
    for name in ("dev_spearman", "test_spearman", "unk_share"):
        assert getattr(first, name) == getattr(second, name)
    assert first.unk_share["en"] > 0.1  # 300 words cannot cover the test sentences
    refs = reference_scores(split_pairs(builtin_sts_pairs()))
    assert set(refs) == {"test", "dev"} and set(refs["test"]) == {"lexical"}
    assert set(refs["test"]["lexical"]) == {"en", "zh"}
    assert not math.isnan(refs["test"]["lexical"]["en"])
