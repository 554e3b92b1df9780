"""STS quality of the Tiny preset trained from scratch, next to two references from the same run.

    python bench/sts_quality.py DATA_FILE [--time-budget 180] [--tokenizer VOCAB_OR_DIR]
        [--tokenizer-algo char-bpe --vocab-size N] [--loss cosine|cosent] [--keep-case]
        [--learning-rate X] [--batch-size N] [--dropout P] [--no-in-batch-negatives]
        [--pretrain-share F] [--seed 0] [--rounds 7] [--no-minilm] [--json]

DATA_FILE: any file `load_sts_file` reads (ChineseSTS, or a table with sentence1/sentence2/score and
optional split/lang columns), or a wide bilingual table whose header names `sentence1_<lang>` and
`sentence2_<lang>` columns (e.g. `sentence1_en`, `sentence1_zh`): each language gives its own pairs.
Without a split column 20% of the pairs become the test split (seeded).

Reported on the test split, per language when there are several:
- the Tiny preset trained from scratch within the time budget on the train split (all languages
  together; tokenizer trained on the training sentences unless --tokenizer is given);
- the lexical baseline: TF-IDF cosine over character 1-2 grams, fitted on the train split;
- real all-MiniLM-L6-v2 (our BertModel loading its weights, mean pooling), English-trained.

The default recipe (`training.jobs`) is what worked best on the English+Chinese STS-B subset (1,000
train pairs per language): sentences lower-cased, a character-level BPE with only 57 merges on top
of the training sentences' characters (1,301 ids here), Tiny with BERT's dropout 0.1, cosine-vs-
score/5 loss plus in-batch negatives on pairs scored >= 4, batch 32, lr 1e-3 with 10% warm-up and
linear decay, no pre-training. At 180 s on 2 shared cores (load 1-3), test Spearman en / zh:
0.715 / 0.732 (seed 0, 1,030 steps), 0.712 / 0.732 (seed 0 again, 1,085 steps) and 0.716 / 0.737
(seed 1): at the lexical baseline 0.713 / 0.715 in English, above it in Chinese
(MiniLM 0.908 / 0.487).
Before: 4k char-BPE without in-batch negatives 0.693 / 0.743
and 0.700 / 0.729; 57 merges without in-batch negatives 0.722 / 0.746 and 0.706 / 0.729; 2k
char-BPE with in-batch negatives 0.718 / 0.748 and 0.685 / 0.730. Seeds move English by about
0.015, so single runs decide little. Tried and dropped (400 steps, seed 0; 4k: 0.686 / 0.745):
targets in [-1, 1] (cos = score/2.5 - 1) 0.595 / 0.620; self-pairs (a, a, 5) 0.613 / 0.703; vocab
1,500 0.692 / 0.736. Earlier, at 60-180 s: WordPiece, word-level (English 0.61) and byte-level BPE
(Chinese 0.53) tokenizers, lr 3e-3, batch 16, dropout 0, batch 64, CoSENT, and MLM + NSP
pre-training on the pairs for 40% of the budget. Swapping (a, b) to (b, a) changes nothing: the
siamese cosine loss is symmetric.

Also: fine-tuning throughput in pairs per second, ours against transformers' BertModel (default
attention and eager) on the same step (Tiny config, 32 pairs, forward both sides, cosine loss,
backward, AdamW), interleaved, median of rounds; and the machine's load average, because other jobs
share its cores.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from explorer_core import runtime  # noqa: E402

runtime.configure()

import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

from explorer_core.bert.model import BertModel  # noqa: E402
from explorer_core.bert.pooling import SentenceEncoder  # noqa: E402
from explorer_core.inputs.datasets import SentencePair, load_sts_file  # noqa: E402
from explorer_core.inputs.vocab import BertVocab  # noqa: E402
from explorer_core.training.baselines import fit_baseline  # noqa: E402
from explorer_core.training.checkpoint import Checkpoint  # noqa: E402
from explorer_core.training.jobs import StsJob, build_plan, evaluate, get_tokenizer  # noqa: E402
from explorer_core.training.metrics import spearman  # noqa: E402
from explorer_core.training.run import run_plan  # noqa: E402


def read_pairs(path: Path, seed: int) -> list[SentencePair]:
    """Pairs of the file, wide bilingual tables included; a test split is made when missing."""
    with path.open(encoding="utf-8") as handle:
        header = handle.readline().rstrip("\n").split("\t")
    langs = sorted({h[len("sentence1_") :] for h in header if h.startswith("sentence1_")})
    if langs:
        with path.open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
        pairs = [
            SentencePair(r[f"sentence1_{lang}"], r[f"sentence2_{lang}"], float(r["score"]),
                         r.get("split") or None, lang)
            for lang in langs for r in rows
        ]  # fmt: skip
    else:
        pairs = list(load_sts_file(path).pairs)
    if not any(p.split == "test" for p in pairs):
        rng = random.Random(seed)
        pairs = [
            SentencePair(p.sentence1, p.sentence2, p.score,
                         "test" if rng.random() < 0.2 else (p.split or "train"), p.lang)
            for p in pairs
        ]  # fmt: skip
    return pairs


def lowercased(pair: SentencePair) -> SentencePair:
    return replace(pair, sentence1=pair.sentence1.lower(), sentence2=pair.sentence2.lower())


def by_lang(pairs: list[SentencePair]) -> dict[str, list[SentencePair]]:
    out: dict[str, list[SentencePair]] = {}
    for p in pairs:
        out.setdefault(p.lang or "all", []).append(p)
    return out


def minilm_scores(test: list[SentencePair]) -> dict[str, float]:
    from explorer_core.bert.pretrained import minilm_path
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    path = minilm_path()
    ckpt = Checkpoint(BertModel.from_transformers(path), WordPieceTokenizer.from_vocab(
        path / "vocab.txt", lowercase=True), max_length=128)  # fmt: skip
    return {lang: evaluate(ckpt, pairs, 128)["spearman"] for lang, pairs in by_lang(test).items()}


def throughput(config, pad_id: int, rounds: int = 7, steps: int = 5) -> dict[str, float]:
    """Fine-tuning pairs/s: ours vs transformers' BertModel (sdpa and eager), same step."""
    import transformers

    if rounds < 1:
        return {"ours": float("nan"), "transformers (sdpa)": 1.0, "transformers (eager)": 1.0}
    from explorer_core.training.checkpoint import hf_config

    gen = torch.Generator().manual_seed(0)
    lengths = torch.randint(8, 24, (64,), generator=gen)
    ids = torch.randint(5, config.vocab_size, (64, 24), generator=gen)
    mask = (torch.arange(24)[None, :] < lengths[:, None]).long()
    ids = ids.masked_fill(mask == 0, pad_id)
    gold = torch.rand(32, generator=gen)
    models = {"ours": SentenceEncoder(BertModel(config))}
    for impl in ("sdpa", "eager"):
        hf_cfg = transformers.BertConfig(**hf_config(config), attn_implementation=impl)
        models[f"transformers ({impl})"] = transformers.BertModel(hf_cfg)

    def step(name, model, opt):
        if name == "ours":
            vectors = model(ids, mask)
        else:
            hidden = model(input_ids=ids, attention_mask=mask).last_hidden_state
            w = mask.unsqueeze(-1).float()
            vectors = (hidden * w).sum(1) / w.sum(1)
        cos = F.cosine_similarity(vectors[:32], vectors[32:], dim=-1)
        loss = F.mse_loss(cos, gold)
        opt.zero_grad()
        loss.backward()
        opt.step()

    opts = {n: torch.optim.AdamW(m.parameters(), lr=1e-4) for n, m in models.items()}
    times: dict[str, list[float]] = {n: [] for n in models}
    for r in range(rounds):
        order = list(models) if r % 2 == 0 else list(reversed(models))
        for name in order:
            models[name].train()
            step(name, models[name], opts[name])  # warm-up
            start = time.perf_counter()
            for _ in range(steps):
                step(name, models[name], opts[name])
            times[name].append((time.perf_counter() - start) / steps)
    return {name: 32 / statistics.median(t) for name, t in times.items()}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", type=Path)
    parser.add_argument("--time-budget", type=float, default=180.0)
    parser.add_argument("--tokenizer", type=Path, help="vocab.txt or saved tokenizer folder")
    parser.add_argument("--tokenizer-algo", default="char-bpe")
    parser.add_argument("--vocab-size", type=int, help="default: characters + jobs.CHAR_MERGES")
    parser.add_argument("--loss", default="cosine", choices=("cosine", "cosent"))
    parser.add_argument("--pretrain-share", type=float, default=0.0,
                        help="budget share for MLM + NSP on the training pairs first")  # fmt: skip
    parser.add_argument("--learning-rate", type=float, help="default: the preset's")
    parser.add_argument("--batch-size", type=int, help="default: the preset's")
    parser.add_argument("--dropout", type=float, help="default: the preset's")
    parser.add_argument("--in-batch-negatives", action=argparse.BooleanOptionalAction,
                        default=True)  # fmt: skip
    parser.add_argument("--rounds", type=int, default=7, help="throughput rounds (0: skip)")
    parser.add_argument("--no-minilm", action="store_true", help="skip the MiniLM reference")
    parser.add_argument("--keep-case", action="store_true",
                        help="keep case (the baseline and MiniLM lower-case anyway)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true")
    return parser.parse_args(argv)


