"""`python -m explorer_core experiment tokenizers ...`: which tokenizer makes the better model?

    python -m explorer_core experiment tokenizers [--train PAIRS] [--dev FILE] [--test FILE]
        [--format chinese-sts|table] [--algorithms char-bpe byte-bpe ...]
        [--vocab-sizes 1000 default ...] [--seeds 0,1,2] [--steps N] [--time-budget SECONDS]
        [--preset tiny|small|tutorial] [--workers N] [--engine ADDRESS] [--minilm]
        [--json PATH|-] [--csv PATH]

Issue 22's class experiment without a class, so a teacher can prepare the expected answer the
night before, controlled as the class's is (issue 30, `training.controlled`): every run trains
the same --preset for exactly --steps fine-tuning steps (default 200) with one of the --seeds
(default 0,1,2; commas or spaces). --time-budget instead stops each run at the clock, which is not
controlled: a run sharing the cores gets fewer steps. Every (algorithm, vocabulary size, seed) is
one `train sts` job (`jobs.StsJob`, `jobs.run_sts_job`: same recipe, same defaults, the plan a
student's run in a class experiment trains: `training.experiment.controlled_plan`) with the
tokenizer of that algorithm and size, trained once on the training sentences and shared by the
seeds. "default" as a size is `train sts`'s own (the characters + 150 merges for char-BPE, 4,000
for the others). Without --train, the built-in bilingual pairs (with their train/dev/test
splits) are used.

Runs go to up to --workers processes (default: the number of cores), one torch thread each;
each finished run prints a line on stderr. With --engine ADDRESS (a Dask scheduler, see the
README's classroom server) the runs go to that engine's workers instead, their files sent along
(`analysis.experiment.run_job_from_files`); an address that cannot be reached is one line
`error: ...` before anything trains, a worker that dies fails its run. Then stdout gets the
table of runs and the summary: Spearman mean ± sd over the seeds per tokenizer and language,
test and dev, with each tokenizer's share of [UNK] tokens, and the TF-IDF character baseline
(`training.baselines`) as the row to beat (with --minilm, MiniLM as is too). --json PATH also
writes {"runs", "summary", "references", "settings"} there; with --json - that object is all
stdout gets. --csv PATH writes the runs with the class leaderboard's CSV columns (seed, steps
and preset included). Bad input: one line `error: ...`, exit code 2.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from explorer_core.cli.train import FORMATS
from explorer_core.training.controlled import (
    DEFAULT_SEEDS,
    DEFAULT_STEPS,
    ExperimentSettings,
    parse_seeds,
)

DEFAULT_SIZES = (1000,)  # fits every algorithm on the built-in pairs (~720 characters)
REFERENCE_NAMES = {"lexical": "lexical (TF-IDF)", "minilm": "MiniLM (as is)"}


def vocab_size(text: str) -> int | None:
    """An argument of --vocab-sizes: a whole number, or "default" (None)."""
    if text == "default":
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number or 'default': {text!r}") from None


def _cores() -> int:
    """Cores this process may use (its affinity mask, e.g. a container's), else all."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def register(subparsers: argparse._SubParsersAction) -> None:
    from explorer_core.tokenization import ALGORITHMS

    experiment = subparsers.add_parser("experiment", help="compare settings over several runs")
    kinds = experiment.add_subparsers(dest="kind", required=True)
    tok = kinds.add_parser("tokenizers", help="which tokenizer makes the better model?")
    tok.add_argument("--train", help="scored pairs (default: the built-in pairs)")
    tok.add_argument("--dev", help="dev pairs (default: the train file's dev split, if any)")
    tok.add_argument("--test", help="test pairs (default: the train file's test split, if any)")
    tok.add_argument("--format", choices=FORMATS, help="file format (default: detected)")
    tok.add_argument("--algorithms", nargs="+", default=list(ALGORITHMS), metavar="ALGO",
                     help=f"tokenizer algorithms (default: {' '.join(ALGORITHMS)})")  # fmt: skip
    tok.add_argument("--vocab-sizes", nargs="+", type=vocab_size, default=list(DEFAULT_SIZES),
                     metavar="N", help="vocabulary sizes or 'default' (default: 1000)")  # fmt: skip
    tok.add_argument("--seeds", nargs="+", default=[",".join(map(str, DEFAULT_SEEDS))],
                     metavar="SEEDS", help="seeds, e.g. 0,1,2 (default)")  # fmt: skip
    tok.add_argument("--steps", type=int,
                     help=f"fine-tuning steps of every run (default {DEFAULT_STEPS})")  # fmt: skip
    tok.add_argument("--time-budget", type=float,
                     help="seconds a run instead of --steps (not controlled: a busy machine "
                     "trains fewer steps)")  # fmt: skip
    tok.add_argument("--preset", default=ExperimentSettings().preset,
                     help="tiny, small or tutorial")  # fmt: skip
    tok.add_argument("--workers", type=int, default=_cores(),
                     help="processes training at once (default: the number of cores)")  # fmt: skip
    tok.add_argument("--engine", metavar="ADDRESS",
                     help="train on a Dask scheduler's workers (tcp://HOST:8786)")  # fmt: skip
    tok.add_argument("--minilm", action="store_true",
                     help="also score MiniLM as is (a reference, like the baseline)")  # fmt: skip
    tok.add_argument("--json", metavar="PATH",
                     help="also write runs and summary as JSON ('-': stdout)")  # fmt: skip
    tok.add_argument("--csv", metavar="PATH",
                     help="also write the runs as CSV (the class board's columns)")  # fmt: skip
    tok.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from explorer_core.analysis.experiment import head_to_head, reference_scores, summarise
    from explorer_core.training.experiment import check_grid
    from explorer_core.training.jobs import read_splits

    check_grid(args.algorithms, args.vocab_sizes)
    args.seeds = list(parse_seeds(" ".join(args.seeds)))
    if args.steps is None and args.time_budget is None:
        args.steps = DEFAULT_STEPS
    steps = DEFAULT_STEPS if args.steps is None else args.steps  # (the budget alone: steps None)
    ExperimentSettings(args.preset, steps, tuple(args.seeds))  # raises for a bad value
    if args.workers < 1:
        raise ValueError(f"--workers must be at least 1, not {args.workers}")
    if args.time_budget is not None and args.time_budget <= 0:
        raise ValueError(
            f"--time-budget must be a positive number of seconds, not {args.time_budget}"
        )
    client = _engine(args.engine) if args.engine else None
    with tempfile.TemporaryDirectory(prefix="experiment-") as tmp:
        base = _base_job(args, Path(tmp))
        parts = read_splits(base)
        if not parts["dev"] and not parts["test"]:
            raise ValueError(
                f"{base.train} has no dev or test pairs to score the runs on: give --dev or "
                "--test, or a file with a split column"
            )
        jobs = _jobs(args, base, parts, Path(tmp))
        try:
            results = _run_all(jobs, args.workers) if client is None else _on_engine(jobs, client)
        finally:
            if client is not None:
                client.close()
    summary = summarise(results)
    pairs = head_to_head(results)
    references = reference_scores(parts, [_minilm()] if args.minilm else [])
    report = {
        "runs": [r.to_row() for r in results], "summary": [asdict(s) for s in summary],
        "head_to_head": [asdict(h) for h in pairs], "references": references,
        "settings": _settings(args, parts),
    }  # fmt: skip
    if args.csv:
        from explorer_core.viz.experiment import results_frame

        results_frame(results, sort=False).to_csv(args.csv, index=False)
    if args.json:
        text = json.dumps(report, ensure_ascii=False)
        if args.json == "-":
            print(text)
            return 0
        Path(args.json).write_text(text + "\n", encoding="utf-8")
    print_tables(results, summary, references, pairs)
    return 0


def _minilm():  # noqa: ANN202 - an analysis.comparison.Contender
    """MiniLM as is (no fine-tuning): its own WordPiece, mean pooling."""
    from explorer_core.analysis.comparison import Contender
    from explorer_core.bert.model import BertModel
    from explorer_core.bert.pretrained import minilm_path
    from explorer_core.training.base_models import describe

    base = describe("minilm")  # ValueError (one line) when its package is not installed
    return Contender("minilm", BertModel.from_transformers(minilm_path()), base.tokenizer,
                     base.pooling)  # fmt: skip


def _base_job(args: argparse.Namespace, tmp: Path):  # noqa: ANN202 - a jobs.StsJob
    from explorer_core.training.jobs import StsJob

    train = Path(args.train) if args.train else _builtin_pairs(tmp)
    return StsJob(
        train=train, out=tmp / "unused", dev=Path(args.dev) if args.dev else None,
        test=Path(args.test) if args.test else None, format=args.format, preset=args.preset,
        time_budget=args.time_budget, steps=args.steps, device="cpu",
    )  # fmt: skip


def _builtin_pairs(tmp: Path) -> Path:
    """The built-in pairs as a file `read_splits` reads (a table with split and lang columns)."""
    from importlib import resources

    path = tmp / "sts_pairs.tsv"
    path.write_bytes(resources.files("explorer_core").joinpath("resources", "sts_pairs.tsv")
                     .read_bytes())  # fmt: skip
    return path


def _jobs(args: argparse.Namespace, base, parts: dict, tmp: Path) -> list:  # noqa: ANN001
    """One StsJob per (algorithm, size, seed); each tokenizer trained here once, saved, shared.

    Training them first also refuses a size that is too small before any model trains.
    """
    from dataclasses import replace

    from explorer_core.training.experiment import train_tokenizer

    texts = [s for p in parts["train"] for s in (p.sentence1, p.sentence2)]
    jobs = []
    for algo in dict.fromkeys(args.algorithms):  # each cell once, in the order given
        for size in dict.fromkeys(args.vocab_sizes):
            folder = tmp / "tokenizers" / f"{algo}-{size or 'default'}"
            train_tokenizer(algo, size, texts).save(folder)
            jobs += [replace(base, tokenizer=folder, tokenizer_algo=algo, vocab_size=size,
                             seed=seed) for seed in args.seeds]  # fmt: skip
    return jobs


def _run_all(jobs: Sequence, workers: int) -> list:
    """Every job's ExperimentResult, in the jobs' order; a line on stderr as each one ends."""
    from explorer_core.analysis.experiment import run_job
    from explorer_core.runtime import configure
    from explorer_core.training.worker import worker_context

    workers = min(workers, len(jobs))
    print(f"experiment: {len(jobs)} runs in {workers} process(es)", file=sys.stderr, flush=True)
    if workers == 1:
        results = []
        for i, job in enumerate(jobs):
            results.append(run_job(job))
            _progress(i + 1, len(jobs), results[-1])
        return results
    with concurrent.futures.ProcessPoolExecutor(
        workers, mp_context=worker_context(), initializer=configure
    ) as pool:
        futures = {pool.submit(run_job, job): i for i, job in enumerate(jobs)}
        results: list[Any] = [None] * len(jobs)
        try:
            for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
                results[futures[future]] = future.result()
                _progress(done, len(jobs), results[futures[future]])
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return results


def _engine(address: str):  # noqa: ANN202 - a distributed.Client
    from explorer_core.training.engine import connect

    return connect(address)  # EngineUnreachable is a ValueError: one line, exit code 2


def _on_engine(jobs: Sequence, client) -> list:  # noqa: ANN001 - a distributed.Client
    """`_run_all` on the engine's workers: each job with its files, never run twice."""
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    from explorer_core.analysis.experiment import run_job_from_files
    from explorer_core.training.engine_tasks import WORKER_LOST, pack_files

    workers = sum(client.ncores().values())
    print(f"experiment: {len(jobs)} runs on the engine's {workers} worker thread(s)",
          file=sys.stderr, flush=True)  # fmt: skip
    futures = {client.submit(run_job_from_files, job, pack_files(job), pure=False, retries=0): i
               for i, job in enumerate(jobs)}  # fmt: skip
    results: list[Any] = [None] * len(jobs)
    try:
        for done, future in enumerate(as_completed(futures, loop=client.loop), 1):
            try:
                results[futures[future]] = future.result()
            except KilledWorker:
                raise RuntimeError(f"run {futures[future] + 1}: {WORKER_LOST}") from None
            _progress(done, len(jobs), results[futures[future]])
    except BaseException:
        client.cancel(list(futures))
        raise
    return results


def _progress(done: int, total: int, r) -> None:  # noqa: ANN001 - an ExperimentResult
    scores = "  ".join(f"{lang} {_cell(v)}" for lang, v in sorted(r.test_spearman.items()))
    print(f"[{done}/{total}] {r.algorithm} {r.vocab_size} seed {r.seed}: test {scores}, "
          f"{r.steps} steps, {r.seconds:.1f} s", file=sys.stderr, flush=True)  # fmt: skip


def _settings(args: argparse.Namespace, parts: dict) -> dict[str, Any]:
    keys = ("train", "dev", "test", "algorithms", "vocab_sizes", "seeds", "time_budget", "steps",
            "preset", "workers", "engine")  # fmt: skip
    settings = {key: getattr(args, key) for key in keys}
    return settings | {f"{name}_pairs": len(parts[name]) for name in ("train", "dev", "test")}


def _cell(value: float | None, sd: float | None = None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" + (f" ± {sd:.3f}" if sd is not None else "")


def print_tables(
    results: Sequence, summary: Sequence, references: dict, pairs: Sequence = ()
) -> None:
    """The runs, then mean ± sd per tokenizer and language, then the reference rows, then each
    pair of tokenizers seed by seed (`analysis.experiment.HeadToHead`)."""
    langs = sorted({lang for r in results for lang in (*r.test_spearman, *r.dev_spearman)})
    cols = [(split, lang) for split in ("test", "dev") for lang in langs]
    head = "".join(f"{split + ' ' + lang:>10}" for split, lang in cols)
    unk = "".join(f"{'[UNK] ' + lang:>10}" for lang in langs)
    print(f"{'tokenizer':<16}{'seed':>5}{'steps':>7}{'seconds':>9}" + head + unk)
    for r in results:
        cells = "".join(f"{_cell(getattr(r, f'{s}_spearman').get(lang)):>10}" for s, lang in cols)
        shares = "".join(f"{r.unk_share.get(lang, 0.0):>10.1%}" for lang in langs)
        print(f"{r.algorithm + ' ' + str(r.vocab_size):<16}{r.seed:>5}{r.steps:>7}"
              f"{r.seconds:>9.1f}" + cells + shares)  # fmt: skip
    print()
    print(f"{'Spearman':<18}{'runs':>5}" + "".join(f"{s + ' ' + lang:>17}" for s, lang in cols)
          + unk)  # fmt: skip
    rows = {(s.algorithm, s.vocab_size, s.split, s.lang): s for s in summary}
    for algo, size in dict.fromkeys((s.algorithm, s.vocab_size) for s in summary):
        cells = [rows.get((algo, size, split, lang)) for split, lang in cols]
        n = max(c.n for c in cells if c is not None)
        line = "".join(f"{_cell(c.mean, c.sd) if c else '-':>17}" for c in cells)
        shares = [rows.get((algo, size, "test", lang)) or rows.get((algo, size, "dev", lang))
                  for lang in langs]  # fmt: skip
        line += "".join(f"{s.unk_share:>10.1%}" if s else f"{'-':>10}" for s in shares)
        print(f"{algo + ' ' + str(size):<18}{n:>5}" + line)
    for key, name in REFERENCE_NAMES.items():
        cells = [references.get(split, {}).get(key, {}).get(lang) for split, lang in cols]
        if any(v is not None for v in cells):
            print(f"{name:<18}{'-':>5}" + "".join(f"{_cell(v):>17}" for v in cells))
    if pairs:
        print("\nHead to head, test Spearman seed by seed (seeds where the first scored higher)")
    for h in pairs:
        first, second = (f"{algo} {size}" for algo, size in (h.first, h.second))
        print(f"  {h.lang:<4}{first:<18} > {second:<18}{h.wins:>3} of {h.seeds}")
