"""What the Tokenizer Lab, BERT inputs and Attention pages hand out as files (pure, no streamlit).

Builders of plain records and tables; explorer_core.export turns them into bytes (JSON, CSV, zip).

- Tokenizer: `vocab_record` (token -> id, plus each id's bytes in hex for byte-level BPE),
  `merges_text` (merges.txt: "left right" per line, in merge order, the pieces written as in the
  Hugging Face tokenizer.json), `tokenizer_files` (what `Tokenizer.save` writes, for a zip).
- BERT inputs: `shares_frame` (running shares of each masking kind after each draw).
- Attention: `attention_record` (every weight of one sentence: layers × heads × T × T).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from explorer_core.tokenization import Tokenizer


def vocab_record(tokenizer: Tokenizer) -> dict[str, Any]:
    """{"algo", "vocab": {token: id}} ordered by id; byte-level adds {"bytes_hex": {id: hex}}.

    Byte-level tokens are written as GPT-2's printable characters (as in tokenizer.json): "Ġt" is
    the bytes 20 74 (" t"); `bytes_hex` gives the real bytes of every id.
    """
    vocab = dict(sorted(tokenizer.vocab.items(), key=lambda item: item[1]))
    record: dict[str, Any] = {"algo": tokenizer.algo, "vocab": vocab}
    token_bytes = getattr(tokenizer, "token_bytes", None)
    if token_bytes:
        record["bytes_hex"] = {str(i): token_bytes[i].hex(" ") for i in sorted(token_bytes)}
    return record


def merges_text(tokenizer: Tokenizer) -> str | None:
    """The merges in order as merges.txt ("left right" per line), or None for non-BPE tokenizers.

    >>> from explorer_core.tokenization import new_tokenizer
    >>> tok = new_tokenizer("byte-bpe"); _ = tok.train("the the the", 258)
    >>> merges_text(tok).splitlines()
    ['#version: 0.2', 'h e', 't he']
    """
    model = json.loads(tokenizer.to_hf_json()).get("model", {})
    if model.get("type") != "BPE":
        return None
    lines = ["#version: 0.2"]
    for merge in model.get("merges", []):
        lines.append(merge if isinstance(merge, str) else " ".join(merge))
    return "\n".join(lines) + "\n"


def tokenizer_files(tokenizer: Tokenizer) -> dict[str, bytes]:
    """The files `Tokenizer.save` writes (our own JSON and Hugging Face's tokenizer.json)."""
    with tempfile.TemporaryDirectory() as folder:
        tokenizer.save(folder)
        return {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir()) if p.is_file()}


def shares_frame(shares: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """One row per draw: the running share of each kind among the non-special tokens so far.

    >>> shares_frame({"mask": np.array([0.1, 0.12])}).to_dict("list")
    {'draw': [1, 2], 'mask': [0.1, 0.12]}
    """
    lengths = {len(v) for v in shares.values()}
    if len(lengths) > 1:
        raise ValueError("every kind needs one share per draw")
    n = lengths.pop() if lengths else 0
    return pd.DataFrame(
        {"draw": np.arange(1, n + 1), **{k: np.asarray(v) for k, v in shares.items()}}
    )


def attention_record(
    weights: np.ndarray, tokens: Sequence[str], attention_mask: Sequence[int], model: str,
    causal: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """Every attention weight of one sentence: weights[layer][head][query][key], with its tokens.

    Layers and heads count from 0 here (the page shows them from 1). Each row sums to 1.
    """
    array = np.asarray(weights, dtype=np.float64)
    if array.ndim != 4 or array.shape[2:] != (len(tokens), len(tokens)):
        raise ValueError(f"weights {array.shape} do not match {len(tokens)} tokens (L, H, T, T)")
    return {
        "model": model, "tokens": list(tokens), "attention_mask": list(attention_mask),
        "causal": causal, "layers": array.shape[0], "heads": array.shape[1],
        "shape": ["layer", "head", "query", "key"], "weights": array,
    }  # fmt: skip
