"""Tiny random models of every family, built by transformers and saved with `save_pretrained`, and
the hook helpers that read each family's layer intermediates (for tests/test_families*.py).

Sizes are odd on purpose (vocab 99, hidden 32 or 48, 4 heads, intermediate 37) so a shape mix-up
fails; every LayerNorm weight and bias is randomised after init, so a missed norm cannot hide
behind ones and zeros.
"""

from __future__ import annotations

from pathlib import Path

import torch
import transformers
from torch import nn

from explorer_core.bert.families import FAMILIES

SIZES = dict(vocab_size=99, num_attention_heads=4, intermediate_size=37)
BERT_SIZES = dict(SIZES, hidden_size=32, num_hidden_layers=2)
LENGTH = 11  # long enough for ModernBERT's window (local_attention 4: |i - j| <= 2) to matter


def hf_config(family: str) -> transformers.PretrainedConfig:
    """A tiny transformers config of `family` (see the module docstring for the sizes)."""
    if family == "bert":
        return transformers.BertConfig(**BERT_SIZES, hidden_act="gelu")
    if family == "roberta":
        return transformers.RobertaConfig(
            **BERT_SIZES, pad_token_id=1, bos_token_id=0, eos_token_id=2,
            max_position_embeddings=40, type_vocab_size=1,
        )  # fmt: skip
    if family == "xlm-roberta":
        return transformers.XLMRobertaConfig(
            **{**BERT_SIZES, "hidden_size": 48, "num_hidden_layers": 3}, pad_token_id=1,
            bos_token_id=0, eos_token_id=2, max_position_embeddings=40, type_vocab_size=1,
        )  # fmt: skip
    if family == "distilbert":
        return transformers.DistilBertConfig(
            vocab_size=99, dim=32, n_layers=2, n_heads=4, hidden_dim=37, pad_token_id=0
        )
    if family == "albert":
        return transformers.AlbertConfig(
            **{**BERT_SIZES, "num_hidden_layers": 3}, embedding_size=16
        )
    if family == "electra":
        return transformers.ElectraConfig(**BERT_SIZES, embedding_size=24)
    assert family == "modernbert"
    return transformers.ModernBertConfig(
        **SIZES, hidden_size=48, num_hidden_layers=3, local_attention=4,
        global_attn_every_n_layers=2, global_rope_theta=160000.0, local_rope_theta=10000.0,
        pad_token_id=0, cls_token_id=1, sep_token_id=2, bos_token_id=1, eos_token_id=2,
    )  # fmt: skip


@torch.no_grad()
def randomise_norms(model: nn.Module, seed: int) -> None:
    """Every LayerNorm's weight in [0.5, 1.5) and bias ~ N(0, 0.3): no norm hides behind 1 and 0."""
    generator = torch.Generator().manual_seed(seed)
    for module in model.modules():
        if isinstance(module, nn.LayerNorm):
            module.weight.copy_(0.5 + torch.rand(module.weight.shape, generator=generator))
            if module.bias is not None:
                module.bias.copy_(0.3 * torch.randn(module.bias.shape, generator=generator))


def save_tiny(family: str, folder: Path, model_class: type | None = None, seed: int = 0) -> Path:
    """Build the tiny `family` model (AutoModel, or `model_class`), randomise its norms, save it."""
    torch.manual_seed(seed)
    config = hf_config(family)
    model = model_class(config) if model_class else transformers.AutoModel.from_config(config)
    randomise_norms(model, seed)
    model.save_pretrained(folder)
    return folder


def theirs(folder: Path) -> nn.Module:
    """transformers' own model of the folder, eager attention (so it returns the weights), eval."""
    return transformers.AutoModel.from_pretrained(folder, attn_implementation="eager").eval()


def padded_batch(pad: int, segments: bool, seed: int = 0) -> dict[str, torch.Tensor]:
    """3 rows of LENGTH: one full, one padded from 8, one from 5 (pads are the pad id)."""
    generator = torch.Generator().manual_seed(seed)
    ids = torch.randint(3, 99, (3, LENGTH), generator=generator)
    mask = torch.ones_like(ids)
    mask[1, 8:], mask[2, 5:] = 0, 0
    ids[mask == 0] = pad
    batch = {"input_ids": ids, "attention_mask": mask}
    if segments:
        types = torch.zeros_like(ids)
        types[:, 6:] = 1
        batch["token_type_ids"] = types * mask
    return batch


