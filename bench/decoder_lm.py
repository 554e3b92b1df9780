"""The decoder's held-out loss after 15, 30 and 60 s of training, against the bigram and uniform
lines, in English and Chinese (`LMTrainConfig`'s defaults, one torch thread as the CLI uses).

    python bench/decoder_lm.py [--langs en zh] [--seconds 60] [--seed 0] [--json]

One run per language; the loss at each mark is the last evaluation (every 25 steps) at or before
it. The load average is printed: other jobs share the cores, and a seconds budget buys fewer
steps on a busy machine, so compare the rows of one run, not runs of different days.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from explorer_core import runtime  # noqa: E402

runtime.configure()

from explorer_core.decoder import LMTrainConfig, prepare_lm, train_lm  # noqa: E402

MARKS = (15.0, 30.0, 60.0)


def at_mark(records, seconds: float):
    """The last record taken at or before `seconds` (the first one if none)."""
    seen = [r for r in records if r.seconds <= seconds]
    return seen[-1] if seen else records[0]


def one_language(lang: str, seconds: float, seed: int) -> dict:
    config = replace(LMTrainConfig(lang=lang, seed=seed), seconds=seconds, eval_every=25)
    data = prepare_lm(config)
    result = train_lm(config, data=data)
    marks = {m: at_mark(result.records, m) for m in MARKS if m <= seconds}
    return {
        "lang": lang, "train_tokens": len(data.train_ids), "heldout_tokens": len(data.heldout_ids),
        "vocab": data.vocab_size, "uniform": result.uniform_loss, "bigram": result.bigram_loss,
        "marks": {str(int(m)): {"step": r.step, "seconds": round(r.seconds, 1), "loss": r.loss}
                  for m, r in marks.items()},
        "steps": result.steps, "sample": result.samples[-1].text,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--langs", nargs="+", default=["en", "zh"], choices=["en", "zh", "both"])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    before = os.getloadavg()
    rows = [one_language(lang, args.seconds, args.seed) for lang in args.langs]
    after = os.getloadavg()
    if args.json:
        print(json.dumps({"rows": rows, "load": [before, after]}, ensure_ascii=False))
        return 0
    print(f"load average {before[0]:.1f} -> {after[0]:.1f}; one torch thread; seed {args.seed}")
    marks = [m for m in MARKS if m <= args.seconds]
    head = "".join(f"{f'{int(m)} s (step)':>16}" for m in marks)
    print(f"{'lang':<6}{'uniform':>9}{'bigram':>9}{head}")
    for row in rows:
        cells = "".join(
            f"{row['marks'][str(int(m))]['loss']:>9.3f} ({row['marks'][str(int(m))]['step']:>4})"
            for m in marks
        )
        print(f"{row['lang']:<6}{row['uniform']:>9.3f}{row['bigram']:>9.3f}{cells}")
    for row in rows:
        sizes = f"{row['train_tokens']} training / {row['heldout_tokens']} held-out tokens"
        print(f"{row['lang']}: {sizes}, V = {row['vocab']}; after {row['steps']} steps: "
              f"{row['sample']!r}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
