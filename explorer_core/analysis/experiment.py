"""A class experiment's results: one `ExperimentResult` per run, summarised per tokenizer.

Issue 22's "which tokenizer makes the better model?": every run trains the same model on the same
pairs with the tokenizer `training.experiment` assigns, and reports what it reached. A result
holds dev and test Spearman per language (None where the data has no pairs of that language)
and the share of [UNK] tokens per language on the test sentences (the dev sentences for a
language without test pairs): a tokenizer that cannot spell a Chinese character hands the model
[UNK] instead, and its Chinese Spearman shows it.

`result_from_run` builds one from a finished Train-page run, `run_job` from a `train sts` job
(the CLI), `summarise` gives n, mean, sample sd, min and max per (algorithm, vocabulary size,
split, language), and `reference_scores` the lines to beat (TF-IDF baseline, MiniLM). A worked
example, test Spearman in English of two char-BPE runs:

>>> runs = [ExperimentResult("", "char-bpe", 1000, "tiny", 50, 3.0, seed, {"en": None},
...                          {"en": rho}, {"en": 0.0}) for seed, rho in ((0, 0.6), (1, 0.7))]
>>> s = summarise(runs)[0]
>>> (s.split, s.lang, s.n, round(s.mean, 2), round(s.sd, 4), s.min, s.max, s.seeds)
('test', 'en', 2, 0.65, 0.0707, 0.6, 0.7, (0, 1))
"""

from __future__ import annotations

import math
import statistics
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer_core.analysis.comparison import Contender, by_lang, compare, unk_share
from explorer_core.inputs.sts_format import SentencePair
from explorer_core.training.checkpoint import Checkpoint, load_checkpoint
from explorer_core.training.finetune import evaluate_pairs
from explorer_core.training.jobs import StsJob, read_splits, run_sts_job

if TYPE_CHECKING:  # only a type here: the Train page hands over its own run
    from explorer_core.training.worker import TrainingRun

SPLITS = ("test", "dev")  # the summary's order: the held-out figure first
MIN_PAIRS = 3  # fewer pairs of a language give no Spearman (as `jobs.evaluate`)
SCALARS = ("nickname", "algorithm", "vocab_size", "preset", "steps", "seconds", "seed")
PER_LANG = ("dev_spearman", "test_spearman", "unk_share")  # row keys: f"{name}_{lang}"

Parts = Mapping[str, Sequence[SentencePair]]


@dataclass(frozen=True)
class ExperimentResult:
    """What one run reached. `vocab_size` is the trained tokenizer's real size (its ids)."""

    nickname: str  # "" from the command line
    algorithm: str  # tokenization.ALGORITHMS
    vocab_size: int
    preset: str
    steps: int  # optimiser steps, all phases
    seconds: float
    seed: int
    dev_spearman: dict[str, float | None]  # by language ("en", "zh"; "all" for unlabelled pairs)
    test_spearman: dict[str, float | None]
    unk_share: dict[str, float]  # share of [UNK] tokens on the test (else dev) sentences

    def to_row(self) -> dict[str, Any]:
        """A flat, JSON-safe dict: the scalars, then e.g. `dev_spearman_en`, `unk_share_zh`.

        >>> ExperimentResult("ana", "word", 99, "tiny", 5, 1.5, 0, {"en": 0.5}, {"en": None},
        ...                  {"en": 0.25}).to_row()["test_spearman_en"] is None
        True
        """
        row: dict[str, Any] = {name: getattr(self, name) for name in SCALARS}
        for name in PER_LANG:
            row.update({f"{name}_{lang}": v for lang, v in sorted(getattr(self, name).items())})
        return row

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> ExperimentResult:
        """The result of `to_row`, also from a CSV row (strings, NaN or "" for a missing value)."""
        per: dict[str, dict[str, Any]] = {name: {} for name in PER_LANG}
        for key, value in row.items():
            for name in PER_LANG:
                if key.startswith(f"{name}_"):
                    per[name][key[len(name) + 1 :]] = _number(value)
        unk = {lang: v for lang, v in per["unk_share"].items() if v is not None}
        nickname = row.get("nickname")
        if not isinstance(nickname, str):  # None, or NaN from a CSV's empty cell
            nickname = "" if nickname is None or _number(nickname) is None else str(nickname)
        return cls(
            nickname=nickname, algorithm=str(row["algorithm"]),
            vocab_size=int(float(row["vocab_size"])), preset=str(row["preset"]),
            steps=int(float(row["steps"])), seconds=float(row["seconds"]),
            seed=int(float(row["seed"])), dev_spearman=per["dev_spearman"],
            test_spearman=per["test_spearman"], unk_share=unk,
        )  # fmt: skip


