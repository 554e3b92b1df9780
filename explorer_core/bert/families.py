"""Every encoder family as a row, not a file: its config.json read into `BertConfig`'s switches.

transformers keeps one modeling file per family, each a near-copy of BERT. Here a family is what
differs from BERT, said as switches (see `BertConfig`), and a table of weight names
(`explorer_core.bert.family_weights`):

    family       positions               segments  embeddings  layers             ffn        pooler
    bert         learned, from 0         2         H           post-LN            GELU       yes
    roberta      learned, from pad + 1   1         H           post-LN            GELU       yes
    xlm-roberta  learned, from pad + 1   1         H           post-LN            GELU       yes
    distilbert   learned, from 0         none      H           post-LN            GELU       no
    albert       learned, from 0         2         E -> H      post-LN, 1 shared  tanh-GELU  yes
    electra      learned, from 0         2         E -> H      post-LN            GELU       no
    modernbert   rotary, local + global  none      H           pre-LN, windowed   GeGLU      no
    gpt2         learned, from 0         none      H, no LN    pre-LN, causal     tanh-GELU  no

(ModernBERT: no bias anywhere, no LN1 in layer 0, a final LayerNorm; its local layers see keys
within local_attention // 2 and use another rotary base. GPT-2 is the one decoder: the same layers
under the causal mask, a final LayerNorm, and a language-model head, `bert/causal_lm.py`.)

`config_from_transformers(data)` turns a config.json dict into our config (or raises
`UnsupportedModel` with one line a user can act on); `weights_to_ours(config, weights)` renames a
family's state dict into BERT's names. `BertModel.from_transformers` does both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from explorer_core.bert.config import DECODER_TYPES, ENCODER_TYPES, BertConfig
from explorer_core.bert.family_weights import UnsupportedModel, weights_to_ours

__all__ = [
    "DECODER_FAMILIES", "FAMILIES", "UnsupportedModel", "config_from_transformers",
    "weights_to_ours",
]  # fmt: skip

FAMILIES: tuple[str, ...] = ENCODER_TYPES  # the encoders: bert, roberta, xlm-roberta, ...
DECODER_FAMILIES: tuple[str, ...] = DECODER_TYPES  # gpt2: read by the same encoder, causal

# transformers' activation names -> ours ("gelu_new" is our tanh GELU)
ACTIVATION_NAMES = {
    "gelu": "gelu",
    "gelu_new": "gelu_new",
    "gelu_pytorch_tanh": "gelu_new",
    "relu": "relu",
    "silu": "silu",
    "swish": "silu",
}
BERT_FIELDS = (  # fields BERT, RoBERTa, XLM-R, ALBERT and ELECTRA name as we do
    "vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
    "hidden_dropout_prob", "attention_probs_dropout_prob", "max_position_embeddings",
    "type_vocab_size", "initializer_range", "layer_norm_eps",
)  # fmt: skip


def _activation(family: str, name: Any) -> str:
    if name not in ACTIVATION_NAMES:
        raise UnsupportedModel(
            f"this {family} model uses the activation {name!r}; supported: "
            f"{', '.join(ACTIVATION_NAMES)}"
        )
    return ACTIVATION_NAMES[name]


def _pad(data: dict[str, Any], default: int = 0) -> int:
    pad = data.get("pad_token_id")
    return default if pad is None else int(pad)


def _bert_like(data: dict[str, Any], family: str, act: str = "gelu") -> dict[str, Any]:
    """BERT's own fields, shared by the families that kept BERT's config.json."""
    if data.get("position_embedding_type", "absolute") != "absolute":
        raise UnsupportedModel(
            f"this {family} model uses {data['position_embedding_type']!r} positions; only "
            "absolute (learned) positions are supported for this family"
        )
    if data.get("is_decoder") or data.get("add_cross_attention"):
        raise UnsupportedModel(f"this {family} model is a decoder; only encoders are supported")
    kwargs = {name: data[name] for name in BERT_FIELDS if data.get(name) is not None}
    kwargs["hidden_act"] = _activation(family, data.get("hidden_act", act))
    return {**kwargs, "pad_token_id": _pad(data), "model_type": family}


def _bert(data: dict[str, Any]) -> dict[str, Any]:
    return _bert_like(data, "bert")


def _roberta(data: dict[str, Any]) -> dict[str, Any]:
    # fairseq's positions: the table's rows 0 .. pad are never used by a real token
    kwargs = _bert_like(data, data["model_type"])
    return {**kwargs, "pad_token_id": _pad(data, 1), "pad_aware_positions": True}


def _electra(data: dict[str, Any]) -> dict[str, Any]:
    kwargs = _bert_like(data, "electra")
    width = data.get("embedding_size", kwargs.get("hidden_size", 768))
    narrow = width if width != kwargs.get("hidden_size", 768) else None  # projection only then
    return {**kwargs, "embedding_size": narrow, "add_pooling_layer": False}


def _albert(data: dict[str, Any]) -> dict[str, Any]:
    groups, inner = data.get("num_hidden_groups", 1), data.get("inner_group_num", 1)
    if groups != 1 or inner != 1:
        raise UnsupportedModel(
            f"this ALBERT model has num_hidden_groups={groups}, inner_group_num={inner}; only "
            "one shared layer (both 1, as every released ALBERT) is supported"
        )
    kwargs = _bert_like(data, "albert", act="gelu_new")
    return {**kwargs, "embedding_size": data.get("embedding_size", 128), "shared_layers": True}


def _distilbert(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "model_type": "distilbert",
        "vocab_size": data.get("vocab_size", 30522),
        "hidden_size": data.get("dim", 768),
        "num_hidden_layers": data.get("n_layers", 6),
        "num_attention_heads": data.get("n_heads", 12),
        "intermediate_size": data.get("hidden_dim", 3072),
        "hidden_act": _activation("distilbert", data.get("activation", "gelu")),
        "hidden_dropout_prob": data.get("dropout", 0.1),
        "attention_probs_dropout_prob": data.get("attention_dropout", 0.1),
        "max_position_embeddings": data.get("max_position_embeddings", 512),
        "initializer_range": data.get("initializer_range", 0.02),
        "layer_norm_eps": 1e-12,  # fixed in DistilBERT's code, not in its config
        "pad_token_id": _pad(data),
        "type_vocab_size": 0,  # no segments
        "add_pooling_layer": False,
    }


def _every_n(data: dict[str, Any]) -> int:
    """ModernBERT's global-layer period, from `layer_types` (transformers 5) or the old int."""
    types = data.get("layer_types")
    if types is None:
        return int(data.get("global_attn_every_n_layers", 3))
    full = [index for index, kind in enumerate(types) if kind == "full_attention"]
    every = full[1] if len(full) > 1 else len(types)  # the distance between global layers
    pattern = ["sliding_attention" if i % every else "full_attention" for i in range(len(types))]
    if list(types) != pattern:
        raise UnsupportedModel(
            "this ModernBERT model's layer_types are not 'global every n-th layer, from layer 0'; "
            "only that pattern is supported"
        )
    return every


