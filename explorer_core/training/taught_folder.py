"""Where this install keeps MiniLM + 中文, taught here, and whether it has been built.

The folder's name holds a fingerprint of what decides the model (the shipped parallel pairs, the
default recipe `MultilingualConfig()` and `RECIPE_VERSION`), so a changed recipe never reads an
old folder:

    <cache>/models/minilm-zh-<fingerprint>/      (<cache>: runtime.cache_root())

Here, below `files`, because a training run can start from the taught model
(`base_models`, init "taught") and the training layer must find it; `files.taught_model`
builds, installs and loads it.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from explorer_core.runtime import cache_root

RECIPE_VERSION = "1"  # bump when the recipe changes in a way its default config does not show
PREFIX = "minilm-zh-"


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """12 hex digits of SHA-256 over the shipped pairs, the default recipe and RECIPE_VERSION."""
    from importlib import resources

    from explorer_core.inputs.parallel import BUILTIN_FILE
    from explorer_core.training.multilingual_config import MultilingualConfig

    data = resources.files("explorer_core").joinpath("resources", BUILTIN_FILE).read_bytes()
    digest = hashlib.sha256(RECIPE_VERSION.encode("ascii"))
    digest.update(data)
    digest.update(repr(MultilingualConfig()).encode("utf-8"))
    return digest.hexdigest()[:12]


def folder() -> Path:
    """Where this install's taught model lives (whether or not it was built)."""
    return cache_root() / "models" / f"{PREFIX}{fingerprint()}"


def built_folder() -> Path | None:
    """The taught model's folder when it has been built, else None (cheap: two stat calls)."""
    path = folder()
    return path if (path / "config.json").is_file() and (path / "model.safetensors").is_file() \
        else None  # fmt: skip
