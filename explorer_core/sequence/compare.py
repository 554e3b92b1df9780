"""The lesson's six models on one sentence, from one seed: hidden states and gradient by distance.

    token ids (T,) -> a random embedding table row per token (1, T, E)
                   -> ngram, rnn, birnn, lstm, gru, attention: hidden states (T, width) each
                   -> ‖∂h_T/∂x_t‖ by distance for each

One generator, seeded `seed`, draws the embedding table (vocab_size × E, N(0, 1)) first, then
every model in `MODELS` order, so the same seed gives the same numbers everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import torch
from torch import Tensor, nn

from explorer_core.sequence.attention import SelfAttentionLayer
from explorer_core.sequence.config import AttentionConfig, NGramConfig, RecurrentConfig
from explorer_core.sequence.gradients import GradientOverDistance, gradient_over_distance
from explorer_core.sequence.ngram import NGramWindowModel
from explorer_core.sequence.recurrent import RecurrentModel

MODELS = ("ngram", "rnn", "birnn", "lstm", "gru", "attention")


@dataclass(frozen=True)
class ComparisonConfig:
    vocab_size: int = 30522  # MiniLM's WordPiece vocabulary
    embedding_size: int = 16  # E = d: every model reads and writes 16 numbers per token
    n: int = 3  # the n-gram window: the 2 tokens before t
    seed: int = 0

    def __post_init__(self) -> None:
        if self.vocab_size < 1 or self.embedding_size < 2 or self.embedding_size % 2:
            raise ValueError("vocab_size must be positive and embedding_size even and at least 2")
        if self.n < 2:
            raise ValueError(f"the n-gram window needs n >= 2, got {self.n}")


@dataclass
class ModelView:
    hidden_states: Tensor  # (T, width): width d, or 2d for the bidirectional RNN
    gradient: GradientOverDistance
    # what the run recorded, batch row 0: "l0.i" (T, d) for the LSTM's gates, "weights"
    # (heads, T, T) for attention, "window" (T, (n-1)·E) for the n-gram model
    records: dict[str, Tensor] = field(default_factory=dict)


def build_models(config: ComparisonConfig, generator: torch.Generator) -> dict[str, nn.Module]:
    """The six models, drawn from `generator` in MODELS order."""
    d = config.embedding_size
    return {
        "ngram": NGramWindowModel(NGramConfig(d, d, config.n), generator),
        "rnn": RecurrentModel(RecurrentConfig("rnn", d, d), generator),
        "birnn": RecurrentModel(RecurrentConfig("rnn", d, d, bidirectional=True), generator),
        "lstm": RecurrentModel(RecurrentConfig("lstm", d, d), generator),
        "gru": RecurrentModel(RecurrentConfig("gru", d, d), generator),
        # BERT's kind: every token sees every token, order from the sinusoidal table
        "attention": SelfAttentionLayer(AttentionConfig(d, 1, "sinusoidal"), generator),
    }


def compare_models(ids: Sequence[int], config: ComparisonConfig) -> dict[str, ModelView]:
    """{model: its hidden states and gradient over distance} for one sentence of token ids."""
    if not ids:
        raise ValueError("no tokens: give some text")
    if config.n - 1 > len(ids):
        raise ValueError(
            f"the n-gram window reads {config.n - 1} tokens but the text has only {len(ids)}"
        )
    if min(ids) < 0 or max(ids) >= config.vocab_size:
        raise ValueError(f"token ids must lie in 0 .. {config.vocab_size - 1}")
    generator = torch.Generator().manual_seed(config.seed)
    table = torch.randn(config.vocab_size, config.embedding_size, generator=generator)  # (V, E)
    embeddings = table[torch.tensor(list(ids))][None]  # (1, T, E)
    views = {}
    for name, model in build_models(config, generator).items():
        with torch.no_grad():
            out = model(embeddings)
        hidden = out.hidden_states[0]  # (T, width)
        records = {key: value[0] for key, value in out.records.items()}
        views[name] = ModelView(hidden, gradient_over_distance(model, embeddings), records)
    return views
