"""One STS training job from files, as the CLI (`train sts`) and the benchmark run it.

Steps: read the pair files (`datasets.load_sts_file`), get a tokenizer (a saved one, a BERT
`vocab.txt`, or train one on the training sentences), build the preset's config, pre-train with
MLM + NSP when a corpus is given, fine-tune on the pairs, evaluate dev and test, save a checkpoint.

In use (a sketch; the tests run the real thing)::

    report = run_sts_job(StsJob(train=Path("pairs.tsv"), out=Path("out"), time_budget=60))
    report["test_spearman"]   -> 0.74 (None when there are no test pairs)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from explorer_core.inputs.datasets import SentencePair, load_sts_file, split_pairs
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer, load_tokenizer, new_tokenizer
from explorer_core.tokenization.base import VocabTooSmall
from explorer_core.training.base_models import describe
from explorer_core.training.checkpoint import Checkpoint, save_checkpoint
from explorer_core.training.devices import world
from explorer_core.training.finetune import FinetuneConfig, evaluate_pairs
from explorer_core.training.loop import Callback
from explorer_core.training.presets import (  # the defaults live there (torch-free, for --help)
    CHAR_MERGES,
    DEFAULT_STEPS,
    IN_BATCH_NEGATIVES,
    OTHER_ALGO_VOCAB,
    PRETRAIN_SHARE,
    PRETRAINED_FINETUNE,
    PRETRAINED_SECONDS,
    PRETRAINED_STEPS,
    SCRATCH_LOSS,
    get_preset,
)
from explorer_core.training.pretrain import PretrainConfig
from explorer_core.training.run import TrainingPlan, run_plan


@dataclass(frozen=True)
class StsJob:
    train: Path
    out: Path
    dev: Path | None = None
    test: Path | None = None
    format: str | None = None  # "chinese-sts", "table" or None (detect)
    tokenizer: Path | None = None  # saved tokenizer folder, folder with vocab.txt, or vocab.txt
    tokenizer_algo: str = "char-bpe"  # frequent words whole, rare ones in pieces; CJK per char
    vocab_size: int | None = None  # None: 4 specials + the text's characters + char_merges
    char_merges: int = CHAR_MERGES  # char-BPE merges on top of the characters (vocab_size None)
    lowercase: bool = True  # for a vocab.txt (bert-base-uncased: True; cased vocabularies: False)
    preset: str = "tiny"
    pretrain_corpus: Path | None = None
    pretrain_on_pairs: bool = False  # also pre-train (MLM + NSP) on the training pairs' sentences
    whole_word: bool = False  # pre-training masks whole words (jieba's words in Chinese)
    time_budget: float | None = None
    steps: int | None = None
    seed: int = 0
    finetune: FinetuneConfig | None = None  # overrides the defaults built from the fields above
    pretrain: PretrainConfig | None = None
    init: str = "fresh"  # base_models.INITS or a model folder: a pretrained start is fine-tuned
    device: str = "auto"  # devices.DEVICES
    dropout: float | None = None  # None: the preset's (or the pretrained model's) own
    loss: str | None = None  # finetune.SIM_LOSSES; None: SCRATCH_LOSS from scratch, else cosine
    in_batch_negatives: bool | None = None  # None: IN_BATCH_NEGATIVES from scratch, off when
    # fine-tuning a pretrained model (Sentence-BERT's recipe for STS: the cosine loss alone)


def read_splits(job: StsJob) -> dict[str, list[SentencePair]]:
    """train/dev/test pairs: from their files, else from the training file's split column."""
    result = load_sts_file(job.train, job.format)
    parts = split_pairs(result.pairs, seed=job.seed, dev_fraction=0.0)
    for name, path in (("dev", job.dev), ("test", job.test)):
        if path is not None:
            parts[name] = list(load_sts_file(path, job.format).pairs)
    if not parts["train"]:
        raise ValueError(f"{job.train} holds no training pairs (only dev/test rows)")
    return parts


def get_tokenizer(job: StsJob, texts: Sequence[str]) -> Tokenizer:
    """The job's tokenizer: a pretrained start's own, loaded from --tokenizer, or trained."""
    base = describe(job.init)
    if base is not None:
        if job.tokenizer is not None:
            raise ValueError("A pretrained start keeps its own tokenizer: drop --tokenizer")
        return base.tokenizer
    if job.tokenizer is not None:
        from explorer_core.tokenization.wordpiece import WordPieceTokenizer

        path = job.tokenizer
        if path.is_file() and path.suffix == ".txt":
            return WordPieceTokenizer.from_vocab(path, lowercase=job.lowercase)
        if (path / "vocab.txt").is_file() and not any(path.glob("explorer_tokenizer.json")):
            return WordPieceTokenizer.from_vocab(path / "vocab.txt", lowercase=job.lowercase)
        if not path.is_dir():
            raise ValueError(f"{path} is neither a tokenizer folder nor a vocab.txt")
        return load_tokenizer(path)
    if job.tokenizer_algo == "char-bpe":
        from explorer_core.tokenization.char_bpe import CharBPETokenizer

        tokenizer: Tokenizer = CharBPETokenizer(lowercase=job.lowercase)
    else:
        tokenizer = new_tokenizer(job.tokenizer_algo)
    text = "\n".join(texts)
    size = job.vocab_size or (0 if job.tokenizer_algo == "char-bpe" else OTHER_ALGO_VOCAB)
    if size == 0:
        try:
            tokenizer.train(text, 1)  # fails at once, saying the smallest size for `text`
        except VocabTooSmall as err:
            size = err.minimum + job.char_merges
    tokenizer.train(text, size)
    return tokenizer


