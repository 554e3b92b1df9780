"""Training loops' shared parts: configs, step records, the learning-rate schedule, the loop itself.

Two objectives build on this module: MLM + NSP pre-training (`pretrain.pretrain`) and
similarity fine-tuning of a siamese encoder (`finetune.finetune`). Both take a config, a progress
callback and a stop flag, and return the trained model with the full log::

    result = finetune(model, tokenizer, pairs, FinetuneConfig(steps=100), dev=dev_pairs,
                      callback=print, stop=threading.Event())
    result.log.steps[-1]   -> TrainStep(phase='finetune', step=100, seconds=..., loss=0.04, ...)

The loop records one frozen `TrainStep` per optimiser step and one `EvalRecord` per evaluation, and
checks the stop flag between steps, so a page can run it in a worker thread (`TrainingRun`) and stop
it at any time; the model is then kept as it is after the last finished step.

Learning rate: linear warm-up over the first `warmup` fraction of training, then linear or cosine
decay to 0. "Fraction of training" is the larger of step / steps and elapsed / time_budget, so a run
with a time budget also warms up and decays. Same seed and a step budget give the same losses; a
time budget makes the learning rate depend on the clock.
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import torch
from torch import nn

from explorer_core.training.devices import agree, mean_over_ranks, world
from explorer_core.training.loop_config import LoopConfig


@dataclass(frozen=True)
class TrainStep:
    """One optimiser step. Loss parts that the objective does not have are None."""

    phase: str  # "pretrain" or "finetune"
    step: int  # 1-based
    seconds: float  # since the phase started
    lr: float
    loss: float  # what was minimised: the sum of the parts below
    mlm_loss: float | None = None
    nsp_loss: float | None = None
    sim_loss: float | None = None  # cosine vs score/5 (MSE) or CoSENT
    mnr_loss: float | None = None  # in-batch negatives
    en_loss: float | None = None  # distillation: English sentence vs the teacher's vector
    zh_loss: float | None = None  # distillation: its translation vs the teacher's vector


@dataclass(frozen=True)
class EvalRecord:
    """One evaluation on the dev pairs (finetune) or held-out lines (pretrain)."""

    phase: str
    step: int
    seconds: float
    dev_spearman: float | None = None
    dev_pearson: float | None = None
    dev_loss: float | None = None
    dev_spearman_en: float | None = None  # distillation: dev Spearman per language
    dev_spearman_zh: float | None = None
    unk_share: float | None = None  # distillation: share of [UNK] tokens in Chinese text


Record = TrainStep | EvalRecord
Callback = Callable[[Record], None]


@dataclass
class TrainLog:
    """Everything a run recorded. `stop_reason`: "steps", "time", "stopped" or "" while running."""

    steps: list[TrainStep] = field(default_factory=list)
    evals: list[EvalRecord] = field(default_factory=list)
    stop_reason: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "steps": [asdict(s) for s in self.steps],
            "evals": [asdict(e) for e in self.evals],
            "stop_reason": self.stop_reason,
            "seconds": self.seconds,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainLog:
        return cls(
            steps=[TrainStep(**s) for s in data.get("steps", [])],
            evals=[EvalRecord(**e) for e in data.get("evals", [])],
            stop_reason=str(data.get("stop_reason", "")),
            seconds=float(data.get("seconds", 0.0)),
        )


@dataclass
class TrainResult:
    model: nn.Module  # BertForPreTraining after pretrain, SentenceEncoder after finetune
    log: TrainLog


def lr_factor(progress: float, warmup: float, schedule: str) -> float:
    """Multiplier of the peak learning rate at `progress` in [0, 1] of training.

    >>> [round(lr_factor(p, 0.1, "linear"), 2) for p in (0.0, 0.05, 0.1, 0.55, 1.0)]
    [0.0, 0.5, 1.0, 0.5, 0.0]
    >>> round(lr_factor(0.55, 0.1, "cosine"), 2)
    0.5
    """
    progress = min(max(progress, 0.0), 1.0)
    if warmup > 0 and progress < warmup:
        return progress / warmup
    if schedule == "constant":
        return 1.0
    rest = (progress - warmup) / (1.0 - warmup)  # 0 right after warm-up, 1 at the end
    if schedule == "cosine":
        return 0.5 * (1.0 + math.cos(math.pi * rest))
    return 1.0 - rest


def time_left(config: LoopConfig, step: int, seconds: float) -> float | None:
    """Seconds a phase still needs after `step` steps in `seconds`: the sooner of its budgets.

    >>> time_left(LoopConfig(steps=100), 25, 10.0)
    30.0
    >>> time_left(LoopConfig(steps=None, time_budget=60), 25, 10.0)
    50.0
    """
    left = []
    if config.time_budget is not None:
        left.append(max(0.0, config.time_budget - seconds))
    if config.steps is not None and step > 0:
        left.append(max(0, config.steps - step) * seconds / step)
    return min(left) if left else None


@contextlib.contextmanager
def seeded(seed: int) -> Iterator[None]:
    """Run a block with torch's default generator seeded, restoring its state afterwards.

    # subtle: weight initialisation (nn.Linear) and dropout draw from torch's default generator and
    # take no `generator` argument; forking it keeps the run reproducible and leaves the caller's
    # random state untouched. Batches and masks use their own `torch.Generator`s. Two runs in
    # parallel threads share that default generator, so their dropout masks may interleave: each
    # still trains correctly, only bit-for-bit reproducibility needs one run at a time.
    """
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        yield


def make_optimizer(
    model: nn.Module, config: LoopConfig, lr_scales: dict[str, float] | None = None
) -> torch.optim.AdamW:
    """AdamW with weight decay on matrices only (not on biases, LayerNorm or embeddings' norms).

    `lr_scales` maps parameter names (as `model.named_parameters()` gives them) to a multiplier of
    the learning rate, kept in their group as "lr_scale" (the loop's schedule applies it).
    """
    lr_scales = lr_scales or {}
    groups: dict[tuple[bool, float], list[nn.Parameter]] = {}
    for name, param in model.named_parameters():
        if not param.requires_grad:
            continue
        decay = not (param.dim() < 2 or "LayerNorm" in name)
        groups.setdefault((decay, lr_scales.get(name, 1.0)), []).append(param)
    return torch.optim.AdamW(
        [{"params": params, "weight_decay": config.weight_decay if decay else 0.0,
          "lr_scale": scale} for (decay, scale), params in groups.items()],
        lr=config.learning_rate,
    )  # fmt: skip


Snapshot = Callable[[str, int, nn.Module], None]  # (phase, step, BertModel) -> None
StepFn = Callable[[int], dict[str, torch.Tensor]]  # step -> {"loss": tensor, part: tensor, ...}


@dataclass
class Loop:
    """The optimiser loop shared by both objectives (see the module docstring)."""

    phase: str
    model: nn.Module
    config: LoopConfig
    step_fn: StepFn  # forward pass of one batch; returns the loss and its parts
    eval_fn: Callable[[int, float], EvalRecord] | None = None
    callback: Callback | None = None
    stop: threading.Event | None = None
    on_snapshot: Snapshot | None = None
    encoder: nn.Module | None = None  # the BertModel handed to `on_snapshot` (default: model)
    lr_scales: dict[str, float] | None = None  # learning-rate multipliers by parameter name

    def _snapshot(self, step: int) -> None:
        if self.on_snapshot is not None and self.config.snapshot_every:
            self.on_snapshot(self.phase, step, self.encoder or self.model)

    def progress(self, step: float, elapsed: float) -> float:
        parts = [0.0]
        if self.config.steps:
            parts.append(step / self.config.steps)
        if self.config.time_budget:
            parts.append(elapsed / self.config.time_budget)
        return max(parts)

    def _emit(self, record: Record, log: TrainLog) -> None:
        (log.steps if isinstance(record, TrainStep) else log.evals).append(record)
        if self.callback is not None:
            self.callback(record)

    def _evaluate(self, step: int, start: float, log: TrainLog) -> None:
        if self.eval_fn is None or not world().main:  # only rank 0 reports
            return
        self.model.eval()
        with torch.no_grad():
            self._emit(self.eval_fn(step, time.perf_counter() - start), log)
        self.model.train()

    def run(self) -> TrainLog:
        with seeded(self.config.seed + 1):  # dropout masks, reproducible per seed
            return self._run()

    def _run(self) -> TrainLog:
        cfg, log = self.config, TrainLog()
        optimizer = make_optimizer(self.model, cfg, self.lr_scales)
        params = [p for p in self.model.parameters() if p.requires_grad]
        start, step = time.perf_counter(), 0
        self.model.train()
        self._snapshot(0)
        while True:
            # subtle: with several processes all ranks must stop at the same step and share one
            # clock (the learning rate depends on it), or DDP waits forever for the missing rank
            elapsed, flagged = agree(
                time.perf_counter() - start, self.stop is not None and self.stop.is_set()
            )
            if flagged:
                log.stop_reason = "stopped"
            elif cfg.steps is not None and step >= cfg.steps:
                log.stop_reason = "steps"
            elif cfg.time_budget is not None and elapsed >= cfg.time_budget:
                log.stop_reason = "time"
            if log.stop_reason:
                break
            progress = self.progress(step + 0.5, elapsed)  # mid-step: the first step is not lr 0
            lr = cfg.learning_rate * lr_factor(progress, cfg.warmup, cfg.schedule)
            for group in optimizer.param_groups:
                group["lr"] = lr * group.get("lr_scale", 1.0)
            optimizer.zero_grad(set_to_none=True)
            parts = self.step_fn(step)
            parts["loss"].backward()
            if cfg.max_grad_norm:
                torch.nn.utils.clip_grad_norm_(params, cfg.max_grad_norm)
            optimizer.step()
            step += 1
            values = mean_over_ranks({k: float(v.detach()) for k, v in parts.items()})
            record = TrainStep(self.phase, step, time.perf_counter() - start, lr, **values)
            self._emit(record, log)
            if cfg.eval_every and step % cfg.eval_every == 0:
                self._evaluate(step, start, log)
            if cfg.snapshot_every and step % cfg.snapshot_every == 0:
                self._snapshot(step)
        if step and (not log.evals or log.evals[-1].step != step):
            self._evaluate(step, start, log)  # the final state is always evaluated
        self.model.eval()
        log.seconds = time.perf_counter() - start
        return log
