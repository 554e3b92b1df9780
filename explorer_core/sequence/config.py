"""The frozen configs of the sequence models: recurrent stacks, the n-gram window, attention.

Field names follow torch.nn.RNN / LSTM / GRU (`input_size`, `hidden_size`, `num_layers`,
`nonlinearity`, `bidirectional`), so a learner can read torch's docs next; every field has a
default and the configs check themselves in `__post_init__`.
"""

from __future__ import annotations

from dataclasses import dataclass

RECURRENT_KINDS = ("rnn", "lstm", "gru")
# tanh and relu: torch.nn.RNN's; sigmoid: the tutorial's σ
NONLINEARITIES = ("tanh", "relu", "sigmoid")
ATTENTION_POSITIONS = ("none", "sinusoidal", "rotary")


def _positive(config: object, *names: str) -> None:
    for name in names:
        value = getattr(config, name)
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"{name} must be a positive whole number, got {value!r}")


@dataclass(frozen=True)
class RecurrentConfig:
    kind: str = "rnn"  # one of RECURRENT_KINDS
    input_size: int = 16  # the width of each token's embedding x_t
    hidden_size: int = 16  # d: the width of h_t (a bidirectional layer outputs 2d)
    num_layers: int = 1  # layer l > 0 reads layer l - 1's hidden states, as in torch
    bidirectional: bool = False  # a second chain reads the sentence right to left
    nonlinearity: str = "tanh"  # rnn only; torch's default tanh, or the tutorial's sigmoid

    def __post_init__(self) -> None:
        if self.kind not in RECURRENT_KINDS:
            raise ValueError(f"kind must be one of {', '.join(RECURRENT_KINDS)}, got {self.kind!r}")
        _positive(self, "input_size", "hidden_size", "num_layers")
        if self.nonlinearity not in NONLINEARITIES:
            raise ValueError(
                f"nonlinearity must be one of {', '.join(NONLINEARITIES)}, "
                f"got {self.nonlinearity!r}"
            )
        if self.kind != "rnn" and self.nonlinearity != "tanh":
            raise ValueError("only the simple RNN takes a nonlinearity; LSTM and GRU fix theirs")

    @property
    def directions(self) -> int:
        return 2 if self.bidirectional else 1

    @property
    def output_size(self) -> int:
        """The width of each output row: d, or 2d when bidirectional."""
        return self.hidden_size * self.directions


@dataclass(frozen=True)
class NGramConfig:
    input_size: int = 16  # the width of each token's embedding
    hidden_size: int = 16  # the width of the tanh layer's output
    # n: the model reads the n - 1 tokens before position t (Bengio et al. 2003 used n up to 6)
    n: int = 3

    def __post_init__(self) -> None:
        _positive(self, "input_size", "hidden_size")
        if not isinstance(self.n, int) or self.n < 2:
            raise ValueError(f"n must be at least 2 (one token of context), got {self.n!r}")

    @property
    def context(self) -> int:
        """How many tokens the model sees: n - 1, a hard limit."""
        return self.n - 1


@dataclass(frozen=True)
class AttentionConfig:
    hidden_size: int = 16  # the input and output width (one attention layer maps d -> d)
    num_attention_heads: int = 1
    positions: str = "none"  # one of ATTENTION_POSITIONS; without positions order is invisible
    causal: bool = False  # False: every token sees every token (BERT); True: only the past

    def __post_init__(self) -> None:
        _positive(self, "hidden_size", "num_attention_heads")
        if self.hidden_size % self.num_attention_heads:
            raise ValueError(
                f"hidden_size ({self.hidden_size}) must be divisible by num_attention_heads "
                f"({self.num_attention_heads})"
            )
        if self.positions not in ATTENTION_POSITIONS:
            raise ValueError(
                f"positions must be one of {', '.join(ATTENTION_POSITIONS)}, got {self.positions!r}"
            )
        if self.positions != "none" and (self.hidden_size // self.num_attention_heads) % 2:
            raise ValueError("sinusoidal and rotary positions need an even head width")
