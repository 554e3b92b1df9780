"""MiniLM learns Chinese: multilingual knowledge distillation in place (Reimers & Gurevych 2020).

all-MiniLM-L6-v2 is English-only: most characters of a Chinese sentence are [UNK] to it. The recipe
makes a *student* that reads Chinese and puts a sentence and its translation on the same vector:

1. the student starts as MiniLM itself, its vocabulary extended with Chinese characters
   (`vocab_extension`): every old id and row unchanged, each new row starting at the mean of the
   Chinese rows MiniLM already had;
2. the *teacher* is MiniLM as it was (frozen): for each English sentence s of a parallel pair
   (s, t) it gives the target vector T(s), computed once before training;
3. the student S is trained so that both the sentence and its translation land on that vector::

       loss = MSE(S(s), T(s)) + MSE(S(t), T(s))        (mean over the batch and the H features)

   with mean pooling and unit-length vectors (as MiniLM is used), so each term is
   (2 - 2 cos) / H: the student's cosine to the teacher's vector, and nothing else.

The first term keeps the English space where it was; the second pulls Chinese into it. Everything
runs on our own BERT and tokenizer, through the shared `Loop` (seeded batches and dropout, a time
budget, a stop flag, a callback per step and per evaluation).

In use (a sketch; the tests run the real thing)::

    ckpt = build_chinese_minilm("minilm-zh/", callback=print)   # the shipped pairs, saved
    load_checkpoint("minilm-zh/").cosine("一个男人在弹吉他。", "A man is playing a guitar.")
"""

from __future__ import annotations

import math
import threading
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import torch
import torch.nn.functional as F

from explorer_core.bert.model import BertModel
from explorer_core.bert.pooling import SentenceEncoder
from explorer_core.bert.weights import load_weights
from explorer_core.inputs.datasets import SentencePair, builtin_corpus, builtin_sts_pairs
from explorer_core.inputs.parallel import ParallelPair, builtin_parallel_pairs
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization.wordpiece import WordPieceTokenizer
from explorer_core.training.batches import LengthBatches
from explorer_core.training.checkpoint import Checkpoint, replace_checkpoint, save_checkpoint
from explorer_core.training.devices import resolve_device
from explorer_core.training.finetune import embed_rows, evaluate_pairs
from explorer_core.training.loop import Callback, EvalRecord, Loop, LoopConfig
from explorer_core.training.multilingual_config import MultilingualConfig
from explorer_core.training.vocab_extension import (
    chinese_entries,
    cjk_ids,
    extend_rows,
    extend_vocabulary,
    unk_share,
)

PHASE = "multilingual"
WORD_KEY = "embeddings.word_embeddings.weight"


def distillation_loss(
    source: torch.Tensor, target: torch.Tensor, teacher: torch.Tensor
) -> dict[str, torch.Tensor]:
    """The two MSE terms: student's source vectors and translations vs the teacher's vectors.

    All (B, H). `en_loss` = MSE(source, teacher), `zh_loss` = MSE(target, teacher), `loss` is
    their sum.

    >>> t = torch.tensor([[1.0, 0.0]])
    >>> parts = distillation_loss(t, torch.tensor([[0.0, 1.0]]), t)
    >>> {k: float(v) for k, v in parts.items()}
    {'en_loss': 0.0, 'zh_loss': 1.0, 'loss': 1.0}
    """
    en, zh = F.mse_loss(source, teacher), F.mse_loss(target, teacher)
    return {"en_loss": en, "zh_loss": zh, "loss": en + zh}


def chinese_student(
    base: str = "minilm", texts: Sequence[str] = (), init: str = "cjk-mean"
) -> tuple[BertModel, WordPieceTokenizer, WordPieceTokenizer]:
    """(student, its tokenizer, the base's tokenizer): the base model with Chinese entries added
    (all of GB 2312, and the characters of `texts`) and their rows initialised by `init`."""
    from explorer_core.training.base_models import describe, load_weights_of

    described = describe(base)
    if described is None or not isinstance(described.tokenizer, WordPieceTokenizer):
        raise ValueError(f"{base!r} is not a pretrained WordPiece model: start from minilm")
    old = described.tokenizer
    entries = chinese_entries(old, texts)
    tokenizer = extend_vocabulary(old, entries)
    weights = load_weights_of(base)
    like = [i for i in cjk_ids(old) if i < weights[WORD_KEY].shape[0]]
    weights[WORD_KEY] = extend_rows(weights[WORD_KEY], len(entries), init, like)
    config = replace(described.config, vocab_size=weights[WORD_KEY].shape[0])
    model = BertModel(config, initialize=False)
    load_weights(model, weights)
    return model, tokenizer, old


def default_dev() -> list[SentencePair]:
    """The built-in scored pairs' dev split (English and Chinese), for the live curve."""
    return [p for p in builtin_sts_pairs() if p.split == "dev"]