def _number(value: Any) -> float | None:
    """A float, or None for None, "", NaN and anything that is not a number."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def measure(ckpt: Checkpoint, parts: Parts) -> tuple[dict, dict, dict]:
    """(dev Spearman, test Spearman, [UNK] share), each by language, of a trained model.

    Languages are those of the dev and test pairs; a split with fewer than MIN_PAIRS pairs of a
    language gives None (a constant prediction, whose Spearman is undefined, too).
    """
    encoder, tokenizer = ckpt.encoder(), ckpt.tokenizer
    held_out = {name: by_lang(parts.get(name) or []) for name in ("dev", "test")}
    langs = sorted(set(held_out["dev"]) | set(held_out["test"]))
    scores: dict[str, dict[str, float | None]] = {"dev": {}, "test": {}}
    shares: dict[str, float] = {}
    for lang in langs:
        for name in ("dev", "test"):
            pairs = held_out[name].get(lang, [])
            rho = None
            if len(pairs) >= MIN_PAIRS:
                rho = _number(evaluate_pairs(encoder, tokenizer, pairs, ckpt.max_length)[0])
            scores[name][lang] = rho
        pairs = held_out["test"].get(lang) or held_out["dev"][lang]
        shares[lang] = unk_share(tokenizer, [s for p in pairs for s in (p.sentence1, p.sentence2)])
    return scores["dev"], scores["test"], shares


def result_from_checkpoint(
    ckpt: Checkpoint, parts: Parts, *, preset: str, seconds: float, seed: int,
    nickname: str = "", algorithm: str | None = None,
) -> ExperimentResult:  # fmt: skip
    """The result of a trained checkpoint, evaluated on `parts`' dev and test pairs."""
    dev, test, shares = measure(ckpt, parts)
    return ExperimentResult(
        nickname=nickname, algorithm=algorithm or ckpt.tokenizer.algo,
        vocab_size=len(ckpt.tokenizer.vocab), preset=preset,
        steps=sum(len(log.steps) for log in ckpt.log.values()), seconds=round(float(seconds), 2),
        seed=int(seed), dev_spearman=dev, test_spearman=test, unk_share=shares,
    )  # fmt: skip


def result_from_run(
    run: TrainingRun, parts: Parts, nickname: str = "", preset: str | None = None
) -> ExperimentResult:
    """The result of a Train-page run that has ended (finished or stopped), for the class.

    `run` is the session's `TrainingRun` (its plan, its Checkpoint, its seconds); `parts` the
    pairs by split the run was started with (`st.session_state[PARTS_KEY][1]`); `preset` the
    preset's name (default: the plan's name in lower case, e.g. "tiny").
    """
    ckpt = run.result()
    if ckpt is None:
        raise ValueError("This run has no trained model yet: it is still running, or it failed")
    plan = run.plan
    return result_from_checkpoint(
        ckpt, parts, preset=preset or plan.name.lower(), seconds=run.status().seconds,
        seed=plan.seed, nickname=nickname,
    )  # fmt: skip