def _budgets(
    job: StsJob, pretraining: bool, pretrained: bool = False
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Step/time budgets of (pretrain, finetune)."""
    if job.time_budget is not None:
        share = PRETRAIN_SHARE if pretraining else 0.0
        pre = {"steps": None, "time_budget": job.time_budget * share} if pretraining else {}
        fine = {"steps": job.steps, "time_budget": job.time_budget * (1.0 - share)}
        return pre, fine
    if pretrained:  # a pretrained model's steps are slow on a CPU: stop at the clock too
        return {}, {"steps": job.steps or PRETRAINED_STEPS, "time_budget": PRETRAINED_SECONDS}
    steps = job.steps or DEFAULT_STEPS
    return {"steps": steps}, {"steps": steps}


def build_plan(
    job: StsJob, tokenizer: Tokenizer, parts: dict[str, list[SentencePair]]
) -> TrainingPlan:
    preset, base = get_preset(job.preset), describe(job.init)
    vocab = BertVocab.of(tokenizer)
    config = base.config if base else preset.config(vocab.size, vocab.pad_id)
    if job.dropout is not None:
        config = replace(config, hidden_dropout_prob=job.dropout,
                         attention_probs_dropout_prob=job.dropout)  # fmt: skip
    if base is not None:
        preset = replace(preset, name=base.label, pooling=base.pooling, **PRETRAINED_FINETUNE)
        if job.pretrain_corpus is not None or job.pretrain_on_pairs:
            raise ValueError("A pretrained start is fine-tuned only: drop --pretrain-corpus")
    corpus: list[str] = []
    if job.pretrain_corpus is not None:
        corpus += Path(job.pretrain_corpus).read_text(encoding="utf-8").splitlines()
    if job.pretrain_on_pairs:
        corpus += [f"{p.sentence1}\t{p.sentence2}" for p in parts["train"] if p.score >= 2.5]
    pretraining = bool(corpus)
    if job.whole_word and not pretraining:
        raise ValueError("--whole-word masks words for pre-training: give --pretrain-corpus too")
    pre_budget, fine_budget = _budgets(job, pretraining, base is not None)
    negatives = job.in_batch_negatives
    if negatives is None:
        negatives = IN_BATCH_NEGATIVES and base is None
    loss = job.loss or (SCRATCH_LOSS if base is None else "cosine")
    common = {"seed": job.seed, "batch_size": preset.batch_size}
    pretrain = job.pretrain or (
        PretrainConfig(learning_rate=preset.learning_rate, whole_word=job.whole_word, **common,
                       **pre_budget)  # fmt: skip
        if pretraining else None
    )  # fmt: skip
    finetune = job.finetune or FinetuneConfig(
        learning_rate=preset.learning_rate, pooling=preset.pooling, loss=loss,
        in_batch_negatives=negatives, **common, **fine_budget,
    )  # fmt: skip
    return TrainingPlan(
        tokenizer=tokenizer, model_config=config, pooling=finetune.pooling,
        corpus=tuple(corpus), pretrain=pretrain, train_pairs=tuple(parts["train"]),
        dev_pairs=tuple(parts["dev"]), finetune=finetune, name=preset.name, seed=job.seed,
        init=job.init, device=job.device,
    )  # fmt: skip


def evaluate(ckpt: Checkpoint, pairs: Sequence[SentencePair], max_length: int) -> dict[str, Any]:
    """Spearman/Pearson on `pairs` (None when empty), overall and per language."""
    if not pairs:
        return {"spearman": None, "pearson": None, "by_lang": {}}
    encoder = ckpt.encoder()
    rho, r = evaluate_pairs(encoder, ckpt.tokenizer, pairs, max_length)
    by_lang = {}
    for lang in sorted({p.lang for p in pairs if p.lang}):
        subset = [p for p in pairs if p.lang == lang]
        if len(subset) >= 3:
            by_lang[lang] = evaluate_pairs(encoder, ckpt.tokenizer, subset, max_length)[0]
    return {"spearman": rho, "pearson": r, "by_lang": by_lang}


def run_sts_job(
    job: StsJob, progress: Callable[[TrainingPlan], Callback] | None = None
) -> dict[str, Any]:
    """Run the job, save the checkpoint into `job.out`, and report the figures.

    `progress(plan)`, when given, returns the callback that sees every step and evaluation (the
    CLI prints them). Under torchrun every rank trains; only rank 0 saves.
    """
    parts = read_splits(job)
    tokenizer = get_tokenizer(job, [s for p in parts["train"] for s in (p.sentence1, p.sentence2)])
    plan = build_plan(job, tokenizer, parts)
    ckpt = run_plan(plan, callback=progress(plan) if progress else None)
    if world().main:
        save_checkpoint(ckpt, job.out)
    dev = evaluate(ckpt, parts["dev"], plan.finetune.max_length)
    test = evaluate(ckpt, parts["test"], plan.finetune.max_length)
    return {
        "steps": sum(len(log.steps) for log in ckpt.log.values()),
        "pretrain_steps": len(ckpt.log["pretrain"].steps) if "pretrain" in ckpt.log else 0,
        "finetune_steps": len(ckpt.log["finetune"].steps),
        "train_pairs": len(parts["train"]),
        "dev_spearman": dev["spearman"],
        "test_spearman": test["spearman"],
        "dev_pearson": dev["pearson"],
        "test_pearson": test["pearson"],
        "test_spearman_by_lang": test["by_lang"],
        "tokenizer": f"{tokenizer.algo}, {BertVocab.of(tokenizer).size} ids",
        # the model's own count: ALBERT's shared layer once, E -> H, GeGLU (count_parameters
        # is BERT's formula)
        "parameters": sum(p.numel() for p in ckpt.model.parameters()),
        "out": str(job.out),
    }
