"""`RecurrentModel`: a stack of RNN, LSTM or GRU cells, one or two directions, like torch's.

Layer l's cell is `cells["l{l}"]` and, bidirectional, `cells["l{l}_reverse"]`; layer l > 0 reads
layer l - 1's hidden states (2d wide when bidirectional). `load_torch_state` copies a
torch.nn.RNN / LSTM / GRU state dict by torch's names (`weight_ih_l0`, `bias_hh_l1_reverse`, ...),
after which both give the same numbers (tests/test_sequence_models.py checks it to 1e-6).
Unlike torch, the output also holds every step of every cell (`records["l0.f"]`: layer 0's
forget gates, (B, T, d)).
"""

from __future__ import annotations

from collections.abc import Mapping

import torch
from torch import Tensor, nn

from explorer_core.sequence.base import RecurrentCell, SequenceOutput
from explorer_core.sequence.config import RecurrentConfig
from explorer_core.sequence.gru_cell import GRUCell
from explorer_core.sequence.lstm_cell import LSTMCell
from explorer_core.sequence.rnn_cell import RNNCell
from explorer_core.sequence.runner import unroll, unroll_bidirectional

WEIGHTS = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")


def make_cell(
    config: RecurrentConfig, input_size: int, generator: torch.Generator
) -> RecurrentCell:
    if config.kind == "rnn":
        return RNNCell(input_size, config.hidden_size, generator, config.nonlinearity)
    cell_class = LSTMCell if config.kind == "lstm" else GRUCell
    return cell_class(input_size, config.hidden_size, generator)


class RecurrentModel(nn.Module):
    """embeddings (B, T, input_size) -> hidden states (B, T, d or 2d), cells drawn from
    `generator` in torch's parameter order (layer by layer, forward before reverse)."""

    def __init__(self, config: RecurrentConfig, generator: torch.Generator) -> None:
        super().__init__()
        self.config = config
        self.cells = nn.ModuleDict()
        for layer in range(config.num_layers):
            width = config.input_size if layer == 0 else config.output_size
            for suffix in ("", "_reverse")[: config.directions]:
                self.cells[f"l{layer}{suffix}"] = make_cell(config, width, generator)

    def forward(self, embeddings: Tensor) -> SequenceOutput:
        if embeddings.dim() != 3 or embeddings.shape[-1] != self.config.input_size:
            raise ValueError(
                f"embeddings must be (batch, tokens, {self.config.input_size}), "
                f"got {tuple(embeddings.shape)}"
            )
        hidden, records, steps = embeddings, {}, 0
        for layer in range(self.config.num_layers):
            name = f"l{layer}"
            if self.config.bidirectional:
                out = unroll_bidirectional(self.cells[name], self.cells[f"{name}_reverse"], hidden)
            else:
                out = unroll(self.cells[name], hidden)
            hidden = out.hidden_states  # (B, T, d or 2d): the next layer's input
            steps += out.sequential_steps  # our loop runs the layers one after another
            records |= {f"{name}.{key}": value for key, value in out.steps.items()}
        return SequenceOutput(hidden, records, steps)

    def load_torch_state(self, state: Mapping[str, Tensor]) -> None:
        """Copy torch.nn.RNN / LSTM / GRU weights in: `weight_ih_l0_reverse` ->
        `cells["l0_reverse"].weight_ih`. Every weight must be there and of the right shape."""
        expected = {f"{w}_{cell}" for cell in self.cells for w in WEIGHTS}
        if set(state) != expected:
            missing, extra = sorted(expected - set(state)), sorted(set(state) - expected)
            raise ValueError(f"torch weights do not fit: missing {missing}, unexpected {extra}")
        with torch.no_grad():
            for cell_name, cell in self.cells.items():
                for weight in WEIGHTS:
                    getattr(cell, weight).copy_(state[f"{weight}_{cell_name}"])


TORCH_CLASSES = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}


class FusedRecurrent(nn.Module):
    """The same model run by torch.nn.RNN / LSTM / GRU (a C++ loop, many times faster to train):
    weights copied from a `RecurrentModel`, hidden states only (no gates). The parity tests show
    both compute the same function; the recall task trains this one to finish in seconds."""

    def __init__(self, model: RecurrentModel) -> None:
        super().__init__()
        config = model.config
        if config.nonlinearity == "sigmoid":
            raise ValueError("torch.nn.RNN has no sigmoid: run the sigmoid RNN as our own loop")
        options = {"nonlinearity": config.nonlinearity} if config.kind == "rnn" else {}
        self.config = config
        with torch.random.fork_rng():  # its own init draws from the global RNG; overwritten below
            self.torch_module = TORCH_CLASSES[config.kind](
                config.input_size, config.hidden_size, num_layers=config.num_layers,
                bidirectional=config.bidirectional, batch_first=True, **options,
            )  # fmt: skip
        state = {f"{w}_{cell}": getattr(c, w) for cell, c in model.cells.items() for w in WEIGHTS}
        with torch.no_grad():
            for name, value in state.items():
                getattr(self.torch_module, name).copy_(value)

    def forward(self, embeddings: Tensor) -> SequenceOutput:
        hidden, _ = self.torch_module(embeddings)  # (B, T, d or 2d)
        return SequenceOutput(hidden, {}, embeddings.shape[1] * self.config.num_layers)
