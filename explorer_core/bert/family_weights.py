"""Each family's weight names -> BERT's, so one `BertModel` loads them all.

Four steps, in order, for every name of a checkpoint:

1. legacy names: `LayerNorm.gamma` / `LayerNorm.beta` (old TensorFlow ports) become `.weight` /
   `.bias`, as transformers 5 renames them on load;
2. the family's prefix (`bert.`, `roberta.`, `distilbert.`, `albert.`, `electra.`, `model.`) is
   dropped: a checkpoint saved from a model *with* a task head carries it;
3. task heads (`cls.`, `lm_head.`, `classifier.`, ...) and buffers (`position_ids`) are left out;
4. the family's table renames what is left, e.g. DistilBERT's `transformer.layer.0.attention.q_lin`
   -> `encoder.layer.0.attention.self.query`; ModernBERT's fused `Wqkv` is split into query, key
   and value (its rows, in that order); ALBERT's one shared layer is copied under every layer index;
   GPT-2's Conv1D weights are stored (in, out), the transpose of nn.Linear's (out, in), and its
   `c_attn` holds query, key and value side by side (its columns).

`weights_to_gpt2` goes the other way for a decoder: our names -> GPT-2's, Conv1D-transposed.

A name no table knows is an `UnsupportedModel` naming it (a weight silently dropped would make a
different model).
"""

from __future__ import annotations

import re

import torch
from torch import Tensor

from explorer_core.bert.config import BertConfig


class UnsupportedModel(ValueError):
    """A checkpoint this encoder cannot run; its str() is one line a user can act on."""


PREFIXES = {  # transformers' base_model_prefix of each family
    "bert": "bert.", "roberta": "roberta.", "xlm-roberta": "roberta.",
    "distilbert": "distilbert.", "albert": "albert.", "electra": "electra.", "modernbert": "model.",
    "gpt2": "transformer.",
}  # fmt: skip
HEADS = (  # pre-training and task heads: not part of the encoder
    "cls.", "lm_head.", "predictions.", "generator_", "discriminator_predictions.",
    "vocab_transform.", "vocab_layer_norm.", "vocab_projector.", "head.", "decoder.",
    "classifier.", "pre_classifier.", "qa_outputs.", "sop_classifier.",
)  # fmt: skip
BUFFERS = ("position_ids", "token_type_ids")  # saved by some versions; no learned numbers
GPT2_BUFFERS = re.compile(r"^h\.\d+\.attn\.(bias|masked_bias)$")  # old GPT-2: its causal mask

