"""From the Train page's choices to a `TrainingPlan`, a memory check, and the shared trained model.

The page collects plain values (preset, sizes, steps, objective) into a frozen `TrainChoices`;
`model_config` turns them into a validated `BertConfig`, `check_memory` refuses a config that would
not fit in this machine's free memory, and `build_plan` returns the `TrainingPlan` that
`training.worker.TrainingRun` runs in a worker process; `run_memory_bytes` is what one run
holds, which the server's admission budgets.

>>> choices = TrainChoices(preset="tiny", finetune_steps=20)
>>> choices.objective, choices.hidden_size
('pretrain+finetune', 128)
>>> estimate_training_bytes(PRESETS["tiny"].config(4000), batch_size=32, max_length=64) < 2**30
True
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property

from explorer_core.bert.config import BertConfig
from explorer_core.inputs.sts_format import SentencePair
from explorer_core.inputs.vocab import BertVocab
from explorer_core.runtime import meminfo_bytes
from explorer_core.tokenization import Tokenizer
from explorer_core.training.base_models import BaseModel, describe
from explorer_core.training.baselines import fit_baseline
from explorer_core.training.checkpoint import Checkpoint
from explorer_core.training.finetune import FinetuneConfig, predict_cosines
from explorer_core.training.metrics import spearman
from explorer_core.training.presets import (
    PRESETS,
    PRETRAINED_FINETUNE,
    count_parameters,
    get_preset,
)
from explorer_core.training.pretrain import PretrainConfig
from explorer_core.training.run import ModelSnapshot, TrainingPlan

OBJECTIVES = ("pretrain+finetune", "finetune", "pretrain")  # "pretrain": MLM + NSP only
BYTES_PER_FLOAT = 4
MEMORY_SHARE = 0.5  # a run may take at most this share of the memory that is free right now


@dataclass(frozen=True)
class TrainChoices:
    """Everything the learner sets on the Train page; sizes default to the preset's."""

    preset: str = "tiny"
    objective: str = "pretrain+finetune"  # one of OBJECTIVES
    hidden_size: int | None = None  # None: the preset's value
    num_hidden_layers: int | None = None
    num_attention_heads: int | None = None
    intermediate_size: int | None = None
    max_length: int = 64  # tokens per sentence (pair rows for pre-training)
    pretrain_steps: int = 60
    finetune_steps: int = 200
    time_budget: float | None = None  # seconds for the whole run; None: steps only
    batch_size: int | None = None
    learning_rate: float | None = None
    eval_every: int = 25
    snapshot_every: int = 25
    seed: int = 0
    whole_word: bool = False  # pre-training masks whole words (jieba's words in Chinese)

    def __post_init__(self) -> None:
        get_preset(self.preset)
        if self.objective not in OBJECTIVES:
            raise ValueError(f"objective must be one of {', '.join(OBJECTIVES)}")
        preset = PRESETS[self.preset]
        for name in ("hidden_size", "num_hidden_layers", "num_attention_heads",
                     "intermediate_size", "batch_size", "learning_rate"):  # fmt: skip
            if getattr(self, name) is None:
                object.__setattr__(self, name, getattr(preset, name))


def model_config(choices: TrainChoices, tokenizer: Tokenizer) -> BertConfig:
    """The preset's architecture with the learner's sizes, for the tokenizer's vocabulary.

    Raises ValueError (from BertConfig) when e.g. the hidden size is not a multiple of the heads.
    """
    vocab = BertVocab.of(tokenizer)
    base = get_preset(choices.preset).config(vocab.size, vocab.pad_id)
    return replace(
        base,
        hidden_size=int(choices.hidden_size),
        num_hidden_layers=int(choices.num_hidden_layers),
        num_attention_heads=int(choices.num_attention_heads),
        intermediate_size=int(choices.intermediate_size),
        max_position_embeddings=max(base.max_position_embeddings, 2 * choices.max_length),
    )


def estimate_training_bytes(config: BertConfig, batch_size: int, max_length: int) -> int:
    """A rough upper estimate of the memory one training step needs, in bytes.

    Weights, gradients and AdamW's two moments: 4 floats per parameter (plus the MLM decoder bias
    and NSP head). Activations kept for the backward pass, per row and token and layer: about
    16 H + 4 I floats (projections, norms, dropout masks, feed-forward) and 4 x heads x T attention
    floats (scores, softmax, dropout). A fine-tuning step encodes both sentences: 2 x batch rows.
    Measured peak memory of a Small step (batch 32 and 64, length 64 and 128) was within 10%.

    >>> cfg = PRESETS["tiny"].config(4000)
    >>> round(estimate_training_bytes(cfg, 32, 64) / 2**20)
    182
    """
    params = count_parameters(config) + config.vocab_size + 2 * config.hidden_size + 2
    weights = 4 * params
    rows, h, t = 2 * batch_size, config.hidden_size, max_length
    per_token_layer = 16 * h + 4 * config.intermediate_size + 4 * config.num_attention_heads * t
    activations = rows * t * (config.num_hidden_layers * per_token_layer + 4 * h)
    return BYTES_PER_FLOAT * (weights + activations)


