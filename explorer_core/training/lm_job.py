"""The decoder's training as a job of the Train section's machinery: a plan a `TrainingRun`
(`training.worker`) runs in its worker process, with admission, the queue and Stop, like the
encoder's runs (one more kind of plan, not a second system).

    plan = LMPlan(LMTrainConfig(lang="en", seconds=30), out=str(new_folder("en", 0)))
    run = TrainingRun(plan)            # the Decoder page asks admission, polls, stops
    run.records()                      # LMStart, then TrainStep + LMRecord per evaluation,
                                       # LMSample every `sample_every` steps
    run.status().state == "finished"   # the decoder is in plan.out (decoder.save_decoder)

The worker saves the decoder itself (`returns_model` is False: no weights travel back through
the pipe), into a hidden sibling folder renamed into place, so a page never opens a half-written
folder. The folder lies under `models.settings.trained_dir()` (`<cache>/trained`, always
allowed), so the "open a model" picker of every page lists it. A Stop keeps the model as
it is after the last step, saved like a finished one.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
import uuid
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from explorer_core.models.settings import trained_dir
from explorer_core.training.loop import TrainStep
from explorer_core.training.loop_config import LoopConfig

if TYPE_CHECKING:
    from explorer_core.decoder import LMTrainConfig

PHASE = "lm"  # the run's one phase (RunStatus.phase, the step records)
PREFIX = "decoder-"
KEEP = 12  # decoders kept on disk (oldest removed first): a class trains many
MIN_NEED = 160 * 2**20  # bytes: torch and the corpus come with every worker


@dataclass(frozen=True)
class LMStart:
    """The run's first record: the references its loss curve is drawn against."""

    bigram_loss: float
    uniform_loss: float
    vocab_size: int
    tokens: int  # of the training corpus


def new_folder(lang: str, seed: int) -> Path:
    """A fresh folder name for one decoder (not created): `decoder-en-s0-<time>-<random>`."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return trained_dir() / f"{PREFIX}{lang}-s{seed}-{stamp}-{uuid.uuid4().hex[:6]}"


def prune(keep: int = KEEP) -> list[Path]:
    """Remove all but the `keep` newest decoder folders (and stale hidden ones); the removed."""
    root = trained_dir()
    if not root.is_dir():
        return []
    folders = sorted((p for p in root.iterdir() if p.is_dir() and p.name.startswith(PREFIX)),
                     key=lambda p: p.stat().st_mtime, reverse=True)  # fmt: skip
    removed = folders[keep:]
    for folder in removed:
        shutil.rmtree(folder, ignore_errors=True)
    return removed


def need_bytes(config: LMTrainConfig) -> int:
    """A rough upper estimate of a run's memory: weights, gradients and Adam's two moments
    (4 copies of float32), plus activations of one batch (about 20 floats per hidden unit per
    token and layer, the (T, T) scores per head), never under `MIN_NEED`."""
    h, n_layers, v = config.hidden_size, config.num_hidden_layers, config.vocab_size
    params = v * h + config.block_size * h + n_layers * 12 * h * h
    tokens = config.batch_size * config.block_size
    activations = n_layers * tokens * (20 * h + config.num_attention_heads * config.block_size)
    return max(MIN_NEED, 4 * (4 * params + activations + tokens * v * 3))


@dataclass(frozen=True)
class LMPlan:
    """Train a decoder (`decoder.train_lm`) and save it into `out` (`decoder.save_decoder`)."""

    config: LMTrainConfig
    out: str

    returns_model = False  # the worker saves the folder; nothing travels back but records

    @cached_property
    def phases(self) -> tuple[tuple[str, LoopConfig], ...]:
        """One phase whose budget (steps or seconds) gives the run's share done."""
        c = self.config
        loop = LoopConfig(steps=c.steps, time_budget=c.seconds, batch_size=c.batch_size,
                          max_length=max(8, c.block_size), seed=c.seed)  # fmt: skip
        return ((PHASE, loop),)

    def run(
        self, *, callback: Any = None, stop: threading.Event | None = None,
        on_snapshot: object = None,
    ) -> None:  # fmt: skip
        """Prepare the data, train, save; every record goes to `callback` (the worker's pipe)."""
        from explorer_core.decoder import prepare_lm, save_decoder, train_lm

        send = callback or (lambda record: None)
        data = prepare_lm(self.config)
        send(LMStart(float(data.bigram_loss), float(data.uniform_loss), int(data.vocab_size),
                     len(data.train_ids)))  # fmt: skip

        def on_record(record: Any) -> None:
            send(TrainStep(PHASE, int(record.step), float(record.seconds), 0.0, float(record.loss)))
            send(record)

        result = train_lm(self.config, data=data, on_record=on_record, on_sample=send,
                          should_stop=stop.is_set if stop is not None else None)  # fmt: skip
        save_atomically(result.model, result.tokenizer, Path(self.out), save_decoder)


def save_atomically(model: Any, tokenizer: Any, out: Path, save: Any) -> Path:
    """`save(model, tokenizer, hidden)` into a hidden sibling, then renamed to `out`."""
    out.parent.mkdir(parents=True, exist_ok=True)
    hidden = out.parent / f".{out.name}.{os.getpid()}.partial"
    shutil.rmtree(hidden, ignore_errors=True)
    try:
        save(model, tokenizer, hidden)
        os.replace(hidden, out)
    finally:
        shutil.rmtree(hidden, ignore_errors=True)
    prune()
    return out
