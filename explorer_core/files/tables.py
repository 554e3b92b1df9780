"""The tables and records behind every page's download buttons. No streamlit.

Pure functions from what a page already computed to a DataFrame (for CSV) or a dict (for JSON).
Column names are stable English identifiers (token, id, bytes, ...), the same in both UI languages,
so a file parses the same way whoever downloaded it; `explorer_core.files.export` turns them
into bytes.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from explorer_core.files.export import plain
from explorer_core.tokenization.base import Token, Tokenizer, hex_bytes, token_label

if TYPE_CHECKING:  # training.loop imports torch; the tokenizer pages export tables without it
    from explorer_core.training.loop import Record


def token_table(tokens: Sequence[Token], text: str, counts: Mapping[int, int]) -> pd.DataFrame:
    """One row per token: position, token (as shown), id, bytes (hex), character offsets
    [start, end) into `text`, the characters covered, special or not, count in the corpus.

    >>> row = token_table([Token(7, "hi", b"hi", 0, 2)], "hi", {7: 3}).to_dict("records")[0]
    >>> list(row.values())
    [0, 'hi', 7, '68 69', 0, 2, 'hi', False, 3]
    """
    return pd.DataFrame(
        {
            "position": range(len(tokens)),
            "token": [token_label(tok) for tok in tokens],
            "id": [tok.id for tok in tokens],
            "bytes": [hex_bytes(tok.raw) for tok in tokens],
            "start": [tok.start for tok in tokens],
            "end": [tok.end for tok in tokens],
            "text": [text[tok.start : tok.end] for tok in tokens],
            "special": [bool(tok.special) for tok in tokens],
            "count": [counts.get(tok.id, 0) for tok in tokens],
        }
    )


def ids_record(text: str, tokenizer: str, tokens: Sequence[Token]) -> dict[str, Any]:
    """The text, the tokenizer's name, its tokens and their ids (what a model receives)."""
    return {
        "text": text,
        "tokenizer": tokenizer,
        "tokens": [token_label(tok) for tok in tokens],
        "ids": [tok.id for tok in tokens],
    }


def vector_columns(width: int) -> list[str]:
    """Column names of a vector's dimensions.

    >>> vector_columns(3)
    ['d0', 'd1', 'd2']
    """
    return [f"d{j}" for j in range(width)]


def vectors_frame(labels: Sequence[str], ids: Sequence[int], vectors: Any) -> pd.DataFrame:
    """One row per token in sentence order: position, token, id, then d0 .. d(H-1)."""
    array = np.asarray(plain(vectors), dtype=np.float64)
    if array.shape[0] != len(ids) or len(labels) != len(ids):
        raise ValueError(f"{array.shape[0]} vectors for {len(ids)} ids and {len(labels)} tokens")
    head = pd.DataFrame({"position": range(len(ids)), "token": list(labels), "id": list(ids)})
    return pd.concat([head, pd.DataFrame(array, columns=vector_columns(array.shape[1]))], axis=1)


def vectors_record(
    labels: Sequence[str], ids: Sequence[int], vectors: Any, model: str
) -> dict[str, Any]:
    """The model's label, the tokens, their ids and one vector per token (rows of E)."""
    array = np.asarray(plain(vectors), dtype=np.float64)
    return {
        "model": model,
        "tokens": list(labels),
        "ids": list(ids),
        "dim": int(array.shape[1]) if array.ndim == 2 else 0,
        "vectors": array.tolist(),
    }


def grid_frame(matrix: Any, row_name: str, column_prefix: str) -> pd.DataFrame:
    """A 2-D tensor with numbered rows (index named `row_name`) and columns `<prefix>0`, ...

    >>> grid_frame([[1.0, 2.0]], "position", "dim_").to_csv()
    'position,dim_0,dim_1\\n0,1.0,2.0\\n'
    """
    array = np.asarray(plain(matrix), dtype=np.float64)
    if array.ndim != 2:
        raise ValueError(f"a table needs a 2-D tensor, got {array.ndim}-D")
    index = pd.RangeIndex(array.shape[0], name=row_name)
    return pd.DataFrame(
        array, index=index, columns=[f"{column_prefix}{j}" for j in range(array.shape[1])]
    )


def series_frame(columns: Mapping[str, Any]) -> pd.DataFrame:
    """The 1-D entries of a dict of tensors as columns; scalars (e.g. θ) repeat on every row.

    >>> series_frame({"offset": [0, 1], "score": [1.0, 0.5], "theta": 0.1}).values.tolist()
    [[0.0, 1.0, 0.1], [1.0, 0.5, 0.1]]
    """
    values = {name: np.asarray(plain(value)) for name, value in columns.items()}
    length = max((len(v) for v in values.values() if v.ndim == 1), default=1)
    return pd.DataFrame(
        {n: v if v.ndim == 1 else np.full(length, v.item()) for n, v in values.items()}
    )


