"""A training loop's settings (`LoopConfig`), without torch: what the loop (`training.loop`) runs
by, and what fingerprints the taught model's recipe (`taught_folder`): the home page asks whether
MiniLM + 中文 is built, and importing torch for that made a fresh server's first page 1.5 s slower.
"""

from __future__ import annotations

from dataclasses import dataclass

SCHEDULES = ("linear", "cosine", "constant")


@dataclass(frozen=True)
class LoopConfig:
    steps: int | None = 200  # optimiser steps; None: stop only on the time budget or the flag
    time_budget: float | None = None  # seconds; None: no time limit
    batch_size: int = 32
    learning_rate: float = 1e-3
    weight_decay: float = 0.01
    warmup: float = 0.1  # fraction of training spent warming the learning rate up from 0
    schedule: str = "linear"  # decay after warm-up: one of SCHEDULES
    max_grad_norm: float = 1.0  # gradient clipping; 0 turns it off
    eval_every: int = 50  # optimiser steps between evaluations; 0: only at the end
    snapshot_every: int = 0  # steps between model snapshots handed to `on_snapshot`; 0: none
    max_length: int = 64  # tokens per input row, [CLS] and [SEP] included
    seed: int = 0

    def __post_init__(self) -> None:
        if self.steps is None and self.time_budget is None:
            raise ValueError("Give a number of steps or a time budget, or training never ends")
        if self.steps is not None and (not isinstance(self.steps, int) or self.steps < 1):
            raise ValueError(f"steps must be a positive whole number, got {self.steps!r}")
        if self.time_budget is not None and self.time_budget <= 0:
            raise ValueError(f"time_budget must be positive seconds, got {self.time_budget}")
        if self.batch_size < 1:
            raise ValueError("batch_size must be at least 1")
        if not 0 < self.learning_rate < 1:
            raise ValueError(f"learning_rate must be between 0 and 1, got {self.learning_rate}")
        if not 0 <= self.warmup < 1:
            raise ValueError("warmup is a fraction of training in [0, 1)")
        if self.schedule not in SCHEDULES:
            raise ValueError(f"schedule must be one of {', '.join(SCHEDULES)}")
        if self.max_grad_norm < 0 or self.eval_every < 0 or self.snapshot_every < 0:
            raise ValueError("max_grad_norm, eval_every and snapshot_every cannot be negative")
        if self.max_length < 8:
            raise ValueError("max_length must be at least 8 tokens")
