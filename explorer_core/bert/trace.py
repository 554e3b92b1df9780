"""Inside the encoder: every intermediate of every layer for one sentence, from the model's own
modules (the same numbers its forward computes).

One post-LN layer (BERT, MiniLM), with x its input (T, H):

    a   = concat_h(softmax(Q_h K_hᵀ / √d + mask) V_h) W_O + b_O      # attention_output
    r1  = x + a                                                       # attention_residual
    s   = LN1(r1) = γ1 ⊙ (r1 - mean(r1)) / std(r1) + β1                # attention_norm
    f   = GELU(s W_1 + b_1) W_2 + b_2                                 # ffn_output
    out = LN2(s + f)                                                  # output

A pre-LN layer (GPT-2, the tutorial preset) normalises each sub-block's *input* instead, and adds
the sub-block's result to the un-normalised stream:

    r1  = x + Attention(LN1(x));   out = r1 + FFN(LN2(r1))

so there `ln1.before` is the layer input x, `ln2.before` is r1, and `attention_norm` is r1 (the
stream after the first residual: nothing normalises it on the main path). The encoder of a pre-LN
model ends with one more LayerNorm (`EncoderTrace.final_norm`).

`std` is the one LayerNorm divides by: sqrt(var + eps), var the biased variance over the hidden
dimension. Tensors are float32 on the CPU with the batch dimension dropped.

Against `BertModel(..., output_hidden_states=True).hidden_states`: `layers[l].output` equals
`hidden_states[l + 1]` for every layer of a post-LN model. Under pre-LN the model's last entry is
the *final LayerNorm's* output (as GPT-2 reports it), so there `hidden_states[L]` equals
`final_norm` and `layers[L - 1].output` is the stream before it. `EncoderTrace.hidden_states()`
gives the model's tuple in both cases (ModernBERT reports its final_norm the same way).

Every family switch shows in the trace: a layer without LN1 (ModernBERT's layer 0) has
`ln1.identity` (its `after` is its `before`); a GeGLU layer (`ffn_kind == "geglu"`) records both
halves of its 2I-wide up-projection, `ffn_pre_activation` (the input half) and `ffn_gate`, with
`ffn_activation = act(input half)` and `ffn_hidden = ffn_activation ⊙ ffn_gate`, what W_2 reads;
a local layer has its `window` and `allowed_keys`; a rotary layer its `rope_base`. With narrow
embeddings (ALBERT, ELECTRA) `EncoderTrace.embeddings` is what enters layer 1, after the E -> H
projection, and `embedding_sum` / `embedding_norm` are the E-wide vectors before it. ALBERT's
shared layer is traced once per application: L traces, one set of weights.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from explorer_core.bert.attention import allowed_keys, layer_mask
from explorer_core.bert.model import BertLayer, BertModel


@dataclass(frozen=True)
class NormStats:
    """One LayerNorm at work: y = gamma ⊙ (x - mean) / std + beta, per token."""

    mean: Tensor  # (T,) mean of each token's vector
    std: Tensor  # (T,) sqrt(biased variance + eps): what LayerNorm divides by
    gamma: Tensor  # (H,) the learned scale (LayerNorm.weight)
    beta: Tensor  # (H,) the learned shift (LayerNorm.bias)
    before: Tensor  # (T, H) the LayerNorm's input
    after: Tensor  # (T, H) its output
    identity: bool = False  # True: no LayerNorm here (ModernBERT's layer 0): after is before


@dataclass(frozen=True)
class LayerTrace:
    """Every intermediate of one layer for one sentence (see the module docstring for the order)."""

    layer: int  # 0-based
    pre_norm: bool  # True: x + sublayer(LN(x)); False (BERT): LN(x + sublayer(x))
    input: Tensor  # (T, H) the layer's input
    attention_weights: Tensor  # (heads, T, T) softmax over keys, rows sum to 1
    values: Tensor  # (heads, T, d) each head's value vectors (x W_V + b_V)
    head_contexts: Tensor  # (heads, T, d) weights @ V per head
    concat: Tensor  # (T, H) the heads' contexts side by side
    attention_output: Tensor  # (T, H) concat @ W_O + b_O, before the residual
    attention_residual: Tensor  # (T, H) input + attention_output
    attention_norm: Tensor  # (T, H) post-LN: LN1(attention_residual); pre-LN: attention_residual
    ln1: NormStats  # post-LN: LN1 over attention_residual; pre-LN: LN1 over the layer input
    ffn_pre_activation: Tensor  # (T, I) the up-projection s W_1 + b_1
    ffn_activation: Tensor  # (T, I) after the activation (GELU; ReLU in the tutorial preset)
    ffn_output: Tensor  # (T, H) the down-projection, before the residual
    ffn_residual: Tensor  # (T, H) attention_norm + ffn_output
    ln2: NormStats  # post-LN: LN2 over ffn_residual; pre-LN: LN2 over attention_residual
    output: Tensor  # (T, H) the layer's output (= the next layer's input)
    attention_input: Tensor  # (T, H) what the self-attention reads: input, or LN1(input) (pre-LN)
    ffn_input: Tensor  # (T, H) what the feed-forward block reads: attention_norm, or LN2(r1)
    queries: Tensor  # (heads, T, d) after rotary positions, if any
    keys: Tensor  # (heads, T, d)
    ffn_kind: str = "mlp"  # "mlp": act(s W_1) W_2; "geglu": (act(s W_in) ⊙ s W_gate) W_2
    ffn_gate: Tensor | None = None  # (T, I) GeGLU's gate half of the up-projection; MLP: None
    ffn_hidden: Tensor | None = None  # (T, I) what W_2 reads: ffn_activation (⊙ ffn_gate)
    window: int | None = None  # local layer: keys with |i - j| <= window; None: every key
    allowed_keys: Tensor | None = None  # (T, T) bool: which keys each query could see
    rope_base: float | None = None  # the rotary base of this layer; None without rotary

    @property
    def stream(self) -> Tensor:
        """(T, H) the vector the feed-forward output is added to (attention_norm in both orders)."""
        return self.attention_norm


@dataclass(frozen=True)
class EncoderTrace:
    """One sentence through the whole encoder: embeddings, every layer, the final norm (pre-LN)."""

    tokens_ids: Tensor  # (T,)
    embeddings: Tensor  # (T, H) what enters layer 0 (after LayerNorm and any E -> H projection)
    layers: tuple[LayerTrace, ...]
    final_norm: Tensor | None  # pre-LN: the final LayerNorm's output (T, H); post-LN: None
    causal: bool  # True: each token attended only to itself and the tokens before it
    embedding_sum: Tensor | None = None  # (T, E) token + segment + position, before LayerNorm
    embedding_norm: Tensor | None = None  # (T, E) after the LayerNorm, before the projection
    position_ids: Tensor | None = None  # (T,) the positions used (RoBERTa: from pad + 1)
    model_type: str = "bert"  # the family (bert/families.py), to name its order and switches

    def hidden_states(self) -> tuple[Tensor, ...]:
        """The model's `hidden_states`: embeddings, then each layer's output; under pre-LN the
        last entry is the final LayerNorm's output (L + 1 tensors of (T, H))."""
        states = [self.embeddings, *(layer.output for layer in self.layers)]
        if self.final_norm is not None:
            states[-1] = self.final_norm
        return tuple(states)


