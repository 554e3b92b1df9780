"""`python -m explorer_core sequence-models ...`: six sequence models on one sentence.

    python -m explorer_core sequence-models --text TEXT [--seed N] [--window N] [--json]

The text is cut by MiniLM's WordPiece (lowercased, no [CLS] or [SEP]); each token gets a row of a
random embedding table (N(0, 1), 16 wide, drawn from --seed), and six freshly initialised models
from the same seed read them (`explorer_core.sequence.compare`): the n-gram window model (the
--window - 1 tokens before each position; default 3), a tanh RNN, a bidirectional RNN (32 wide),
an LSTM, a GRU and one self-attention layer (sinusoidal positions, every token sees every token).

With --json, one object: `tokens`, `embeddings` ("random, seed N"), `seed`, `window` and
`models`: for each of ngram, rnn, birnn, lstm, gru and attention, its `hidden_states` (tokens ×
width, 7 significant digits) and `gradient_over_distance` (‖∂h_T/∂x_t‖ for distance T - t = 0, 1,
..., one number per distance). Without --json: the gradients as a table. Bad input (empty text,
a window longer than the text): one line on stderr, exit code 2.
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "sequence-models", help="n-gram, RNN, BiRNN, LSTM, GRU and attention on one sentence"
    )
    parser.add_argument("--text", required=True, help="the sentence")
    parser.add_argument("--seed", type=int, default=0, help="embeddings and weights (default 0)")
    parser.add_argument(
        "--window", type=int, default=3, help="n of the n-gram model: it reads n - 1 tokens"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(func=run)


def tokenize(text: str) -> tuple[list[int], list[str]]:
    """(ids, token strings) of the text under MiniLM's WordPiece; ValueError when empty."""
    from explorer_core.bert.pretrained import minilm_path
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    if not text.strip():
        raise ValueError("--text is empty: give some text")
    tokenizer = WordPieceTokenizer.from_vocab(minilm_path() / "vocab.txt", lowercase=True)
    ids = tokenizer.encode(text)
    if not ids:
        raise ValueError("--text has no tokens: give some words")
    return ids, [tokenizer.id_to_token(i) for i in ids]


def _rows(tensor: Any) -> list[list[float]]:
    return [[float(f"{x:.7g}") for x in row] for row in tensor.tolist()]


def report(tokens: list[str], views: dict[str, Any], seed: int, window: int) -> dict[str, Any]:
    """The JSON object (see the module docstring)."""
    return {
        "tokens": tokens,
        "embeddings": f"random, seed {seed}",
        "seed": seed,
        "window": window,
        "models": {
            name: {
                "hidden_states": _rows(view.hidden_states),
                "gradient_over_distance": [float(f"{x:.7g}") for x in view.gradient.norms],
            }
            for name, view in views.items()
        },
    }


def summary(tokens: list[str], views: dict[str, Any]) -> str:
    """‖∂h_T/∂x_t‖ per model (rows) and distance (columns)."""
    lines = ["tokens: " + " ".join(tokens), "‖∂h_T/∂x_t‖ by distance T - t:"]
    lines.append(f"{'model':<10}" + "".join(f"{d:>9}" for d in range(len(tokens))))
    for name, view in views.items():
        lines.append(f"{name:<10}" + "".join(f"{x:9.2e}" for x in view.gradient.norms))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    from explorer_core.sequence.compare import ComparisonConfig, compare_models

    ids, tokens = tokenize(args.text)
    if args.window < 2:
        raise ValueError(f"--window must be at least 2 (one token of context), got {args.window}")
    if args.window - 1 > len(ids):
        raise ValueError(
            f"--window {args.window} reads {args.window - 1} tokens but the text has {len(ids)}"
        )
    views = compare_models(ids, ComparisonConfig(n=args.window, seed=args.seed))
    if args.json:
        print(json.dumps(report(tokens, views, args.seed, args.window), ensure_ascii=False))
    else:
        print(summary(tokens, views))
    return 0
