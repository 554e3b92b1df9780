"""How encoders differ: the switches of our one encoder, read for each model, side by side.

Every family this app runs is the same readable encoder (`explorer_core.bert`) with a few
switches set (`BertConfig`); `switches(config)` names them for one model, and `parameter_split`
counts its parameters in embeddings, attention, feed-forward and the rest, on the meta device (no
memory, no weights read: the shapes follow from the config alone). A test checks the split's total
against the safetensors file of real checkpoints.

Worked example, all-MiniLM-L6-v2 (BERT, 6 layers, hidden 384, intermediate 1536, vocab 30,522):
embeddings 30,522·384 + 512·384 + 2·384 + 2·384 (LayerNorm) = 11,918,592; attention per layer
4·(384·384 + 384) + 2·384 = 592,128, so 3,552,768 for six; feed-forward per layer
384·1536 + 1536 + 1536·384 + 384 + 2·384 = 1,182,336, so 7,094,016; the pooler 147,840.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import torch

from explorer_core.bert.config import BertConfig

PARTS = ("embeddings", "attention", "feed_forward", "other")


@dataclass(frozen=True)
class Switches:
    """One model's switches, as codes the page translates (see `SWITCH_NAMES`)."""

    family: str  # config.model_type
    positions: str  # "learned", "learned+offset", "rotary", "rotary+window", "sinusoidal", ...
    position_offset: int  # the first token's position id (RoBERTa: pad id + 1)
    rope_bases: tuple[float, ...]  # distinct rotary bases, global first (empty: no rotary)
    window: int | None  # a local layer's reach |i - j| <= window; None: every layer sees all
    global_every: int  # every n-th layer is global (1: all)
    token_types: int  # segment rows (0: none)
    embedding_size: int  # E; equal to hidden: no projection
    norm: str  # "post" or "pre"
    norm_bias: bool
    linear_bias: bool
    ffn: str  # "gelu", "tanh-gelu", "geglu", "relu", "silu"
    shared_layers: bool
    layers: int
    hidden: int
    heads: int
    intermediate: int
    max_tokens: int
    pooler: bool


def _ffn(config: BertConfig) -> str:
    if config.ffn_type == "geglu":
        return "geglu"
    return {"gelu": "gelu", "gelu_new": "tanh-gelu"}.get(config.hidden_act, config.hidden_act)


def _positions(config: BertConfig) -> str:
    kind = config.position_embedding_type
    if kind == "learned" and config.first_position:
        return "learned+offset"
    if kind == "rotary" and config.local_attention is not None:
        return "rotary+window"
    return kind


def switches(config: BertConfig) -> Switches:
    """The switches of one model, read from its config."""
    bases = [config.rope_base]
    if config.local_rope_base is not None and config.local_rope_base != config.rope_base:
        bases.append(config.local_rope_base)
    window = config.local_attention // 2 if config.local_attention is not None else None
    return Switches(
        family=config.model_type,
        positions=_positions(config),
        position_offset=config.first_position,
        rope_bases=tuple(bases) if config.position_embedding_type == "rotary" else (),
        window=window,
        global_every=config.global_attn_every_n_layers if window is not None else 1,
        token_types=config.type_vocab_size,
        embedding_size=config.embedding_size or config.hidden_size,
        norm=config.norm_placement,
        norm_bias=config.norm_bias,
        linear_bias=config.attention_bias and config.mlp_bias,
        ffn=_ffn(config),
        shared_layers=config.shared_layers,
        layers=config.num_hidden_layers,
        hidden=config.hidden_size,
        heads=config.num_attention_heads,
        intermediate=config.intermediate_size,
        max_tokens=config.max_tokens,
        pooler=config.add_pooling_layer,
    )


def part_of(name: str) -> str:
    """Which part a parameter of our encoder belongs to, by its name.

    >>> [part_of(n) for n in ("embeddings.word_embeddings.weight",
    ...  "encoder.layer.0.attention.self.query.weight", "encoder.layer.0.intermediate.dense.bias",
    ...  "encoder.layer.0.output.LayerNorm.weight", "pooler.dense.weight")]
    ['embeddings', 'attention', 'feed_forward', 'feed_forward', 'other']
    """
    if name.startswith("embeddings."):
        return "embeddings"
    if ".attention." in name:
        return "attention"
    if ".intermediate." in name or ".output." in name:
        return "feed_forward"
    return "other"  # the pooler, a final LayerNorm


def parameter_split(config: BertConfig) -> dict[str, int]:
    """Parameters of our encoder for `config`, by part (shared layers counted once)."""
    from explorer_core.bert.model import BertModel

    with torch.device("meta"):  # shapes only: nothing is allocated
        model = BertModel(config, initialize=False)
    split = dict.fromkeys(PARTS, 0)
    for name, parameter in model.named_parameters():  # shared tensors are listed once
        split[part_of(name)] += parameter.numel()
    return split


# ---- one row of the table for a model folder -------------------------------------------------

VOCAB_KINDS = {"WordPiece": "wordpiece", "BPE": "byte-bpe", "Unigram": "unigram"}
_MODEL_TYPE = re.compile(r'"model"\s*:\s*\{\s*"type"\s*:\s*"(\w+)"')


def vocab_kind(folder: Path) -> str:
    """The tokenizer's algorithm from its files, without building it: tokenizer.json's
    `model.type` (as `tokenization.hf_file` chooses it), else "wordpiece" for a vocab.txt."""
    file = folder / "tokenizer.json"
    if file.is_file():
        found = _MODEL_TYPE.search(file.read_text(encoding="utf-8", errors="replace"))
        if found is None:
            model = json.loads(file.read_text(encoding="utf-8")).get("model", {})
            kind = model.get("type", "") if isinstance(model, dict) else ""
        else:
            kind = found.group(1)
        return VOCAB_KINDS.get(kind, kind.lower() or "?")
    return "wordpiece" if (folder / "vocab.txt").is_file() else "?"


@dataclass(frozen=True)
class EncoderRow:
    """One model of the side-by-side table."""

    name: str
    switches: Switches
    vocab_kind: str
    vocab_size: int
    parameters: dict[str, int]  # by part (PARTS)
    pooling: str  # e.g. "mean", "cls", "cls+mean"
    pooling_default: bool = False  # no sentence-transformers files said it: our default (mean)
    normalised: bool = False  # the vectors are divided by their length


def encoder_row(
    name: str, config: BertConfig, vocab: str, pooling: str, default: bool, normalised: bool
) -> EncoderRow:
    return EncoderRow(name, switches(config), vocab, config.vocab_size, parameter_split(config),
                      pooling, default, normalised)  # fmt: skip
