"""`python -m explorer_core embed --model DIR --text TEXT...`: sentence vectors from a checkpoint.

One text: its vector. Several: one vector per line, or, for exactly two texts, their cosine.
`--device auto|cpu|cuda` runs the model there (auto: CUDA when available).

    $ python -m explorer_core embed --model out/ --text "a cat" "a kitten"
    cosine 0.8123
"""

from __future__ import annotations

import argparse
import json
import sys

from explorer_core.cli.train import add_device_argument


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "embed", help="sentence vectors (or a cosine) from a trained checkpoint"
    )
    parser.add_argument("--model", required=True, help="checkpoint folder written by `train`")
    parser.add_argument("--text", required=True, nargs="+", help="one or more texts")
    parser.add_argument("--vectors", action="store_true", help="print vectors even for two texts")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_device_argument(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from explorer_core.training.checkpoint import load_checkpoint
    from explorer_core.training.devices import resolve_device

    texts = [t for t in args.text]
    if any(not t.strip() for t in texts):
        return _fail("every --text must hold some text")
    try:
        device = resolve_device(args.device)
        ckpt = load_checkpoint(args.model)
        ckpt.model.to(device)
        vectors = ckpt.embed(texts, normalize=False)
    except (ValueError, OSError) as err:
        return _fail(str(err))
    if len(texts) == 2 and not args.vectors:
        cosine = ckpt.cosine(texts[0], texts[1])
        print(json.dumps({"cosine": cosine}) if args.json else f"cosine {cosine:.4f}")
        return 0
    rows = [[round(x, 6) for x in row] for row in vectors.tolist()]
    if args.json:
        print(json.dumps({"texts": texts, "vectors": rows}, ensure_ascii=False))
    else:
        for text, row in zip(texts, rows, strict=True):
            print(f"{text}\t" + " ".join(f"{x:.4f}" for x in row))
    return 0