def norm_stats(norm: nn.LayerNorm | None, x: Tensor) -> NormStats:
    """The statistics of `norm` applied to x (T, H); `after` is the module's own output.

    Without a LayerNorm (None) the step is the identity: gamma 1, beta 0, `after` is x.

    >>> ln = nn.LayerNorm(2, eps=0.0)
    >>> s = norm_stats(ln, torch.tensor([[1.0, 3.0]]))
    >>> s.mean.tolist(), s.std.tolist(), s.after.tolist()
    ([2.0], [1.0], [[-1.0, 1.0]])
    """
    mean = x.mean(dim=-1)  # (T,)
    var = x.var(dim=-1, unbiased=False)  # (T,) subtle: LayerNorm uses the biased variance
    if norm is None:
        ones = x.new_ones(x.shape[-1])
        return NormStats(mean, torch.sqrt(var), ones, ones * 0, x, x, identity=True)
    gamma = norm.weight.detach()
    return NormStats(
        mean=mean,
        std=torch.sqrt(var + norm.eps),
        gamma=gamma,
        beta=norm.bias.detach() if norm.bias is not None else torch.zeros_like(gamma),  # no bias
        before=x,
        after=norm(x),
    )


def feed_forward(layer: BertLayer, x: Tensor) -> dict[str, Tensor | None]:
    """The feed-forward block's inside for x (T, H): up, gate (GeGLU), activation, hidden, down."""
    up = layer.intermediate.dense(x)  # (T, I), or (T, 2I) for GeGLU
    gate = None
    if layer.intermediate.gated:
        up, gate = up.chunk(2, dim=-1)  # (T, I) each: the input half, then the gate half
    act = layer.intermediate.intermediate_act_fn(up)  # (T, I)
    hidden = act if gate is None else act * gate  # (T, I): what the down-projection reads
    return {
        "up": up,
        "gate": gate,
        "act": act,
        "hidden": hidden,
        "down": layer.output.dense(hidden),
    }


