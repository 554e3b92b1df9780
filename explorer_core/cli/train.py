"""`python -m explorer_core train sts ...`: train a sentence-embedding model from scored pairs.
(`train multilingual` is below; `train lm`, a GPT-style decoder, lives in cli/decoder.py.)

    python -m explorer_core train sts --train pairs.tsv [--dev FILE] [--test FILE]
        [--format chinese-sts|table] [--init fresh|minilm|taught|DIR|NAME]
        [--tokenizer DIR | --tokenizer-algo ALGO --vocab-size N] [--keep-case]
        [--preset tiny|small|tutorial] [--pretrain-corpus FILE [--whole-word]]
        [--time-budget SECONDS]
        [--steps N] [--seed S] [--dropout P] [--loss cosine|cosent] [--[no-]in-batch-negatives]
        [--device auto|cpu|cuda] --out DIR [--json]

A `split` column in the training file, when present, also supplies the dev and test pairs (unless
--dev/--test are given). --init minilm fine-tunes a pretrained model with its own WordPiece
tokenizer and mean pooling, at a small learning rate (2e-5), without pre-training; so does a
model folder (a checkpoint `train` wrote, or a transformers folder of any family
`explorer_core.bert.families` runs: BERT, RoBERTa, XLM-R, DistilBERT, ALBERT, ELECTRA,
ModernBERT) or a Hub name found in the Hugging Face cache, each with its own tokenizer, its
family's architecture and its sentence-transformers pooling, after the checks `open_model` makes
(safetensors only, no remote code, EXPLORER_MODEL_MAX_MB); --init taught does the same from
MiniLM + 中文, the MiniLM taught Chinese on this install (`train multilingual` without --out
builds it; its vocabulary extended with Chinese characters is kept).
Otherwise --tokenizer takes a folder saved by the Tokenizer Lab or one holding a BERT `vocab.txt`
(e.g. bert-base-chinese's); or a tokenizer of --tokenizer-algo is trained on the training sentences
(lower-cased unless --keep-case). With --pretrain-corpus the model is first pre-trained with MLM +
NSP on that text (40% of the time budget), then fine-tuned; --whole-word masks whole words there
(jieba's words in Chinese text, a word and its ## pieces elsewhere: inputs/whole_word.py).

While it trains, progress lines (step, loss, dev Spearman, time left) go to stderr; at the end the
report goes to stdout: `key: value` lines, or with --json exactly one JSON object with `steps`,
`seconds`, `dev_spearman`, `test_spearman` (null when a split is absent), ...

Several processes: `torchrun --nproc-per-node N -m explorer_core train sts ...` (gloo on the CPU,
nccl on GPUs) splits every batch across the processes and gathers their sentence vectors, so every
loss sees the whole batch; only rank 0 prints and saves.
Bad input (or --device cuda without a GPU): one line on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from explorer_core.cli.decoder import add_lm_parser

FORMATS = ("chinese-sts", "table")
PRINT_EVERY = 2.0  # seconds between progress lines (evaluations are always printed)


def register(subparsers: argparse._SubParsersAction) -> None:
    from explorer_core.training import presets as d  # torch-free: the defaults the job uses

    lr, batch = d.PRETRAINED_FINETUNE["learning_rate"], d.PRETRAINED_FINETUNE["batch_size"]
    train = subparsers.add_parser("train", help="train a model (see `train sts --help`)")
    tasks = train.add_subparsers(dest="task", required=True)
    sts = tasks.add_parser("sts", help="a sentence-embedding model on STS pairs")
    sts.add_argument("--train", required=True, help="scored pairs (ChineseSTS or a table)")
    sts.add_argument("--dev", help="dev pairs (default: the train file's dev split, if any)")
    sts.add_argument("--test", help="test pairs (default: the train file's test split, if any)")
    sts.add_argument("--format", choices=FORMATS, help="file format (default: detected)")
    sts.add_argument("--init", default="fresh",
                     help="fresh (default), minilm, taught (MiniLM + 中文, once built by "
                          "`train multilingual`), or a model folder or cached Hub name to "
                          "fine-tune "
                          f"(lr {short_float(lr)}, batch {batch}, no pre-training)")  # fmt: skip
    group = sts.add_mutually_exclusive_group()
    group.add_argument("--tokenizer", help="saved tokenizer folder, or a folder with vocab.txt")
    group.add_argument("--tokenizer-algo", default="char-bpe", help="algorithm to train")
    sts.add_argument("--vocab-size", type=int,
                     help=f"for --tokenizer-algo (default: the training text's characters + "
                          f"{d.CHAR_MERGES} merges for char-bpe, {d.OTHER_ALGO_VOCAB} for the "
                          "others)")  # fmt: skip
    sts.add_argument("--keep-case", action="store_true",
                     help="do not lower-case (trained char-bpe, or a vocab.txt)")  # fmt: skip
    sts.add_argument("--preset", default="tiny", help=f"{', '.join(d.PRESETS)} (default: tiny)")
    sts.add_argument("--pretrain-corpus",
                     help="text file for MLM + NSP pre-training first "
                          f"({d.PRETRAIN_SHARE * 100:g}%% of --time-budget)")  # fmt: skip
    sts.add_argument("--whole-word", action="store_true",
                     help="pre-training masks whole words (Chinese: jieba's words)")  # fmt: skip
    sts.add_argument("--time-budget", type=float,
                     help="seconds of training in total (default: none from scratch, "
                          f"{d.PRETRAINED_SECONDS:g} for --init minilm or a folder)")  # fmt: skip
    sts.add_argument("--steps", type=int,
                     help=f"fine-tuning steps (default without a budget: {d.DEFAULT_STEPS} from "
                          f"scratch, {d.PRETRAINED_STEPS} for a pretrained start)")  # fmt: skip
    sts.add_argument("--seed", type=int, default=0)
    sts.add_argument("--dropout", type=float, help="dropout (default: the model's own)")
    sts.add_argument("--loss", choices=("cosine", "cosent"),
                     help=f"default: {d.SCRATCH_LOSS} from scratch, cosine when "
                          "fine-tuning")  # fmt: skip
    negatives = "on" if d.IN_BATCH_NEGATIVES else "off"
    sts.add_argument(
        "--in-batch-negatives",
        action=argparse.BooleanOptionalAction,
        help=f"rank high-score pairs against the batch (default: {negatives} from scratch, "
        "off when fine-tuning)",
    )
    add_device_argument(sts)
    sts.add_argument("--out", required=True, help="folder for the checkpoint")
    sts.add_argument("--json", action="store_true", help="print one JSON object")
    sts.set_defaults(func=run)
    add_multilingual_parser(tasks)
    add_lm_parser(tasks)


def short_float(value: float) -> str:
    """A number as the docs write it: short_float(2e-05) -> '2e-5', short_float(0.5) -> '0.5'."""
    text = f"{value:g}"
    return text.replace("e-0", "e-").replace("e+0", "e+")


def add_device_argument(parser: argparse.ArgumentParser) -> None:
    """--device auto|cpu|cuda, shared by every command that runs a model."""
    parser.add_argument("--device", default="auto",
                        help="auto (CUDA when available), cpu or cuda")  # fmt: skip


def run(args: argparse.Namespace) -> int:
    from explorer_core.inputs.whole_word import SegmenterMissing
    from explorer_core.training import devices
    from explorer_core.training.jobs import StsJob, run_sts_job

    try:
        device = devices.setup(devices.resolve_device(args.device))
        job = StsJob(
            train=Path(args.train), dev=_path(args.dev), test=_path(args.test),
            format=args.format, tokenizer=_path(args.tokenizer), tokenizer_algo=args.tokenizer_algo,
            vocab_size=args.vocab_size, lowercase=not args.keep_case, preset=args.preset,
            pretrain_corpus=_path(args.pretrain_corpus), time_budget=args.time_budget,
            steps=args.steps, seed=args.seed, out=Path(args.out), init=args.init, device=device,
            dropout=args.dropout, in_batch_negatives=args.in_batch_negatives, loss=args.loss,
            whole_word=args.whole_word,
        )  # fmt: skip
        start = time.perf_counter()
        ranks = devices.world()
        report = run_sts_job(job, progress=Progress.factory(sys.stderr) if ranks.main else None)
    except (ValueError, OSError, SegmenterMissing) as err:
        print(f"error: {' '.join(str(err).split())}", file=sys.stderr)
        return 2
    finally:
        devices.teardown()
    if not ranks.main:
        return 0
    report["seconds"] = round(time.perf_counter() - start, 2)
    report["processes"] = ranks.size
    report["device"] = device
    print_report(report, args.json)
    return 0


class Progress:
    """Prints a line per step (at most every PRINT_EVERY seconds) and per evaluation."""

    def __init__(self, plan, stream: TextIO) -> None:  # plan: training.run.TrainingPlan
        self.phases = dict(plan.phases)
        self.stream = stream
        self.last_print = -PRINT_EVERY
        self.dev: float | None = None

    @classmethod
    def factory(cls, stream: TextIO) -> Callable:
        return lambda plan: cls(plan, stream)

    def __call__(self, record) -> None:
        from explorer_core.training.loop import EvalRecord, time_left

        now = time.perf_counter()
        if isinstance(record, EvalRecord):
            if record.dev_spearman is None:
                return
            self.dev = record.dev_spearman
            text = f"[{record.phase}] step {record.step}: dev Spearman {self.dev:.3f}"
        else:
            if now - self.last_print < PRINT_EVERY and record.step > 1:
                return
            config = self.phases[record.phase]
            total = f"/{config.steps}" if config.steps else ""
            left = time_left(config, record.step, record.seconds)
            text = f"[{record.phase}] step {record.step}{total}  loss {record.loss:.4f}"
            if self.dev is not None:
                text += f"  dev Spearman {self.dev:.3f}"
            text += f"  {record.seconds:.0f} s" + (f", ~{left:.0f} s left" if left else "")
        self.last_print = now
        print(text, file=self.stream, flush=True)


def print_report(report: dict, as_json: bool) -> None:
    """The final report on stdout: one JSON object, or `key: value` lines."""
    if as_json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        for key, value in report.items():
            print(f"{key}: {_fmt(value)}")


def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def _fmt(value: object) -> str:
    if value is None:
        return "-"
    return f"{value:.4f}" if isinstance(value, float) else str(value)


def add_multilingual_parser(tasks: argparse._SubParsersAction) -> None:
    """`train multilingual`: MiniLM learns Chinese from parallel pairs (training.multilingual)."""
    ml = tasks.add_parser("multilingual", help="teach MiniLM Chinese by distillation")
    ml.add_argument("--parallel", help="English<TAB>translation file (default: the shipped pairs)")
    ml.add_argument("--epochs", type=float, help="passes over the pairs (default 3)")
    ml.add_argument("--steps", type=int, help="optimiser steps instead of epochs")
    ml.add_argument("--time-budget", type=float, help="seconds of training at most")
    ml.add_argument("--learning-rate", type=float, help="default 5e-5")
    ml.add_argument("--batch-size", type=int, help="pairs per step (default 32)")
    ml.add_argument("--seed", type=int, default=0)
    add_device_argument(ml)
    ml.add_argument(
        "--out",
        help="folder for the model (default: install it for the app, "
        'as the Train page\'s "Teach MiniLM Chinese" does)',
    )
    ml.add_argument("--json", action="store_true", help="print one JSON object")
    ml.set_defaults(func=run_multilingual)


def run_multilingual(args: argparse.Namespace) -> int:
    from explorer_core.inputs.parallel import builtin_parallel_pairs, load_parallel_file
    from explorer_core.training import devices
    from explorer_core.training.multilingual import (
        MultilingualConfig,
        build_chinese_minilm,
        distil,
        summarize,
    )

    given = {"epochs": args.epochs, "steps": args.steps, "time_budget": args.time_budget,
             "learning_rate": args.learning_rate, "batch_size": args.batch_size}  # fmt: skip
    config = MultilingualConfig(seed=args.seed, **{k: v for k, v in given.items() if v is not None})
    pairs = load_parallel_file(args.parallel) if args.parallel else None
    device = devices.resolve_device(args.device)
    start = time.perf_counter()
    progress = DistilProgress(sys.stderr)
    if args.out is None:  # the app's taught model: every page reads it from there
        from explorer_core.files import taught_model

        ckpt = distil(pairs or builtin_parallel_pairs(), config, device=device, callback=progress)
        out = str(taught_model.install(ckpt))
    else:
        ckpt = build_chinese_minilm(args.out, config, pairs=pairs, device=device,
                                    callback=progress)  # fmt: skip
        out = args.out
    report = {**summarize(ckpt), "out": out, "device": device,
              "wall_seconds": round(time.perf_counter() - start, 2)}  # fmt: skip
    print_report(report, args.json)
    return 0


class DistilProgress:
    """Progress lines of `train multilingual`: every evaluation, a step at most every 2 s."""

    def __init__(self, stream: TextIO) -> None:
        self.stream, self.last_print = stream, -PRINT_EVERY

    def __call__(self, record) -> None:
        from explorer_core.training.loop import EvalRecord

        now = time.perf_counter()
        if isinstance(record, EvalRecord):
            text = (f"[multilingual] step {record.step}: dev Spearman zh "
                    f"{_fmt(record.dev_spearman_zh)} en {_fmt(record.dev_spearman_en)}, "
                    f"[UNK] {100 * (record.unk_share or 0):.2f}% of Chinese tokens")  # fmt: skip
        elif now - self.last_print >= PRINT_EVERY or record.step == 1:
            text = (f"[multilingual] step {record.step}  loss {record.loss:.5f} "
                    f"(en {record.en_loss:.5f}, zh {record.zh_loss:.5f})  "
                    f"{record.seconds:.0f} s")  # fmt: skip
        else:
            return
        self.last_print = now
        print(text, file=self.stream, flush=True)
