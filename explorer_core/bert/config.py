"""`BertConfig`: one frozen, validated description of a BERT-style encoder.

Field names are transformers' (`BertConfig`), so a learner can read the transformers docs next, plus
two choices that BERT fixed and tutorials vary: the position encoding and where LayerNorm sits, and
a handful of switches that turn the same encoder into the other families (RoBERTa, XLM-R,
DistilBERT, ALBERT, ELECTRA, ModernBERT; `explorer_core.bert.families` maps their config.json onto
them). Every switch's default is BERT's behaviour, so a config without them is BERT.
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
FFN_TYPES = ("mlp", "geglu")  # mlp: act(x W1) W2 (BERT); geglu: (act(x Wi_in) ⊙ x Wi_gate) Wo
# the families this encoder runs, as config.json's model_type names them (bert/families.py)
ENCODER_TYPES = ("bert", "roberta", "xlm-roberta", "distilbert", "albert", "electra", "modernbert")
DECODER_TYPES = ("gpt2",)  # causal language models: the same layers under the causal mask
MODEL_TYPES = ENCODER_TYPES + DECODER_TYPES


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
    # --- the family switches (defaults: BERT) ---
    model_type: str = "bert"  # the family, as config.json names it; one of MODEL_TYPES
    # RoBERTa, XLM-R: position ids count from pad_token_id + 1 and pad tokens get pad_token_id
    pad_aware_positions: bool = False
    # ALBERT, ELECTRA: embeddings (and their LayerNorm) are E wide, then a Linear E -> H; None: H
    embedding_size: int | None = None
    shared_layers: bool = False  # ALBERT: one layer's weights applied num_hidden_layers times
    norm_bias: bool = True  # False (ModernBERT): LayerNorms scale but never shift (beta is 0)
    attention_bias: bool = True  # False (ModernBERT): Q, K, V and output Linears without bias
    mlp_bias: bool = True  # False (ModernBERT): the feed-forward Linears without bias
    # False (ModernBERT, pre-LN): layer 0 reads the embeddings as they are (just normalised)
    first_attention_norm: bool = True
    ffn_type: str = "mlp"  # one of FFN_TYPES; ModernBERT: geglu, its Wi is H -> 2I
    # local layers see only keys with |i - j| <= local_attention // 2 (ModernBERT); None: all keys
    local_attention: int | None = None
    global_attn_every_n_layers: int = 1  # layer l is global when l % n == 0 (1: every layer)
    local_rope_base: float | None = None  # local layers' rotary base (ModernBERT); None: rope_base
    add_pooling_layer: bool = True  # BERT's tanh pooler on [CLS]; DistilBERT, ELECTRA...: none
    # --- the decoder switches (defaults: BERT, an encoder) ---
    # GPT-2: query i sees keys j <= i only, so predicting token i + 1 never peeks at it
    causal: bool = False
    # the original Transformer (and the tutorial) multiplies token embeddings by √hidden_size so
    # they are not drowned by the positions; BERT and GPT-2 do not
    scale_embedding: bool = False
    # a language-model head (bert/causal_lm.py) reuses the word-embedding matrix as its output
    # layer (GPT-2, BERT's MLM head); False: a matrix of its own
    tie_word_embeddings: bool = True

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
        self._check_switches()

    def _check_switches(self) -> None:
        if self.model_type not in MODEL_TYPES:
            raise ValueError(f"model_type must be one of {', '.join(MODEL_TYPES)}")
        if self.embedding_size is not None and self.embedding_size < 1:
            raise ValueError(f"embedding_size must be positive or None, got {self.embedding_size}")
        if self.ffn_type not in FFN_TYPES:
            raise ValueError(f"ffn_type must be one of {', '.join(FFN_TYPES)}")
        if self.local_attention is not None and self.local_attention < 2:
            raise ValueError("local_attention (the window width) must be at least 2, or None")
        if self.global_attn_every_n_layers < 1:
            raise ValueError("global_attn_every_n_layers must be at least 1")
        if self.local_rope_base is not None and self.local_rope_base <= 1.0:
            raise ValueError("local_rope_base must be greater than 1, or None")
        if not self.first_attention_norm and self.norm_placement != "pre":
            raise ValueError("first_attention_norm=False only makes sense with pre-LN")
        if self.pad_aware_positions and self.max_tokens < 1:
            raise ValueError("max_position_embeddings leaves no position after pad_token_id")
        if self.model_type in DECODER_TYPES and not self.causal:
            raise ValueError(f"a {self.model_type} model is a decoder: it needs causal=True")

    @property
    def head_dim(self) -> int:
        return self.hidden_size // self.num_attention_heads

    @property
    def first_position(self) -> int:
        """The position id of the first token: 0, or pad_token_id + 1 (RoBERTa, XLM-R)."""
        return self.pad_token_id + 1 if self.pad_aware_positions else 0

    @property
    def max_tokens(self) -> int:
        """The longest input learned positions allow (RoBERTa: 514 rows, 512 tokens)."""
        return self.max_position_embeddings - self.first_position

    def is_global_layer(self, index: int) -> bool:
        """Whether layer `index` (0-based) sees every key: no window, or every n-th layer."""
        return self.local_attention is None or index % self.global_attn_every_n_layers == 0

    def layer_window(self, index: int) -> int | None:
        """The farthest key a query of layer `index` sees (|i - j| <= it); None: every key."""
        return None if self.is_global_layer(index) else self.local_attention // 2

    def layer_rope_base(self, index: int) -> float:
        """The rotary base of layer `index`: rope_base, or local_rope_base on a local layer."""
        if self.is_global_layer(index) or self.local_rope_base is None:
            return self.rope_base
        return self.local_rope_base

    @property
    def bert_compatible(self) -> bool:
        """True when transformers' BertModel can load this architecture (learned, post-LN, GELU)."""
        defaults = BertConfig()
        switches = ("model_type", "pad_aware_positions", "embedding_size", "shared_layers",
                    "norm_bias", "attention_bias", "mlp_bias", "first_attention_norm", "ffn_type",
                    "local_attention", "add_pooling_layer", "causal",
                    "scale_embedding")  # fmt: skip
        return (
            self.position_embedding_type == "learned"
            and self.norm_placement == "post"
            and self.type_vocab_size > 0
            and self.embedding_layer_norm
            and all(getattr(self, name) == getattr(defaults, name) for name in switches)
        )

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BertConfig:
        """Build from a dict (ours, an older one of ours, or a transformers BERT config.json);
        unknown keys are ignored and missing ones take their default. Another family's
        config.json goes through `explorer_core.bert.families.config_from_transformers`."""
        if "norm_placement" not in data and data.get("model_type", "bert") != "bert":
            raise ValueError(
                f"a {data['model_type']} config.json: read it with "
                "explorer_core.bert.families.config_from_transformers"
            )
        fields = cls.__dataclass_fields__
        kwargs = {k: v for k, v in data.items() if k in fields}
        if data.get("position_embedding_type") == "absolute":  # transformers' name for learned
            kwargs["position_embedding_type"] = "learned"
        return cls(**kwargs)
