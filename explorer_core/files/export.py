"""Files to take home: tables as CSV, tensors as JSON, vectors for the Embedding Projector.

Pure functions from data to bytes; the UI layer (explorer_core/ui/export.py) puts them behind
download buttons. Every file is UTF-8 and deterministic (same data, same bytes), so a lesson
handed out twice is the same file twice.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

ZIP_DATE = (2020, 1, 1, 0, 0, 0)  # fixed member timestamps: the same files give the same zip bytes


def frame_csv(frame: pd.DataFrame, index: bool = False) -> bytes:
    """A table as CSV in UTF-8 with a byte-order mark, so spreadsheet programs read Chinese right.

    >>> frame_csv(pd.DataFrame({"token": ["猫"], "id": [7]}))
    b'\\xef\\xbb\\xbftoken,id\\n\\xe7\\x8c\\xab,7\\n'
    """
    return frame.to_csv(index=index, lineterminator="\n").encode("utf-8-sig")


def plain(value: Any) -> Any:
    """Tensors, arrays and numpy scalars as plain lists and numbers, ready for json.dumps.

    >>> plain({"w": np.array([[1.0, 0.5]]), "n": np.int64(3), "t": (1, 2)})
    {'w': [[1.0, 0.5]], 'n': 3, 't': [1, 2]}
    """
    if hasattr(value, "detach"):  # a torch tensor, without importing torch here
        value = value.detach().cpu().numpy()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Mapping):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [plain(item) for item in value]
    return value


def json_bytes(value: Any) -> bytes:
    """Dicts, lists, numbers, strings, arrays and tensors as UTF-8 JSON (Chinese kept)."""
    return json.dumps(plain(value), ensure_ascii=False, indent=1).encode("utf-8")


def tsv_cell(value: Any) -> str:
    """One TSV cell: tabs and line breaks inside a label would break the row, so they are shown.

    >>> tsv_cell("a\\tb\\nc")
    'a\\\\tb\\\\nc'
    """
    return (
        str(value)
        .replace("\\", "\\\\")
        .replace("\t", "\\t")
        .replace("\n", "\\n")
        .replace("\r", "\\r")
    )


def projector_tsv(vectors: Any, metadata: pd.DataFrame) -> tuple[bytes, bytes]:
    """(vectors.tsv, metadata.tsv) in the format the TensorFlow Embedding Projector loads.

    vectors.tsv: one row per point, its numbers separated by tabs, no header.
    metadata.tsv: one row per point in the same order; with a single column there is no header
    row (the Projector's rule), with several the first row names them.

    >>> meta = pd.DataFrame({"token": ["a", "b"]})
    >>> v, m = projector_tsv(np.array([[1.0, 0.5], [0.0, -2.0]]), meta)
    >>> v.decode(), m.decode()
    ('1.0\\t0.5\\n0.0\\t-2.0\\n', 'a\\nb\\n')
    """
    array = np.asarray(plain(vectors), dtype=np.float64)
    if array.ndim != 2:
        raise ValueError(f"the Projector needs one vector per row (2-D), got {array.ndim}-D")
    if len(metadata) != len(array):
        raise ValueError(f"{len(array)} vectors but {len(metadata)} metadata rows")
    vector_lines = ["\t".join(repr(float(x)) for x in row) for row in array]
    rows = [[tsv_cell(cell) for cell in row] for row in metadata.itertuples(index=False)]
    if metadata.shape[1] > 1:
        rows.insert(0, [tsv_cell(name) for name in metadata.columns])
    meta_lines = ["\t".join(row) for row in rows]
    return ("\n".join(vector_lines) + "\n").encode(), ("\n".join(meta_lines) + "\n").encode()


def zip_bytes(files: Mapping[str, bytes | str]) -> bytes:
    """Several files in one deterministic zip (sorted names, fixed dates)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            data = files[name]
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data.encode("utf-8") if isinstance(data, str) else data)
    return buffer.getvalue()


def projector_zip(vectors: Any, metadata: pd.DataFrame, stem: str) -> bytes:
    """The Projector's two files in one zip: <stem>-vectors.tsv and <stem>-metadata.tsv."""
    vector_tsv, metadata_tsv = projector_tsv(vectors, metadata)
    return zip_bytes({f"{stem}-vectors.tsv": vector_tsv, f"{stem}-metadata.tsv": metadata_tsv})


def file_stem(*parts: object) -> str:
    """A safe file name stem from labels: ASCII letters, digits, dashes (Chinese kept as is).

    >>> file_stem("attention", "layer 3", "head 2")
    'attention-layer-3-head-2'
    """
    text = "-".join(str(part) for part in parts if str(part))
    text = re.sub(r"[^\w\-.]+", "-", text, flags=re.UNICODE).strip("-.")
    return re.sub(r"-{2,}", "-", text) or "export"


def labelled_matrix(matrix: Any, rows: Sequence[str], columns: Sequence[str]) -> pd.DataFrame:
    """A 2-D tensor as a table with its row and column labels (e.g. query × key tokens).

    # subtle: token labels repeat ("the" twice); positions keep the rows and columns apart.
    """
    array = np.asarray(plain(matrix), dtype=np.float64)
    if array.shape != (len(rows), len(columns)):
        raise ValueError(f"matrix {array.shape} does not match {len(rows)} × {len(columns)} labels")
    index = [f"{i}:{label}" for i, label in enumerate(rows)]
    header = [f"{j}:{label}" for j, label in enumerate(columns)]
    return pd.DataFrame(array, index=index, columns=header)