def make_plan(args: argparse.Namespace, parts: dict[str, list[SentencePair]]):
    """The Tiny plan of `sts_job`, with the benchmark's overrides; (plan, tokenizer)."""
    job = StsJob(
        train=args.data, out=Path("unused"), tokenizer=args.tokenizer,
        tokenizer_algo=args.tokenizer_algo, vocab_size=args.vocab_size, preset="tiny",
        time_budget=args.time_budget, seed=args.seed, pretrain_on_pairs=args.pretrain_share > 0,
    )  # fmt: skip
    tokenizer = get_tokenizer(job, [s for p in parts["train"] for s in (p.sentence1, p.sentence2)])
    plan = build_plan(job, tokenizer, parts)
    tuned = {"learning_rate": args.learning_rate, "batch_size": args.batch_size}
    tuned = {k: v for k, v in tuned.items() if v is not None}
    fine = replace(
        plan.finetune, loss=args.loss, eval_every=0, in_batch_negatives=args.in_batch_negatives,
        time_budget=args.time_budget * (1 - args.pretrain_share), **tuned,
    )  # fmt: skip
    pre = plan.pretrain and replace(
        plan.pretrain, time_budget=args.time_budget * args.pretrain_share, **tuned
    )
    config = plan.model_config
    if args.dropout is not None:
        config = replace(config, hidden_dropout_prob=args.dropout,
                         attention_probs_dropout_prob=args.dropout)  # fmt: skip
    plan = replace(plan, finetune=fine, pretrain=pre, dev_pairs=(), model_config=config)
    return plan, tokenizer


