"""Sentence similarity with any encoder: vectors, cosine matrix, nearest neighbours, pair scores.

A `TextEncoder` bundles a BertModel with its tokenizer; `embed(texts, pooling)` gives one unit
vector per text (``[CLS] text [SEP]`` rows, padding excluded from the pooling), so a dot product of
two rows is their cosine. The same code serves the model trained in the app and real MiniLM::

    minilm = TextEncoder(BertModel.from_transformers(path), WordPieceTokenizer.from_vocab(...))
    round(minilm.cosine("A man is playing a guitar.", "A person plays the guitar."), 2)
    0.85
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from explorer_core.bert.model import BertModel
from explorer_core.bert.pooling import POOLING_MODES, SentenceEncoder
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer

OWN_POOLING = "own"  # the pooling the model's authors chose (an opened model: its pipeline)
MAX_TEXTS = 200  # sentences per list: a matrix of 200 x 200 is still readable as a heatmap


@dataclass(frozen=True, eq=False)
class TextEncoder:
    """A BERT encoder and its tokenizer, used read-only (eval mode, no gradients)."""

    model: BertModel
    tokenizer: Tokenizer
    max_length: int = 128  # tokens per sentence, [CLS] and [SEP] included
    own: str = "mean"  # the model's own pooling (OWN_POOLING): mean for MiniLM and ours

    def embed(
        self, texts: Sequence[str], pooling: str = "mean", batch_size: int = 32
    ) -> np.ndarray:
        """Unit-length sentence vectors (N, H) as float64 numpy."""
        pooling = self.own if pooling == OWN_POOLING else pooling
        if pooling not in POOLING_MODES:
            raise ValueError(f"pooling must be one of {', '.join(POOLING_MODES)}, got {pooling!r}")
        texts = [str(t) for t in texts]
        if not texts:
            raise ValueError("Nothing to embed: the list of sentences is empty")
        vocab = BertVocab.of(self.tokenizer)
        limit = min(self.max_length, self.model.config.max_tokens)
        encoder = SentenceEncoder(self.model, pooling, normalize=True)
        out = []
        for i in range(0, len(texts), batch_size):
            rows = vocab.encode(self.tokenizer, texts[i : i + batch_size], max_length=limit)
            out.append(encoder.encode(rows.input_ids, rows.attention_mask))  # (B, H)
        return torch.cat(out).double().numpy()

    def cosine(self, a: str, b: str, pooling: str = "mean") -> float:
        """Cosine similarity of two texts' vectors, in [-1, 1]."""
        u, v = self.embed([a, b], pooling)
        return float(np.clip(u @ v, -1.0, 1.0))


def cosine_matrix(vectors: np.ndarray) -> np.ndarray:
    """All pairwise cosines (N, N) of row vectors (any length; zero rows give 0).

    >>> cosine_matrix(np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 2.0]])).round(3).tolist()
    [[1.0, 0.707, 0.0], [0.707, 1.0, 0.707], [0.0, 0.707, 1.0]]
    """
    vectors = np.asarray(vectors, dtype=float)
    if vectors.ndim != 2:
        raise ValueError(f"expected a matrix of row vectors, got shape {vectors.shape}")
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)  # (N, 1)
    unit = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    return np.clip(unit @ unit.T, -1.0, 1.0)  # (N, N)


def nearest_neighbours(
    query: np.ndarray, candidates: np.ndarray, k: int = 5
) -> list[tuple[int, float]]:
    """The `k` candidates most similar to `query` by cosine: [(index, cosine)], best first.

    Ties keep the lower index first (a stable sort).

    >>> nearest_neighbours(np.array([1.0, 0.0]), np.array([[0.0, 1.0], [2.0, 0.1], [1.0, 0.0]]), 2)
    [(2, 1.0), (1, 0.9988)]
    """
    candidates = np.asarray(candidates, dtype=float)
    query = np.asarray(query, dtype=float)
    if candidates.ndim != 2 or query.shape != candidates.shape[1:]:
        raise ValueError(f"query {query.shape} and candidates {candidates.shape} do not match")
    if k < 1:
        raise ValueError("k must be at least 1")
    sims = cosine_matrix(np.vstack([query[None, :], candidates]))[0, 1:]  # (N,)
    order = np.argsort(-sims, kind="stable")[:k]
    return [(int(i), round(float(sims[i]), 4)) for i in order]


def pair_cosines(
    encoder: TextEncoder, pairs: Sequence[tuple[str, str]], pooling: str = "mean"
) -> np.ndarray:
    """The cosine (N,) between the two sentences of each pair, each sentence embedded once."""
    if not pairs:
        raise ValueError("No sentence pairs to score")
    texts = sorted({s for pair in pairs for s in pair})
    index = {text: i for i, text in enumerate(texts)}
    vectors = encoder.embed(texts, pooling)  # (U, H) unit rows
    left = vectors[[index[a] for a, _ in pairs]]
    right = vectors[[index[b] for _, b in pairs]]
    return np.clip(np.einsum("nh,nh->n", left, right), -1.0, 1.0)  # (N,)


def sentence_list(text: str, limit: int = MAX_TEXTS) -> list[str]:
    """Non-empty stripped lines of `text`, duplicates dropped (first kept), at most `limit`.

    >>> sentence_list("a cat\\n\\n a dog \\na cat\\n")
    ['a cat', 'a dog']
    """
    seen: dict[str, None] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and line not in seen:
            seen[line] = None
    return list(seen)[:limit]


def cosines_to_scores(cosines: Sequence[float]) -> list[float]:
    """Map cosines to the 0-5 STS scale the fine-tuning aimed at (cos ≈ score / 5), clipped.

    >>> cosines_to_scores([0.9, -0.2, 0.5])
    [4.5, 0.0, 2.5]
    """
    return [round(min(max(5.0 * float(c), 0.0), 5.0), 6) for c in cosines]


__all__ = [
    "TextEncoder",
    "cosine_matrix",
    "cosines_to_scores",
    "nearest_neighbours",
    "pair_cosines",
    "sentence_list",
]