# per family: where its layers live, and trace field -> (sub-module of a layer, "in" | "out")
BERT_POINTS = {
    "input": ("", "in"),
    "concat": ("attention.self", "out"),  # the heads' contexts, concatenated (before W_O)
    "attention_output": ("attention.output.dense", "out"),  # after W_O, before the residual
    "attention_norm": ("attention.output", "out"),  # after the residual and LayerNorm
    "ffn_pre_activation": ("intermediate.dense", "out"),
    "ffn_activation": ("intermediate", "out"),
    "ffn_output": ("output.dense", "out"),
    "output": ("", "out"),
}
POINTS = {
    **dict.fromkeys(("bert", "roberta", "xlm-roberta", "electra"), BERT_POINTS),
    "distilbert": {
        "input": ("", "in"),
        "concat": ("attention.out_lin", "in"),
        "attention_output": ("attention.out_lin", "out"),
        "attention_norm": ("sa_layer_norm", "out"),
        "ffn_pre_activation": ("ffn.lin1", "out"),
        "ffn_activation": ("ffn.activation", "out"),
        "ffn_output": ("ffn.lin2", "out"),
        "output": ("", "out"),
    },
    "albert": {
        "input": ("", "in"),
        "concat": ("attention.dense", "in"),
        "attention_output": ("attention.dense", "out"),
        "attention_norm": ("attention.LayerNorm", "out"),
        "ffn_pre_activation": ("ffn", "out"),
        "ffn_activation": ("activation", "out"),
        "ffn_output": ("ffn_output", "out"),
        "output": ("", "out"),
    },
    "modernbert": {
        "input": ("", "in"),
        "attention_input": ("attn_norm", "out"),  # an Identity in layer 0
        "concat": ("attn.Wo", "in"),
        "attention_output": ("attn.Wo", "out"),
        "ffn_input": ("mlp_norm", "out"),
        "up_and_gate": ("mlp.Wi", "out"),  # (T, 2I): the input half, then the gate half
        "ffn_activation": ("mlp.act", "out"),
        "ffn_hidden": ("mlp.Wo", "in"),  # act(input) * gate
        "ffn_output": ("mlp.Wo", "out"),
        "output": ("", "out"),
    },
}
assert set(POINTS) == set(FAMILIES)


def hf_layers(model: nn.Module, family: str) -> list[nn.Module]:
    """The family's distinct layer modules, in order (ALBERT: its one shared layer)."""
    if family == "distilbert":
        return list(model.transformer.layer)
    if family == "albert":
        return [model.encoder.albert_layer_groups[0].albert_layers[0]]
    if family == "modernbert":
        return list(model.layers)
    return list(model.encoder.layer)


def hf_intermediates(model: nn.Module, family: str, **inputs) -> list[dict[str, torch.Tensor]]:
    """Run transformers' model once with forward hooks: per layer application {field: (T, width)}
    of the first row, plus "attention_weights" (heads, T, T) from output_attentions."""
    calls: dict[str, list[torch.Tensor]] = {field: [] for field in POINTS[family]}
    handles = []
    for layer in hf_layers(model, family):
        for field, (path, side) in POINTS[family].items():
            module = layer.get_submodule(path)

            def keep(_module, args, out, field=field, side=side) -> None:
                value = args[0] if side == "in" else out
                calls[field].append((value[0] if isinstance(value, tuple) else value)[0])

            handles.append(module.register_forward_hook(keep))
    try:
        with torch.no_grad():
            out = model(**inputs, output_attentions=True)
    finally:
        for handle in handles:
            handle.remove()
    layers = [
        {field: values[i] for field, values in calls.items()} for i in range(len(out.attentions))
    ]
    for index, weights in enumerate(out.attentions):
        layers[index]["attention_weights"] = weights[0]
    return layers
