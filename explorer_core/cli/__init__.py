"""The command line: `python -m explorer_core <command> ...`.

Each command lives in its own module of this package, listed in `COMMANDS`, and exposes
`register(subparsers)`, which adds its parser and sets `func` (a function of the parsed arguments
returning the exit code). A module that uses no torch sets `NEEDS_TORCH = False`; for the others
`runtime.configure()` (one steady torch thread, offline hubs) runs before the command.

Errors never show a traceback: a bad argument (argparse's own errors included), a missing or
unreadable file, or any ValueError prints one line `error: ...` on stderr and exits with code 2.

    >>> main(["tokenizer", "train", "--vocab-size", "lots"])  # stderr: "error: argument ..."
    2
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

# every module of this package except __init__; a test checks none is missing
COMMANDS: tuple[str, ...] = (
    "tokenizer", "train", "embed", "experiment", "inspect", "sequence_models", "decoder",
)  # fmt: skip


class OneLineParser(argparse.ArgumentParser):
    """argparse that reports bad arguments as one line on stderr with exit code 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="python -m explorer_core",
        description="Embedding Explorer from the command line.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        module = importlib.import_module(f"{__name__}.{name}")
        module.register(subparsers)
    return parser


def _needs_torch(func: object) -> bool:
    module = sys.modules.get(getattr(func, "__module__", ""), None)
    return getattr(module, "NEEDS_TORCH", True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return its exit code (0 ok, 2 bad input)."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # --help (0) or a bad argument (2, already reported)
        return stop.code if isinstance(stop.code, int) else 2
    try:
        if _needs_torch(args.func):
            from explorer_core import runtime

            runtime.configure()
        return int(args.func(args))
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else 2
    except (ValueError, OSError) as err:
        print(f"error: {_one_line(err)}", file=sys.stderr)
        return 2
    except Exception as err:  # noqa: BLE001 - the promise is: never a traceback
        print(f"error: {type(err).__name__}: {_one_line(err)}", file=sys.stderr)
        return 2


def _one_line(err: BaseException) -> str:
    return " ".join(str(err).split()) or type(err).__name__


__all__ = ["COMMANDS", "OneLineParser", "build_parser", "main"]