def run_job(job: StsJob, nickname: str = "") -> ExperimentResult:
    """Train `job` with `train sts`'s machinery (`jobs.run_sts_job`) and measure the model.

    The checkpoint goes to a temporary folder, removed at the end (`job.out` is not used).
    Seconds are the job's wall time: tokenizer, training, evaluation and saving.
    """
    parts = read_splits(job)
    with tempfile.TemporaryDirectory(prefix="experiment-") as tmp:
        job = replace(job, out=Path(tmp) / "model")
        start = time.perf_counter()
        run_sts_job(job)
        seconds = time.perf_counter() - start
        ckpt = load_checkpoint(job.out)
    return result_from_checkpoint(ckpt, parts, preset=job.preset, seconds=seconds,
                                  seed=job.seed, nickname=nickname)  # fmt: skip


def run_job_from_files(job: StsJob, files: dict[str, dict[str, bytes]]) -> ExperimentResult:
    """`run_job(job)` where the job's files are not: written from `files` (made by
    `training.engine_tasks.pack_files`) into a temporary folder first. What a training engine's
    worker runs for `experiment tokenizers --engine`."""
    from explorer_core import runtime
    from explorer_core.training.engine_tasks import unpack_files

    runtime.configure()  # a worker of the engine: offline hubs, one torch thread
    with tempfile.TemporaryDirectory(prefix="explorer-engine-job-") as tmp:
        return run_job(unpack_files(job, files, Path(tmp)))


def reference_scores(
    parts: Parts, contenders: Sequence[Contender] = ()
) -> dict[str, dict[str, dict[str, float | None]]]:
    """The reference lines: Spearman by split ("test", "dev"), model and language of the TF-IDF
    baseline ("lexical", fitted on the train pairs of each language) and of each contender (e.g.
    MiniLM as is, key "minilm"), via `analysis.comparison.compare`. A split with fewer than
    MIN_PAIRS pairs is empty."""
    out: dict[str, dict[str, dict[str, float | None]]] = {}
    for name in SPLITS:
        pairs = list(parts.get(name) or [])
        rows = compare(contenders, parts["train"], pairs) if len(pairs) >= MIN_PAIRS else []
        out[name] = {}
        for row in rows:
            out[name].setdefault(row.model, {})[row.lang] = _number(row.spearman)
    return out


def board_score(result: ExperimentResult) -> float | None:
    """What the leaderboard ranks by: the mean test Spearman over the run's languages (None
    without one: such a run is listed last).

    >>> board_score(ExperimentResult("", "word", 99, "tiny", 5, 1.0, 0, {}, {"en": 0.6,
    ...             "zh": 0.4, "all": None}, {}))
    0.5
    """
    scores = [v for v in result.test_spearman.values() if v is not None]
    return sum(scores) / len(scores) if scores else None


def board_place(mine: ExperimentResult, results: Sequence[ExperimentResult]) -> int:
    """`mine`'s place on the leaderboard of `results`: 1 + the runs that scored higher (equal
    scores share a place; a run without a score is below every run with one).

    >>> runs = [ExperimentResult(n, "word", 99, "tiny", 5, 1.0, 0, {}, {"en": rho}, {})
    ...         for n, rho in (("a", 0.7), ("b", 0.5), ("c", 0.5), ("d", None))]
    >>> [board_place(r, runs) for r in runs]
    [1, 2, 2, 4]
    """
    own = board_score(mine)
    others = [board_score(r) for r in results]
    if own is None:
        return 1 + sum(score is not None for score in others)
    return 1 + sum(score is not None and score > own for score in others)


@dataclass(frozen=True)
class ExperimentSummary:
    """Spearman of the runs of one tokenizer (algorithm, size) on one split and language."""

    algorithm: str
    vocab_size: int
    split: str  # "test" or "dev"
    lang: str
    n: int  # runs with a value
    mean: float
    sd: float  # sample standard deviation; 0 for one run
    min: float
    max: float
    unk_share: float | None  # mean over the runs
    seeds: tuple[int, ...] = ()  # of the runs with a value, in order (a seed twice: run twice)


