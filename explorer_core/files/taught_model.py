"""MiniLM + 中文, taught here: the Chinese-reading MiniLM, built once per install and kept on disk.

`training.multilingual` teaches all-MiniLM-L6-v2 Chinese in about nine minutes on two cores; the
app does that once (the Train page's "Teach MiniLM Chinese", or `python -m explorer_core train
multilingual` without `--out`) and every page then reads the result from one folder:

    <cache>/models/minilm-zh-<fingerprint>/   a standard model folder (save_checkpoint)

`<cache>` is `runtime.cache_root()` (EXPLORER_CACHE_DIR, else the user's cache folder); the folder
and its fingerprint are `training.taught_folder`'s (a training run can start from the model).
The fingerprint covers what decides the result: the shipped parallel pairs, the default recipe
(`MultilingualConfig()`) and `RECIPE_VERSION`; a changed recipe never reads an old folder. A
build writes into a hidden sibling folder and renames it into place, so a page never reads a
half-written model and a build that dies leaves nothing behind.

Beside the folder, for the server's build in the background (`files.taught_build`):

    <cache>/models/minilm-zh-<fingerprint>.lock          held (flock) by the process that builds
    <cache>/models/minilm-zh-<fingerprint>.failed.json   why the last build failed: no retry
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

# where it lives (a training run can start from it), also this module's API
from explorer_core.training.taught_folder import PREFIX as PREFIX
from explorer_core.training.taught_folder import RECIPE_VERSION as RECIPE_VERSION
from explorer_core.training.taught_folder import built_folder as built_folder
from explorer_core.training.taught_folder import fingerprint as fingerprint
from explorer_core.training.taught_folder import folder as folder

if TYPE_CHECKING:
    from explorer_core.tokenization import Tokenizer
    from explorer_core.training.checkpoint import Checkpoint

# disk a build needs free: the folder holds ~110 MB of weights twice (ours and the hf/ copy) plus
# the hidden copy written beside it before the rename
DISK_NEED = 512 * 2**20


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


def load_tokenizer() -> Tokenizer | None:
    """The taught model's tokenizer alone (no weights, no torch), or None when not built."""
    import json

    from explorer_core.tokenization import load_tokenizer as load

    path = built_folder()
    if path is None:
        return None
    try:  # where the checkpoint keeps its tokenizer (training.checkpoint's META_FILE)
        meta = json.loads((path / "explorer_checkpoint.json").read_text(encoding="utf-8"))
        return load(path / str(meta["tokenizer"].get("folder", ".")))
    except (OSError, ValueError, KeyError):
        return None


def install(ckpt: Checkpoint, target: Path | None = None) -> Path:
    """Save `ckpt` as the taught model, atomically (`checkpoint.replace_checkpoint`), replacing
    one built before, and remove the folders of older recipes. Returns the folder."""
    from explorer_core.training.checkpoint import replace_checkpoint

    target = replace_checkpoint(ckpt, target or folder())
    remove_stale(target)
    return target


def remove_stale(keep: Path | None = None) -> None:
    """Remove taught models of other recipes (other fingerprints) beside `keep` (default: this
    recipe's folder): they are never read again."""
    keep = keep or folder()
    for stale in keep.parent.glob(f"{PREFIX}*"):
        if stale != keep:
            shutil.rmtree(stale, ignore_errors=True)


# ---- the server's build in the background (files.taught_build) -------------------------------


def lock_path() -> Path:
    """The lock file of this recipe's build (one build per install, across processes)."""
    path = folder()
    return path.with_name(f"{path.name}.lock")


def failure_path() -> Path:
    path = folder()
    return path.with_name(f"{path.name}.failed.json")


def last_failure() -> str | None:
    """Why this recipe's last build failed, once written by `note_failure`; None otherwise."""
    try:
        return str(json.loads(failure_path().read_text(encoding="utf-8"))["error"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def note_failure(error: str) -> None:
    """Remember that the build failed (the server does not try again by itself)."""
    try:
        failure_path().parent.mkdir(parents=True, exist_ok=True)
        failure_path().write_text(json.dumps({"error": error}, ensure_ascii=False), "utf-8")
    except OSError:
        pass  # e.g. the disk is full: the error is shown by this process all the same


def clear_failure() -> None:
    failure_path().unlink(missing_ok=True)


def remove_leftovers() -> int:
    """Remove the hidden folders a build killed while installing left beside the model
    (`checkpoint.replace_checkpoint` writes there first); returns how many. Call it only while
    holding the lock: another process's install in progress writes there too."""
    removed = 0
    parent = folder().parent
    for aside in parent.glob(f".{PREFIX}*") if parent.is_dir() else ():
        shutil.rmtree(aside, ignore_errors=True)
        removed += 1
    return removed


def disk_free() -> int | None:
    """Bytes free where the model goes (its nearest existing folder); None if unknown."""
    path = folder()
    while not path.exists() and path != path.parent:
        path = path.parent
    try:
        return shutil.disk_usage(path).free
    except OSError:
        return None
