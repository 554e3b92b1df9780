"""A recall task trained in place: at every position, name the token k steps back.

A sentence of k + `targets` random symbols (vocabulary `vocab_size`) is read left to right; at
each position t >= k the model's hidden state h_t, through one linear read-out, must name x_(t-k).
Nothing about the symbols helps: the only way is to keep token t - k around for k steps (an RNN),
to have it inside the window (the n-gram model: k <= n - 1, else chance), or to look it up
(attention, which needs positions to know where "k back" is; causal, like the others).
Each (model, k) pair is trained from scratch for `steps` Adam steps, then scored on fresh
sentences; chance is 1 / vocab_size. The default run (25 trainings) took 72-82 s on one thread of a
busy shared 2-core machine; one (model, k) pair takes a few seconds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from explorer_core.sequence.attention import SelfAttentionLayer
from explorer_core.sequence.base import uniform_
from explorer_core.sequence.config import AttentionConfig, NGramConfig, RecurrentConfig
from explorer_core.sequence.gradients import GradientOverDistance, gradient_over_distance
from explorer_core.sequence.ngram import NGramWindowModel
from explorer_core.sequence.recurrent import FusedRecurrent, RecurrentModel

RECALL_MODELS = ("ngram", "rnn", "lstm", "gru", "attention")


@dataclass(frozen=True)
class RecallConfig:
    distances: tuple[int, ...] = (5, 10, 20, 50, 100)  # k: how far back the token to recall is
    models: tuple[str, ...] = RECALL_MODELS
    vocab_size: int = 8  # chance is 1/8
    hidden_size: int = 32  # the embedding and hidden width of every model
    targets: int = 16  # scored positions per sentence (the sentence is k + targets long)
    steps: int = 150  # Adam steps per (model, k): short, so the run takes seconds
    batch_size: int = 32
    learning_rate: float = 1e-2
    ngram_n: int = 8  # the window sees the 7 tokens before t: k = 5 inside, k >= 10 outside
    eval_sentences: int = 256
    seed: int = 0
    # True: train the recurrent models with torch's fused loop (the same maths, see
    # FusedRecurrent; our Python loop would take minutes); False: our readable cells
    fused: bool = True

    def __post_init__(self) -> None:
        if not self.distances or any(not isinstance(k, int) or k < 1 for k in self.distances):
            raise ValueError("distances must be positive whole numbers (how many tokens back)")
        unknown = set(self.models) - set(RECALL_MODELS)
        if not self.models or unknown:
            raise ValueError(f"models must be among {', '.join(RECALL_MODELS)}")
        for name in ("vocab_size", "hidden_size", "targets", "steps", "batch_size",
                     "eval_sentences"):  # fmt: skip
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1")
        if self.vocab_size < 2:
            raise ValueError("vocab_size must be at least 2, or there is nothing to recall")
        if self.hidden_size % 2:
            raise ValueError("hidden_size must be even (attention's rotary positions need it)")
        if not 0 < self.learning_rate < 1:
            raise ValueError("learning_rate must be between 0 and 1")
        if self.ngram_n < 2:
            raise ValueError("ngram_n must be at least 2")


@dataclass(frozen=True)
class RecallResult:
    model: str
    k: int
    accuracy: float  # on fresh sentences, every scored position
    chance: float  # 1 / vocab_size
    final_loss: float  # the last training step's cross-entropy
    seconds: float  # training time
    losses: tuple[float, ...] = ()  # every training step's cross-entropy, in order


def make_model(name: str, config: RecallConfig, generator: torch.Generator) -> nn.Module:
    d = config.hidden_size
    if name == "ngram":
        return NGramWindowModel(NGramConfig(d, d, config.ngram_n), generator)
    if name == "attention":
        return SelfAttentionLayer(AttentionConfig(d, 1, "rotary", causal=True), generator)
    model = RecurrentModel(RecurrentConfig(name, d, d), generator)
    return FusedRecurrent(model) if config.fused else model


class RecallNet(nn.Module):
    """symbols (B, T) -> embedding -> a sequence model -> a linear read-out: logits (B, T, V)."""

    def __init__(self, name: str, config: RecallConfig, generator: torch.Generator) -> None:
        super().__init__()
        with torch.random.fork_rng():  # both draw from the global RNG: redrawn below
            self.embed = nn.Embedding(config.vocab_size, config.hidden_size)
            self.readout = nn.Linear(config.hidden_size, config.vocab_size)
        uniform_(self.embed.weight, 1.0, generator)
        self.body = make_model(name, config, generator)
        uniform_(self.readout.weight, config.hidden_size**-0.5, generator)
        uniform_(self.readout.bias, config.hidden_size**-0.5, generator)

    def forward(self, symbols: Tensor) -> Tensor:
        return self.readout(self.body(self.embed(symbols)).hidden_states)  # (B, T, V)


def sentences(config: RecallConfig, k: int, count: int, generator: torch.Generator) -> Tensor:
    """`count` random sentences of k + targets symbols: (count, k + targets)."""
    return torch.randint(config.vocab_size, (count, k + config.targets), generator=generator)


def recall_loss(logits: Tensor, symbols: Tensor, k: int) -> Tensor:
    """Cross-entropy of naming x_(t-k) at every t >= k: logits (B, T, V), symbols (B, T)."""
    return F.cross_entropy(logits[:, k:].flatten(0, 1), symbols[:, :-k].flatten())


def train_one(name: str, k: int, config: RecallConfig) -> RecallResult:
    """Train one model on distance k from the config's seed; score it on fresh sentences."""
    return train_net(name, k, config)[1]