# BERT's own names: what every table renames into (and what BERT-named families already use)
BERT_NAMES = re.compile(
    r"^(embeddings\.((word|position|token_type)_embeddings\.weight|LayerNorm\.(weight|bias))"
    r"|encoder\.layer\.\d+\.(attention\.(self\.(query|key|value)|output\.(dense|LayerNorm))"
    r"|intermediate\.dense|output\.(dense|LayerNorm))\.(weight|bias)"
    r"|pooler\.dense\.(weight|bias))$"
)
# per family: (where its layer {N} lives, {its sub-module: ours}); a place without {N} (ALBERT)
# is one layer shared by all, so its weights go to every layer index
LAYER_NAMES: dict[str, tuple[str, dict[str, str]]] = {
    "distilbert": ("transformer.layer.{N}.", {
        "attention.q_lin": "attention.self.query",
        "attention.k_lin": "attention.self.key",
        "attention.v_lin": "attention.self.value",
        "attention.out_lin": "attention.output.dense",
        "sa_layer_norm": "attention.output.LayerNorm",
        "ffn.lin1": "intermediate.dense",
        "ffn.lin2": "output.dense",
        "output_layer_norm": "output.LayerNorm",
    }),
    "albert": ("encoder.albert_layer_groups.0.albert_layers.0.", {
        "attention.query": "attention.self.query",
        "attention.key": "attention.self.key",
        "attention.value": "attention.self.value",
        "attention.dense": "attention.output.dense",
        "attention.LayerNorm": "attention.output.LayerNorm",
        "ffn": "intermediate.dense",
        "ffn_output": "output.dense",
        "full_layer_layer_norm": "output.LayerNorm",
    }),
    "modernbert": ("layers.{N}.", {
        "attn_norm": "attention.output.LayerNorm",  # LN1 under pre-LN; absent in layer 0
        "attn.Wqkv": "attention.self.qkv",  # split into query, key, value below
        "attn.Wo": "attention.output.dense",
        "mlp_norm": "output.LayerNorm",
        "mlp.Wi": "intermediate.dense",  # H -> 2I (GeGLU: input half, then gate half)
        "mlp.Wo": "output.dense",
    }),
    "gpt2": ("h.{N}.", {
        "ln_1": "attention.output.LayerNorm",  # LN1 under pre-LN
        "attn.c_attn": "attention.self.qkv",  # Conv1D H -> 3H: split into query, key, value
        "attn.c_proj": "attention.output.dense",
        "ln_2": "output.LayerNorm",
        "mlp.c_fc": "intermediate.dense",
        "mlp.c_proj": "output.dense",
    }),
}  # fmt: skip
CONV1D = {"gpt2": ("attn.c_attn", "attn.c_proj", "mlp.c_fc", "mlp.c_proj")}  # weight (in, out)
OTHER_NAMES: dict[str, dict[str, str]] = {  # modules outside the layers
    "electra": {"embeddings_project": "embeddings.projection"},
    "albert": {
        "encoder.embedding_hidden_mapping_in": "embeddings.projection",
        "pooler": "pooler.dense",
    },
    "modernbert": {
        "embeddings.tok_embeddings": "embeddings.word_embeddings",
        "embeddings.norm": "embeddings.LayerNorm",
        "final_norm": "encoder.LayerNorm",
    },
    "gpt2": {
        "wte": "embeddings.word_embeddings",
        "wpe": "embeddings.position_embeddings",
        "ln_f": "encoder.LayerNorm",
    },
}
OWN_NAMES = ("bert", "roberta", "xlm-roberta", "electra", "albert")  # BERT's names otherwise


def _layer_rules(family: str) -> list[tuple[re.Pattern[str], str]]:
    where, table = LAYER_NAMES.get(family, ("", {}))
    layer = re.escape(where).replace(r"\{N\}", r"(?P<n>\d+)")
    target = "{L}" if "{N}" not in where else r"\g<n>"
    return [
        (re.compile(f"^{layer}{re.escape(theirs)}\\.(?P<p>weight|bias)$"),
         f"encoder.layer.{target}.{ours}.\\g<p>")
        for theirs, ours in table.items()
    ]  # fmt: skip


RULES = {
    family: _layer_rules(family)
    + [(re.compile(f"^{re.escape(theirs)}\\.(?P<p>weight|bias)$"), f"{ours}.\\g<p>")
       for theirs, ours in OTHER_NAMES.get(family, {}).items()]
    for family in PREFIXES
}  # fmt: skip


def legacy_name(name: str) -> str:
    """Old checkpoints' LayerNorm.gamma / .beta -> .weight / .bias (transformers 5 does the same).

    >>> legacy_name("bert.encoder.layer.0.output.LayerNorm.gamma")
    'bert.encoder.layer.0.output.LayerNorm.weight'
    """
    name = re.sub(r"LayerNorm\.gamma$", "LayerNorm.weight", name)
    return re.sub(r"LayerNorm\.beta$", "LayerNorm.bias", name)


def _rename(family: str, name: str) -> str | None:
    """The family's table applied to one name (prefix already dropped); None: unknown."""
    for pattern, replacement in RULES[family]:
        if pattern.match(name):
            return pattern.sub(replacement, name)
    own = family in OWN_NAMES or name.startswith("embeddings.")  # DistilBERT's embeddings
    return name if own and BERT_NAMES.match(name) else None


def _ours(family: str, name: str) -> str | None:
    """Steps 1-4 for one checkpoint name; "" for a name that is left out on purpose."""
    name = legacy_name(name)
    prefix = PREFIXES[family]
    if name.startswith(prefix):
        name = name[len(prefix) :]
    if name.startswith(HEADS) or name.endswith(BUFFERS) or GPT2_BUFFERS.match(name):
        return ""
    return _rename(family, name)


