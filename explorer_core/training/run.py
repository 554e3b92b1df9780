"""A whole training job (pre-train, then fine-tune): what to train, and running it in place.

`TrainingPlan` says what to train: tokenizer, model config, the optional pre-training corpus and
config, the optional scored pairs and fine-tuning config. `run_plan(plan)` runs it synchronously
(the CLI, and the worker process of `training.worker.TrainingRun`, which is what a page starts,
polls and stops) and returns a `checkpoint.Checkpoint`. `ModelSnapshot` (the encoder's weights at
one moment) and `RunStatus` (what a page shows of a run) are the shapes a run reports in.

A plan travels to a worker process, so it stays picklable and small: plain values, the
tokenizer, at most a small base model.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import torch

from explorer_core.bert.config import BertConfig
from explorer_core.bert.heads import BertForPreTraining
from explorer_core.bert.model import BertModel
from explorer_core.bert.pooling import POOLING_MODES
from explorer_core.bert.weights import load_weights
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer
from explorer_core.training.base_models import FRESH_INITS, check_init, load_weights_of
from explorer_core.training.checkpoint import TIED_DECODER, Checkpoint
from explorer_core.training.devices import agree, resolve_device
from explorer_core.training.finetune import FinetuneConfig, ScoredPair, finetune
from explorer_core.training.loop import (
    Callback,
    EvalRecord,
    LoopConfig,
    Snapshot,
    TrainStep,
)
from explorer_core.training.pretrain import PretrainConfig, pretrain

STATES = ("idle", "running", "finished", "stopped", "failed")


@dataclass(frozen=True, eq=False)
class TrainingPlan:
    """What to train. A phase runs when its config is given; at least one must be."""

    tokenizer: Tokenizer
    model_config: BertConfig
    pooling: str = "mean"
    corpus: tuple[str, ...] = ()  # pre-training lines (a blank line separates texts)
    pretrain: PretrainConfig | None = None
    train_pairs: tuple[ScoredPair, ...] = ()
    dev_pairs: tuple[ScoredPair, ...] = ()
    finetune: FinetuneConfig | None = None
    name: str = "model"  # e.g. the preset's name, used in the label
    seed: int = 0  # weight initialisation
    base_model: BertModel | None = None  # continue from this encoder instead of a fresh one
    # where the weights start (base_models.INITS or a folder): a pretrained start is loaded by
    # the process that runs the plan, so the plan itself stays small
    init: str = "fresh"
    device: str = "cpu"  # devices.DEVICES: "auto", "cpu", "cuda" (or "cuda:N")

    def __post_init__(self) -> None:
        check_init(self.init)
        if self.init == "session" and self.base_model is None:
            raise ValueError("Starting from this session's model needs a trained model first")
        if self.pretrain is None and self.finetune is None:
            raise ValueError("Choose at least one objective: pre-training or fine-tuning")
        if self.pretrain is not None and not any(line.strip() for line in self.corpus):
            raise ValueError("Pre-training needs a corpus with at least a few lines of text")
        if self.finetune is not None and not self.train_pairs:
            raise ValueError(
                "Fine-tuning needs scored sentence pairs, and the training set is empty"
            )
        if self.pooling not in POOLING_MODES:
            raise ValueError(f"pooling must be one of {', '.join(POOLING_MODES)}")
        needed = BertVocab.of(self.tokenizer).size
        if needed > self.model_config.vocab_size:
            raise ValueError(
                f"The model's vocabulary ({self.model_config.vocab_size}) is smaller than the "
                f"tokenizer's ({needed} with BERT's special tokens)"
            )

    returns_model = True  # the worker sends the trained weights back (see training.worker)

    def run(
        self, *, callback: Callback | None = None, stop: threading.Event | None = None,
        on_snapshot: Snapshot | None = None,
    ) -> Checkpoint:  # fmt: skip
        """`run_plan(self, ...)`: what a worker calls on any plan."""
        return run_plan(self, callback=callback, stop=stop, on_snapshot=on_snapshot)

    @property
    def phases(self) -> tuple[tuple[str, LoopConfig], ...]:
        out: list[tuple[str, LoopConfig]] = []
        if self.pretrain is not None:
            out.append(("pretrain", self.pretrain))
        if self.finetune is not None:
            out.append(("finetune", self.finetune))
        return tuple(out)


def _label(plan: TrainingPlan, steps: dict[str, int], stopped: bool) -> str:
    parts = [f"{steps['pretrain']} pre-training"] if "pretrain" in steps else []
    if "finetune" in steps:
        parts.append(f"{steps['finetune']} fine-tuning")
    text = f"{plan.name}, trained in this session: {' + '.join(parts)} steps"
    return text + (" (stopped early)" if stopped else "")


def build_model(plan: TrainingPlan, *, pretraining: bool) -> torch.nn.Module:
    """The model a plan starts from, on the plan's device: BertForPreTraining or BertModel.

    Weights: seeded random (fresh), the session's encoder (`base_model`), or a pretrained start
    loaded from disk here (`base_models.load_weights_of`), in the process that trains.
    """
    config = plan.model_config
    if pretraining:
        model = BertForPreTraining(config, seed=plan.seed)
        encoder = model.bert
    else:
        model = encoder = BertModel(config, seed=plan.seed)
    if plan.base_model is not None:
        encoder.load_state_dict(plan.base_model.state_dict())
    elif plan.init not in FRESH_INITS:
        load_weights(encoder, load_weights_of(plan.init))
    return model.to(resolve_device(plan.device))


def finetune_within_budget(plan: TrainingPlan, spent: float) -> FinetuneConfig:
    """The fine-tuning config, its time budget cut to what is left of the run's after `spent`
    seconds of setup and pre-training (never lengthened; at least one second).

    # subtle: the phases' budgets add up to the run's. Without this, building the model and the
    # pre-training's last step and evaluation came on top, and runs overshot by 15-20%.

    >>> from explorer_core.inputs.datasets import builtin_sts_pairs
    >>> from explorer_core.tokenization import new_tokenizer
    >>> plan = TrainingPlan(new_tokenizer("word"), BertConfig(vocab_size=99), corpus=("a b",),
    ...                     pretrain=PretrainConfig(steps=None, time_budget=40),
    ...                     train_pairs=tuple(builtin_sts_pairs()[:2]),
    ...                     finetune=FinetuneConfig(steps=None, time_budget=60))
    >>> finetune_within_budget(plan, spent=47.5).time_budget  # 100 s in all, 47.5 s gone
    52.5
    >>> finetune_within_budget(plan, spent=10.0).time_budget  # ahead of time: its own share
    60
    """
    fine = plan.finetune
    if fine is None or fine.time_budget is None:
        return fine
    before = (plan.pretrain.time_budget or 0.0) if plan.pretrain is not None else 0.0
    left = max(before + fine.time_budget - spent, 1.0)
    return replace(fine, time_budget=left) if left < fine.time_budget else fine


def run_plan(
    plan: TrainingPlan,
    *,
    callback: Callback | None = None,
    stop: threading.Event | None = None,
    on_snapshot: Snapshot | None = None,
) -> Checkpoint:
    """Run every phase of `plan` in order and return the trained encoder as a Checkpoint."""
    logs, stop, started = {}, stop or threading.Event(), time.monotonic()
    head = None
    if plan.pretrain is not None:
        head = build_model(plan, pretraining=True)
        result = pretrain(
            head, plan.tokenizer, list(plan.corpus), plan.pretrain,
            callback=callback, stop=stop, on_snapshot=on_snapshot,
        )  # fmt: skip
        logs["pretrain"], encoder = result.log, head.bert
    else:
        encoder = build_model(plan, pretraining=False)
    if plan.finetune is not None:
        # subtle: under torchrun every rank must get the same budget, or one rank stops a step
        # before the other and the other waits for it in DDP (gloo: "Connection closed by
        # peer"). Each rank's setup took its own time (by seconds on a busy machine): the ranks
        # agree on the longest, as the loop agrees on its clock at every step.
        spent, stopping = agree(time.monotonic() - started, stop.is_set())
        if not stopping:
            fine = finetune_within_budget(plan, spent)
            result = finetune(
                encoder, plan.tokenizer, plan.train_pairs, fine, dev=plan.dev_pairs or None,
                callback=callback, stop=stop, on_snapshot=on_snapshot,
            )  # fmt: skip
            logs["finetune"] = result.log
    # subtle: Stop can land before a phase starts (e.g. while the model is being built); that
    # phase then has no log, yet it counts: 0 steps, stopped early.
    steps = {phase: len(logs[phase].steps) if phase in logs else 0 for phase, _ in plan.phases}
    stopped = stop.is_set() or any(log.stop_reason == "stopped" for log in logs.values())
    max_length = plan.finetune.max_length if plan.finetune else plan.pretrain.max_length
    # the MLM head belongs to the encoder only while no fine-tuning step has moved it
    kept = head is not None and steps.get("finetune", 0) == 0
    return Checkpoint(
        model=encoder.eval(), tokenizer=plan.tokenizer, pooling=plan.pooling,
        label=_label(plan, steps, stopped), log=logs, max_length=max_length,
        mlm_head=mlm_head_weights(head) if kept else None,
    )  # fmt: skip


def mlm_head_weights(model: BertForPreTraining) -> dict[str, torch.Tensor]:
    """The pre-training heads' own weights (copies), less the decoder: the word embeddings."""
    state = model.cls.state_dict()
    return {k: v.detach().cpu().clone() for k, v in state.items() if k != TIED_DECODER}