def default_unk_texts() -> list[str]:
    """Ordinary Chinese prose the project ships (its Chinese corpus), for the [UNK] share."""
    return [line for line in builtin_corpus("zh").splitlines() if line.strip()]


def _evaluator(
    encoder: SentenceEncoder, tokenizer: WordPieceTokenizer, dev: Sequence[SentencePair],
    unk_texts: Sequence[str], max_length: int,
):  # fmt: skip
    vocab = BertVocab.of(tokenizer)
    by_lang = {lang: [p for p in dev if p.lang == lang] for lang in ("en", "zh")}
    share = unk_share(tokenizer, unk_texts)  # the vocabulary does not change while training

    def eval_fn(step: int, seconds: float) -> EvalRecord:
        rho = {
            lang: evaluate_pairs(encoder, tokenizer, pairs, max_length, vocab)[0]
            if len(pairs) >= 3 else None
            for lang, pairs in by_lang.items()
        }  # fmt: skip
        return EvalRecord(PHASE, step, seconds, dev_spearman=rho["zh"],
                          dev_spearman_en=rho["en"], dev_spearman_zh=rho["zh"],
                          unk_share=share)  # fmt: skip

    return eval_fn


def figures(
    model: BertModel, tokenizer: WordPieceTokenizer, dev: Sequence[SentencePair] | None = None,
    unk_texts: Sequence[str] | None = None, max_length: int = 64,
) -> EvalRecord:  # fmt: skip
    """What a distillation's curve measures, for any model (e.g. MiniLM as it is, the "before"
    of the Train page's table): dev Spearman per language and the [UNK] share, as step 0."""
    dev = default_dev() if dev is None else dev
    unk_texts = default_unk_texts() if unk_texts is None else unk_texts
    encoder = SentenceEncoder(model, "mean", normalize=True)
    with torch.no_grad():
        return _evaluator(encoder, tokenizer, dev, unk_texts, max_length)(0, 0.0)


def teacher_vectors(
    student: SentenceEncoder, old: WordPieceTokenizer, texts: Sequence[str], max_length: int
) -> torch.Tensor:
    """The teacher's (N, H) vectors of `texts`, computed by the untrained student.

    # subtle: the teacher is the base model as it was; the student's old rows are still equal to
    # it before the first step, so reading the text with the *old* tokenizer's ids (a character
    # the teacher did not know stays [UNK]) gives exactly the teacher's vectors, without a second
    # copy of the model in memory.
    """
    old_vocab = BertVocab.of(old)
    rows = [old_vocab.content_ids(old, text) for text in texts]
    return embed_rows(student, old_vocab, rows, max_length=max_length)


def distil(
    pairs: Sequence[ParallelPair],
    config: MultilingualConfig | None = None,
    *,
    base: str = "minilm",
    device: str = "auto",
    dev: Sequence[SentencePair] | None = None,
    unk_texts: Sequence[str] | None = None,
    callback: Callback | None = None,
    stop: threading.Event | None = None,
) -> Checkpoint:
    """Train a Chinese-reading student of `base` on parallel `pairs`; return it as a Checkpoint.

    `dev` (default: the built-in dev pairs) is scored per language at step 0, every evaluation
    and at the end; `unk_texts` (default: the built-in Chinese corpus) gives the [UNK] share. Each
    `TrainStep` carries `en_loss` and `zh_loss`; each `EvalRecord` `dev_spearman_en`,
    `dev_spearman_zh` (also `dev_spearman`) and `unk_share`. Same seed and a step budget give the
    same losses. `ckpt.log["multilingual"]` holds the whole log.
    """
    config = config or MultilingualConfig()
    if not pairs:
        raise ValueError("There are no parallel pairs to learn from")
    dev = default_dev() if dev is None else dev
    unk_texts = default_unk_texts() if unk_texts is None else unk_texts
    texts = [p.target for p in pairs] + [p.source for p in pairs]
    model, tokenizer, old = chinese_student(base, texts, config.init)
    model = model.to(resolve_device(device))
    encoder = SentenceEncoder(model, "mean", normalize=True)
    vocab = BertVocab.of(tokenizer)
    source = [vocab.content_ids(tokenizer, p.source) for p in pairs]
    target = [vocab.content_ids(tokenizer, p.target) for p in pairs]
    targets = teacher_vectors(encoder, old, [p.source for p in pairs], config.max_length)
    steps = config.total_steps(len(pairs))
    per_epoch = math.ceil(len(pairs) / config.batch_size)
    loop_config = replace(config, steps=steps, eval_every=config.eval_every or per_epoch)
    lengths = [len(a) + len(b) for a, b in zip(source, target, strict=True)]
    batches = LengthBatches(lengths, config.batch_size, config.seed, config.length_pool)

    def step_fn(step: int) -> dict[str, torch.Tensor]:
        idx = batches.next()
        run_on = next(model.parameters()).device
        vectors = []
        for side in (source, target):  # subtle: two passes, each padded to its own longest row
            rows = vocab.rows([side[i] for i in idx], max_length=config.max_length)  # (B, T)
            vectors.append(encoder(rows.input_ids.to(run_on), rows.attention_mask.to(run_on)))
        return distillation_loss(vectors[0], vectors[1], targets[idx].to(run_on))  # (B, H) each

    eval_fn = _evaluator(encoder, tokenizer, dev, unk_texts, config.max_length)
    scales = {f"model.{WORD_KEY}": config.embedding_lr_scale}  # names as the encoder has them
    loop = Loop(PHASE, encoder, loop_config, step_fn, eval_fn, callback, stop, encoder=model,
                lr_scales=scales)  # fmt: skip
    with torch.no_grad():
        first = eval_fn(0, 0.0)  # where the curve starts: MiniLM with the new rows, untrained
    if callback is not None:
        callback(first)
    log = loop.run()
    log.evals.insert(0, first)
    label = f"MiniLM + Chinese ({len(pairs)} parallel pairs, {len(log.steps)} steps)"
    return Checkpoint(model, tokenizer, "mean", label, {PHASE: log}, max_length=256)


