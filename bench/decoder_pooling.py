"""Sentence vectors from a decoder trained in place, against an encoder's, on the app's STS pairs.

    python bench/decoder_pooling.py [--seconds 60] [--seed 0] [--langs en zh] [--json]

Per language: a decoder trained for --seconds on the built-in corpus (`LMTrainConfig` defaults;
it never sees the pairs), its mean / weighted_mean (SGPT) / last-token vectors of the final layer
(explorer_core.decoder.pooling), the same decoder before its first step (`fresh`), MiniLM as the
app opens it (mean pooling, its own pipeline), and the TF-IDF character baseline fitted on that
language's sentences. Each row: Spearman between the cosine of the pair's vectors and its score,
over all of the language's built-in pairs (`builtin_sts_pairs`, every split: nobody trains on
them here). The load average is printed: other jobs share the cores.
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

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from explorer_core.bert.causal_lm import BertForCausalLM  # noqa: E402
from explorer_core.decoder import LMTrainConfig, decoder_pooling, prepare_lm, train_lm  # noqa: E402
from explorer_core.decoder.pooling import DECODER_POOLING_MODES  # noqa: E402
from explorer_core.decoder.train import model_config  # noqa: E402
from explorer_core.inputs.datasets import builtin_sts_pairs  # noqa: E402
from explorer_core.training.baselines import CharTfidf  # noqa: E402
from explorer_core.training.metrics import spearman  # noqa: E402


@torch.no_grad()
def decoder_vectors(model: BertForCausalLM, tokenizer, texts: list[str]) -> dict[str, torch.Tensor]:
    """{mode: (N, H)} for every pooling mode; rows right-padded, cut to the context length."""
    limit = model.config.max_position_embeddings
    rows = [tokenizer.encode(t)[:limit] for t in texts]
    width = max(len(r) for r in rows)
    ids = torch.zeros(len(rows), width, dtype=torch.long)
    mask = torch.zeros(len(rows), width, dtype=torch.long)
    for i, row in enumerate(rows):
        ids[i, : len(row)], mask[i, : len(row)] = torch.tensor(row), 1
    hidden = model.bert(ids, mask).last_hidden_state  # (N, T, H)
    return {mode: decoder_pooling(hidden, mask, mode) for mode in DECODER_POOLING_MODES}


def rho(first: torch.Tensor, second: torch.Tensor, scores: list[float]) -> float:
    return float(spearman(F.cosine_similarity(first, second, dim=-1).tolist(), scores))


def one_language(lang: str, pairs, seconds: float, seed: int, minilm) -> dict:
    left, right = [p.sentence1 for p in pairs], [p.sentence2 for p in pairs]
    scores = [p.score for p in pairs]
    config = replace(LMTrainConfig(lang=lang, seed=seed), seconds=seconds)
    data = prepare_lm(config)
    fresh = BertForCausalLM(model_config(config, data.vocab_size), seed=seed).eval()
    result = train_lm(config, data=data)
    rows = {}
    for name, model in (("fresh", fresh), ("trained", result.model)):
        a = decoder_vectors(model, data.tokenizer, left)
        b = decoder_vectors(model, data.tokenizer, right)
        for mode in DECODER_POOLING_MODES:
            rows[f"decoder {name} {mode}"] = rho(a[mode], b[mode], scores)
    if minilm is not None:
        from explorer_core.models.opened import embed

        rows["MiniLM mean (encoder)"] = rho(embed(minilm, left), embed(minilm, right), scores)
    tfidf = CharTfidf.fit(left + right)
    lexical = [tfidf.similarity(x, y) for x, y in zip(left, right, strict=True)]
    rows["lexical TF-IDF"] = float(spearman(lexical, scores))
    return {"lang": lang, "pairs": len(pairs), "steps": result.steps,
            "heldout_loss": result.records[-1].loss, "bigram": result.bigram_loss,
            "rows": rows}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--langs", nargs="+", default=["en", "zh"], choices=["en", "zh"])
    parser.add_argument("--no-minilm", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    minilm = None
    if not args.no_minilm:
        from explorer_core.bert.pretrained import minilm_path
        from explorer_core.models.opened import open_model

        minilm = open_model(str(minilm_path()), anywhere=True)
    before = os.getloadavg()
    pairs = builtin_sts_pairs()
    results = [one_language(lang, [p for p in pairs if p.lang == lang], args.seconds, args.seed,
                            minilm) for lang in args.langs]  # fmt: skip
    after = os.getloadavg()
    if args.json:
        print(json.dumps({"results": results, "load": [before, after]}))
        return 0
    print(f"load average {before[0]:.1f} -> {after[0]:.1f}; decoders {args.seconds:.0f} s each")
    print(f"{'Spearman':<30}" + "".join(f"{r['lang']:>8}" for r in results))
    for name in results[0]["rows"]:
        print(f"{name:<30}" + "".join(f"{r['rows'][name]:>8.3f}" for r in results))
    for r in results:
        print(f"{r['lang']}: {r['pairs']} pairs; decoder {r['steps']} steps, held-out loss "
              f"{r['heldout_loss']:.3f} (bigram {r['bigram']:.3f})")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