WORKER_BYTES = 260 * 2**20  # a worker process with torch imported (RSS measured: ~225 MB)


def run_memory_bytes(config: BertConfig, batch_size: int, max_length: int, snapshots: int) -> int:
    """The memory one run holds on the server, in bytes: what admission budgets.

    Its worker process (Python + torch), one training step (`estimate_training_bytes`), and in
    the server the weights of `snapshots` encoder copies plus the final model.

    >>> cfg = PRESETS["tiny"].config(4000)
    >>> round(run_memory_bytes(cfg, 32, 64, snapshots=6) / 2**20)
    468
    """
    weights = BYTES_PER_FLOAT * count_parameters(config)
    step = estimate_training_bytes(config, batch_size, max_length)
    return WORKER_BYTES + step + (snapshots + 1) * weights


def available_bytes() -> int | None:
    """Memory the system could give now (Linux MemAvailable), or None when unknown."""
    return meminfo_bytes("MemAvailable")


def check_memory(needed: int, available: int | None = None) -> None:
    """Raise ValueError when `needed` bytes exceed `MEMORY_SHARE` of the free memory.

    >>> check_memory(10 * 2**20, available=2**30)
    >>> check_memory(900 * 2**20, available=2**30)
    Traceback (most recent call last):
    ...
    ValueError: Training this model needs about 900 MB but only 512 MB can be spared: \
choose fewer layers, a smaller hidden size, batch or length.
    """
    available = available_bytes() if available is None else available
    if available is None:
        return
    budget = int(available * MEMORY_SHARE)
    if needed > budget:
        raise ValueError(
            f"Training this model needs about {needed // 2**20} MB but only {budget // 2**20} MB "
            "can be spared: choose fewer layers, a smaller hidden size, batch or length."
        )


def pretrain_lines(corpus: str, train_pairs: Sequence[SentencePair]) -> tuple[str, ...]:
    """Pre-training lines: the corpus, then each related training pair as a ready-made pair.

    A pair scored 2.5 or more becomes ``sentence1<TAB>sentence2``, a true "next sentence" for NSP.
    """
    pairs = [f"{p.sentence1}\t{p.sentence2}" for p in train_pairs if p.score >= 2.5]
    return (*corpus.splitlines(), "", *pairs)


