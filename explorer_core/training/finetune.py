"""Similarity fine-tuning: a siamese BERT encoder learns that cosine ≈ score / 5.

Both sentences of a pair go through the same encoder (one set of weights, hence "siamese"), each
becomes one vector by pooling (mean over non-padding tokens by default), and the loss compares their
cosine with the gold score scaled to [0, 1]:

    cosine loss   (cos(u, v) - score / 5)² averaged over the batch (Sentence-BERT's
                  CosineSimilarityLoss)
    CoSENT        log(1 + Σ exp(20 (cos_k - cos_i))) over pairs (i, k) of the batch whose gold
                  scores say i > k: only the order of the cosines matters, as for Spearman
    in-batch negatives (optional, added to either): for every pair scored ≥ 4, the partner must
                  win a softmax over all second sentences of the batch
                  (MultipleNegativesRankingLoss)

In use (a sketch; the tests run the real thing)::

    encoder = finetune(BertModel(config), tokenizer, pairs, FinetuneConfig(steps=50)).model
    encoder.encode(ids, mask)  -> (B, H) sentence vectors
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import torch
import torch.nn.functional as F
from torch import nn

from explorer_core.bert.pooling import POOLING_MODES, SentenceEncoder
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer
from explorer_core.training.devices import (
    gather_rows,
    gathered_order,
    module_device,
    shard,
    world,
    wrap,
)
from explorer_core.training.loop import (
    Callback,
    EvalRecord,
    Loop,
    LoopConfig,
    Snapshot,
    TrainResult,
)
from explorer_core.training.metrics import pearson, spearman

SIM_LOSSES = ("cosine", "cosent")


class ScoredPair(Protocol):
    sentence1: str
    sentence2: str
    score: float


@dataclass(frozen=True)
class FinetuneConfig(LoopConfig):
    loss: str = "cosine"  # one of SIM_LOSSES (see the module docstring)
    in_batch_negatives: bool = False  # add the MultipleNegativesRanking loss on high-score pairs
    mnr_scale: float = 20.0  # cosines are multiplied by this before the softmax
    mnr_min_score: float = 4.0  # pairs at or above this gold score count as positives
    cosent_scale: float = 20.0
    pooling: str = "mean"  # one of POOLING_MODES

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.loss not in SIM_LOSSES:
            raise ValueError(f"loss must be one of {', '.join(SIM_LOSSES)}, got {self.loss!r}")
        if self.pooling not in POOLING_MODES:
            raise ValueError(f"pooling must be one of {', '.join(POOLING_MODES)}")


def cosine_mse_loss(cos: torch.Tensor, scores: torch.Tensor) -> torch.Tensor:
    """Mean of (cos - score/5)²: cos 0.8 for a pair scored 4 costs nothing."""
    return F.mse_loss(cos, scores / 5.0)


def cosent_loss(cos: torch.Tensor, scores: torch.Tensor, scale: float = 20.0) -> torch.Tensor:
    """CoSENT: penalise every pair of pairs whose cosines are in the wrong order.

    >>> round(float(cosent_loss(torch.tensor([0.9, 0.1]), torch.tensor([5.0, 0.0]))), 4)
    0.0
    """
    diff = scale * (cos[None, :] - cos[:, None])  # (B, B): entry (i, k) = s·(cos_k - cos_i)
    wrong_way = scores[:, None] > scores[None, :]  # only pairs where i should be above k
    diff = diff.masked_fill(~wrong_way, float("-inf")).flatten()
    zero = torch.zeros(1, dtype=cos.dtype, device=cos.device)  # the "1 +" inside the log
    return torch.logsumexp(torch.cat([zero, diff]), dim=0)


def in_batch_negatives_loss(
    u: torch.Tensor, v: torch.Tensor, positive: torch.Tensor, scale: float = 20.0
) -> torch.Tensor:
    """Cross-entropy of each positive u_i against all v of the batch, where v_i is the answer."""
    rows = positive.nonzero().flatten()
    if rows.numel() == 0:
        return u.sum() * 0.0  # keeps the graph; nothing to rank in this batch
    sims = F.normalize(u[rows], dim=-1) @ F.normalize(v, dim=-1).T  # (P, B)
    return F.cross_entropy(scale * sims, rows)


def _check_pairs(pairs: Sequence[ScoredPair], what: str) -> None:
    if not pairs:
        raise ValueError(f"The {what} set has no sentence pairs: load a file with scored pairs")
    for pair in pairs:
        if not 0.0 <= float(pair.score) <= 5.0:
            raise ValueError(f"Scores must be between 0 and 5; got {pair.score} in the {what} set")


def encode_pairs(
    tokenizer: Tokenizer, vocab: BertVocab, pairs: Sequence[ScoredPair], max_length: int
) -> tuple[list[list[int]], list[list[int]], torch.Tensor]:
    """Text ids (no special tokens) of both sides and the scores (N,) of `pairs`; `vocab.rows`
    lays them out as BERT's rows, cut to `max_length`, batch by batch."""
    left = [vocab.content_ids(tokenizer, p.sentence1) for p in pairs]
    right = [vocab.content_ids(tokenizer, p.sentence2) for p in pairs]
    scores = torch.tensor([float(p.score) for p in pairs], dtype=torch.float32)
    return left, right, scores


