"""A lesson pack: the app's settings, trained tokenizer and trained model in one zip file.

A teacher prepares a lesson at home, downloads the pack, and every student who uploads it opens
the same state. The zip holds::

    manifest.json      {"format": "embedding-explorer-lesson-pack", "version": 1,
                        "app_version": "0.1.0", "contents": {"settings": 12, "tokenizer": {...},
                        "lab": true, "model": {"label": ...}}}
    settings.json      {"attn.layer": 3, "lang": "zh", ...} (plain JSON values, see pack_settings)
    tokenizer/         the shared tokenizer, written by `Tokenizer.save`
    lab.json           the Tokenizer Lab's view of it: trace, merge replay, corpus label
    model/             the trained model, as `save_checkpoint` writes it (older packs: old layout)

Reading never unpickles (weights go through safetensors) and checks everything before it
returns: unsafe paths, links, oversize members, unknown formats and versions, declared parts
that are missing. A bad file raises ValueError with a sentence for the user and changes nothing.
The same state always gives the same bytes (sorted members, fixed dates, no timestamps).

>>> pack = read_pack(write_pack({"attn.layer": 3}))
>>> pack.settings, pack.tokenizer, pack.model
({'attn.layer': 3}, None, None)
"""

from __future__ import annotations

import io
import json
import tempfile
import zipfile
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from explorer_core import __version__
from explorer_core.files.export import zip_bytes
from explorer_core.files.lab_record import (
    replay_to_json,
    restore_replay,
    trace_from_json,
    trace_to_json,
)
from explorer_core.files.pack_settings import check_settings, storable_settings
from explorer_core.tokenization import Tokenizer, load_tokenizer
from explorer_core.training.checkpoint import Checkpoint, load_checkpoint, save_checkpoint

FORMAT = "embedding-explorer-lesson-pack"
VERSION = 1
MANIFEST, SETTINGS, LAB = "manifest.json", "settings.json", "lab.json"
TOKENIZER_DIR, MODEL_DIR = "tokenizer", "model"
MAX_PACK_BYTES = 200 * 2**20  # an upload larger than this is refused before it is opened
MAX_UNPACKED_BYTES = 600 * 2**20  # all members together, unpacked (zip bombs)
MAX_JSON_BYTES = 64 * 2**20  # one JSON member (the longest: a 20k-merge replay, ~5 MB)
MAX_MEMBERS = 200


class PackError(ValueError):
    """A file that is not a usable pack; `reason` names the catalogue message, str() says it.

    Reasons: "too_big", "not_zip", "unsafe", "not_pack", "newer", "missing"; any other problem
    is a plain ValueError (a damaged pack) whose sentence says what is wrong.

    >>> err = PackError("newer format", "newer", version=2)
    >>> err.reason, err.values, str(err)
    ('newer', {'version': 2}, 'newer format')
    """

    def __init__(self, message: str, reason: str, **values: Any) -> None:
        super().__init__(message)
        self.reason, self.values = reason, values


@dataclass(frozen=True, eq=False)
class LabResult:
    """What the Tokenizer Lab shows of a training: its trace, algorithm and corpus label."""

    trace: tuple[Any, ...]
    algo: str
    label: str


@dataclass(frozen=True, eq=False)
class TokenizerBundle:
    """The shared tokenizer, its short name for other pages, and the Lab's record (if any)."""

    tokenizer: Tokenizer
    name: str = ""
    lab: LabResult | None = None


@dataclass(frozen=True, eq=False)
class LessonPack:
    """A pack, read and checked: settings, tokenizer bundle or None, model or None."""

    settings: dict[str, Any] = field(default_factory=dict)
    tokenizer: TokenizerBundle | None = None
    model: Checkpoint | None = None
    app_version: str = ""


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8")


def _folder_files(folder: Path, prefix: str) -> dict[str, bytes]:
    files = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        files[f"{prefix}/{path.relative_to(folder).as_posix()}"] = path.read_bytes()
    return files


