"""A whole training job (pre-train, then fine-tune) and a thread that runs it for a page.

`TrainingPlan` says what to train: tokenizer, model config, the optional pre-training corpus and
config, the optional scored pairs and fine-tuning config. `run_plan(plan)` runs it synchronously
(the CLI) and returns a `checkpoint.Checkpoint`. `TrainingRun(plan)` runs the same job in a worker
thread so a page stays responsive and polls it::

    run = TrainingRun(plan)
    run.start()                 # True; a second start() while it runs returns False
    run.status()                # RunStatus(state="running", phase="finetune", step=40, ...)
    run.records()               # [TrainStep(...), EvalRecord(...), ...] so far, for the curves
    run.stop()                  # finishes the current step, keeps the model as it is
    run.result()                # the Checkpoint once state is "finished" or "stopped"
    run.snapshots()            # [Snapshot(phase, step, ...)]: the encoder at intervals
    run.snapshots()[0].model()  # a BertModel as it was before training (with snapshot_every)

Everything shared between the worker and the page sits behind one lock; there is no streamlit here
(the page keeps the `TrainingRun` in its session state, so every browser session has its own).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import torch

from explorer_core.bert.config import BertConfig
from explorer_core.bert.heads import BertForPreTraining
from explorer_core.bert.model import BertModel
from explorer_core.bert.pooling import POOLING_MODES
from explorer_core.bert.weights import load_weights
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer
from explorer_core.training.base_models import FRESH_INITS, check_init, load_weights_of
from explorer_core.training.checkpoint import Checkpoint
from explorer_core.training.devices import resolve_device
from explorer_core.training.finetune import FinetuneConfig, ScoredPair, finetune
from explorer_core.training.loop import (
    Callback,
    EvalRecord,
    LoopConfig,
    Record,
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


def run_plan(
    plan: TrainingPlan,
    *,
    callback: Callback | None = None,
    stop: threading.Event | None = None,
    on_snapshot: Snapshot | None = None,
) -> Checkpoint:
    """Run every phase of `plan` in order and return the trained encoder as a Checkpoint."""
    logs, stop = {}, stop or threading.Event()
    if plan.pretrain is not None:
        head = build_model(plan, pretraining=True)
        result = pretrain(
            head, plan.tokenizer, list(plan.corpus), plan.pretrain,
            callback=callback, stop=stop, on_snapshot=on_snapshot,
        )  # fmt: skip
        logs["pretrain"], encoder = result.log, head.bert
    else:
        encoder = build_model(plan, pretraining=False)
    if plan.finetune is not None and not stop.is_set():
        result = finetune(
            encoder, plan.tokenizer, plan.train_pairs, plan.finetune, dev=plan.dev_pairs or None,
            callback=callback, stop=stop, on_snapshot=on_snapshot,
        )  # fmt: skip
        logs["finetune"] = result.log
    # subtle: Stop can land before a phase starts (e.g. while the model is being built); that
    # phase then has no log, yet it counts: 0 steps, stopped early.
    steps = {phase: len(logs[phase].steps) if phase in logs else 0 for phase, _ in plan.phases}
    stopped = stop.is_set() or any(log.stop_reason == "stopped" for log in logs.values())
    max_length = plan.finetune.max_length if plan.finetune else plan.pretrain.max_length
    return Checkpoint(
        model=encoder.eval(), tokenizer=plan.tokenizer, pooling=plan.pooling,
        label=_label(plan, steps, stopped), log=logs, max_length=max_length,
    )  # fmt: skip


@dataclass(frozen=True)
class ModelSnapshot:
    """The encoder's weights at one moment of training (copies, safe to keep)."""

    phase: str
    step: int
    config: BertConfig
    state: dict[str, torch.Tensor] = field(repr=False)

    def model(self) -> BertModel:
        """A BertModel (eval mode) with these weights."""
        model = BertModel(self.config)
        model.load_state_dict(self.state)
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


