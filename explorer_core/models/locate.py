"""Where a model reference points, and whether it may be opened.

A reference is one of two things:

- a **Hub name**, ``org/name`` or ``name``, optionally ``@revision`` (a branch, tag or 40-hex
  commit): found in this machine's Hugging Face cache, laid out as huggingface_hub lays it out::

      $HF_HUB_CACHE/models--org--name/refs/main          the commit, 40 hex digits
      $HF_HUB_CACHE/models--org--name/snapshots/<commit>/config.json, model.safetensors, ...

  Not cached: downloaded only when the caller and the server both allow it, else refused with
  how to pre-download it.
- a **folder path**, starting with ``/`` or ``.``: opened only if its real path (symlinks and
  ``..`` resolved) lies under ``EXPLORER_MODEL_DIRS`` or the cache. ``~`` is never expanded.
  ``anywhere=True`` drops this one rule (never the others): the command line passes it, since
  there the user opens a folder of their own machine; the server never does.

Either way the folder then passes every check of `checks` before anything is loaded.

Worked example (a hand-made cache; the tests build one with MiniLM's real files)::

    parse_reference("sentence-transformers/all-MiniLM-L6-v2@main")
    -> ("sentence-transformers/all-MiniLM-L6-v2", "main")
    locate("sentence-transformers/all-MiniLM-L6-v2").folder
    -> $HF_HUB_CACHE/models--sentence-transformers--all-MiniLM-L6-v2/snapshots/<commit>
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from explorer_core.models.checks import ModelFolder, check_folder
from explorer_core.models.download import ProgressCallback, download_snapshot
from explorer_core.models.settings import ModelRefused, downloads_allowed, hub_cache_dir

_PART = r"[A-Za-z0-9](?:[\w.-]{0,94}[A-Za-z0-9_])?"  # the Hub's rule: no leading/trailing . or -
HUB_NAME = re.compile(rf"(?:{_PART}/)?{_PART}", re.ASCII)
REVISION = re.compile(r"[\w.][\w./-]{0,199}", re.ASCII)
COMMIT = re.compile(r"[0-9a-f]{40}")


@dataclass(frozen=True)
class LocatedModel:
    """A model that may be opened: what it was called, where it lies, and its checked facts."""

    reference: str  # "org/name" (with "@revision" when one was asked) or the folder's real path
    kind: str  # "hub" (from the cache) or "folder" (under EXPLORER_MODEL_DIRS)
    model: ModelFolder
    repo_id: str = ""
    commit: str = ""  # the snapshot's commit, for a Hub name
    downloaded: bool = False  # fetched by this call

    @property
    def folder(self) -> Path:
        return self.model.folder

    @property
    def model_type(self) -> str:
        return self.model.model_type

    @property
    def weight_bytes(self) -> int:
        """The weight files' size on disk."""
        return self.model.weight_bytes

    @property
    def memory_bytes(self) -> int:
        """What loading it costs (float32), the figure the size check compared."""
        return self.model.memory_bytes

    @property
    def parameters(self) -> int:
        return self.model.parameters

    @property
    def cache_key(self) -> str:
        """One key per model version: ``org/name@commit`` from the cache, else the folder."""
        return f"{self.repo_id}@{self.commit}" if self.kind == "hub" else str(self.folder)


def is_path_reference(reference: str) -> bool:
    """Whether ``reference`` names a folder rather than a Hub name.

    >>> [is_path_reference(r) for r in ("/models/x", "./x", "../x", "~/x", "org/name", "name")]
    [True, True, True, True, False, False]
    """
    return reference.startswith(("/", ".", "~"))


