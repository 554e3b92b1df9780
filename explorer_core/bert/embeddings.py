"""From ids to vectors: token and segment embeddings, and BERT's summed, normalised input.

An embedding is a lookup: id 7 selects row 7 of the matrix E (vocab × d). `one_hot_lookup` shows
the same lookup as a matrix product one_hot(7) × E, which is exactly that row. `BertEmbeddings` adds
token, position and segment vectors, then applies LayerNorm and dropout: what enters layer 1.
Submodule names are transformers' (`word_embeddings`, `position_embeddings`,
`token_type_embeddings`, `LayerNorm`, `dropout`) so its checkpoints load unchanged. Two family
switches act here: RoBERTa's positions (counted from pad_token_id + 1, pads at pad_token_id) and
ALBERT's / ELECTRA's narrow embeddings (E wide, LayerNorm at E, then `projection` E -> H); and
a decoder's `scale_embedding` (token vectors × √E, the original Transformer's; GPT-2 has none).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from explorer_core.bert.config import BertConfig
from explorer_core.bert.positional import LearnedPositionEmbedding, SinusoidalPositionEncoding


def check_ids(ids: Tensor, size: int, what: str = "token id") -> None:
    """Raise a readable ValueError when an id falls outside a table of `size` rows."""
    if ids.dtype not in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8):
        raise ValueError(f"{what}s must be whole numbers, got dtype {ids.dtype}")
    if ids.numel() and (int(ids.min()) < 0 or int(ids.max()) >= size):
        bad = int(ids.max()) if int(ids.max()) >= size else int(ids.min())
        raise ValueError(f"{what} {bad} is outside the table of {size} rows (0 .. {size - 1})")


class TokenEmbedding(nn.Embedding):
    """`nn.Embedding` with an optional √d scale (the original Transformer multiplies by √d_model).

    `padding_idx` keeps that row at zero and out of the gradient, as in BERT ([PAD] = 0).
    """

    def __init__(
        self, vocab_size: int, dim: int, padding_idx: int | None = None, scale: bool = False
    ) -> None:
        super().__init__(vocab_size, dim, padding_idx=padding_idx)
        self.scale = scale

    def forward(self, input_ids: Tensor) -> Tensor:
        check_ids(input_ids, self.num_embeddings)
        vectors = super().forward(input_ids)  # (..., d)
        return vectors * math.sqrt(self.embedding_dim) if self.scale else vectors


class SegmentEmbedding(nn.Embedding):
    """BERT's token-type table: segment A is id 0, segment B is id 1 (one vector each)."""

    def __init__(self, type_vocab_size: int, dim: int) -> None:
        super().__init__(type_vocab_size, dim)

    def forward(self, token_type_ids: Tensor) -> Tensor:
        check_ids(token_type_ids, self.num_embeddings, "segment id")
        return super().forward(token_type_ids)  # (..., d)


def pad_aware_position_ids(input_ids: Tensor, padding_idx: int) -> Tensor:
    """RoBERTa's positions (transformers' `create_position_ids_from_input_ids`, fairseq's
    `make_positions`): real tokens count from padding_idx + 1, pad tokens get padding_idx.

    >>> pad_aware_position_ids(torch.tensor([[5, 6, 7, 1, 1]]), padding_idx=1).tolist()
    [[2, 3, 4, 1, 1]]
    """
    real = input_ids.ne(padding_idx).int()  # (B, T) 1 for a real token
    # subtle: a running count, so a pad *inside* a row does not use up a position
    return (torch.cumsum(real, dim=1).type_as(real) * real).long() + padding_idx


def one_hot_lookup(ids: Tensor, weight: Tensor) -> tuple[Tensor, Tensor]:
    """The lookup as a product: (one_hot(ids), one_hot(ids) @ weight), equal to F.embedding.

    Worked example: E = [[1, 2], [3, 4], [5, 6]] and id 1 give one-hot [0, 1, 0] and
    0·[1, 2] + 1·[3, 4] + 0·[5, 6] = [3, 4], exactly row 1. Multiplying by 0 and 1 and adding zeros
    is exact in floating point, so the product equals the lookup bit for bit.
    """
    if weight.dim() != 2:
        raise ValueError(f"the embedding matrix must be 2-D (vocab × d), got shape {weight.shape}")
    check_ids(ids, weight.shape[0])
    one_hot = F.one_hot(ids.long(), num_classes=weight.shape[0]).to(weight.dtype)  # (..., V)
    return one_hot, one_hot @ weight  # (..., V), (..., d)


