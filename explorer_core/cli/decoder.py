"""`train lm` and `generate`: a GPT-style decoder trained in place, then asked to continue text.

    python -m explorer_core train lm --out DIR [--lang en|zh|both] [--seconds S | --steps N]
        [--seed N] [--corpus FILE]
    python -m explorer_core generate --model DIR --prompt TEXT [--max-new-tokens N]
        [--temperature T] [--top-k K] [--top-p P] [--seed N]

`train lm` prints one JSON object per evaluation (`step`, `seconds`, `loss`: the held-out
next-token loss in nats), then a last one that also holds `bigram_loss` and `uniform_loss` (the
lines to read it against), `steps`, `sample` and `out`, and writes DIR (explorer_core.decoder.
folder: a GPT-2 folder transformers opens). --corpus replaces the built-in corpus with a UTF-8
text file. `generate` prints the prompt followed by its continuation. Bad input: one line on
stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_lm_parser(tasks: argparse._SubParsersAction) -> None:
    """`train lm` (called by cli/train.py, which owns the `train` command)."""
    lm = tasks.add_parser("lm", help="a small GPT-style decoder on the built-in corpus")
    lm.add_argument("--out", required=True, help="folder for the trained decoder")
    lm.add_argument("--lang", choices=("en", "zh", "both"), default="en")
    budget = lm.add_mutually_exclusive_group()
    budget.add_argument("--seconds", type=float, help="wall-clock budget (default 60)")
    budget.add_argument("--steps", type=int, help="optimiser steps instead of seconds")
    lm.add_argument("--seed", type=int, default=0)
    lm.add_argument("--corpus", help="a UTF-8 text file instead of the built-in corpus")
    lm.set_defaults(func=run_train_lm)


def run_train_lm(args: argparse.Namespace) -> int:
    from explorer_core.decoder import LMTrainConfig, prepare_lm, save_decoder, train_lm

    budget = {"seconds": None, "steps": args.steps} if args.steps is not None else {}
    if args.seconds is not None:
        budget = {"seconds": args.seconds}
    config = LMTrainConfig(lang=args.lang, seed=args.seed, **budget)
    text = None
    if args.corpus is not None:
        text = Path(args.corpus).read_text(encoding="utf-8")
    data = prepare_lm(config, text)

    def show(record) -> None:
        line = {"step": record.step, "seconds": round(record.seconds, 3), "loss": record.loss}
        print(json.dumps(line), flush=True)

    result = train_lm(config, data=data, on_record=show)
    folder = save_decoder(result.model, result.tokenizer, args.out)
    last = result.records[-1]
    report = {
        "step": last.step, "seconds": round(last.seconds, 3), "loss": last.loss,
        "bigram_loss": result.bigram_loss, "uniform_loss": result.uniform_loss,
        "steps": result.steps, "sample": result.samples[-1].text, "out": str(folder),
    }  # fmt: skip
    print(json.dumps(report, ensure_ascii=False), flush=True)
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    gen = subparsers.add_parser("generate", help="continue a prompt with a trained decoder")
    gen.add_argument("--model", required=True, help="a folder `train lm` wrote")
    gen.add_argument("--prompt", required=True, help="the text to continue")
    gen.add_argument("--max-new-tokens", type=int, default=40)
    gen.add_argument("--temperature", type=float, default=1.0)
    gen.add_argument("--top-k", type=int, help="keep the k most likely tokens (1: greedy)")
    gen.add_argument("--top-p", type=float, help="keep the most likely tokens up to this mass")
    gen.add_argument("--seed", type=int, default=0)
    gen.set_defaults(func=run_generate)


def run_generate(args: argparse.Namespace) -> int:
    from explorer_core.decoder import generate, load_decoder
    from explorer_core.decoder.sampling import check_sampling

    if not args.prompt.strip():
        raise ValueError("the prompt is empty: give the decoder some text to continue")
    check_sampling(args.temperature, args.top_k, args.top_p)  # before loading: fail fast
    folder = Path(args.model)
    if not folder.is_dir():
        raise ValueError(f"no such folder: {folder}")
    model, tokenizer = load_decoder(folder)
    text = generate(
        model, tokenizer, args.prompt, max_new_tokens=args.max_new_tokens,
        temperature=args.temperature, top_k=args.top_k, top_p=args.top_p, seed=args.seed,
    )  # fmt: skip
    sys.stdout.write(args.prompt + text + "\n")
    return 0