def parse_reference(reference: str) -> tuple[str, str | None]:
    """(repo_id, revision or None) of a Hub name; ``ModelRefused`` when it is not one.

    >>> parse_reference("BAAI/bge-small-zh-v1.5"), parse_reference("bert-base-chinese@main")
    (('BAAI/bge-small-zh-v1.5', None), ('bert-base-chinese', 'main'))
    """
    name, _, revision = reference.partition("@")
    ok = HUB_NAME.fullmatch(name) and ".." not in name and "--" not in name
    if not ok or (revision and (not REVISION.fullmatch(revision) or ".." in revision)):
        raise ModelRefused(
            f"{reference!r} is neither a Hub name (org/name, optionally @revision) nor a folder "
            "path (starting with / or ./)"
        )
    return name, revision or None


def repo_folder(repo_id: str, cache: Path) -> Path:
    """The cache folder of one model repository: ``org/name -> cache/models--org--name``."""
    return cache / ("models--" + repo_id.replace("/", "--"))


def cached_snapshot(repo_id: str, revision: str | None, cache: Path) -> tuple[Path, str] | None:
    """(snapshot folder, commit) of ``repo_id`` in ``cache``; None when it is not there."""
    repo = repo_folder(repo_id, cache)
    revision = revision or "main"
    if COMMIT.fullmatch(revision):
        commit = revision
    else:
        ref = repo / "refs" / revision
        if not ref.is_file():
            return None
        # subtle: huggingface_hub writes no trailing newline, hand-made refs often have one
        commit = ref.read_text(encoding="ascii", errors="replace").strip()
        if not COMMIT.fullmatch(commit):
            return None
    snapshot = repo / "snapshots" / commit
    return (snapshot, commit) if snapshot.is_dir() else None


def _not_cached(repo_id: str, revision: str | None, cache: Path) -> ModelRefused:
    at = f" --revision {revision}" if revision else ""
    return ModelRefused(
        f"{repo_id} is not in this machine's Hugging Face cache ({cache}) and downloads are off: "
        f"pre-download it with `hf download {repo_id}{at} --cache-dir {cache}` (or "
        "huggingface-cli download; or set HF_HOME before downloading), or start the server with "
        "EXPLORER_ALLOW_DOWNLOADS=1"
    )


def locate(
    reference: str,
    *,
    allow_download: bool = False,
    progress: ProgressCallback | None = None,
    anywhere: bool = False,
) -> LocatedModel:
    """Where ``reference`` points, once every check passes; ``ModelRefused`` (one line) if not.

    ``allow_download``: the caller's permission to fetch a Hub name that is not cached (pass
    False in class mode). A download happens only when it is True *and* the server sets
    ``EXPLORER_ALLOW_DOWNLOADS=1``; ``progress(done_bytes, total_bytes)`` then reports bytes.
    ``anywhere``: a folder may lie outside the allowed roots (the command line only: the user's
    own machine); every other check still runs.
    """
    reference = reference.strip()
    if not reference:
        raise ModelRefused("no model given: type a Hub name (org/name) or a folder path")
    if is_path_reference(reference):
        return _locate_folder(reference, anywhere)
    repo_id, revision = parse_reference(reference)
    cache = hub_cache_dir()
    found = cached_snapshot(repo_id, revision, cache)
    downloaded = False
    if found is None:
        if not (allow_download and downloads_allowed()):
            raise _not_cached(repo_id, revision, cache)
        download_snapshot(repo_id, revision, cache, progress)
        found = cached_snapshot(repo_id, revision, cache)
        if found is None:
            raise ModelRefused(f"{repo_id} was downloaded but its snapshot is not in {cache}")
        downloaded = True
    snapshot, commit = found
    model = check_folder(snapshot)
    return LocatedModel(reference, "hub", model, repo_id, commit, downloaded)


EVERYWHERE = (Path("/"),)  # the roots of `anywhere=True`: the whole file system


def _locate_folder(reference: str, anywhere: bool = False) -> LocatedModel:
    if reference.startswith("~"):
        raise ModelRefused(
            f"{reference!r}: '~' is not expanded here; give the folder's full path under "
            "EXPLORER_MODEL_DIRS"
        )
    model = check_folder(Path(reference), EVERYWHERE if anywhere else None)
    return LocatedModel(str(model.folder), "folder", model)
