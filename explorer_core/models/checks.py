"""The checks a model folder passes before anything in it is loaded.

Each refusal is a `ModelRefused` whose message is one line saying what to do. In order:

1. inside   the folder, and every file and folder in it, really lies (symlinks and ``..``
            resolved) under an allowed root: ``EXPLORER_MODEL_DIRS`` or the Hugging Face cache.
2. config   ``config.json`` exists and is a JSON object.
3. code     no ``auto_map`` in config.json and no ``*.py`` file: remote code is never run.
4. weights  safetensors weights exist; pickle files only (``pytorch_model.bin``, ``*.pt``,
            ``*.ckpt``, ``*.pth``) are refused with how to convert them, since unpickling can run
            any code.
5. family   ``model_type`` is one the readable encoder supports.
6. size     the weights fit the memory setting (``EXPLORER_MODEL_MAX_MB``), judged before a byte
            is loaded: the larger of the files' size and 4 bytes per parameter (the encoder
            holds float32, so a float16 checkpoint doubles), parameters read from the headers.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from explorer_core.models.header import TensorCounts, count_files
from explorer_core.models.settings import (
    SUPPORTED_MODEL_TYPES,
    ModelRefused,
    allowed_roots,
    max_model_bytes,
    megabytes,
)

PICKLE_SUFFIXES = (".bin", ".pt", ".ckpt", ".pth", ".pkl")
MAX_ENTRIES = 2000  # a model folder holds tens of files; many more is not a model folder


@dataclass(frozen=True)
class ModelFolder:
    """A folder that passed every check: its real path, config and top-level weight files."""

    folder: Path
    model_type: str
    weights: tuple[Path, ...]  # model.safetensors, or the shards its index names
    weight_bytes: int  # their size on disk
    parameters: int = 0  # floating-point numbers in them, from the headers
    config: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def memory_bytes(self) -> int:
        """What loading costs: the encoder holds float32, so a float16 file doubles in memory."""
        return max(self.weight_bytes, 4 * self.parameters)


def _inside(path: Path, roots: tuple[Path, ...]) -> bool:
    real = Path(os.path.realpath(path))
    return any(real == root or real.is_relative_to(root) for root in roots)


def check_inside(folder: Path, roots: tuple[Path, ...] | None = None) -> Path:
    """The real path of ``folder`` once it, and everything in it, lies under an allowed root."""
    return _walk_inside(folder, allowed_roots() if roots is None else roots)[0]


def _walk_inside(folder: Path, roots: tuple[Path, ...]) -> tuple[Path, tuple[str, ...]]:
    """(real path, every file's path relative to it) once all of them lie under ``roots``."""
    where = "EXPLORER_MODEL_DIRS or the Hugging Face cache"
    if not _inside(folder, roots):
        raise ModelRefused(f"{folder} is outside the folders models may come from ({where})")
    real = Path(os.path.realpath(folder))
    if not real.is_dir():
        raise ModelRefused(f"{folder} is not a folder: give the folder that holds config.json")
    files: list[str] = []
    seen = 0
    # os.walk does not follow symlinked folders; each link's target is checked instead
    for here, dirs, names in os.walk(real):
        for name in (*dirs, *names):
            seen += 1
            if seen > MAX_ENTRIES:
                raise ModelRefused(f"{folder} holds over {MAX_ENTRIES} files: not a model folder")
            if not _inside(Path(here) / name, roots):
                raise ModelRefused(f"{folder} links outside the allowed folders ({name})")
        files += [os.path.relpath(os.path.join(here, name), real) for name in names]
    return real, tuple(sorted(files))


def _read_config(folder: Path) -> dict:
    path = folder / "config.json"
    if not path.is_file():
        raise ModelRefused(f"no config.json in {folder}: not a transformers model folder")
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ModelRefused(f"config.json in {folder} is not readable JSON ({err})") from err
    if not isinstance(config, dict):
        raise ModelRefused(f"config.json in {folder} is not a JSON object")
    return config


def _refuse_code(folder: Path, config: dict, files: tuple[str, ...]) -> None:
    never = "remote code is never run here; use a model that needs none"
    if "auto_map" in config:
        raise ModelRefused(f"config.json in {folder} has auto_map (custom model code): {never}")
    for name in files:
        if name.endswith(".py"):
            raise ModelRefused(f"{folder} holds Python code ({name}): {never}")


def _weights(folder: Path) -> tuple[Path, ...]:
    if (folder / "model.safetensors").is_file():
        return (folder / "model.safetensors",)
    index = folder / "model.safetensors.index.json"
    if index.is_file():  # a sharded checkpoint: the index maps each tensor to its shard
        try:
            shards = sorted(
                set(json.loads(index.read_text(encoding="utf-8"))["weight_map"].values())
            )
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
            raise ModelRefused(f"{index.name} in {folder} is not a readable index ({err})") from err
        missing = [name for name in shards if not (folder / name).is_file() or "/" in name]
        if missing:
            raise ModelRefused(f"{folder} lacks the shards {', '.join(missing)} its index names")
        return tuple(folder / name for name in shards)
    safetensors = tuple(sorted(folder.glob("*.safetensors")))
    if safetensors:
        return safetensors
    pickles = sorted(p.name for p in folder.iterdir() if p.suffix in PICKLE_SUFFIXES)
    if pickles:
        raise ModelRefused(
            f"{folder} has only pickle weights ({', '.join(pickles)}), which could run code when "
            "loaded: convert them where you trust the file with transformers, "
            "AutoModel.from_pretrained(dir).save_pretrained(dir, safe_serialization=True)"
        )
    raise ModelRefused(f"no weights in {folder}: expected model.safetensors")


def check_family(config: dict, folder: Path | str = "") -> str:
    """The config's ``model_type`` once it is a supported family."""
    model_type = str(config.get("model_type", ""))
    if model_type not in SUPPORTED_MODEL_TYPES:
        found = f"model_type {model_type!r}" if model_type else "no model_type"
        raise ModelRefused(
            f"{folder or 'this model'} has {found}; supported families: "
            f"{', '.join(SUPPORTED_MODEL_TYPES)}"
        )
    return model_type


def check_size(memory_bytes: int, folder: Path | str = "", limit: int | None = None) -> None:
    """Refuse weights over the memory setting, before loading them."""
    limit = max_model_bytes() if limit is None else limit
    if memory_bytes > limit:
        raise ModelRefused(
            f"{folder or 'this model'} has {megabytes(memory_bytes)} of weights, over this "
            f"server's limit of {megabytes(limit)} (EXPLORER_MODEL_MAX_MB)"
        )


def _count(weights: tuple[Path, ...], folder: Path) -> TensorCounts:
    try:
        return count_files(weights)
    except (OSError, ValueError) as err:
        raise ModelRefused(f"{folder}: {err}") from err


def check_folder(folder: Path, roots: tuple[Path, ...] | None = None) -> ModelFolder:
    """Run every check on ``folder`` (see the module's list); the folder's facts if all pass."""
    real, files = _walk_inside(folder, allowed_roots() if roots is None else roots)
    config = _read_config(real)
    _refuse_code(real, config, files)
    weights = _weights(real)
    model_type = check_family(config, real)
    weight_bytes = sum(path.stat().st_size for path in weights)
    counts = _count(weights, real)
    model = ModelFolder(real, model_type, weights, weight_bytes, counts.parameters, config)
    check_size(model.memory_bytes, real)
    return model