def _rope_bases(data: dict[str, Any]) -> tuple[float, float]:
    """(global, local) rotary bases, from `rope_parameters` or the old *_rope_theta keys."""
    params = data.get("rope_parameters") or {}
    for kind in ("full_attention", "sliding_attention"):
        if (params.get(kind) or {}).get("rope_type", "default") != "default":
            raise UnsupportedModel(
                f"this ModernBERT model scales its rotary positions ({params[kind]['rope_type']}); "
                "only plain rotary positions are supported"
            )
    full = (params.get("full_attention") or {}).get("rope_theta")
    local = (params.get("sliding_attention") or {}).get("rope_theta")
    return (
        float(full if full is not None else data.get("global_rope_theta", 160000.0)),
        float(local if local is not None else data.get("local_rope_theta", 10000.0)),
    )


def _modernbert(data: dict[str, Any]) -> dict[str, Any]:
    rope_global, rope_local = _rope_bases(data)
    return {
        "model_type": "modernbert",
        "vocab_size": data.get("vocab_size", 50368),
        "hidden_size": data.get("hidden_size", 768),
        "num_hidden_layers": data.get("num_hidden_layers", 22),
        "num_attention_heads": data.get("num_attention_heads", 12),
        "intermediate_size": data.get("intermediate_size", 1152),
        "hidden_act": _activation("modernbert", data.get("hidden_activation", "gelu")),
        "hidden_dropout_prob": data.get("mlp_dropout", 0.0),
        "attention_probs_dropout_prob": data.get("attention_dropout", 0.0),
        "max_position_embeddings": data.get("max_position_embeddings", 8192),
        "initializer_range": data.get("initializer_range", 0.02),
        "layer_norm_eps": data.get("norm_eps", 1e-5),
        "pad_token_id": _pad(data, 50283),
        "type_vocab_size": 0,  # no segments
        "position_embedding_type": "rotary",
        "norm_placement": "pre",
        "norm_bias": bool(data.get("norm_bias", False)),
        "attention_bias": bool(data.get("attention_bias", False)),
        "mlp_bias": bool(data.get("mlp_bias", False)),
        "first_attention_norm": False,  # layers.0.attn_norm is an Identity
        "ffn_type": "geglu",
        "local_attention": int(data.get("local_attention", 128)),
        "global_attn_every_n_layers": _every_n(data),
        "rope_base": rope_global,
        "local_rope_base": rope_local,
        "add_pooling_layer": False,
    }


