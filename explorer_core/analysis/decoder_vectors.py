"""Sentence vectors from a decoder, live on a few sentence pairs: how well each pooling's cosine
follows the pairs' gold scores, next to an encoder's mean pooling.

A decoder's token i has read tokens 1 … i only, so a plain mean over-weights the first tokens
(they are in every later token's past: `decoder.causal_mean_shares`). Two fixes are common:
the position-weighted mean of SGPT (Muennighoff 2022: weight ∝ i) and the last token, the
only one that read the whole sentence. `pair_scores` computes, for each pair, the cosine of the
two sentences' vectors under each pooling (`decoder.decoder_pooling`), and `spearman_row` how
their ranking agrees with the gold scores (`training.metrics.spearman`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import torch

from explorer_core.bert.model import BertModel
from explorer_core.decoder import decoder_pooling
from explorer_core.inputs.sts_format import SentencePair
from explorer_core.tokenization import Tokenizer
from explorer_core.training.metrics import spearman

DECODER_MODES = ("mean", "weighted_mean", "last")
MAX_TOKENS = 64  # per sentence: the decoder's context is short


@dataclass(frozen=True)
class PairScores:
    """Cosines per pooling, one entry per pair (in the pairs' order)."""

    pairs: tuple[SentencePair, ...]
    cosines: dict[str, tuple[float, ...]]  # "decoder.mean", ..., "encoder.mean"

    def spearman_row(self) -> dict[str, float | None]:
        """Spearman of each pooling's cosines with the gold scores (None: fewer than 3 pairs or
        constant values)."""
        gold = [p.score for p in self.pairs]
        out: dict[str, float | None] = {}
        for name, values in self.cosines.items():
            ok = len(values) >= 3 and len(set(values)) > 1 and len(set(gold)) > 1
            out[name] = float(spearman(list(values), gold)) if ok else None
        return out


def decoder_vectors(
    model: BertModel, tokenizer: Tokenizer, texts: Sequence[str], mode: str
) -> torch.Tensor:
    """(N, H) unit vectors of `texts` from a decoder's last layer, pooled by `mode`."""
    limit = min(MAX_TOKENS, model.config.max_position_embeddings)
    rows = [tokenizer.encode(text)[:limit] or [0] for text in texts]
    width = max(len(r) for r in rows)
    ids = torch.zeros(len(rows), width, dtype=torch.long)  # (N, T); right padding
    mask = torch.zeros(len(rows), width, dtype=torch.long)
    for i, row in enumerate(rows):
        ids[i, : len(row)] = torch.tensor(row)
        mask[i, : len(row)] = 1
    with torch.no_grad():
        hidden = model(ids, mask).last_hidden_state  # (N, T, H)
        pooled = decoder_pooling(hidden, mask, mode)  # (N, H)
    return torch.nn.functional.normalize(pooled.float(), dim=-1)


def pair_scores(
    model: BertModel, tokenizer: Tokenizer, pairs: Sequence[SentencePair],
    encoder: object | None = None,
) -> PairScores:  # fmt: skip
    """Each pair's cosine under the decoder's three poolings and, with `encoder` (an
    `analysis.similarity.TextEncoder`), under the encoder's mean pooling."""
    if not pairs:
        raise ValueError("No sentence pairs to compare")
    left, right = [p.sentence1 for p in pairs], [p.sentence2 for p in pairs]
    cosines: dict[str, tuple[float, ...]] = {}
    for mode in DECODER_MODES:
        a, b = (decoder_vectors(model, tokenizer, side, mode) for side in (left, right))
        cosines[f"decoder.{mode}"] = tuple(float(x) for x in (a * b).sum(-1))
    if encoder is not None:
        a, b = encoder.embed(left, "mean"), encoder.embed(right, "mean")
        cosines["encoder.mean"] = tuple(float(x) for x in np.sum(a * b, axis=1))
    return PairScores(tuple(pairs), cosines)
