"""The Tokenizer Lab's view of a trained tokenizer as JSON, and back: trace, candidates, curve.

`Tokenizer.save` keeps what a tokenizer needs to encode. The Lab shows more: the trace `train`
returned (frozen dataclasses of scalars, one per step) and, for the BPE family, the candidate
pairs of every step and the token counts per script behind the tokens-per-character curve. This
module turns that into plain JSON and restores it, so an uploaded lesson pack replays every
merge in the scrubber without training again. Decoding checks every value; it never evaluates
anything (no pickle): the trace classes it may build are a fixed list.

>>> from explorer_core.tokenization.word_level import WordEntry
>>> data = trace_to_json([WordEntry(0, "猫", 4, 9)])
>>> data["type"], data["fields"], data["rows"]
('WordEntry', ['rank', 'word', 'id', 'count'], [[0, '猫', 4, 9]])
>>> trace_from_json(data)
[WordEntry(rank=0, word='猫', id=4, count=9)]
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Sequence
from typing import Any

from explorer_core.tokenization import Tokenizer

# the classes a trace may hold: one per algorithm (class name -> "module:Class")
TRACE_TYPES: dict[str, str] = {
    "ByteMerge": "explorer_core.tokenization.byte_bpe:ByteMerge",
    "CharMerge": "explorer_core.tokenization.char_bpe:CharMerge",
    "WordPieceMerge": "explorer_core.tokenization.wordpiece_trainer:WordPieceMerge",
    "UnigramRound": "explorer_core.tokenization.unigram_trainer:UnigramRound",
    "WordEntry": "explorer_core.tokenization.word_level:WordEntry",
}


def _trace_class(name: str) -> type:
    if name not in TRACE_TYPES:
        raise ValueError(f"The training record holds steps of an unknown kind ({name!r})")
    module, cls = TRACE_TYPES[name].split(":")
    return getattr(importlib.import_module(module), cls)


def _encode(value: Any, kind: str) -> Any:
    if kind == "bytes":
        return value.hex()
    if kind == "tuple[str, ...]":
        return list(value)
    if kind in ("int", "float", "str", "bool"):
        return value
    raise ValueError(f"cannot store a trace field of type {kind}")


def _decode(value: Any, kind: str) -> Any:
    """One field, checked: ints are not bools, strings are strings, bytes come as hex."""
    ok = {
        "int": isinstance(value, int) and not isinstance(value, bool),
        "float": isinstance(value, int | float) and not isinstance(value, bool),
        "str": isinstance(value, str),
        "bool": isinstance(value, bool),
        "bytes": isinstance(value, str),
        "tuple[str, ...]": isinstance(value, list) and all(isinstance(v, str) for v in value),
    }
    if not ok.get(kind, False):
        raise ValueError(f"a training step holds {value!r} where a {kind} belongs")
    if kind == "bytes":
        try:
            return bytes.fromhex(value)
        except ValueError as err:
            raise ValueError(f"a training step holds bad bytes ({value!r})") from err
    if kind == "float":
        return float(value)
    return tuple(value) if kind == "tuple[str, ...]" else value


def trace_to_json(trace: Sequence[Any]) -> dict[str, Any]:
    """A trace (a list of one frozen dataclass) as {"type", "fields", "rows"}."""
    if not trace:
        return {"type": None, "fields": [], "rows": []}
    cls = type(trace[0])
    if cls.__name__ not in TRACE_TYPES or any(type(step) is not cls for step in trace):
        raise ValueError(f"cannot store a trace of {cls.__name__}")
    fields = dataclasses.fields(cls)
    rows = [[_encode(getattr(step, f.name), str(f.type)) for f in fields] for step in trace]
    return {"type": cls.__name__, "fields": [f.name for f in fields], "rows": rows}


def trace_from_json(data: Any) -> list[Any]:
    """Inverse of `trace_to_json`; ValueError (a sentence) for anything else."""
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise ValueError("The training record has no list of steps")
    if data.get("type") is None and not data["rows"]:
        return []
    cls = _trace_class(str(data.get("type")))
    fields = dataclasses.fields(cls)
    if data.get("fields") != [f.name for f in fields]:
        raise ValueError(f"The training record's {cls.__name__} steps have other fields")
    steps = []
    for row in data["rows"]:
        if not isinstance(row, list) or len(row) != len(fields):
            raise ValueError("A training step has the wrong number of values")
        steps.append(cls(*(_decode(v, str(f.type)) for v, f in zip(row, fields, strict=True))))
    return steps


def _ints(value: Any, length: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ValueError("The merge replay data is damaged (a list of numbers was expected)")
    if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in value):
        raise ValueError("The merge replay data is damaged (counts must be whole numbers ≥ 0)")
    return tuple(value)


def replay_to_json(tokenizer: Tokenizer) -> dict[str, Any] | None:
    """The BPE family's replay data (candidates per step, per-script counts), or None."""
    stats = getattr(tokenizer, "stats", None)
    if stats is None or not hasattr(tokenizer, "_candidates"):
        return None
    return {
        # subtle: candidates are kept in the tokenizer's internal ids (HF order for byte-level)
        "candidates": [[list(c) for c in step] for step in tokenizer._candidates],
        "chars": list(stats.chars),
        "initial_tokens": list(stats.initial_tokens),
        "removed": [list(r) for r in stats.removed],
    }


def restore_replay(tokenizer: Tokenizer, data: Any) -> None:
    """Give a loaded BPE tokenizer its replay data back; ValueError if it does not fit it."""
    from explorer_core.tokenization.byte_bpe import TrainingStats

    if data is None:
        return
    if not isinstance(data, dict) or not hasattr(tokenizer, "_candidates"):
        raise ValueError(f"The merge replay data does not fit a {tokenizer.algo} tokenizer")
    merges = len(tokenizer.merges)
    steps = data.get("candidates")
    removed = data.get("removed")
    if not isinstance(steps, list) or not isinstance(removed, list) or len(removed) != merges:
        raise ValueError("The merge replay data does not match the tokenizer's merges")
    candidates = [tuple(_ints(c, 3) for c in _list(step)) for step in steps[:merges]]
    stats = TrainingStats(
        _ints(data.get("chars"), 2), _ints(data.get("initial_tokens"), 2),  # type: ignore[arg-type]
        tuple(_ints(r, 2) for r in removed),
    )  # fmt: skip
    tokenizer._candidates, tokenizer.stats = candidates, stats
    try:  # every candidate must name tokens this tokenizer has
        known = getattr(tokenizer, "token_bytes", None)
        for step in range(len(candidates)):
            for c in tokenizer.candidates(step):
                if known is not None and (c.left not in known or c.right not in known):
                    raise KeyError(c.left)
    except (KeyError, IndexError) as err:
        tokenizer._candidates, tokenizer.stats = [], None
        raise ValueError("The merge replay data names tokens the tokenizer does not have") from err


def _list(value: Any) -> list:
    if not isinstance(value, list):
        raise ValueError("The merge replay data is damaged (a list was expected)")
    return value