def _linear(family: str, name: str, tensor: Tensor) -> Tensor:
    """GPT-2's Conv1D weight (in, out) -> nn.Linear's (out, in); anything else as it is."""
    conv = CONV1D.get(family, ())
    if tensor.dim() == 2 and name.endswith(".weight") and any(f".{c}." in name for c in conv):
        return tensor.t().contiguous()
    return tensor


def weights_to_ours(config: BertConfig, weights: dict[str, Tensor]) -> dict[str, Tensor]:
    """A family's state dict (names as its checkpoint has them) -> BERT's names for `config`.

    >>> import torch
    >>> cfg = BertConfig(model_type="distilbert", type_vocab_size=0, hidden_size=4,
    ...                  num_attention_heads=1)
    >>> list(weights_to_ours(cfg, {"transformer.layer.0.ffn.lin1.bias": torch.zeros(3)}))
    ['encoder.layer.0.intermediate.dense.bias']
    """
    family, ours = config.model_type, {}
    for name, tensor in weights.items():
        renamed = _ours(family, name)
        if renamed is None:
            raise UnsupportedModel(
                f"the {family} checkpoint holds a weight this encoder does not know: {name}"
            )
        if not renamed:
            continue
        tensor = _linear(family, name, tensor)
        if ".qkv." in renamed:  # ModernBERT, GPT-2: rows [query; key; value], each H rows
            for part, chunk in zip(("query", "key", "value"), tensor.chunk(3, dim=0), strict=True):
                ours[renamed.replace(".qkv.", f".{part}.")] = chunk
        elif "{L}" in renamed:  # ALBERT: the same tensor for every layer
            for index in range(config.num_hidden_layers):
                ours[renamed.replace("{L}", str(index))] = tensor
        else:
            ours[renamed] = tensor
    return ours


def weights_to_gpt2(config: BertConfig, weights: dict[str, Tensor]) -> dict[str, Tensor]:
    """Our decoder's state dict (BERT's names, `bert.` prefix dropped) -> GPT2Model's names
    under `transformer.`: query, key and value side by side in `c_attn`, every Conv1D weight
    transposed to (in, out). The inverse of `weights_to_ours` for the gpt2 family.

    >>> import torch
    >>> cfg = BertConfig(model_type="gpt2", causal=True, hidden_size=4, num_attention_heads=1,
    ...                  num_hidden_layers=1, intermediate_size=3)
    >>> out = weights_to_gpt2(cfg, {"encoder.layer.0.intermediate.dense.weight": torch.zeros(3, 4)})
    >>> {name: tuple(t.shape) for name, t in out.items()}
    {'transformer.h.0.mlp.c_fc.weight': (4, 3)}
    """
    where, table = LAYER_NAMES["gpt2"]
    inverse = {f"{ours}.": theirs for theirs, ours in table.items()}
    outside = {f"{ours}.": theirs for theirs, ours in OTHER_NAMES["gpt2"].items()}
    qkv: dict[str, dict[str, Tensor]] = {}
    out: dict[str, Tensor] = {}
    for name, tensor in weights.items():
        match = re.match(r"^encoder\.layer\.(\d+)\.(.+?)\.(weight|bias)$", name)
        if match:
            index, module, kind = match.groups()
            part = re.match(r"attention\.self\.(query|key|value)$", module)
            if part:  # gathered, then stacked as [query; key; value]
                qkv.setdefault(f"{index}.{kind}", {})[part.group(1)] = tensor
                continue
            theirs = inverse.get(f"{module}.")
            target = f"{where.replace('{N}', index)}{theirs}.{kind}" if theirs else None
        else:
            module, _, kind = name.rpartition(".")
            theirs = outside.get(f"{module}.")
            target = f"{theirs}.{kind}" if theirs else None
        if target is None:
            raise UnsupportedModel(f"GPT-2 has no place for the weight {name}")
        out[PREFIXES["gpt2"] + target] = _linear("gpt2", target, tensor)
    for key, parts in qkv.items():
        index, kind = key.split(".")
        stacked = torch.cat([parts["query"], parts["key"], parts["value"]], dim=0)  # (3H, ...)
        target = f"{where.replace('{N}', index)}attn.c_attn.{kind}"
        out[PREFIXES["gpt2"] + target] = _linear("gpt2", target, stacked)
    return out
