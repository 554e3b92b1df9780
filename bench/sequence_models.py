"""Sequence models against one attention layer, measured in the same run (issue #36).

Three tables:

1. ‖∂h_L/∂x_t‖ against the distance L - t at initialisation (L = 64, E = d = 32, random N(0, 1)
   embeddings; the mean over --seeds seeds): RNN, LSTM, GRU, the n-gram window (n = 8) and one
   self-attention layer (sinusoidal positions), h_L being the last position's output.
2. For L = 16, 64, 256: sequential steps (counted from each run) and the longest path, and the
   median time of one forward (batch 1, d = 64): our Python loop of L RNN / LSTM cell steps,
   torch.nn.RNN's C++ loop, and the attention layer (one masked matmul); x = time / attention's.
3. The recall task (`explorer_core.sequence.recall`, its default config, --recall-steps to train
   longer): accuracy at naming the token k steps back, per model and k (chance 0.125).

    python bench/sequence_models.py [--seeds 5] [--repeat 21] [--skip-recall] [--recall-steps N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import torch  # noqa: E402

from explorer_core import runtime  # noqa: E402
from explorer_core.sequence.attention import SelfAttentionLayer  # noqa: E402
from explorer_core.sequence.config import (  # noqa: E402
    AttentionConfig,
    NGramConfig,
    RecurrentConfig,
)
from explorer_core.sequence.cost import count_steps  # noqa: E402
from explorer_core.sequence.gradients import gradient_over_distance  # noqa: E402
from explorer_core.sequence.ngram import NGramWindowModel  # noqa: E402
from explorer_core.sequence.recall import RecallConfig, recall_table  # noqa: E402
from explorer_core.sequence.recurrent import FusedRecurrent, RecurrentModel  # noqa: E402

DISTANCES = (0, 1, 2, 4, 8, 16, 32, 63)
LENGTHS = (16, 64, 256)


def models(width: int, seed: int) -> dict[str, torch.nn.Module]:
    g = torch.Generator().manual_seed(seed)
    return {
        "rnn": RecurrentModel(RecurrentConfig("rnn", width, width), g),
        "lstm": RecurrentModel(RecurrentConfig("lstm", width, width), g),
        "gru": RecurrentModel(RecurrentConfig("gru", width, width), g),
        "ngram n=8": NGramWindowModel(NGramConfig(width, width, 8), g),
        "attention": SelfAttentionLayer(AttentionConfig(width, 1, "sinusoidal"), g),
    }


def gradient_table(seeds: int) -> None:
    width, length = 32, 64
    sums: dict[str, torch.Tensor] = {}
    for seed in range(seeds):
        x = torch.randn(1, length, width, generator=torch.Generator().manual_seed(1000 + seed))
        for name, model in models(width, seed).items():
            norms = torch.tensor(gradient_over_distance(model, x).norms)
            sums[name] = sums.get(name, 0) + norms / seeds
    print(f"1) ‖∂h_L/∂x_t‖ at initialisation, L = {length}, d = {width}, mean of {seeds} seeds")
    print(f"{'distance L-t':<13}" + "".join(f"{d:>10}" for d in DISTANCES))
    for name, norms in sums.items():
        print(f"{name:<13}" + "".join(f"{float(norms[d]):10.2e}" for d in DISTANCES))


def median_time(fn, repeat: int) -> float:
    fn()  # warm up
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cost_table(repeat: int) -> None:
    width, g = 64, torch.Generator().manual_seed(0)
    rnn = RecurrentModel(RecurrentConfig("rnn", width, width), g)
    lstm = RecurrentModel(RecurrentConfig("lstm", width, width), g)
    fused = FusedRecurrent(rnn)
    attention = SelfAttentionLayer(AttentionConfig(width, 1, "none", causal=True), g)
    print(f"\n2) steps one after another, longest path, and median forward time (batch 1, d = "
          f"{width}, {repeat} calls); x = time / attention's, same run")  # fmt: skip
    print(f"{'L':>4}  {'model':<22}{'sequential':>11}{'longest path':>13}{'ms':>9}{'x':>8}")
    for length in LENGTHS:
        x = torch.randn(1, length, width, generator=torch.Generator().manual_seed(length))
        rows = {"rnn (our Python loop)": rnn, "lstm (our Python loop)": lstm,
                "rnn (torch.nn.RNN)": fused, "attention (one matmul)": attention}  # fmt: skip
        with torch.inference_mode():
            times = {name: median_time(lambda m=m, x=x: m(x), repeat) for name, m in rows.items()}
        for name, model in rows.items():
            # torch.nn.RNN's loop has the same steps and paths as ours: count ours
            counted = count_steps(name, rnn if model is fused else model, length, width)
            ratio = times[name] / times["attention (one matmul)"]
            print(f"{length:>4}  {name:<22}{counted.sequential_steps:>11}"
                  f"{counted.longest_path:>13}{times[name] * 1e3:9.3f}{ratio:8.1f}")  # fmt: skip


def recall_report(steps: int | None) -> None:
    config = RecallConfig() if steps is None else RecallConfig(steps=steps)
    start = time.perf_counter()
    results = recall_table(config)
    seconds = time.perf_counter() - start
    print(f"\n3) recall the token k back: accuracy on {config.eval_sentences} fresh sentences "
          f"after {config.steps} Adam steps (batch {config.batch_size}, vocab "
          f"{config.vocab_size}: chance {1 / config.vocab_size:.3f}, d = {config.hidden_size}, "
          f"seed {config.seed}; {seconds:.0f} s in all)")  # fmt: skip
    print(f"{'model':<11}" + "".join(f"{'k=' + str(k):>8}" for k in config.distances))
    for name in config.models:
        row = [r.accuracy for r in results if r.model == name]
        label = f"ngram n={config.ngram_n}" if name == "ngram" else name
        print(f"{label:<11}" + "".join(f"{a:8.3f}" for a in row))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=21)
    parser.add_argument("--skip-recall", action="store_true")
    parser.add_argument("--recall-steps", type=int, help="Adam steps (default: RecallConfig's)")
    args = parser.parse_args()
    runtime.configure()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} thread(s)\n")
    gradient_table(args.seeds)
    cost_table(args.repeat)
    if not args.skip_recall:
        recall_report(args.recall_steps)


if __name__ == "__main__":
    main()
