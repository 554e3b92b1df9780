"""What a safetensors file holds, read from its header alone (no tensor is read).

A safetensors file starts with 8 bytes, a little-endian unsigned length N, then N bytes of JSON:
one entry per tensor with its dtype, shape and byte range, plus an optional ``__metadata__``.
Counting parameters is then a sum of products of shapes: a 90 MB file answers in microseconds.

Worked example (a header for two tensors)::

    {"a.weight": {"dtype": "F32", "shape": [3, 4], "data_offsets": [0, 48]},
     "a.bias":   {"dtype": "F32", "shape": [4],    "data_offsets": [48, 64]}}
    -> 3 * 4 + 4 = 16 parameters, 64 bytes (integer tensors, such as position ids, are counted
       as tensors and bytes but not as parameters)
"""

from __future__ import annotations

import json
import math
import struct
from dataclasses import dataclass
from pathlib import Path

MAX_HEADER_BYTES = 100_000_000  # the format's own limit; a larger length means a broken file
FLOAT_DTYPES = ("F", "BF")  # F16, F32, F64, F8_E4M3, ...; BF16 (I64, U8, BOOL are buffers)


@dataclass(frozen=True)
class TensorCounts:
    tensors: int = 0
    # sum of numel over floating-point tensors: integer buffers saved beside the weights (BERT's
    # `position_ids`, 0..511 as I64) are no parameters
    parameters: int = 0
    data_bytes: int = 0  # bytes of tensor data (the file is this plus the header)


def read_header(path: Path) -> dict:
    """The JSON header of one safetensors file; ``ValueError`` (one line) if it is not one."""
    with open(path, "rb") as handle:
        start = handle.read(8)
        if len(start) != 8:
            raise ValueError(f"{path.name} is too short to be a safetensors file")
        (length,) = struct.unpack("<Q", start)
        if length > MAX_HEADER_BYTES:
            raise ValueError(f"{path.name} is not a safetensors file (header length {length})")
        raw = handle.read(length)
    try:
        header = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path.name} is not a safetensors file (unreadable header)") from err
    if not isinstance(header, dict):
        raise ValueError(f"{path.name} is not a safetensors file (header is not an object)")
    return header


def count_tensors(header: dict) -> TensorCounts:
    """Tensors, parameters and data bytes described by a header (see the module's example).

    >>> count_tensors({"__metadata__": {"format": "pt"},
    ...                "a.weight": {"dtype": "F32", "shape": [3, 4], "data_offsets": [0, 48]},
    ...                "a.bias": {"dtype": "F32", "shape": [4], "data_offsets": [48, 64]},
    ...                "ids": {"dtype": "I64", "shape": [1, 2], "data_offsets": [64, 80]}})
    TensorCounts(tensors=3, parameters=16, data_bytes=80)
    """
    tensors = parameters = data_bytes = 0
    for name, entry in header.items():
        if name == "__metadata__" or not isinstance(entry, dict):
            continue
        tensors += 1
        if str(entry.get("dtype", "")).startswith(FLOAT_DTYPES):
            parameters += math.prod(int(size) for size in entry.get("shape", ()))
        begin, end = entry.get("data_offsets", (0, 0))
        data_bytes += int(end) - int(begin)
    return TensorCounts(tensors, parameters, data_bytes)


def count_files(paths: tuple[Path, ...] | list[Path]) -> TensorCounts:
    """The counts of several files together (a checkpoint sharded into model-0000k-of-0000n)."""
    total = TensorCounts()
    for path in paths:
        one = count_tensors(read_header(path))
        total = TensorCounts(
            total.tensors + one.tensors,
            total.parameters + one.parameters,
            total.data_bytes + one.data_bytes,
        )
    return total
