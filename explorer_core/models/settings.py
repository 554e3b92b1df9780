"""The server's settings for models a user brings, and the one error every refusal raises.

Four environment variables, read at each call (never at import, so a test or a restarted page
sees the current value):

- ``EXPLORER_MODEL_DIRS``: folders (``os.pathsep``-separated) whose model folders may be opened.
  The Hugging Face cache is always allowed as well, and so is the install's own folder of the
  models it trained (``trained_dir()``: ``<cache>/trained``, e.g. the Decoder page's decoders).
- ``EXPLORER_ALLOW_DOWNLOADS``: ``1`` lets a Hub name that is not cached be downloaded; off by
  default, and a class or page never turns it on by itself (the caller passes ``allow_download``).
- ``EXPLORER_MODEL_MAX_MB``: the largest weights (in MB, 10**6 bytes) the server loads; 1500 unless
  set. A model is refused before loading, with its size.
- ``HF_HUB_CACHE`` / ``HF_HOME``: where the Hugging Face cache lies, as huggingface_hub lays it
  out: ``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, else ``~/.cache/huggingface/hub``.
"""

from __future__ import annotations

import os
from pathlib import Path

from explorer_core.runtime import cache_root, whole_number_setting

DEFAULT_MAX_MB = 1500  # bert-large (335M parameters, float32) is ~1340 MB; more teaches no more

# The families the readable encoder runs (explorer_core.bert.families reads each config.json).
# subtle: kept here as a constant so this package does not depend on families.py yet; when both
# are merged this tuple should come from there.
SUPPORTED_MODEL_TYPES = (
    "bert",
    "roberta",
    "xlm-roberta",
    "distilbert",
    "albert",
    "electra",
    "modernbert",
    "gpt2",  # the decoder: the same encoder under the causal mask (bert/causal_lm.py)
)


class ModelRefused(ValueError):
    """A model that may not be opened. ``str(error)`` is one line that says what to do."""

    def __init__(self, message: str) -> None:
        # subtle: a folder's name may itself hold a newline; the message stays one line anyway
        super().__init__("".join(" " if ch in "\r\n\t\v\f" else ch for ch in message))


def hub_cache_dir() -> Path:
    """Where huggingface_hub keeps models on this machine (read from the environment each call)."""
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"])
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]) / "hub"
    return Path.home() / ".cache" / "huggingface" / "hub"


TRAINED_DIR = "trained"  # under runtime.cache_root(): the models this install trained


def trained_dir() -> Path:
    """Where this install keeps the models it trained itself (``<cache>/trained``): always
    allowed, so a decoder trained on the Decoder page opens through "a model on this machine"."""
    return cache_root() / TRAINED_DIR


def model_dirs() -> tuple[Path, ...]:
    """The folders of ``EXPLORER_MODEL_DIRS`` (empty entries skipped), as written, then
    ``trained_dir()`` once it exists."""
    raw = os.environ.get("EXPLORER_MODEL_DIRS", "")
    dirs = tuple(Path(part) for part in raw.split(os.pathsep) if part.strip())
    trained = trained_dir()
    return (*dirs, trained) if trained.is_dir() and trained not in dirs else dirs


def allowed_roots() -> tuple[Path, ...]:
    """Real paths of every folder a model may come from: ``EXPLORER_MODEL_DIRS`` plus the cache.

    Symlinks and ``..`` are resolved here, so a containment check compares real paths only.
    """
    roots = []
    for folder in (*model_dirs(), hub_cache_dir()):
        real = Path(os.path.realpath(folder))
        if real not in roots:
            roots.append(real)
    return tuple(roots)


def downloads_allowed() -> bool:
    """Whether the server lets a missing Hub name be downloaded (``EXPLORER_ALLOW_DOWNLOADS=1``)."""
    return os.environ.get("EXPLORER_ALLOW_DOWNLOADS", "").strip().lower() in ("1", "true", "yes")


def max_model_bytes() -> int:
    """The weight budget of one model in bytes (``EXPLORER_MODEL_MAX_MB``, default 1500 MB)."""
    return whole_number_setting("EXPLORER_MODEL_MAX_MB", DEFAULT_MAX_MB) * 1_000_000


def megabytes(size: int) -> str:
    """A byte count as a person reads it: ``megabytes(90_868_376) -> '90.9 MB'``.

    >>> megabytes(90_868_376), megabytes(2_500_000_000)
    ('90.9 MB', '2.5 GB')
    """
    if size >= 1_000_000_000:
        return f"{size / 1e9:.1f} GB"
    return f"{size / 1e6:.1f} MB"
