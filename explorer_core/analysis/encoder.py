"""Reading a layer trace (`explorer_core.bert.trace`): how big each update is, which neurons fire,
how tokens move layer by layer, what an MLM head reads at each layer, and what a causal mask keeps.

Every function is pure: traces or tensors in, tensors or frozen dataclasses out. Layer-by-layer
results have one row per hidden state, L + 1 rows: row 0 is the embeddings (what enters layer 1),
row l the output of layer l, and under pre-LN the last row is after the final LayerNorm (the
model's own `hidden_states`, see `EncoderTrace.hidden_states`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from explorer_core.bert.model import BertModel
from explorer_core.bert.pooling import mean_pool
from explorer_core.bert.trace import EncoderTrace, LayerTrace
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer


def token_strings(tokenizer: Tokenizer, ids: Sequence[int]) -> list[str]:
    """The vocabulary strings of `ids`; BERT's special roles by name, an unknown id as "#id"."""
    inverse = {i: s for s, i in tokenizer.vocab.items()}
    vocab = BertVocab.of(tokenizer)
    names = {vocab.cls_id: "[CLS]", vocab.sep_id: "[SEP]", vocab.pad_id: "[PAD]",
             vocab.mask_id: "[MASK]"}  # fmt: skip
    return [names.get(int(i), inverse.get(int(i), f"#{int(i)}")) for i in ids]


@dataclass(frozen=True)
class UpdateRatio:
    """How big each sub-block's update is next to the vector it is added to, per token (T,)."""

    attention: Tensor  # ‖attention_output‖ / ‖layer input‖
    ffn: Tensor  # ‖ffn_output‖ / ‖stream‖ (the attention block's result it is added to)


def update_ratio(layer: LayerTrace) -> UpdateRatio:
    """‖update‖ / ‖vector it is added to‖ for both residuals of one layer.

    Worked example: input [3, 4] (norm 5) and attention output [0, 1] (norm 1) give 1 / 5 = 0.2:
    the residual keeps most of the token and attention nudges it by a fifth of its length.
    """
    return UpdateRatio(
        attention=layer.attention_output.norm(dim=-1) / layer.input.norm(dim=-1),
        ffn=layer.ffn_output.norm(dim=-1) / layer.stream.norm(dim=-1),
    )


@dataclass(frozen=True)
class Neuron:
    """One feed-forward neuron of one token: its value before and after the activation."""

    index: int  # 0 .. intermediate_size - 1
    pre: float  # the up-projection's value
    post: float  # after GELU (or the model's activation)


def top_neurons(layer: LayerTrace, token: int, k: int = 10) -> tuple[Neuron, ...]:
    """The k most active feed-forward neurons of `token`: largest value after the activation,
    ties to the lower index (a stable sort)."""
    length, width = layer.ffn_activation.shape
    if not 0 <= token < length:
        raise ValueError(f"token must be 0 .. {length - 1}, got {token}")
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    post = layer.ffn_activation[token]  # (I,)
    order = torch.sort(post, descending=True, stable=True).indices[: min(k, width)]
    pre = layer.ffn_pre_activation[token]
    return tuple(Neuron(int(i), float(pre[i]), float(post[i])) for i in order)


@dataclass(frozen=True)
class LayerGrid:
    """Token × layer numbers: each (L + 1, T), row 0 the embeddings; `pooled` is (L + 1, H)."""

    norms: Tensor  # ‖h‖ of each token at each layer
    moved_cosine: Tensor  # 1 - cos(h_l, h_(l-1)): how far the direction turned (row 0: 0)
    moved_l2: Tensor  # ‖h_l - h_(l-1)‖ (row 0: 0)
    pooled: Tensor  # the mean over all tokens at each layer (the app's mean pooling, no padding)


def layer_grid(trace: EncoderTrace) -> LayerGrid:
    """How each token's vector grows and moves through the layers, and the pooled sentence vector.

    Worked example: a token at [1, 0] that moves to [0, 2] has norms 1, 2, turned 1 - cos 90° = 1
    and moved √5 ≈ 2.236.
    """
    states = torch.stack(trace.hidden_states())  # (L + 1, T, H)
    moved_cosine = torch.zeros(states.shape[:2])
    moved_cosine[1:] = 1 - F.cosine_similarity(states[1:], states[:-1], dim=-1)
    moved_l2 = torch.zeros(states.shape[:2])
    moved_l2[1:] = (states[1:] - states[:-1]).norm(dim=-1)
    return LayerGrid(
        norms=states.norm(dim=-1),
        moved_cosine=moved_cosine,
        moved_l2=moved_l2,
        pooled=states.mean(dim=1),  # every token counts: a trace holds no padding
    )