class BertEmbeddings(nn.Module):
    """word + position + token-type embeddings, then LayerNorm and dropout: (B, T) -> (B, T, H).

    Positions depend on `config.position_embedding_type`: "learned" is BERT's table, "sinusoidal"
    the fixed table under the same name; "relative" and "rotary" add nothing here (they act inside
    attention), so `position_embeddings` is None. With `config.embedding_size` E the tables and the
    LayerNorm are E wide and `projection` (E -> H) makes the vectors that enter layer 1.
    """

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.config = config
        hidden = config.embedding_size or config.hidden_size  # E (ALBERT, ELECTRA) or H
        self.word_embeddings = TokenEmbedding(
            config.vocab_size, hidden, padding_idx=config.pad_token_id,
            scale=config.scale_embedding,
        )  # fmt: skip
        kind = config.position_embedding_type
        self.position_embeddings: nn.Module | None = None
        if kind == "learned":
            self.position_embeddings = LearnedPositionEmbedding(
                config.max_position_embeddings, hidden
            )
        elif kind == "sinusoidal":
            self.position_embeddings = SinusoidalPositionEncoding(
                hidden, config.rope_base, config.max_position_embeddings
            )
        self.token_type_embeddings = (
            SegmentEmbedding(config.type_vocab_size, hidden) if config.type_vocab_size > 0 else None
        )
        self.LayerNorm = None
        if config.embedding_layer_norm:
            self.LayerNorm = nn.LayerNorm(hidden, eps=config.layer_norm_eps, bias=config.norm_bias)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        # ELECTRA's embeddings_project, ALBERT's encoder.embedding_hidden_mapping_in
        self.projection = None
        if config.embedding_size is not None:
            self.projection = nn.Linear(config.embedding_size, config.hidden_size)

    @torch.no_grad()
    def init_weights(self, generator: torch.Generator) -> None:
        """BERT's initialisation from a generator: N(0, initializer_range), the [PAD] row 0."""
        std = self.config.initializer_range
        for table in (self.word_embeddings, self.position_embeddings, self.token_type_embeddings):
            if isinstance(table, nn.Embedding):
                nn.init.normal_(table.weight, 0.0, std, generator=generator)
        self.word_embeddings.weight[self.config.pad_token_id].zero_()
        if self.LayerNorm is not None:
            nn.init.ones_(self.LayerNorm.weight)
            if self.LayerNorm.bias is not None:
                nn.init.zeros_(self.LayerNorm.bias)
        if self.projection is not None:
            nn.init.normal_(self.projection.weight, 0.0, std, generator=generator)
            nn.init.zeros_(self.projection.bias)

    def position_ids(self, input_ids: Tensor) -> Tensor:
        """The position id of every token, (B, T) or (1, T): 0 .. T-1 (BERT), or RoBERTa's
        pad-aware count from pad_token_id + 1 (`pad_aware_position_ids`)."""
        if self.config.pad_aware_positions:
            return pad_aware_position_ids(input_ids, self.config.pad_token_id)
        return torch.arange(input_ids.shape[1], device=input_ids.device)[None, :]

    def _parts(
        self, input_ids: Tensor, token_type_ids: Tensor | None, position_ids: Tensor | None
    ) -> tuple[Tensor, Tensor, Tensor]:
        """The three (B, T, E) summands: token, position (0 if none), segment (0 if none)."""
        if input_ids.dim() != 2:
            raise ValueError(
                f"input_ids must have shape (batch, length), got {tuple(input_ids.shape)}"
            )
        token = self.word_embeddings(input_ids)  # (B, T, H)
        zeros = torch.zeros_like(token)
        position = zeros
        if self.position_embeddings is not None:
            if position_ids is None:
                position_ids = self.position_ids(input_ids)
            position = self.position_embeddings(position_ids).to(token.dtype).expand_as(token)
        segment = zeros
        if self.token_type_embeddings is not None:
            if token_type_ids is None:
                token_type_ids = torch.zeros_like(input_ids)
            segment = self.token_type_embeddings(token_type_ids).expand_as(token)
        elif token_type_ids is not None and token_type_ids.numel() and int(token_type_ids.max()):
            raise ValueError("this model has no segment embedding (type_vocab_size is 0)")
        return token, position, segment

    def _normalise(self, summed: Tensor) -> Tensor:
        return self.LayerNorm(summed) if self.LayerNorm is not None else summed

    def forward(
        self,
        input_ids: Tensor,
        token_type_ids: Tensor | None = None,
        position_ids: Tensor | None = None,
    ) -> Tensor:
        token, position, segment = self._parts(input_ids, token_type_ids, position_ids)
        # subtle: transformers adds token + segment first, then position; float addition is not
        # associative, so the same order keeps parity bit-close.
        summed = token + segment + position  # (B, T, E)
        embedded = self.dropout(self._normalise(summed))  # (B, T, E)
        return embedded if self.projection is None else self.projection(embedded)  # (B, T, H)

    def components(
        self, input_ids: Tensor, token_type_ids: Tensor | None = None
    ) -> dict[str, Tensor]:
        """Every stage for the Sum page: token, position, segment, sum, output (after LayerNorm).

        "output" is before dropout (dropout is off in eval mode anyway); each is (B, T, E), E the
        embedding width (H unless `embedding_size` is set). With a projection, "projected" is
        the (B, T, H) vector that enters layer 1.
        """
        token, position, segment = self._parts(input_ids, token_type_ids, None)
        summed = token + segment + position
        parts = {
            "token": token,
            "position": position,
            "segment": segment,
            "sum": summed,
            "output": self._normalise(summed),
        }
        if self.projection is not None:
            parts["projected"] = self.projection(parts["output"])
        return parts