def build_chinese_minilm(
    out: str | Path,
    config: MultilingualConfig | None = None,
    *,
    pairs: Sequence[ParallelPair] | None = None,
    device: str = "auto",
    dev: Sequence[SentencePair] | None = None,
    callback: Callback | None = None,
    stop: threading.Event | None = None,
) -> Checkpoint:
    """Distil MiniLM on `pairs` (default: the shipped `parallel_en_zh.tsv`) and save the student
    into `out` (`checkpoint.save_checkpoint`); `checkpoint.load_checkpoint(out)` loads it back."""
    pairs = builtin_parallel_pairs() if pairs is None else pairs
    ckpt = distil(pairs, config, device=device, dev=dev, callback=callback, stop=stop)
    save_checkpoint(ckpt, out)
    return ckpt


@dataclass(frozen=True, eq=False)
class DistillPlan:
    """A distillation as a training run (`training.worker.TrainingRun` runs it in a worker):
    the shipped pairs or `pairs`, `config`, and where the result goes.

    With `out` (a folder, e.g. `files.taught_model.folder()`, resolved by whoever makes the plan)
    the worker saves the student there atomically (`checkpoint.replace_checkpoint`) and carries
    no weights back (`returns_model` is False): every page reads the model from disk. Without
    it, the run's result is the Checkpoint, as for a `TrainingPlan`.
    """

    config: MultilingualConfig = MultilingualConfig()
    pairs: tuple[ParallelPair, ...] = ()  # empty: the shipped pairs
    device: str = "auto"
    out: str = ""
    dev: tuple[SentencePair, ...] | None = None  # None: the built-in dev pairs

    @property
    def returns_model(self) -> bool:
        return not self.out

    @cached_property
    def phases(self) -> tuple[tuple[str, LoopConfig], ...]:
        """One phase; its config carries the step budget, for the run's share done."""
        n_pairs = len(self.pairs) or len(builtin_parallel_pairs())
        return ((PHASE, replace(self.config, steps=self.config.total_steps(n_pairs))),)

    def run(
        self, *, callback: Callback | None = None, stop: threading.Event | None = None,
        on_snapshot: object = None,
    ) -> Checkpoint:  # fmt: skip
        """Distil (and install into `out`); `on_snapshot` is accepted and not used."""
        pairs = list(self.pairs) or builtin_parallel_pairs()
        ckpt = distil(pairs, self.config, device=self.device, dev=self.dev, callback=callback,
                      stop=stop)  # fmt: skip
        if self.out:
            replace_checkpoint(ckpt, self.out)
        return ckpt


def summarize(ckpt: Checkpoint) -> dict[str, object]:
    """The figures of a distillation run: steps, seconds, the last evaluation, the vocabulary."""
    log = ckpt.log[PHASE]
    last = log.evals[-1] if log.evals else None
    first = log.evals[0] if log.evals else None
    return {
        "steps": len(log.steps),
        "seconds": round(log.seconds, 2),
        "stop_reason": log.stop_reason,
        "vocab_size": ckpt.config.vocab_size,
        "loss": log.steps[-1].loss if log.steps else None,
        "dev_spearman_zh_before": first.dev_spearman_zh if first else None,
        "dev_spearman_zh": last.dev_spearman_zh if last else None,
        "dev_spearman_en": last.dev_spearman_en if last else None,
        "unk_share_zh": last.unk_share if last else None,
    }