def embed_rows(
    encoder: SentenceEncoder, vocab: BertVocab, rows: Sequence[list[int]], batch_size: int = 64,
    max_length: int | None = None,
) -> torch.Tensor:  # fmt: skip
    """Sentence vectors (N, H) of text-id lists (laid out by `vocab.rows`), in batches, without
    gradients, on the CPU whatever the encoder's device."""
    device, out = module_device(encoder), []
    for i in range(0, len(rows), batch_size):
        batch = vocab.rows(rows[i : i + batch_size], max_length=max_length)
        ids, mask = batch.input_ids.to(device), batch.attention_mask.to(device)
        out.append(encoder.encode(ids, mask).cpu())
    return torch.cat(out)


def predict_cosines(
    encoder: SentenceEncoder,
    tokenizer: Tokenizer,
    pairs: Sequence[ScoredPair],
    max_length: int = 64,
    vocab: BertVocab | None = None,
) -> torch.Tensor:
    """Cosine (N,) between the two sentences of each pair, as the model sees them."""
    vocab = vocab or BertVocab.of(tokenizer)
    left, right, _ = encode_pairs(tokenizer, vocab, pairs, max_length)
    u = embed_rows(encoder, vocab, left, max_length=max_length)
    v = embed_rows(encoder, vocab, right, max_length=max_length)
    return F.cosine_similarity(u, v, dim=-1)


def evaluate_pairs(
    encoder: SentenceEncoder,
    tokenizer: Tokenizer,
    pairs: Sequence[ScoredPair],
    max_length: int = 64,
    vocab: BertVocab | None = None,
) -> tuple[float, float]:
    """(Spearman, Pearson) correlation between predicted cosines and gold scores."""
    cos = predict_cosines(encoder, tokenizer, pairs, max_length, vocab).tolist()
    gold = [float(p.score) for p in pairs]
    return spearman(cos, gold), pearson(cos, gold)


class _Batches:
    """Shuffled mini-batches of pair indices, reshuffled every epoch from one generator."""

    def __init__(self, n: int, batch_size: int, seed: int) -> None:
        self.n, self.batch_size = n, min(batch_size, n)
        self.generator = torch.Generator().manual_seed(seed)
        self.order: list[int] = []

    def next(self) -> list[int]:
        if len(self.order) < self.batch_size:
            self.order = torch.randperm(self.n, generator=self.generator).tolist()
        batch, self.order = self.order[: self.batch_size], self.order[self.batch_size :]
        return batch


def finetune(
    model: nn.Module,
    tokenizer: Tokenizer,
    pairs: Sequence[ScoredPair],
    config: FinetuneConfig | None = None,
    *,
    dev: Sequence[ScoredPair] | None = None,
    callback: Callback | None = None,
    stop: threading.Event | None = None,
    on_snapshot: Snapshot | None = None,
) -> TrainResult:
    """Fine-tune `model` (a BertModel, trained in place) on scored pairs; return the encoder + log.

    `result.model` is a `SentenceEncoder` around the same `model`; `dev` pairs, when given, are
    scored (Spearman and Pearson of cosine vs gold) every `config.eval_every` steps and at the end.
    Batches go to the model's device. Under torchrun each rank encodes its slice of the global
    batch (`devices.shard`) inside DistributedDataParallel, and the vectors of all ranks are
    gathered with their gradients (`devices.gather_rows`), so every loss (cosine, CoSENT,
    in-batch negatives) is the global batch's, as in one process.
    """
    config = config or FinetuneConfig()
    _check_pairs(pairs, "training")
    if dev:
        _check_pairs(dev, "dev")
    vocab = BertVocab.of(tokenizer)
    encoder = SentenceEncoder(model, config.pooling)
    left, right, scores = encode_pairs(tokenizer, vocab, pairs, config.max_length)
    batches = _Batches(len(left), config.batch_size, config.seed)
    device, ranks = module_device(model), world()
    trained = wrap(encoder)  # DistributedDataParallel under torchrun, else the encoder itself

    def step_fn(step: int) -> dict[str, torch.Tensor]:
        everyone = batches.next()  # the global batch, drawn alike on every rank
        idx = shard(everyone, ranks)
        rows = vocab.rows([left[i] for i in idx] + [right[i] for i in idx],
                          max_length=config.max_length)  # fmt: skip
        ids, mask = rows.input_ids.to(device), rows.attention_mask.to(device)  # (2b, T)
        vectors = trained(ids, mask)  # (2b, H): both sides of this rank's pairs in one pass
        # every rank's vectors (B, H) with gradients, so each loss sees the global batch
        u = gather_rows(vectors[: len(idx)], len(everyone))
        v = gather_rows(vectors[len(idx) :], len(everyone))
        gold = scores[gathered_order(everyone, ranks)].to(device)  # (B,), in u's order
        cos = F.cosine_similarity(u, v, dim=-1)  # (B,)
        if config.loss == "cosent":
            sim = cosent_loss(cos, gold, config.cosent_scale)
        else:
            sim = cosine_mse_loss(cos, gold)
        parts = {"sim_loss": sim}
        if config.in_batch_negatives:
            positive = gold >= config.mnr_min_score
            parts["mnr_loss"] = in_batch_negatives_loss(u, v, positive, config.mnr_scale)
        parts["loss"] = sum(parts.values())
        return parts

    def eval_fn(step: int, seconds: float) -> EvalRecord:
        rho, r = evaluate_pairs(encoder, tokenizer, dev, config.max_length, vocab)
        return EvalRecord("finetune", step, seconds, dev_spearman=rho, dev_pearson=r)

    loop = Loop(
        "finetune",
        trained,
        config,
        step_fn,
        eval_fn if dev else None,
        callback,
        stop,
        on_snapshot,
        encoder=model,
    )
    log = loop.run()
    return TrainResult(model=encoder, log=log)