def write_pack(
    settings: Mapping[str, Any],
    tokenizer: TokenizerBundle | None = None,
    model: Checkpoint | None = None,
    *,
    excluded: Collection[str] = (),
    patterns: Iterable[str] = (),
    allowed: Collection[str] | None = None,
) -> bytes:
    """The pack as zip bytes; settings that are not plain JSON, or not `allowed` (the declared
    ones; None: any), are left out."""
    kept = storable_settings(settings, excluded, patterns, allowed)
    contents: dict[str, Any] = {
        "settings": len(kept),
        "tokenizer": None,
        "lab": False,
        "model": None,
    }
    files: dict[str, bytes] = {SETTINGS: _json(kept)}
    with tempfile.TemporaryDirectory() as tmp:
        if tokenizer is not None:
            tok = tokenizer.tokenizer
            files |= _folder_files(tok.save(Path(tmp, TOKENIZER_DIR)), TOKENIZER_DIR)
            contents["tokenizer"] = {"algo": tok.algo, "name": tokenizer.name}
            if tokenizer.lab is not None:
                lab = tokenizer.lab
                files[LAB] = _json({
                    "algo": lab.algo, "label": lab.label, "trace": trace_to_json(lab.trace),
                    "replay": replay_to_json(tok),
                })  # fmt: skip
                contents["lab"] = True
        if model is not None:
            folder = save_checkpoint(model, Path(tmp, MODEL_DIR))
            files |= _folder_files(folder, MODEL_DIR)
            contents["model"] = {"label": model.label, "algo": model.tokenizer.algo}
    manifest = {"format": FORMAT, "version": VERSION, "app_version": __version__,
                "contents": contents}  # fmt: skip
    files[MANIFEST] = _json(manifest)
    return zip_bytes(files)


def _members(archive: zipfile.ZipFile) -> dict[str, zipfile.ZipInfo]:
    """The archive's files by name, after refusing unsafe names, links, duplicates and bombs."""
    infos = archive.infolist()
    if len(infos) > MAX_MEMBERS:
        raise PackError(f"The file holds more than {MAX_MEMBERS} files", "not_pack")
    members, total = {}, 0
    for info in infos:
        name = info.filename
        parts = PurePosixPath(name).parts
        if name.startswith(("/", "\\")) or "\\" in name or ".." in parts or ":" in name:
            raise PackError(f"The file holds an unsafe path ({name!r})", "unsafe", name=name)
        if (info.external_attr >> 16) & 0o170000 == 0o120000:
            raise PackError(f"The file holds a link ({name!r})", "unsafe", name=name)
        total += info.file_size
        if total > MAX_UNPACKED_BYTES:
            mb = MAX_UNPACKED_BYTES // 2**20
            raise PackError(f"The file unpacks to more than {mb} MB", "too_big", mb=mb)
        if name in members:
            raise PackError(f"The file holds {name!r} twice", "unsafe", name=name)
        if not info.is_dir():
            members[name] = info
    return members


def _read(archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int) -> bytes:
    mb = limit // 2**20
    if info.file_size > limit:
        raise PackError(
            f"The lesson pack's {info.filename} is larger than {mb} MB", "too_big", mb=mb
        )
    try:
        with archive.open(info) as src:
            data = src.read(limit + 1)  # never trust the declared size alone
    except (zipfile.BadZipFile, OSError, EOFError, NotImplementedError) as err:
        raise ValueError(f"The lesson pack's {info.filename} cannot be unpacked: {err}") from err
    if len(data) > limit:
        raise PackError(
            f"The lesson pack's {info.filename} is larger than {mb} MB", "too_big", mb=mb
        )
    return data


def _read_json(archive: zipfile.ZipFile, members: Mapping[str, zipfile.ZipInfo], name: str) -> Any:
    if name not in members:
        raise PackError(f"The lesson pack lacks {name}, which it lists", "missing", part=name)
    try:
        return json.loads(_read(archive, members[name], MAX_JSON_BYTES).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"The lesson pack's {name} is not valid JSON") from err


