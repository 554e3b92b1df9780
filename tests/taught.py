"""A small "MiniLM + 中文, taught here" for the tests: the real recipe (vocabulary extended with
Chinese, distillation in our BERT) on 48 shipped pairs for 2 steps, installed where the app looks
for it (`files.taught_model`) under a cache folder of its own. Built once per test run (~5 s).

Tests that want the app to have it point EXPLORER_CACHE_DIR at `taught_cache()`; every other test
keeps the run's shared cache, where it has not been built.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path

PAIRS = 48
STEPS = 2


@lru_cache(maxsize=1)
def taught_cache() -> Path:
    """A cache folder (EXPLORER_CACHE_DIR) in which the taught model is installed."""
    from explorer_core.files import taught_model
    from explorer_core.inputs.parallel import builtin_parallel_pairs
    from explorer_core.training.multilingual import MultilingualConfig, distil

    root = Path(tempfile.mkdtemp(prefix="explorer-test-taught-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    config = MultilingualConfig(steps=STEPS, batch_size=16, seed=0)
    ckpt = distil(builtin_parallel_pairs()[:PAIRS], config, device="cpu")
    name = f"{taught_model.PREFIX}{taught_model.fingerprint()}"  # as taught_model.folder() names it
    taught_model.install(ckpt, root / "models" / name)
    return root