@dataclass(frozen=True)
class ModelSnapshot:
    """The encoder's weights at one moment of training (copies, safe to keep)."""

    phase: str
    step: int
    config: BertConfig
    state: dict[str, torch.Tensor] = field(repr=False)

    def model(self) -> BertModel:
        """A BertModel (eval mode) with these weights."""
        model = BertModel(self.config, initialize=False)
        model.load_state_dict(self.state)  # strict: every weight is set
        return model.eval()


@dataclass(frozen=True)
class RunStatus:
    state: str  # one of STATES
    phase: str  # "pretrain", "finetune" or "" before the first step
    step: int  # optimiser steps of the current phase
    total_steps: int | None  # of the current phase, when it has a step budget
    seconds: float  # since start()
    fraction: float  # of the whole plan done, 0..1 (steps or time budget, whichever is further)
    eta_seconds: float | None  # estimated time left; None until there is a first step
    last_step: TrainStep | None
    last_eval: EvalRecord | None
    error: str  # the error message when state is "failed"


def fraction_done(
    names: Sequence[str], phase: str, last: TrainStep | None, config: LoopConfig | None, state: str
) -> float:
    """Share of the plan done: finished phases count 1, the current one by steps or time."""
    if state in ("finished", "stopped"):
        return 1.0
    if last is None or config is None:
        return 0.0
    parts = [0.0]
    if config.steps:
        parts.append(last.step / config.steps)
    if config.time_budget:
        parts.append(last.seconds / config.time_budget)
    return (names.index(phase) + min(1.0, max(parts))) / len(names)