class TrainingRun:
    """Runs a `TrainingPlan` in a daemon thread; every public method is safe to call any time."""

    def __init__(self, plan: TrainingPlan, max_snapshots: int = 8) -> None:
        self.plan = plan
        self.max_snapshots = max(2, max_snapshots)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._records: list[Record] = []
        self._snapshots: list[ModelSnapshot] = []
        self._result: Checkpoint | None = None
        self._state, self._error = "idle", ""
        self._started = 0.0
        self._finished: float | None = None

    # ---- control ----------------------------------------------------------------------------

    def start(self) -> bool:
        """Start the worker; False (and nothing happens) if this run was already started."""
        with self._lock:
            if self._state != "idle":
                return False
            self._state, self._started = "running", time.perf_counter()
        self._thread = threading.Thread(target=self._work, name="training-run", daemon=True)
        self._thread.start()
        return True

    def stop(self) -> None:
        """Ask the worker to stop after the current step; the model is kept as it is."""
        self._stop.set()

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the worker; True when it has ended."""
        if self._thread is not None:
            self._thread.join(timeout)
        return not self.running

    @property
    def running(self) -> bool:
        with self._lock:
            return self._state == "running"

    # ---- what the page polls ----------------------------------------------------------------

    def records(self) -> list[Record]:
        with self._lock:
            return list(self._records)

    def snapshots(self) -> list[ModelSnapshot]:
        with self._lock:
            return list(self._snapshots)

    def result(self) -> Checkpoint | None:
        """The trained Checkpoint once the run has finished or was stopped, else None."""
        with self._lock:
            return self._result

    def status(self) -> RunStatus:
        with self._lock:
            records, state, error = list(self._records), self._state, self._error
            end = self._finished if self._finished is not None else time.perf_counter()
            seconds = end - self._started if self._started else 0.0
        steps = [r for r in records if isinstance(r, TrainStep)]
        evals = [r for r in records if isinstance(r, EvalRecord)]
        last = steps[-1] if steps else None
        phase = last.phase if last else ""
        names = [name for name, _ in self.plan.phases]
        config = dict(self.plan.phases).get(phase)
        fraction = _fraction(names, phase, last, config, state)
        eta = None
        if state == "running" and last is not None and fraction > 0:
            eta = seconds * (1.0 - fraction) / fraction
        return RunStatus(
            state=state, phase=phase, step=last.step if last else 0,
            total_steps=config.steps if config else None, seconds=seconds, fraction=fraction,
            eta_seconds=eta, last_step=last, last_eval=evals[-1] if evals else None, error=error,
        )  # fmt: skip

    # ---- the worker -------------------------------------------------------------------------

    def _record(self, record: Record) -> None:
        with self._lock:
            self._records.append(record)

    def _snapshot(self, phase: str, step: int, model: torch.nn.Module) -> None:
        state = {k: v.detach().clone() for k, v in model.state_dict().items()}
        snap = ModelSnapshot(phase, step, self.plan.model_config, state)
        with self._lock:
            self._snapshots.append(snap)
            if len(self._snapshots) > self.max_snapshots:  # thin out, keep first and last
                self._snapshots = self._snapshots[:-1:2] + self._snapshots[-1:]

    def _work(self) -> None:
        try:
            ckpt = run_plan(
                self.plan, callback=self._record, stop=self._stop, on_snapshot=self._snapshot
            )
        except Exception as err:  # noqa: BLE001 - reported to the page, never raised in a thread
            with self._lock:
                self._state, self._error = "failed", f"{type(err).__name__}: {err}"
                self._finished = time.perf_counter()
            return
        self._snapshot("final", sum(len(log.steps) for log in ckpt.log.values()), ckpt.model)
        with self._lock:
            self._result = ckpt
            self._state = "stopped" if self._stop.is_set() else "finished"
            self._finished = time.perf_counter()


def _fraction(
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
