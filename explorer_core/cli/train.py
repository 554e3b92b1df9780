"""`python -m explorer_core train sts ...`: train a sentence-embedding model from scored pairs.

    python -m explorer_core train sts --train pairs.tsv [--dev FILE] [--test FILE]
        [--format chinese-sts|table] [--tokenizer DIR | --tokenizer-algo ALGO --vocab-size N]
        [--preset tiny|small|tutorial] [--pretrain-corpus FILE] [--time-budget SECONDS]
        [--steps N] [--seed S] --out DIR [--json]

A `split` column in the training file, when present, also supplies the dev and test pairs (unless
--dev/--test are given). --tokenizer takes a folder saved by the Tokenizer Lab or one holding a
BERT `vocab.txt` (e.g. bert-base-chinese's); otherwise a tokenizer of --tokenizer-algo is trained on
the training sentences. With --pretrain-corpus the model is first pre-trained with MLM + NSP on that
text (40% of the time budget), then fine-tuned. Prints steps, seconds and dev/test Spearman;
--json prints one object with `steps`, `seconds`, `dev_spearman`, `test_spearman` (null when a
split is absent). Bad input: one line on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

FORMATS = ("chinese-sts", "table")


def register(subparsers: argparse._SubParsersAction) -> None:
    train = subparsers.add_parser("train", help="train a model (see `train sts --help`)")
    tasks = train.add_subparsers(dest="task", required=True)
    sts = tasks.add_parser("sts", help="a sentence-embedding model on STS pairs")
    sts.add_argument("--train", required=True, help="scored pairs (ChineseSTS or a table)")
    sts.add_argument("--dev", help="dev pairs (default: the train file's dev split, if any)")
    sts.add_argument("--test", help="test pairs (default: the train file's test split, if any)")
    sts.add_argument("--format", choices=FORMATS, help="file format (default: detected)")
    group = sts.add_mutually_exclusive_group()
    group.add_argument("--tokenizer", help="saved tokenizer folder, or a folder with vocab.txt")
    group.add_argument("--tokenizer-algo", default="char-bpe", help="algorithm to train")
    sts.add_argument("--vocab-size", type=int, help="for --tokenizer-algo (default: chars + 57)")
    sts.add_argument("--preset", default="tiny", help="tiny, small or tutorial")
    sts.add_argument("--pretrain-corpus", help="text file for MLM + NSP pre-training first")
    sts.add_argument("--time-budget", type=float, help="seconds of training in total")
    sts.add_argument("--steps", type=int, help="fine-tuning steps (default 300 without a budget)")
    sts.add_argument("--seed", type=int, default=0)
    sts.add_argument("--out", required=True, help="folder for the checkpoint")
    sts.add_argument("--json", action="store_true", help="print one JSON object")
    sts.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from explorer_core.training.jobs import StsJob, run_sts_job

    try:
        job = StsJob(
            train=Path(args.train), dev=_path(args.dev), test=_path(args.test),
            format=args.format, tokenizer=_path(args.tokenizer), tokenizer_algo=args.tokenizer_algo,
            vocab_size=args.vocab_size, preset=args.preset,
            pretrain_corpus=_path(args.pretrain_corpus), time_budget=args.time_budget,
            steps=args.steps, seed=args.seed, out=Path(args.out),
        )  # fmt: skip
        start = time.perf_counter()
        report = run_sts_job(job)
    except (ValueError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    report["seconds"] = round(time.perf_counter() - start, 2)
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        for key, value in report.items():
            print(f"{key}: {_fmt(value)}")
    return 0


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def _fmt(value: object) -> str:
    if value is None:
        return "-"
    return f"{value:.4f}" if isinstance(value, float) else str(value)
