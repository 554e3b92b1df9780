"""`BertConfig`: one frozen, validated description of a BERT-style encoder.

Field names are transformers' (`BertConfig`), so a learner can read the transformers docs next, plus
two choices that BERT fixed and tutorials vary: the position encoding and where LayerNorm sits.
`explorer_core.bert.model` re-exports it; it lives here so embeddings and the model can both
import it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

POSITION_TYPES = ("learned", "sinusoidal", "relative", "rotary")
NORM_PLACEMENTS = ("post", "pre")  # post-LN: BERT's original; pre-LN: GPT-2 and many tutorials
ACTIVATIONS = ("gelu", "gelu_new", "relu", "silu")
POOLING_MODES = ("mean", "cls", "max")  # see bert/pooling.py; here so choosing one needs no torch


@dataclass(frozen=True)
class BertConfig:
    vocab_size: int = 30522
    hidden_size: int = 768
    num_hidden_layers: int = 12
    num_attention_heads: int = 12
    intermediate_size: int = 3072
    hidden_act: str = "gelu"  # exact erf GELU, as BERT
    hidden_dropout_prob: float = 0.1
    attention_probs_dropout_prob: float = 0.1
    max_position_embeddings: int = 512
    type_vocab_size: int = 2  # 0 disables the segment embedding (the tutorial's model has none)
    initializer_range: float = 0.02
    layer_norm_eps: float = 1e-12
    pad_token_id: int = 0
    position_embedding_type: str = "learned"  # one of POSITION_TYPES
    norm_placement: str = "post"  # one of NORM_PLACEMENTS
    relative_clip: int = 16  # Shaw-style relative positions are clipped to ±relative_clip
    rope_base: float = 10000.0  # rotary and sinusoidal frequency base
    embedding_layer_norm: bool = True  # BERT normalises the summed embeddings before layer 1

    def __post_init__(self) -> None:
        positive = (
            "vocab_size",
            "hidden_size",
            "num_hidden_layers",
            "num_attention_heads",
            "intermediate_size",
            "max_position_embeddings",
        )
        for name in positive:
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a positive whole number, got {value!r}")
        if self.hidden_size % self.num_attention_heads:
            raise ValueError(
                f"hidden_size ({self.hidden_size}) must be divisible by num_attention_heads "
                f"({self.num_attention_heads}) so every head gets the same width"
            )
        if self.position_embedding_type not in POSITION_TYPES:
            raise ValueError(
                f"position_embedding_type must be one of {', '.join(POSITION_TYPES)}, "
                f"got {self.position_embedding_type!r}"
            )
        if self.position_embedding_type == "rotary" and self.head_dim % 2:
            raise ValueError(f"rotary positions need an even head width, got {self.head_dim}")
        if self.position_embedding_type == "sinusoidal" and self.hidden_size % 2:
            raise ValueError(
                f"sinusoidal positions need an even hidden_size, got {self.hidden_size}"
            )
        if self.norm_placement not in NORM_PLACEMENTS:
            raise ValueError(f"norm_placement must be 'post' or 'pre', got {self.norm_placement!r}")
        if self.hidden_act not in ACTIVATIONS:
            raise ValueError(f"hidden_act must be one of {', '.join(ACTIVATIONS)}")
        for name in ("hidden_dropout_prob", "attention_probs_dropout_prob"):
            if not 0.0 <= getattr(self, name) < 1.0:
                raise ValueError(f"{name} must be in [0, 1), got {getattr(self, name)}")
        if self.type_vocab_size < 0:
            raise ValueError("type_vocab_size must be 0 (no segments) or more")
        if not 0 <= self.pad_token_id < self.vocab_size:
            raise ValueError(f"pad_token_id {self.pad_token_id} is outside the vocabulary")
        if self.relative_clip < 1:
            raise ValueError("relative_clip must be at least 1")
        if self.rope_base <= 1.0:
            raise ValueError("rope_base must be greater than 1")

    @property
    def head_dim(self) -> int:
        return self.hidden_size // self.num_attention_heads

    @property
    def bert_compatible(self) -> bool:
        """True when transformers' BertModel can load this architecture (learned, post-LN, GELU)."""
        return (
            self.position_embedding_type == "learned"
            and self.norm_placement == "post"
            and self.type_vocab_size > 0
            and self.embedding_layer_norm
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BertConfig:
        """Build from a dict (ours or a transformers config.json); unknown keys are ignored."""
        fields = cls.__dataclass_fields__
        kwargs = {k: v for k, v in data.items() if k in fields}
        if data.get("position_embedding_type") == "absolute":  # transformers' name for learned
            kwargs["position_embedding_type"] = "learned"
        return cls(**kwargs)