def trace_layer(
    layer: BertLayer,
    index: int,
    x: Tensor,
    mask: Tensor | None = None,
    position_ids: Tensor | None = None,
) -> LayerTrace:
    """One layer on one sentence: x (T, H), mask this layer's additive (1, 1, T|1, T) or None
    (`attention.layer_mask`: padding, causal, and a local layer's window)."""
    attention, pre = layer.attention, layer.attention.output.pre_norm
    length, hidden = x.shape
    # 1) the attention block's input (pre-LN: normalised first)
    ln1 = norm_stats(attention.output.LayerNorm, x) if pre else None
    attn_in = ln1.after if pre else x  # (T, H)
    # 2) project, score, mask, softmax, mix the values: the explicit path of BertSelfAttention
    q, k, v = attention.self.project(attn_in[None], position_ids)  # (1, heads, T, d) each
    scores = attention.self.raw_scores(q, k)  # (1, heads, T, T)
    if mask is not None:
        scores = scores + mask
    weights = scores.softmax(dim=-1)  # (1, heads, T, T)
    contexts = torch.matmul(weights, v)  # (1, heads, T, d)
    concat = contexts.transpose(1, 2).reshape(length, hidden)  # (T, H)
    # 3) the output projection W_O, then the first residual (and LN1 under post-LN)
    attn_out = attention.output.dense(concat)  # (T, H)
    residual1 = x + attn_out  # (T, H)
    if not pre:
        ln1 = norm_stats(attention.output.LayerNorm, residual1)
    stream = residual1 if pre else ln1.after  # (T, H)
    # 4) the feed-forward block: up-projection, activation (and gate), down-projection
    ln2_pre = norm_stats(layer.output.LayerNorm, stream) if pre else None
    ffn_in = ln2_pre.after if pre else stream  # (T, H)
    ffn = feed_forward(layer, ffn_in)
    down = ffn["down"]  # (T, H)
    # 5) the second residual (and LN2 under post-LN)
    residual2 = stream + down  # (T, H)
    ln2 = ln2_pre if pre else norm_stats(layer.output.LayerNorm, residual2)
    allowed = torch.ones(length, length, dtype=torch.bool) if mask is None else mask[0, 0] == 0
    return LayerTrace(
        layer=index,
        pre_norm=pre,
        input=x,
        attention_weights=weights[0],
        values=v[0],
        head_contexts=contexts[0],
        concat=concat,
        attention_output=attn_out,
        attention_residual=residual1,
        attention_norm=stream,
        ln1=ln1,
        ffn_pre_activation=ffn["up"],
        ffn_activation=ffn["act"],
        ffn_output=down,
        ffn_residual=residual2,
        ln2=ln2,
        output=residual2 if pre else ln2.after,
        attention_input=attn_in,
        ffn_input=ffn_in,
        queries=q[0],
        keys=k[0],
        ffn_kind="geglu" if ffn["gate"] is not None else "mlp",
        ffn_gate=ffn["gate"],
        ffn_hidden=ffn["hidden"],
        window=layer.window,
        allowed_keys=allowed.expand(length, length),
        rope_base=attention.self.rope_base,
    )


@torch.no_grad()
def trace_encoder(
    model: BertModel,
    input_ids: Tensor,
    *,
    token_type_ids: Tensor | None = None,
    causal: bool | None = None,
) -> EncoderTrace:
    """Run one sentence (T,) or (1, T) through `model`, keeping every intermediate.

    `causal=True` runs the same weights under a decoder's mask (each token sees only itself and
    the tokens before it); None: the model's own (`config.causal`, True for GPT-2). Dropout is
    never applied: the trace is the eval-mode computation, what the model's forward gives in eval
    mode.
    """
    ids = input_ids[None] if input_ids.dim() == 1 else input_ids
    if ids.dim() != 2 or ids.shape[0] != 1:
        raise ValueError(f"trace one sentence: input_ids (T,) or (1, T), got {tuple(ids.shape)}")
    types = None
    if token_type_ids is not None:
        types = token_type_ids[None] if token_type_ids.dim() == 1 else token_type_ids
    model._check(ids, None)  # empty or too long: the model's own readable errors
    parts = model.embeddings.components(ids, types)  # (1, T, E) each; "projected" (1, T, H)
    x = parts.get("projected", parts["output"])[0].float()  # (T, H): what enters layer 1
    length = ids.shape[1]
    causal = model.config.causal if causal is None else causal
    allowed = allowed_keys(None, length, causal=causal)
    layers, state = [], x
    for index, layer in enumerate(model.encoder.layer):
        mask = layer_mask(allowed, length, layer.window, x.dtype)  # per layer: windows differ
        traced = trace_layer(layer, index, state, mask)
        layers.append(traced)
        state = traced.output
    final = model.encoder.LayerNorm
    return EncoderTrace(
        tokens_ids=ids[0],
        embeddings=x,
        layers=tuple(layers),
        final_norm=final(state) if final is not None else None,
        causal=causal,
        embedding_sum=parts["sum"][0],
        embedding_norm=parts["output"][0],
        position_ids=model.embeddings.position_ids(ids)[0],
        model_type=model.config.model_type,
    )