def _unpack(archive: zipfile.ZipFile, members: Mapping[str, zipfile.ZipInfo], folder: str,
            dest: Path) -> Path:  # fmt: skip
    """Write the members under `folder/` into dest/folder; ValueError if there are none."""
    chosen = [info for name, info in members.items() if name.startswith(f"{folder}/")]
    if not chosen:
        part = f"{folder}/"
        raise PackError(f"The lesson pack lacks {part}, which it lists", "missing", part=part)
    for info in chosen:
        target = dest / info.filename
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_read(archive, info, MAX_UNPACKED_BYTES))
    return dest / folder


def _manifest(archive: zipfile.ZipFile, members: Mapping[str, zipfile.ZipInfo]) -> dict:
    if MANIFEST not in members:
        raise PackError("The zip has no manifest.json, so it is not a lesson pack", "not_pack")
    manifest = _read_json(archive, members, MANIFEST)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise PackError("The zip is not an Embedding Explorer lesson pack", "not_pack")
    version = manifest.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ValueError("The lesson pack's manifest has no valid version number")
    if version > VERSION:
        raise PackError(
            f"This lesson pack was made by a newer version of the app (pack format {version}; "
            f"this app reads format {VERSION}). Update the app to open it.",
            "newer", version=version, supported=VERSION,
        )  # fmt: skip
    if not isinstance(manifest.get("contents"), dict):
        raise ValueError("The lesson pack's manifest does not say what the pack holds")
    return manifest


def _tokenizer(
    archive: zipfile.ZipFile, members: Mapping[str, zipfile.ZipInfo], contents: dict, tmp: Path
) -> TokenizerBundle | None:
    """The pack's tokenizer with its Lab record, checked, or None when the pack has none."""
    info = contents.get("tokenizer")
    if not info:
        return None
    folder = _unpack(archive, members, TOKENIZER_DIR, tmp)
    try:
        tokenizer = load_tokenizer(folder)
    except (KeyError, TypeError, ValueError, IndexError) as err:
        raise ValueError(f"The lesson pack's tokenizer cannot be read: {err}") from err
    name = info.get("name", "") if isinstance(info, dict) else ""
    lab = None
    if contents.get("lab"):
        data = _read_json(archive, members, LAB)
        if not isinstance(data, dict) or data.get("algo") != tokenizer.algo:
            raise ValueError("The lesson pack's Tokenizer Lab record is for another tokenizer")
        trace = trace_from_json(data.get("trace"))
        restore_replay(tokenizer, data.get("replay"))
        lab = LabResult(tuple(trace), tokenizer.algo, str(data.get("label", "")))
    return TokenizerBundle(tokenizer, str(name), lab)


def read_pack(
    data: bytes, *, excluded: Collection[str] = (), patterns: Iterable[str] = (),
    examples: Mapping[str, Any] | None = None, allowed: Collection[str] | None = None,
) -> LessonPack:  # fmt: skip
    """Read and check a pack; ValueError (a sentence for the user) when it is not a valid one.

    Settings not `allowed` (None: any), named in `excluded`, matching `patterns` or not fitting
    `examples` are dropped (see pack_settings.check_settings).
    """
    if len(data) > MAX_PACK_BYTES:
        mb = MAX_PACK_BYTES // 2**20
        raise PackError(f"The file is larger than {mb} MB", "too_big", mb=mb)
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError, OSError) as err:
        raise PackError("The file is not a zip archive", "not_zip") from err
    with archive, tempfile.TemporaryDirectory() as tmp:
        members = _members(archive)
        manifest = _manifest(archive, members)
        contents = manifest["contents"]
        settings = check_settings(
            _read_json(archive, members, SETTINGS), excluded, patterns, examples, allowed
        )
        bundle = _tokenizer(archive, members, contents, Path(tmp))
        model = None
        if contents.get("model"):
            folder = _unpack(archive, members, MODEL_DIR, Path(tmp))
            try:
                model = load_checkpoint(folder)
            except (ValueError, KeyError, TypeError, RuntimeError) as err:
                raise ValueError(f"The lesson pack's model cannot be read: {err}") from err
    return LessonPack(settings, bundle, model, str(manifest.get("app_version", "")))
