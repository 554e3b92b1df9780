"""MiniLM + 中文, taught here: the Chinese-reading MiniLM, built once per install and kept on disk.

`training.multilingual` teaches all-MiniLM-L6-v2 Chinese in about nine minutes on two cores; the
app does that once (the Train page's "Teach MiniLM Chinese", or `python -m explorer_core train
multilingual` without `--out`) and every page then reads the result from one folder:

    <cache>/models/minilm-zh-<fingerprint>/   a standard model folder (save_checkpoint)

`<cache>` is `tokenizer_cache.cache_root()` (EXPLORER_CACHE_DIR, else the user's cache folder).
The fingerprint covers what decides the result: the shipped parallel pairs, the default recipe
(`MultilingualConfig()`) and `RECIPE_VERSION`; a changed recipe never reads an old folder. A
build writes into a hidden sibling folder and renames it into place, so a page never reads a
half-written model and a build that dies leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from explorer_core.files.tokenizer_cache import cache_root

if TYPE_CHECKING:
    from explorer_core.training.checkpoint import Checkpoint

RECIPE_VERSION = "1"  # bump when the recipe changes in a way its default config does not show
PREFIX = "minilm-zh-"


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """12 hex digits of SHA-256 over the shipped pairs, the default recipe and RECIPE_VERSION."""
    from importlib import resources

    from explorer_core.inputs.parallel import BUILTIN_FILE
    from explorer_core.training.multilingual import MultilingualConfig

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


def stamp() -> float | None:
    """When the installed model was written (its weights' mtime), None if not built: a cache
    key that changes when the model is rebuilt."""
    path = built_folder()
    return (path / "model.safetensors").stat().st_mtime if path is not None else None


def load() -> Checkpoint | None:
    """The taught model, or None when it has not been built (or cannot be read)."""
    from explorer_core.training.checkpoint import load_checkpoint

    path = built_folder()
    if path is None:
        return None
    try:
        ckpt = load_checkpoint(path)
    except (OSError, ValueError):
        return None
    ckpt.model.eval()
    return ckpt


def install(ckpt: Checkpoint, target: Path | None = None) -> Path:
    """Save `ckpt` as the taught model (atomically: written aside, then renamed into place).

    A model built before is replaced; a folder of an older recipe is removed. Returns the folder.
    """
    from explorer_core.training.checkpoint import save_checkpoint

    target = target or folder()
    target.parent.mkdir(parents=True, exist_ok=True)
    aside = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    try:
        save_checkpoint(ckpt, aside)
        old = None
        if target.exists():
            old = target.with_name(f".{target.name}-old-{os.getpid()}")
            os.replace(target, old)
        os.replace(aside, target)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(aside, ignore_errors=True)
    for stale in target.parent.glob(f"{PREFIX}*"):
        if stale != target:
            shutil.rmtree(stale, ignore_errors=True)
    return target
