"""The recipe's settings: how long, how fast, where new embedding rows start (`multilingual`).

Apart from the recipe itself, so that where the install keeps the model (`taught_folder`, whose
fingerprint covers the default config) is known without the recipe's code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from explorer_core.training.loop_config import LoopConfig

ROW_INITS = ("cjk-mean", "mean")  # where new embedding rows start (`vocab_extension`)


@dataclass(frozen=True)
class MultilingualConfig(LoopConfig):
    # Chosen with bench/multilingual.py (see its docstring for the runs behind these values).
    steps: int | None = None  # None: `epochs` passes over the pairs (or the time budget alone)
    epochs: float | None = 3.0  # passes over the parallel pairs; None: steps / time budget decide
    learning_rate: float = 5e-5  # Sentence-BERT's rate for fine-tuning a pretrained encoder
    eval_every: int = 0  # steps between evaluations; 0: once per epoch (and always at the end)
    init: str = "cjk-mean"  # where new embedding rows start (ROW_INITS); "mean"
    # started lower but ended 0.006-0.016 higher in 3 short runs (bench/multilingual.py)
    # subtle: at 5e-5 a row moves ~0.03 per feature in 600 steps, while MiniLM's rows are ~0.05
    # apart per feature: the new rows would barely leave their start. Their table learns faster.
    embedding_lr_scale: float = 60.0  # learning rate of the word-embedding table / the rest's
    length_pool: int = 8  # batches are cut from pools of this many batches sorted by length:
    # on the shipped pairs an epoch computes 1.20x the real tokens instead of 1.51x; 1: shuffle
    max_length: int = 64  # tokens per sentence; the shipped pairs need at most ~45

    def __post_init__(self) -> None:
        if self.epochs is not None and self.epochs <= 0:
            raise ValueError(f"epochs must be positive, got {self.epochs}")
        if self.embedding_lr_scale <= 0:
            raise ValueError(f"embedding_lr_scale must be positive, got {self.embedding_lr_scale}")
        if self.length_pool < 1:
            raise ValueError(f"length_pool must be at least 1, got {self.length_pool}")
        if self.init not in ROW_INITS:
            raise ValueError(f"init must be one of {', '.join(ROW_INITS)}, got {self.init!r}")
        if self.steps is None and self.time_budget is None:
            if self.epochs is None:
                raise ValueError("Give epochs, steps or a time budget, or training never ends")
            replace(self, steps=1)  # validates the other fields with a step budget
            return
        super().__post_init__()

    def total_steps(self, n_pairs: int) -> int | None:
        """The step budget for `n_pairs` pairs: `steps`, else `epochs` passes (None: clock only).

        >>> MultilingualConfig(epochs=2, batch_size=32).total_steps(100)  # 4 batches per epoch
        8
        """
        if self.steps is not None:
            return self.steps
        if self.epochs is None:
            return None
        return max(1, math.ceil(self.epochs * math.ceil(n_pairs / self.batch_size)))