@torch.no_grad()
def hidden_states(
    model: BertModel, tokenizer: Tokenizer, texts: Sequence[str]
) -> tuple[Tensor, Tensor, Tensor]:
    """(states (L + 1, B, T, H), input_ids (B, T), attention_mask (B, T)) of `[CLS] text [SEP]`
    rows, padded and run in one batch (cut at the model's maximum length)."""
    limit = model.config.max_tokens  # RoBERTa: 2 fewer than its table
    rows = BertVocab.of(tokenizer).encode(tokenizer, list(texts), max_length=limit)
    out = model(rows.input_ids, rows.attention_mask, output_hidden_states=True)
    return torch.stack(out.hidden_states), rows.input_ids, rows.attention_mask


def layer_cosines(model: BertModel, tokenizer: Tokenizer, text_a: str, text_b: str) -> Tensor:
    """(L + 1,): the cosine of two texts' mean-pooled vectors at every layer (0: embeddings).

    On MiniLM + 中文 an English sentence and its Chinese translation share no token, so their
    embeddings differ; where the curve rises is where the two languages meet.
    """
    states, _, mask = hidden_states(model, tokenizer, [text_a, text_b])
    pooled = torch.stack([mean_pool(layer, mask) for layer in states])  # (L + 1, 2, H)
    return F.cosine_similarity(pooled[:, 0], pooled[:, 1], dim=-1)


@torch.no_grad()
def edit_effect(model: BertModel, ids_a: Tensor, ids_b: Tensor, causal: bool = False) -> Tensor:
    """(L + 1, T): ‖h_b - h_a‖ of every token at every layer (0: embeddings), two sentences of
    the same length (T,) that differ where a word was edited.

    With `causal=True` (a decoder's mask) every token before the first edit sees only tokens that
    did not change, so its rows are exactly 0.0 in every layer; with BERT's mask every token sees
    the edit from layer 1 on. An edit that changes the number of tokens raises ValueError: a
    shifted sentence would compare different words position by position.
    """
    a, b = ids_a.reshape(-1), ids_b.reshape(-1)
    if a.shape != b.shape:
        raise ValueError(
            f"the edit changed the number of tokens ({a.numel()} -> {b.numel()}): choose a "
            "replacement with as many tokens, so positions still line up"
        )
    # subtle: the explicit attention path (output_attentions) multiplies a blocked key's value by
    # a weight of exactly 0, so unchanged tokens come out bit for bit the same
    runs = [model(x[None], output_hidden_states=True, output_attentions=True, causal=causal)
            for x in (a, b)]  # fmt: skip
    states = [torch.stack(run.hidden_states)[:, 0] for run in runs]  # (L + 1, T, H) each
    return (states[1] - states[0]).norm(dim=-1)


@dataclass(frozen=True)
class LogitLens:
    """The MLM head's top words for every token at every layer (a logit lens)."""

    ids: Tensor  # (L + 1, T, k) vocabulary ids, most probable first
    probs: Tensor  # (L + 1, T, k) their softmax probabilities
    words: tuple[tuple[tuple[str, ...], ...], ...] | None  # [layer][token][rank], with a tokenizer


@torch.no_grad()
def logit_lens(
    model: nn.Module, trace: EncoderTrace, k: int = 5, tokenizer: Tokenizer | None = None
) -> LogitLens:
    """Apply a masked-language-model head to every layer's states: what would the model predict
    if it stopped here? (A "logit lens": the head was trained on the last layer only, so early
    rows are the head reading states it never saw in training.)

    `model` is a `BertForPreTraining` (one pre-trained here) whose encoder made `trace`. Under
    pre-LN the states before the last go through the final LayerNorm first, as the head expects.
    """
    head = getattr(getattr(model, "cls", None), "predictions", None)
    if head is None:
        raise ValueError(
            "this model has no masked-language-model head (MiniLM was published without one): "
            "the logit lens needs a model pre-trained here"
        )
    states = torch.stack(trace.hidden_states())  # (L + 1, T, H)
    final = model.bert.encoder.LayerNorm
    if final is not None:
        states = torch.cat([final(states[:-1]), states[-1:]])
    probs = head(states).softmax(dim=-1)  # (L + 1, T, V)
    top = probs.topk(min(k, probs.shape[-1]), dim=-1)
    words = None
    if tokenizer is not None:
        words = tuple(tuple(tuple(token_strings(tokenizer, row)) for row in layer)
                      for layer in top.indices.tolist())  # fmt: skip
    return LogitLens(ids=top.indices, probs=top.values, words=words)