def projector_metadata(
    point_ids: Sequence[int],
    in_sentence: Sequence[bool],
    labels: Mapping[int, str],
    query_ids: Sequence[int],
    neighbour_ids: Any,
    cosines: Any,
) -> pd.DataFrame:
    """Metadata of a neighbourhood map's points for the Embedding Projector: token, id,
    in_sentence (yes/no) and neighbour_of ("king #1 0.712; queen #3 0.655": which sentence token
    lists this point among its nearest neighbours, at which rank, with which cosine)."""
    near: dict[int, list[str]] = {}
    rows, sims = np.asarray(plain(neighbour_ids)), np.asarray(plain(cosines), dtype=np.float64)
    for query, (neighbours, values) in zip(query_ids, zip(rows, sims, strict=True), strict=True):
        for rank, (nid, value) in enumerate(zip(neighbours, values, strict=True), start=1):
            near.setdefault(int(nid), []).append(f"{labels.get(query, query)} #{rank} {value:.3f}")
    return pd.DataFrame(
        {
            "token": [labels.get(i, str(i)) for i in point_ids],
            "id": list(point_ids),
            "in_sentence": ["yes" if flag else "no" for flag in in_sentence],
            "neighbour_of": ["; ".join(near.get(i, [])) for i in point_ids],
        }
    )


def embedding_parts_record(
    labels: Sequence[str], ids: Sequence[int], segments: Sequence[int],
    parts: Mapping[str, Any], model: str,
) -> dict[str, Any]:  # fmt: skip
    """Every part of the embedding sum for a (1, T, H) batch: token, position, segment, sum and
    the LayerNorm output, each as T vectors, with the tokens, ids and segments."""
    record: dict[str, Any] = {"model": model, "tokens": list(labels), "ids": list(ids),
                              "segments": list(segments)}  # fmt: skip
    for name, value in parts.items():
        array = np.asarray(plain(value), dtype=np.float64)
        record[name] = (array[0] if array.ndim == 3 else array).tolist()
    return record


def similarity_frame(matrix: Any, sentences: Sequence[str]) -> pd.DataFrame:
    """A sentence × sentence cosine matrix; the first column holds the sentences."""
    array = np.asarray(plain(matrix), dtype=np.float64)
    frame = pd.DataFrame(array, columns=list(sentences))
    frame.insert(0, "sentence", list(sentences))
    return frame


def sentence_metadata(sentences: Sequence[str], model: str) -> pd.DataFrame:
    """Projector metadata of sentence vectors: the sentence and the model that encoded it."""
    return pd.DataFrame({"sentence": list(sentences), "model": [model] * len(sentences)})


def neighbours_table(
    query: str, texts: Sequence[str], best: Sequence[tuple[int, float]]
) -> pd.DataFrame:
    """Nearest neighbours of `query`: rank, query, index (1-based line), sentence, cosine."""
    return pd.DataFrame(
        {
            "rank": range(1, len(best) + 1),
            "query": [query] * len(best),
            "index": [i + 1 for i, _ in best],
            "sentence": [texts[i] for i, _ in best],
            "cosine": [float(c) for _, c in best],
        }
    )


def training_log(records: Sequence[Record]) -> dict[str, pd.DataFrame]:
    """Every record of a run, unthinned: "loss" (one row per optimiser step: phase, step,
    seconds, lr, loss and its parts) and "eval" (one row per evaluation: dev Spearman, ...)."""
    from explorer_core.training.loop import EvalRecord, TrainStep

    steps = [asdict(r) for r in records if isinstance(r, TrainStep)]
    evals = [asdict(r) for r in records if isinstance(r, EvalRecord)]
    step_cols = list(TrainStep.__dataclass_fields__)
    eval_cols = list(EvalRecord.__dataclass_fields__)
    return {
        "loss": pd.DataFrame(steps, columns=step_cols),
        "eval": pd.DataFrame(evals, columns=eval_cols),
    }


def training_log_record(records: Sequence[Record]) -> dict[str, list[dict[str, Any]]]:
    """The same log for JSON: {"loss": [one dict per step], "eval": [one per evaluation]};
    loss parts an objective does not have are null."""
    from explorer_core.training.loop import EvalRecord, TrainStep

    return {
        "loss": [asdict(r) for r in records if isinstance(r, TrainStep)],
        "eval": [asdict(r) for r in records if isinstance(r, EvalRecord)],
    }


# ---- Tokenizer Lab, BERT inputs, Attention ------------------------------------------------
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
