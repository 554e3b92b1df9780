"""Downloading a Hub model into the Hugging Face cache, with progress a page can draw.

Only `locate` calls this, and only when both the caller (``allow_download=True``: never in a
class) and the server (``EXPLORER_ALLOW_DOWNLOADS=1``) allow it. The files land in the cache in
huggingface_hub's own layout, so the next `locate` finds them without a download.

Only weights and settings are fetched (`ALLOW_PATTERNS`): safetensors, JSON, vocabularies, the
card; never ``*.py`` (remote code) and never pickle weights.

Progress: ``progress(done_bytes, total_bytes)`` is called from the download's worker threads as
bytes arrive (``total_bytes`` may grow while files are discovered; 0 while unknown). A page turns
it into ``st.progress(done / total)``; keep the callable cheap (store the numbers, draw elsewhere).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from fnmatch import fnmatch
from pathlib import Path

from tqdm.auto import tqdm

from explorer_core.models.checks import check_size
from explorer_core.models.settings import ModelRefused

ProgressCallback = Callable[[int, int], None]  # (bytes done, bytes expected)

ALLOW_PATTERNS = ("*.safetensors", "*.json", "*.txt", "*.model", "README.md")


def progress_bar_class(report: ProgressCallback, expected: int = 0) -> type[tqdm]:
    """A tqdm class for huggingface_hub's ``tqdm_class`` that hands byte counts to ``report``.

    huggingface_hub opens several bars (files done, bytes received, bytes written); the first
    bar counting bytes (``unit="B"``) to move is the one reported, so the numbers never jump
    between bars. Its total grows as files are discovered; ``expected`` (the files' sizes, when
    the Hub told them beforehand) keeps ``done / total`` from falling back meanwhile. Nothing is
    printed.
    """
    chosen: list[tqdm] = []  # the reported bar, shared by this class's instances

    class ByteProgress(tqdm):
        def __init__(self, *args, **kwargs) -> None:
            kwargs.pop("name", None)  # huggingface_hub's own bars take a name; tqdm does not
            kwargs["file"] = io.StringIO()  # never write to the server's stderr
            super().__init__(*args, **kwargs)

        def update(self, n: float | None = 1) -> bool | None:
            shown = super().update(n)
            if self.unit == "B" and (not chosen or chosen[0] is self):
                if not chosen:
                    chosen.append(self)
                done = int(self.n)
                report(done, max(int(self.total or 0), expected, done))
            return shown

    return ByteProgress


def remote_sizes(repo_id: str, revision: str | None) -> dict[str, int] | None:
    """{file: bytes} of the repository on the Hub, asked before downloading; None if unknown."""
    import huggingface_hub

    try:
        info = huggingface_hub.HfApi().model_info(repo_id, revision=revision, files_metadata=True)
    except Exception:  # the download itself reports what went wrong, in one line
        return None
    return {sibling.rfilename: sibling.size or 0 for sibling in info.siblings or ()}


def weight_bytes(sizes: dict[str, int]) -> int:
    """The bytes `checks` will weigh: model.safetensors, else every top-level safetensors.

    >>> weight_bytes({"model.safetensors": 90, "onnx/model.safetensors": 80, "vocab.txt": 1})
    90
    """
    top = {name: size for name, size in sizes.items() if name.endswith(".safetensors")
           and "/" not in name}  # fmt: skip
    return top.get("model.safetensors", sum(top.values()))


def fetched_bytes(sizes: dict[str, int]) -> int:
    """The bytes a download of `ALLOW_PATTERNS` brings (huggingface_hub matches with fnmatch).

    >>> fetched_bytes({"model.safetensors": 90, "modeling.py": 5, "1_Pooling/config.json": 1})
    91
    """
    return sum(size for name, size in sizes.items()
               if any(fnmatch(name, pattern) for pattern in ALLOW_PATTERNS))  # fmt: skip


def download_snapshot(
    repo_id: str,
    revision: str | None,
    cache_dir: Path,
    progress: ProgressCallback | None = None,
) -> Path:
    """Download ``repo_id`` (at ``revision``, else main) into ``cache_dir``; its snapshot folder.

    Refused (one line) when huggingface_hub is offline, when the weights are over the memory
    setting (asked before a byte is fetched), or when the Hub answers with an error.
    """
    import huggingface_hub

    if huggingface_hub.is_offline_mode():
        raise ModelRefused(
            f"downloads are allowed but the Hub is offline (HF_HUB_OFFLINE=1), so {repo_id} "
            "cannot be fetched: start the server with HF_HUB_OFFLINE=0 or pre-download it"
        )
    sizes = remote_sizes(repo_id, revision) or {}
    check_size(weight_bytes(sizes), repo_id)  # file bytes: the parameters are not known yet
    expected = fetched_bytes(sizes)
    try:
        folder = huggingface_hub.snapshot_download(
            repo_id,
            revision=revision,
            cache_dir=str(cache_dir),
            allow_patterns=list(ALLOW_PATTERNS),
            tqdm_class=progress_bar_class(progress, expected) if progress else None,
        )
    except Exception as err:  # network, missing, gated, disk: all one line for the page
        first = (str(err).strip().splitlines() or [""])[0]
        raise ModelRefused(f"could not download {repo_id}: {type(err).__name__}: {first}") from err
    return Path(folder)
