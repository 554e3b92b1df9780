"""The models already on this machine: the Hugging Face cache and the allowed folders.

One entry per model folder, with what a page shows before loading anything: the family, size on
disk, parameters (summed from the safetensors *headers*, never the tensors), the shape of the
encoder, the card's languages, license and pipeline tag, and how its authors pool. Folders the
checks refuse are listed too, with the reason, so a teacher sees why a model does not appear.

Where it looks:

- every ``models--org--name`` in the cache, at ``refs/main`` (else its newest snapshot,
  referenced as ``org/name@commit``);
- every folder of ``EXPLORER_MODEL_DIRS`` that holds a config.json, and each of its subfolders
  that does (one level down).

Fast by construction: a few small files per model (config.json, the weights' headers, the card's
first 200 kB, the sentence-transformers JSON), so twenty models take milliseconds.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

from explorer_core.models.card import read_card
from explorer_core.models.checks import check_folder
from explorer_core.models.locate import COMMIT, cached_snapshot
from explorer_core.models.pipeline import read_pipeline
from explorer_core.models.settings import ModelRefused, hub_cache_dir, model_dirs

TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "merges.txt", "sentencepiece.bpe.model",
                   "spiece.model", "tokenizer.model")  # fmt: skip


@dataclass(frozen=True)
class CatalogEntry:
    reference: str  # what `locate` accepts: "org/name" (cache) or the folder's real path
    folder: Path
    kind: str  # "hub" or "folder"
    family: str = ""  # config.json's model_type
    size_bytes: int = 0  # every file of the folder on disk
    parameters: int = 0  # from the safetensors headers
    memory_bytes: int = 0  # what loading it costs (float32)
    hidden_size: int | None = None
    num_hidden_layers: int | None = None
    max_position_embeddings: int | None = None
    vocab_size: int | None = None
    languages: tuple[str, ...] = ()
    license: str = ""
    pipeline_tag: str = ""
    sentence_transformers: bool = False  # has modules.json
    tokenizer_files: tuple[str, ...] = ()  # those of TOKENIZER_FILES present (none: no tokenizer)
    pooling: str = ""  # e.g. "mean", "cls"; "" when refused
    normalize: bool = False
    refused: str = ""  # why the checks refuse it; "" when it may be opened
    notes: tuple[str, ...] = ()


def _first(config: dict, *names: str) -> int | None:
    for name in names:
        if isinstance(config.get(name), int):
            return config[name]
    return None


def _disk_bytes(folder: Path) -> int:
    total = 0
    for here, _, names in os.walk(folder):
        for name in names:
            try:
                total += os.stat(os.path.join(here, name)).st_size  # follows the cache's links
            except OSError:
                continue
    return total


def _config(folder: Path) -> dict:
    try:
        data = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _cheap_facts(folder: Path, reference: str, kind: str) -> dict:
    """What every entry shows, refused or not: the folder's size, card and file kinds."""
    card = read_card(folder)
    return {
        "folder": folder,
        "reference": reference,
        "kind": kind,
        "size_bytes": _disk_bytes(folder),
        "languages": card.languages,
        "license": card.license,
        "pipeline_tag": card.pipeline_tag,
        "sentence_transformers": (folder / "modules.json").is_file(),
        "tokenizer_files": tuple(name for name in TOKENIZER_FILES if (folder / name).is_file()),
    }


def describe(folder: Path, reference: str, kind: str) -> CatalogEntry:
    """One catalogue entry for ``folder``; a refused folder gets its reason and what is cheap."""
    base = _cheap_facts(folder, reference, kind)
    try:
        model = check_folder(folder)
    except (ModelRefused, OSError) as err:
        config = _config(folder)
        return CatalogEntry(**base, family=str(config.get("model_type", "")), refused=str(err))
    config = model.config
    notes: tuple[str, ...] = ()
    try:
        pipeline = read_pipeline(model.folder)
        pooling, normalize, notes = pipeline.pooling_mode, pipeline.normalize, pipeline.notes
    except ModelRefused as err:
        pooling, normalize, notes = "", False, (f"no sentence vector: {err}",)
    return CatalogEntry(
        **base,
        family=model.model_type,
        parameters=model.parameters,
        memory_bytes=model.memory_bytes,
        hidden_size=_first(config, "hidden_size", "dim", "d_model"),
        num_hidden_layers=_first(config, "num_hidden_layers", "n_layers"),
        max_position_embeddings=_first(config, "max_position_embeddings"),
        vocab_size=_first(config, "vocab_size"),
        pooling=pooling,
        normalize=normalize,
        notes=notes,
    )


def _cache_candidates(cache: Path) -> list[tuple[Path, str]]:
    found = []
    try:
        repos = sorted(p for p in cache.iterdir() if p.name.startswith("models--"))
    except OSError:
        return found
    for repo in repos:
        repo_id = repo.name.removeprefix("models--").replace("--", "/")
        main = cached_snapshot(repo_id, None, cache)
        if main is not None:
            found.append((main[0], repo_id))
            continue
        snapshots = [p for p in (repo / "snapshots").glob("*") if COMMIT.fullmatch(p.name)]
        if snapshots:
            newest = max(snapshots, key=lambda p: p.stat().st_mtime)
            found.append((newest, f"{repo_id}@{newest.name}"))
    return found


def _folder_candidates(root: Path) -> list[Path]:
    if not root.is_dir():
        return []
    found = [root] if (root / "config.json").is_file() else []
    try:
        children = sorted(p for p in root.iterdir() if p.is_dir())
    except OSError:
        return found
    return found + [child for child in children if (child / "config.json").is_file()]


def scan(include_refused: bool = True) -> tuple[CatalogEntry, ...]:
    """Every model in the cache and the allowed folders, sorted by reference; refused ones too
    unless ``include_refused`` is False. The same real folder is listed once."""
    entries, seen = [], set()
    candidates = [(folder, name, "hub") for folder, name in _cache_candidates(hub_cache_dir())]
    for root in model_dirs():
        for folder in _folder_candidates(root):
            candidates.append((folder, str(Path(os.path.realpath(folder))), "folder"))
    for folder, reference, kind in candidates:
        real = os.path.realpath(folder)
        if real in seen:
            continue
        seen.add(real)
        entry = describe(folder, reference, kind)
        if include_refused or not entry.refused:
            entries.append(entry)
    return tuple(sorted(entries, key=lambda e: e.reference))