def _gpt2(data: dict[str, Any]) -> dict[str, Any]:
    """GPT-2's config.json (n_embd, n_layer, ...) -> the switches: pre-LN, causal, no segments,
    no embedding LayerNorm, a final LayerNorm (ln_f). Its token vectors are not scaled: a folder
    that `save_decoder` wrote stores them already scaled (see bert/causal_lm.py)."""
    if not data.get("scale_attn_weights", True) or data.get("scale_attn_by_inverse_layer_idx"):
        raise UnsupportedModel(
            "this gpt2 model scales its attention scores another way than 1/√d; only GPT-2's "
            "own scaling is supported"
        )
    if data.get("add_cross_attention"):
        raise UnsupportedModel("this gpt2 model has cross-attention; only plain GPT-2 is supported")
    width = data.get("n_embd", 768)
    return {
        "model_type": "gpt2",
        "vocab_size": data.get("vocab_size", 50257),
        "hidden_size": width,
        "num_hidden_layers": data.get("n_layer", 12),
        "num_attention_heads": data.get("n_head", 12),
        "intermediate_size": data.get("n_inner") or 4 * width,  # None: 4 × n_embd
        "hidden_act": _activation("gpt2", data.get("activation_function", "gelu_new")),
        "hidden_dropout_prob": data.get("resid_pdrop", 0.1),
        "attention_probs_dropout_prob": data.get("attn_pdrop", 0.1),
        "max_position_embeddings": data.get("n_positions", 1024),
        "initializer_range": data.get("initializer_range", 0.02),
        "layer_norm_eps": data.get("layer_norm_epsilon", 1e-5),
        "pad_token_id": _pad(data),
        "type_vocab_size": 0,  # no segments
        "embedding_layer_norm": False,  # wte + wpe enter block 0 as they are
        "norm_placement": "pre",
        "add_pooling_layer": False,
        "causal": True,
        "tie_word_embeddings": bool(data.get("tie_word_embeddings", True)),
    }


READERS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "bert": _bert,
    "roberta": _roberta,
    "xlm-roberta": _roberta,
    "distilbert": _distilbert,
    "albert": _albert,
    "electra": _electra,
    "modernbert": _modernbert,
    "gpt2": _gpt2,
}
assert tuple(READERS) == FAMILIES + DECODER_FAMILIES


def config_from_transformers(data: dict) -> BertConfig:
    """A transformers config.json (as a dict) -> our `BertConfig`, `model_type` set.

    Raises `UnsupportedModel` (one line) for an unknown model_type, for a config that names its
    own code (`auto_map`: remote code is never run here) and for variants we cannot run.

    >>> config_from_transformers({"model_type": "roberta", "pad_token_id": 1}).first_position
    2
    """
    if data.get("auto_map"):
        raise UnsupportedModel(
            "this model ships its own Python code (auto_map in config.json), which is never run "
            f"here; choose a model of a supported family: {', '.join(FAMILIES)}"
        )
    family = data.get("model_type")
    if family not in READERS:
        raise UnsupportedModel(
            f"model_type {family!r} is not supported; supported families: "
            f"{', '.join(FAMILIES + DECODER_FAMILIES)}"
        )
    try:
        return BertConfig(**READERS[family](data))
    except UnsupportedModel:
        raise
    except (ValueError, TypeError) as err:
        raise UnsupportedModel(f"this {family} config.json cannot be run: {err}") from err
