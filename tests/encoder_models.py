"""Models for the encoder-trace tests: a small BERT pre-trained here (MLM + NSP, a few steps of the
project's own `pretrain`), post-LN or pre-LN, with its tokenizer, built once per test run, and the
hook helpers that read every intermediate out of transformers' BertLayer and torch's
nn.TransformerEncoderLayer."""

from __future__ import annotations

from functools import lru_cache

import torch
from torch import nn

ENGLISH = ["The cat sat on the mat because it was tired.", "I deposited money at the bank."]


@lru_cache(maxsize=2)
def pretrained_here(norm: str = "post"):
    """(BertForPreTraining, tokenizer): hidden 32, 2 layers, 4 heads, FFN 37, 20 MLM + NSP steps
    on the built-in English prose (about 2 s). `norm="pre"` takes the tutorial preset's choices
    (pre-LN, ReLU, sinusoidal positions added to the embeddings, no segments) at that size."""
    from dataclasses import replace

    from explorer_core.bert.heads import BertForPreTraining
    from explorer_core.inputs.datasets import builtin_corpus
    from explorer_core.inputs.vocab import BertVocab
    from explorer_core.tokenization import new_tokenizer
    from explorer_core.training.presets import TINY, TUTORIAL
    from explorer_core.training.pretrain import PretrainConfig, pretrain

    corpus = builtin_corpus("en")
    tokenizer = new_tokenizer("wordpiece")
    tokenizer.train(corpus, 600)
    vocab = BertVocab.of(tokenizer)
    preset = replace(TUTORIAL if norm == "pre" else TINY, hidden_size=32, num_hidden_layers=2,
                     num_attention_heads=4, intermediate_size=37,
                     max_position_embeddings=48)  # fmt: skip
    model = BertForPreTraining(preset.config(vocab.size, vocab.pad_id), seed=0)
    config = PretrainConfig(steps=20, batch_size=8, max_length=32, eval_every=0, seed=0)
    pretrain(model, tokenizer, corpus, config)
    return model.eval(), tokenizer


HF_POINTS = {  # trace field <- what transformers' BertLayer sub-module returns
    "concat": "attention.self",  # the heads' contexts, concatenated (before W_O)
    "attention_output": "attention.output.dense",  # after W_O, before dropout and residual
    "attention_norm": "attention.output",  # after the residual and LayerNorm
    "ffn_pre_activation": "intermediate.dense",
    "ffn_activation": "intermediate",  # after GELU
    "ffn_output": "output.dense",  # before the residual
    "output": "",  # the layer itself
}


def hf_intermediates(model: nn.Module, **inputs) -> list[dict[str, torch.Tensor]]:
    """Run a transformers BertModel once with forward hooks; per layer {trace field: (T, width)}
    of the first sentence, plus "attention_weights" (heads, T, T)."""
    captured: list[dict[str, torch.Tensor]] = [{} for _ in model.encoder.layer]
    handles = []
    for index, layer in enumerate(model.encoder.layer):
        for field, path in HF_POINTS.items():
            module = layer.get_submodule(path)

            def keep(_module, _args, out, index=index, field=field) -> None:
                captured[index][field] = (out[0] if isinstance(out, tuple) else out)[0]

            handles.append(module.register_forward_hook(keep))
    try:
        with torch.no_grad():
            out = model(**inputs, output_attentions=True)
    finally:
        for handle in handles:
            handle.remove()
    for index, weights in enumerate(out.attentions):
        captured[index]["attention_weights"] = weights[0]
    return captured


def torch_reference(layer: nn.Module, pre_norm: bool, activation: nn.Module) -> nn.Module:
    """nn.TransformerEncoderLayer holding the weights of one of our BertLayers (eval mode)."""
    attention, hidden = layer.attention, layer.attention.output.dense.out_features
    ref = nn.TransformerEncoderLayer(
        hidden, attention.self.num_attention_heads,
        dim_feedforward=layer.intermediate.dense.out_features, dropout=0.0,
        activation=activation, layer_norm_eps=attention.output.LayerNorm.eps,
        batch_first=True, norm_first=pre_norm,
    )  # fmt: skip
    qkv = (attention.self.query, attention.self.key, attention.self.value)
    with torch.no_grad():
        ref.self_attn.in_proj_weight.copy_(torch.cat([p.weight for p in qkv]))
        ref.self_attn.in_proj_bias.copy_(torch.cat([p.bias for p in qkv]))
        pairs = (
            (ref.self_attn.out_proj, attention.output.dense),
            (ref.linear1, layer.intermediate.dense),
            (ref.linear2, layer.output.dense),
            (ref.norm1, attention.output.LayerNorm),
            (ref.norm2, layer.output.LayerNorm),
        )
        for theirs, ours in pairs:
            theirs.weight.copy_(ours.weight)
            theirs.bias.copy_(ours.bias)
    return ref.eval()


def torch_intermediates(ref: nn.Module, x: torch.Tensor, mask: torch.Tensor | None = None):
    """{name: (T, width)} from hooks on nn.TransformerEncoderLayer's sub-modules, x (T, H).

    Keys: "norm1.in", "norm1.out", "norm2.in", "norm2.out", "attention_output" (self_attn, W_O
    included), "linear1", "activation", "linear2", "output", and "attention_weights" (heads, T, T)
    from its MultiheadAttention called again on what it read. `mask` is a boolean (T, T), True
    where attention is *not* allowed (torch's convention).
    """
    got: dict[str, torch.Tensor] = {}
    points = {"norm1": ref.norm1, "norm2": ref.norm2, "attention_output": ref.self_attn,
              "linear1": ref.linear1, "activation": ref.activation, "linear2": ref.linear2,
              "output": ref}  # fmt: skip
    handles = []
    for name, module in points.items():

        def keep(_module, args, out, name=name) -> None:
            got[f"{name}.in"] = args[0][0]
            got[name if name not in ("norm1", "norm2") else f"{name}.out"] = (
                out[0] if isinstance(out, tuple) else out
            )[0]

        handles.append(module.register_forward_hook(keep))
    try:
        # subtle: with gradients off torch takes a fused "fast path" that skips the sub-modules
        # (and so the hooks); with them on it runs the plain Python path we hook.
        with torch.enable_grad():
            ref(x[None], src_mask=mask)
    finally:
        for handle in handles:
            handle.remove()
    with torch.no_grad():
        read = got["attention_output.in"][None]
        _, weights = ref.self_attn(read, read, read, attn_mask=mask, average_attn_weights=False)
    got["attention_weights"] = weights[0]
    return {name: value.detach() for name, value in got.items()}
