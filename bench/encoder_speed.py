"""Our encoder's forward against transformers' own, on base-sized BERT and ModernBERT.

Both models get the same random weights (transformers builds the model,
`BertModel.from_transformers` reads it in memory). For each model and length (batch 1, no
padding) the forwards are timed interleaved call by call: ours (tracing off: the fused SDPA
path), theirs (its default attention, sdpa), our full `trace_encoder`, then ours again ...;
the table gives the medians of `--rounds` x `--repeat` calls each. ratio = theirs / ours, so
>= 1.0 means ours is at least as fast; "trace" is what keeping every intermediate costs on top
of our forward.

    python bench/encoder_speed.py [--rounds 7] [--repeat 5] [--threads 2]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402
import transformers  # noqa: E402

from explorer_core.bert.model import BertModel  # noqa: E402
from explorer_core.bert.trace import trace_encoder  # noqa: E402

LENGTHS = (32, 128)


def base_models() -> dict[str, transformers.PreTrainedModel]:
    """BERT-base (12 x 768, 12 heads, FFN 3072) and ModernBERT-base (22 x 768, FFN 1152, its
    default pattern: global every 3rd layer, local window 128), random weights, eval mode."""
    torch.manual_seed(0)
    bert = transformers.BertConfig(
        hidden_size=768, num_hidden_layers=12, num_attention_heads=12, intermediate_size=3072
    )
    modern = transformers.ModernBertConfig(
        hidden_size=768, num_hidden_layers=22, num_attention_heads=12, intermediate_size=1152
    )
    return {
        name: transformers.AutoModel.from_config(config, attn_implementation="sdpa").eval()
        for name, config in (("BERT-base", bert), ("ModernBERT-base", modern))
    }


def median_times(calls: dict[str, Callable[[], object]], rounds: int, repeat: int) -> dict:
    """{name: median seconds per call} over rounds x repeat calls each, interleaved call by call
    (ours, theirs, trace, ours, ...), so a burst of load from other processes hits all alike."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for fn in calls.values():
        fn()  # warm up: first-call allocations, kernel selection
    for _ in range(rounds * repeat):
        for name, fn in calls.items():
            start = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in times.items()}


def measure(rounds: int, repeat: int) -> list[tuple[str, int, float, float, float]]:
    rows = []
    for name, theirs in base_models().items():
        ours = BertModel.from_transformers(theirs)
        for length in LENGTHS:
            ids = torch.randint(5, 1000, (1, length), generator=torch.Generator().manual_seed(1))
            mask = torch.ones_like(ids)
            calls = {
                "ours": partial(ours, ids, mask),
                "theirs": partial(theirs, input_ids=ids, attention_mask=mask),
                "trace": partial(trace_encoder, ours, ids[0]),
            }
            with torch.inference_mode():
                got = median_times(calls, rounds, repeat)
            rows.append((name, length, got["ours"], got["theirs"], got["trace"]))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    versions = f"torch {torch.__version__}, transformers {transformers.__version__}"
    print(f"{versions}, {args.threads} threads, median of {args.rounds} x {args.repeat} calls")
    print(f"{'model':<16} {'tokens':>6} {'ours ms':>8} {'theirs ms':>9} {'ratio':>6} "
          f"{'trace ms':>8} {'trace/ours':>10}")  # fmt: skip
    for name, length, ours, theirs, trace in measure(args.rounds, args.repeat):
        print(f"{name:<16} {length:>6} {ours * 1e3:>8.1f} {theirs * 1e3:>9.1f} "
              f"{theirs / ours:>6.2f} {trace * 1e3:>8.1f} {trace / ours:>10.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