def lexical_scores(parts: dict[str, list[SentencePair]]) -> dict[str, float]:
    out = {}
    for lang, test in by_lang(parts["test"]).items():
        model = fit_baseline([p for p in parts["train"] if (p.lang or "all") == lang])
        out[lang] = spearman(model.predict(test), [p.score for p in test])
    return out


def print_report(report: dict) -> None:
    ours = report["test_spearman"]["tiny"]
    print(f"Tiny from scratch: {report['steps']} steps in {report['train_seconds']:.0f} s "
          f"({report['tokenizer']}, {report['train_pairs']} training pairs)")  # fmt: skip
    print(f"{'test Spearman':<16}" + "".join(f"{lang:>10}" for lang in ours))
    for name, scores in report["test_spearman"].items():
        if scores:
            print(f"{name:<16}" + "".join(f"{scores[lang]:>10.3f}" for lang in ours))
    for name, value in report["pairs_per_second"].items():
        print(f"throughput {name:<22} {value:8.1f} pairs/s")
    print(f"ratio ours / transformers: {report['ratio_vs_transformers_sdpa']:.2f} (sdpa), "
          f"{report['ratio_vs_transformers_eager']:.2f} (eager)")  # fmt: skip
    before, after = report["load_average"]["before"][0], report["load_average"]["after"][0]
    print(f"load average before {before:.1f}, after {after:.1f} on {os.cpu_count()} cores; "
          f"torch threads {report['torch_threads']}")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    load_before = os.getloadavg()
    pairs = read_pairs(args.data, args.seed)
    if not args.keep_case:
        pairs = [lowercased(p) for p in pairs]
    parts = {s: [p for p in pairs if p.split == s] for s in ("train", "dev", "test")}
    minilm = {} if args.no_minilm else minilm_scores(parts["test"])  # references first: a
    lexical = lexical_scores(parts)  # failure there should not waste a whole training run
    plan, tokenizer = make_plan(args, parts)
    start = time.perf_counter()
    ckpt = run_plan(plan)
    train_seconds = time.perf_counter() - start
    ours = {lang: evaluate(ckpt, ps, plan.finetune.max_length)["spearman"]
            for lang, ps in by_lang(parts["test"]).items()}  # fmt: skip
    speed = throughput(plan.model_config, BertVocab.of(tokenizer).pad_id, args.rounds)
    report = {
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "train_seconds": round(train_seconds, 1),
        "steps": {phase: len(log.steps) for phase, log in ckpt.log.items()},
        "train_pairs": len(parts["train"]),
        "test_pairs": {lang: len(ps) for lang, ps in by_lang(parts["test"]).items()},
        "tokenizer": f"{tokenizer.algo}, {BertVocab.of(tokenizer).size} ids",
        "test_spearman": {"tiny": ours, "lexical": lexical, "minilm": minilm},
        "pairs_per_second": speed,
        "ratio_vs_transformers_sdpa": speed["ours"] / speed["transformers (sdpa)"],
        "ratio_vs_transformers_eager": speed["ours"] / speed["transformers (eager)"],
        "load_average": {"before": load_before, "after": os.getloadavg()},
        "torch_threads": torch.get_num_threads(),
    }
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