WORD_KEY = "embeddings.word_embeddings.weight"  # the key in a transformers BertModel checkpoint


def load_word_embedding_matrix(folder: str | Path) -> Tensor:
    """The word-embedding matrix (vocab × hidden) of a BertModel saved as model.safetensors."""
    from safetensors import safe_open

    with safe_open(str(Path(folder) / "model.safetensors"), framework="pt") as handle:
        if WORD_KEY not in handle.keys():
            raise ValueError(f"{folder} holds no {WORD_KEY} (not a transformers BertModel)")
        return handle.get_tensor(WORD_KEY)


def load_pretrained_embeddings(folder: str | Path) -> BertEmbeddings:
    """`BertEmbeddings` with the weights of a transformers BertModel folder (config.json +
    model.safetensors), in eval mode, e.g. all-MiniLM-L6-v2 from `pretrained.minilm_path()`."""
    from safetensors import safe_open

    folder = Path(folder)
    config = BertConfig.from_dict(json.loads((folder / "config.json").read_text(encoding="utf-8")))
    module = BertEmbeddings(config)
    prefix = "embeddings."
    with safe_open(str(folder / "model.safetensors"), framework="pt") as handle:
        state = {
            key[len(prefix) :]: handle.get_tensor(key)
            for key in handle.keys()
            if key.startswith(prefix) and not key.endswith("position_ids")
        }
    module.load_state_dict(state, strict=True)
    return module.eval()


def fresh_embeddings(config: BertConfig, seed: int) -> BertEmbeddings:
    """A newly initialised `BertEmbeddings` (BERT's N(0, 0.02) init from `seed`), in eval mode."""
    module = BertEmbeddings(config)
    module.init_weights(torch.Generator().manual_seed(seed))
    return module.eval()


def layer_norm_trace(x: Tensor, layer_norm: nn.LayerNorm | None) -> dict[str, Tensor]:
    """LayerNorm of one vector x (H,) step by step: mean, std, (x - mean) / std, γ, β, output.

    Worked example, x = [1, 2, 3, 6], γ = 1, β = 0: mean 3, variance (4 + 1 + 0 + 9) / 4 = 3.5,
    std √(3.5 + eps) ≈ 1.8708, normalised ≈ [-1.069, -0.535, 0, 1.604]. Without a LayerNorm the
    output is x itself (γ = 1, β = 0, no normalisation).
    """
    if layer_norm is None:
        ones = torch.ones_like(x)
        return {
            "mean": x.new_zeros(()),
            "std": x.new_ones(()),
            "normalised": x,
            "gamma": ones,
            "beta": torch.zeros_like(x),
            "output": x,
        }
    mean = x.mean()
    std = torch.sqrt(x.var(unbiased=False) + layer_norm.eps)
    normalised = (x - mean) / std
    gamma = layer_norm.weight.detach()
    beta = layer_norm.bias.detach() if layer_norm.bias is not None else torch.zeros_like(gamma)
    return {
        "mean": mean,
        "std": std,
        "normalised": normalised,
        "gamma": gamma,
        "beta": beta,
        "output": normalised * gamma + beta,
    }
