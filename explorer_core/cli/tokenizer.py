"""`python -m explorer_core tokenizer train|encode`: train a tokenizer on a file, encode a text.

    python -m explorer_core tokenizer train --algo byte-bpe --vocab-size 1000 \\
        --input corpus.txt --out my_tok [--json]
    python -m explorer_core tokenizer encode --tokenizer my_tok --text "你好, world" [--json]

`train` writes our own file and a Hugging Face tokenizer.json into --out; `encode --json` prints
one object with `tokens` (vocabulary strings), `ids` and `display` (readable text of each token).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from explorer_core.tokenization import ALGORITHMS, load_tokenizer, new_tokenizer

NEEDS_TORCH = False
MAX_INPUT_BYTES = 200_000_000  # a larger file is almost surely a mistake


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("tokenizer", help="train a tokenizer or encode a text")
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    train = actions.add_parser("train", help="train a tokenizer on a UTF-8 text file")
    train.add_argument("--algo", required=True, choices=ALGORITHMS)
    train.add_argument("--vocab-size", required=True, type=int)
    train.add_argument("--input", required=True, help="UTF-8 text file")
    train.add_argument("--out", required=True, help="folder to save the tokenizer into")
    train.add_argument("--json", action="store_true", help="print one JSON object")
    train.set_defaults(func=run_train)
    encode = actions.add_parser("encode", help="encode a text with a saved tokenizer")
    encode.add_argument("--tokenizer", required=True, help="folder written by `tokenizer train`")
    encode.add_argument("--text", required=True)
    encode.add_argument("--json", action="store_true", help="print one JSON object")
    encode.set_defaults(func=run_encode)


def read_text_file(path: str | Path) -> str:
    """A file's text, or ValueError saying why it is not usable UTF-8 text."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"{path} is not a file")
    if path.stat().st_size > MAX_INPUT_BYTES:
        raise ValueError(f"{path} is larger than {MAX_INPUT_BYTES // 1_000_000} MB")
    raw = path.read_bytes()
    if b"\x00" in raw[:65536]:
        raise ValueError(f"{path} looks like a binary file (it contains NUL bytes), not text")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(
            f"{path} is not UTF-8 text (byte {raw[err.start]:#04x} at offset {err.start})"
        ) from err


def run_train(args: argparse.Namespace) -> int:
    text = read_text_file(args.input)
    if not text.strip():
        raise ValueError(f"{args.input} holds no text to train on")
    tokenizer = new_tokenizer(args.algo)
    steps = tokenizer.train(text, args.vocab_size)
    folder = tokenizer.save(args.out)
    report = {
        "algo": args.algo,
        "vocab_size": tokenizer.vocab_size,
        "steps": len(steps),
        "out": str(folder),
    }
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print(f"trained {args.algo}: {report['vocab_size']} tokens, {len(steps)} steps -> {folder}")
    return 0


def run_encode(args: argparse.Namespace) -> int:
    tokenizer = load_tokenizer(args.tokenizer)
    tokens = tokenizer.explain(args.text)
    report = {
        "tokens": [t.text for t in tokens],
        "ids": [t.id for t in tokens],
        "display": [t.display for t in tokens],
    }
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        for token in tokens:
            print(f"{token.id}\t{token.display!r}")
    return 0