def train_net(name: str, k: int, config: RecallConfig) -> tuple[RecallNet, RecallResult]:
    """`train_one`, also returning the trained network (to look inside, e.g. its gradients)."""
    generator = torch.Generator().manual_seed(config.seed)
    net = RecallNet(name, config, generator)
    optimizer = torch.optim.Adam(net.parameters(), lr=config.learning_rate)
    start, losses = time.perf_counter(), []
    for _ in range(config.steps):
        # 1) a fresh batch of random sentences, k + targets long
        symbols = sentences(config, k, config.batch_size, generator)  # (B, T)
        # 2) the loss of naming x_(t-k) at every t >= k
        loss = recall_loss(net(symbols), symbols, k)
        # 3) one clipped Adam step
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 1.0)  # one long product can explode
        optimizer.step()
        losses.append(float(loss.detach()))
    seconds = time.perf_counter() - start
    # 4) score on sentences never trained on, from the same generator
    with torch.no_grad():
        symbols = sentences(config, k, config.eval_sentences, generator)
        guess = net(symbols)[:, k:].argmax(dim=-1)  # (B, targets)
        accuracy = float((guess == symbols[:, :-k]).float().mean())
    chance = 1 / config.vocab_size
    return net, RecallResult(name, k, accuracy, chance, losses[-1], seconds, tuple(losses))


def fresh_net(name: str, config: RecallConfig) -> RecallNet:
    """The network `train_net` starts from (same seed, same draws), before any step."""
    return RecallNet(name, config, torch.Generator().manual_seed(config.seed))


def net_gradient(net: RecallNet, symbols: Tensor) -> GradientOverDistance:
    """‖∂h_L/∂x_t‖ by distance inside `net`'s sequence model, for one sentence symbols (T,):
    x_t is the embedding of symbol t, h_L the body's last hidden state (before the read-out)."""
    with torch.no_grad():
        embeddings = net.embed(symbols[None])  # (1, T, d)
    return gradient_over_distance(net.body, embeddings)


def recall_table(config: RecallConfig) -> list[RecallResult]:
    """Every model of the config at every distance, in order (models outer, distances inner)."""
    return [train_one(name, k, config) for name in config.models for k in config.distances]


def longest_recalled(results: list[RecallResult], threshold: float = 0.5) -> dict[str, int | None]:
    """Per model, the largest k whose accuracy reached `threshold` (None: no k did).

    >>> rows = [RecallResult("rnn", 5, 0.9, 0.125, 0.1, 1.0),
    ...         RecallResult("rnn", 10, 0.2, 0.125, 1.9, 1.0)]
    >>> longest_recalled(rows)
    {'rnn': 5}
    """
    out: dict[str, int | None] = {}
    for row in results:
        best = out.get(row.model)
        out[row.model] = max(best or 0, row.k) if row.accuracy >= threshold else best
    return out
