"""Read the bytes behind a page's download buttons in AppTest.

A download button built from a callable ("deferred": the bytes are made on click) shows up in
AppTest as a DownloadButton element whose proto holds a `deferred_file_id`. The callable lives in
the media file manager of AppTest's mock runtime, which AppTest replaces on every run; recording
each manager lets a test call the callable, i.e. click the button, and read the exact bytes.
"""

from __future__ import annotations

import io
import zipfile
from contextlib import contextmanager

import numpy as np
import pandas as pd
from streamlit.runtime.media_file_manager import MediaFileManager


class RecordingManager(MediaFileManager):
    """A MediaFileManager that remembers every instance (one per AppTest run)."""

    made: list[MediaFileManager] = []

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        RecordingManager.made.append(self)


@contextmanager
def recording():
    """Within this block, AppTest runs keep their download callables reachable."""
    from unittest.mock import patch

    with patch("streamlit.testing.v1.app_test.MediaFileManager", RecordingManager):
        yield


def buttons(at) -> dict[str, object]:
    """The page's download buttons by widget key (the part after the last "-" of the id)."""
    return {button.proto.id.split("-", 2)[-1]: button for button in at.get("download_button")}


def download_bytes(at, key: str) -> bytes:
    """Click the download button `key` of the last run: the bytes a browser would save."""
    button = buttons(at)[key]
    file_id = button.proto.deferred_file_id
    for manager in reversed(RecordingManager.made):
        entry = manager._deferred_callables.get(file_id)
        if entry is not None:
            data = entry["callable"]()
            return data.encode() if isinstance(data, str) else data
    raise KeyError(f"no deferred download {key!r} ({file_id}) in any recorded run")


def read_csv(data: bytes, **kwargs) -> pd.DataFrame:
    assert data.startswith(b"\xef\xbb\xbf")  # the BOM spreadsheet programs need for Chinese
    return pd.read_csv(io.BytesIO(data), encoding="utf-8-sig", keep_default_na=False, **kwargs)


def read_projector(data: bytes) -> tuple[np.ndarray, list[list[str]]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = sorted(archive.namelist())
        assert [n.rsplit("-", 1)[-1] for n in names] == ["metadata.tsv", "vectors.tsv"]
        meta, vectors = (archive.read(n).decode() for n in names)
    rows = [line.split("\t") for line in vectors.splitlines()]
    return np.array(rows, dtype=np.float64), [line.split("\t") for line in meta.splitlines()]