def _eval_every(every: int, steps: int) -> int:
    """Evaluate at least about 10 times per phase, never more often than every 5 steps.

    >>> _eval_every(25, 300), _eval_every(25, 100), _eval_every(25, 20), _eval_every(0, 100)
    (25, 10, 5, 0)
    """
    return min(int(every), max(5, int(steps) // 10)) if every else 0


def build_plan(
    choices: TrainChoices,
    tokenizer: Tokenizer,
    parts: dict[str, list[SentencePair]],
    corpus: str = "",
    available: int | None = None,
) -> TrainingPlan:
    """The `TrainingPlan` of the choices; ValueError (a sentence) for a config that cannot run."""
    if not parts.get("train"):
        raise ValueError("The training split has no sentence pairs: choose other data")
    config = model_config(choices, tokenizer)
    check_memory(estimate_training_bytes(config, choices.batch_size, choices.max_length), available)
    pretraining = choices.objective in ("pretrain+finetune", "pretrain")
    fine_tuning = choices.objective != "pretrain"
    share = (0.4 if fine_tuning else 1.0) if pretraining else 0.0  # of a budget spent pre-training
    budget = choices.time_budget
    common = {
        "batch_size": int(choices.batch_size), "learning_rate": float(choices.learning_rate),
        "snapshot_every": int(choices.snapshot_every), "seed": int(choices.seed),
    }  # fmt: skip
    pretrain = None
    if pretraining:
        pretrain = PretrainConfig(
            steps=int(choices.pretrain_steps), time_budget=budget * share if budget else None,
            max_length=2 * choices.max_length,
            eval_every=_eval_every(choices.eval_every, choices.pretrain_steps),
            whole_word=choices.whole_word, **common,
        )  # fmt: skip
    finetune = None
    if fine_tuning:
        finetune = FinetuneConfig(
            steps=int(choices.finetune_steps), max_length=choices.max_length,
            time_budget=budget * (1 - share) if budget else None,
            pooling=get_preset(choices.preset).pooling,
            eval_every=_eval_every(choices.eval_every, choices.finetune_steps), **common,
        )  # fmt: skip
    return TrainingPlan(
        tokenizer=tokenizer, model_config=config, pooling=get_preset(choices.preset).pooling,
        corpus=pretrain_lines(corpus, parts["train"]) if pretraining else (),
        pretrain=pretrain, train_pairs=tuple(parts["train"]),
        dev_pairs=tuple(parts.get("dev", ())), finetune=finetune,
        name=choices.preset.capitalize(), seed=choices.seed,
    )  # fmt: skip


@dataclass(frozen=True, eq=False)
class SharedModel:
    """What the Train page puts into the session for the other pages (see ui/state.py).

    `model`, `tokenizer` and `label` are the contract; `checkpoint` is the whole bundle (for the
    zip), `snapshots` the encoder at intervals of training (first = before, last = after), and
    `source` says where it came from: "trained" in this session or "uploaded".
    """

    checkpoint: Checkpoint
    source: str = "trained"
    snapshots: tuple[ModelSnapshot, ...] = field(default_factory=tuple)
    uid: str = field(default_factory=lambda: uuid.uuid4().hex)  # names this model in caches

    @property
    def model(self):  # noqa: ANN201 - a BertModel in eval mode
        return self.checkpoint.model

    @property
    def tokenizer(self) -> Tokenizer:
        return self.checkpoint.tokenizer

    @property
    def label(self) -> str:
        return self.checkpoint.label

    @cached_property
    def mlm(self):  # noqa: ANN201 - a BertForPreTraining whose `.bert` is `model`, or None
        """The model with its MLM head, when it was pre-trained and not fine-tuned after (the
        Inside the encoder page's logit lens); built once."""
        return self.checkpoint.pretraining_model()


def split_scores(
    ckpt: Checkpoint, parts: dict[str, list[SentencePair]], splits: Sequence[str] = ("dev", "test")
) -> list[dict[str, object]]:
    """Per split: pairs, the model's Spearman and the lexical baseline's (fitted on train).

    Splits with fewer than 2 pairs get None for both correlations.
    """
    baseline = fit_baseline(parts["train"]) if parts.get("train") else None
    rows = []
    for name in splits:
        pairs = parts.get(name) or []
        model_rho = base_rho = None
        if len(pairs) >= 2:
            cos = predict_cosines(ckpt.encoder(), ckpt.tokenizer, pairs, ckpt.max_length)
            gold = [p.score for p in pairs]
            model_rho = spearman(cos.tolist(), gold)
            if baseline is not None:
                base_rho = spearman(baseline.predict(pairs), gold)
        rows.append({"split": name, "pairs": len(pairs), "model": model_rho, "baseline": base_rho})
    return rows


def start_from(
    plan: TrainingPlan, init: str, session: Checkpoint | None = None,
    base: BaseModel | None = None,
) -> TrainingPlan:  # fmt: skip
    """`plan` started from `init` (base_models.INITS, a folder or a Hub name) instead of fresh
    weights.

    "session" continues the session's model (its tokenizer and architecture, no pre-training);
    a pretrained model keeps its own tokenizer and pooling and is fine-tuned only, with
    Sentence-BERT's small steps (presets.PRETRAINED_FINETUNE). `base`: the start already
    described (`base_models.describe_opened`: a model the session opened), else read here.
    """
    if init == "fresh":
        return plan
    fine = plan.finetune or FinetuneConfig()
    if init == "session":
        if session is None:
            raise ValueError("Train or upload a model first, then continue training it")
        return replace(
            plan, tokenizer=session.tokenizer, model_config=session.config, init="session",
            base_model=session.model, pretrain=None, corpus=(), pooling=session.pooling,
            finetune=replace(fine, pooling=session.pooling),
        )  # fmt: skip
    base = base or describe(init)
    fine = replace(fine, pooling=base.pooling, in_batch_negatives=False, **PRETRAINED_FINETUNE)
    return replace(
        plan, tokenizer=base.tokenizer, model_config=base.config, init=init, pretrain=None,
        corpus=(), pooling=base.pooling, finetune=fine, name=base.label,
    )  # fmt: skip