def summarise(results: Sequence[ExperimentResult]) -> list[ExperimentSummary]:
    """One row per (algorithm, vocab size, split, language) that has at least one value.

    Order: algorithms as they first appear, then vocabulary size, split (test, dev), language.
    """
    groups: dict[tuple[str, int, str, str], list[ExperimentResult]] = {}
    for r in results:
        for split in SPLITS:
            for lang, rho in getattr(r, f"{split}_spearman").items():
                if rho is not None:
                    groups.setdefault((r.algorithm, r.vocab_size, split, lang), []).append(r)
    first = {algo: i for i, algo in enumerate(dict.fromkeys(r.algorithm for r in results))}
    out = []
    for (algo, size, split, lang), runs in groups.items():
        values = [getattr(r, f"{split}_spearman")[lang] for r in runs]
        shares = [r.unk_share[lang] for r in runs if lang in r.unk_share]
        out.append(ExperimentSummary(
            algo, size, split, lang, len(values), statistics.fmean(values),
            statistics.stdev(values) if len(values) > 1 else 0.0, min(values), max(values),
            statistics.fmean(shares) if shares else None, tuple(r.seed for r in runs),
        ))  # fmt: skip
    return sorted(out, key=lambda s: (first[s.algorithm], s.vocab_size, SPLITS.index(s.split),
                                      s.lang))  # fmt: skip


@dataclass(frozen=True)
class HeadToHead:
    """Two tokenizers on one split and language, over the seeds that trained both: in how many
    of those seeds the first scored higher. A sign test: when it wins with (almost) every seed,
    the seed did not decide it; when it wins with about half, the two are a coin toss here."""

    lang: str
    first: tuple[str, int]  # (algorithm, vocab size): the one that won more seeds
    second: tuple[str, int]
    wins: int  # seeds where `first` scored higher
    seeds: int  # seeds that trained both


def head_to_head(results: Sequence[ExperimentResult], split: str = "test") -> list[HeadToHead]:
    """Every pair of tokenizers, per language, compared seed by seed on `split` (a seed run
    twice counts once, with its mean). Order: language, then the pairs as the tokenizers first
    appear; ties count for neither, and the first to appear leads a tied pair.

    >>> runs = [ExperimentResult("", algo, 1000, "tiny", 9, 1.0, seed, {}, {"en": rho}, {})
    ...         for algo, seed, rho in (("wordpiece", 0, 0.6), ("word", 0, 0.3),
    ...                                 ("wordpiece", 1, 0.5), ("word", 1, 0.55), ("word", 2, 0.4))]
    >>> h = head_to_head(runs)[0]
    >>> (h.lang, h.first, h.second, h.wins, h.seeds)
    ('en', ('wordpiece', 1000), ('word', 1000), 1, 2)
    """
    scores: dict[str, dict[tuple[str, int], dict[int, list[float]]]] = {}
    for r in results:
        for lang, rho in getattr(r, f"{split}_spearman").items():
            if rho is not None:
                by_seed = scores.setdefault(lang, {}).setdefault((r.algorithm, r.vocab_size), {})
                by_seed.setdefault(r.seed, []).append(rho)
    out = []
    for lang in sorted(scores):
        means = {key: {seed: statistics.fmean(v) for seed, v in by.items()}
                 for key, by in scores[lang].items()}  # fmt: skip
        keys = list(means)
        for i, a in enumerate(keys):
            for b in keys[i + 1 :]:
                shared = sorted(set(means[a]) & set(means[b]))
                if not shared:
                    continue
                a_wins = sum(means[a][s] > means[b][s] for s in shared)
                b_wins = sum(means[b][s] > means[a][s] for s in shared)
                first, second, wins = (a, b, a_wins) if a_wins >= b_wins else (b, a, b_wins)
                out.append(HeadToHead(lang, first, second, wins, len(shared)))
    return out


__all__ = [
    "ExperimentResult",
    "ExperimentSummary",
    "HeadToHead",
    "head_to_head",
    "reference_scores",
    "measure",
    "result_from_checkpoint",
    "result_from_run",
    "run_job",
    "summarise",
]
