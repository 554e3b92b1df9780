"""Self-attention as BERT computes it, with every intermediate a page can show.

For one head with queries Q, keys K and values V (each (T, d)):

    scores  = Q Kᵀ / √d  (+ the relative-position bias)  + mask      # (T, T)
    weights = softmax(scores) along each row (over the keys)         # rows sum to 1
    context = weights V                                              # (T, d)

The mask is additive: 0 where a query may look at a key, a huge negative number where it may not
(a padded key, or a future key under the causal mask), so that key's weight becomes exactly 0.
Module and parameter names are transformers' (`attention.self.query`, `attention.output.dense`,
...), so a transformers BERT state dict loads as it is.

A local layer (ModernBERT) also blocks every key farther than its window (`masks.window_keys`;
the caller passes each layer its own mask, `masks.layer_mask`, so both paths below see it).

Two paths give the same numbers (within 1e-5): the explicit one below, which returns the weights
and the masked pre-softmax scores, and `F.scaled_dot_product_attention` (one fused kernel, much
less memory) when neither is asked for.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import torch
import torch.nn.functional as F
from torch import Tensor, nn

from explorer_core.bert.config import BertConfig
from explorer_core.bert.masks import additive_mask, allowed_keys, layer_mask, window_keys
from explorer_core.bert.positional import RelativePositionBias, RotaryPositionEmbedding

__all__ = [  # the masks live in bert/masks.py; imported from here too, as before
    "AttentionOutput", "BertAttention", "BertSelfAttention", "BertSelfOutput", "CellArithmetic",
    "ResidualOutput", "additive_mask", "allowed_keys", "cell_arithmetic", "layer_mask",
    "window_keys",
]  # fmt: skip


@dataclass
class AttentionOutput:
    """What one attention block returns: its output and, when asked, its weights and scores."""

    output: Tensor  # (B, T, H): the context (self-attention) or the block's output (BertAttention)
    weights: Tensor | None = None  # (B, heads, T, T): softmax over keys, rows sum to 1
    scores: Tensor | None = None  # (B, heads, T, T): pre-softmax, scaled, bias and mask added


class BertSelfAttention(nn.Module):
    """Multi-head scaled dot-product self-attention (transformers' `attention.self`).

    `layer_index` picks the layer's window and rotary base (ModernBERT's local and global layers);
    `window` is None when every key is seen, else the farthest key distance the mask lets through.
    """

    def __init__(self, config: BertConfig, layer_index: int = 0) -> None:
        super().__init__()
        self.num_attention_heads = config.num_attention_heads
        self.attention_head_size = config.head_dim
        self.all_head_size = config.hidden_size
        self.scaling = self.attention_head_size**-0.5  # 1/√d keeps the scores' spread near 1
        hidden, bias = config.hidden_size, config.attention_bias
        self.query = nn.Linear(hidden, self.all_head_size, bias=bias)
        self.key = nn.Linear(hidden, self.all_head_size, bias=bias)
        self.value = nn.Linear(hidden, self.all_head_size, bias=bias)
        self.dropout = nn.Dropout(config.attention_probs_dropout_prob)
        self.position_embedding_type = config.position_embedding_type
        self.window = config.layer_window(layer_index)
        self.rope_base = None
        if config.position_embedding_type == "relative":
            self.relative_bias = RelativePositionBias(config.head_dim, config.relative_clip)
        if config.position_embedding_type == "rotary":
            self.rope_base = config.layer_rope_base(layer_index)
            self.rotary = RotaryPositionEmbedding(config.head_dim, self.rope_base)

    def _heads(self, x: Tensor) -> Tensor:
        batch, length, _ = x.shape  # (B, T, H) -> (B, heads, T, d)
        return x.view(batch, length, self.num_attention_heads, -1).transpose(1, 2)

    def project(
        self, hidden_states: Tensor, position_ids: Tensor | None = None
    ) -> tuple[Tensor, Tensor, Tensor]:
        """Queries, keys and values per head, each (B, heads, T, d); rotary positions applied."""
        q = self._heads(self.query(hidden_states))  # (B, heads, T, d)
        k = self._heads(self.key(hidden_states))  # (B, heads, T, d)
        v = self._heads(self.value(hidden_states))  # (B, heads, T, d)
        if self.position_embedding_type == "rotary":
            q, k = self.rotary(q, k, position_ids)
        return q, k, v

    def raw_scores(self, q: Tensor, k: Tensor) -> Tensor:
        """(q·k + relative bias) / √d for every query and key, before the mask: (B, heads, T, T)."""
        scores = torch.matmul(q, k.transpose(-1, -2))  # (B, heads, T, T)
        if self.position_embedding_type == "relative":
            scores = scores + self.relative_bias(q)  # q_i · r_(j-i), scaled together with q·k
        return scores * self.scaling

    def forward(
        self,
        hidden_states: Tensor,
        attention_mask: Tensor | None = None,
        position_ids: Tensor | None = None,
        output_attentions: bool = False,
        output_scores: bool = False,
    ) -> AttentionOutput:
        """hidden_states (B, T, H), additive mask (B, 1, T|1, T) -> context (B, T, H)."""
        batch, length, _ = hidden_states.shape
        # 1) project: one query, key and value vector per token and head
        q, k, v = self.project(hidden_states, position_ids)  # (B, heads, T, d) each
        dropout = self.dropout.p if self.training else 0.0
        if not (output_attentions or output_scores):
            context = self._fused(q, k, v, attention_mask, dropout)  # (B, heads, T, d)
            return AttentionOutput(self._merge(context, batch, length))
        # 2) scores: how well each query matches each key
        scores = self.raw_scores(q, k)  # (B, heads, T, T)
        # 3) mask: padded (and, if causal, future) keys get the most negative number
        if attention_mask is not None:
            scores = scores + attention_mask
        # 4) softmax over the keys: each row becomes weights that sum to 1
        weights = scores.softmax(dim=-1)  # (B, heads, T, T)
        context = torch.matmul(self.dropout(weights), v)  # (B, heads, T, d)
        return AttentionOutput(
            self._merge(context, batch, length),
            weights if output_attentions else None,
            scores if output_scores else None,
        )

    def _fused(
        self, q: Tensor, k: Tensor, v: Tensor, attention_mask: Tensor | None, dropout: float
    ) -> Tensor:
        """Steps 2-4 in one kernel; the relative bias joins the mask (SDPA adds it unscaled)."""
        bias = attention_mask
        if self.position_embedding_type == "relative":
            relative = self.relative_bias(q) * self.scaling  # (B, heads, T, T)
            bias = relative if bias is None else relative + bias
        return F.scaled_dot_product_attention(
            q, k, v, attn_mask=bias, dropout_p=dropout, scale=self.scaling
        )

    def _merge(self, context: Tensor, batch: int, length: int) -> Tensor:
        return context.transpose(1, 2).reshape(batch, length, self.all_head_size)  # (B, T, H)


class ResidualOutput(nn.Module):
    """A sub-block's end: dense (in_features -> H), dropout, the residual; then LayerNorm (post-LN).

    Attention's output (`BertSelfOutput`, H -> H) and the feed-forward block's (`BertOutput` in
    explorer_core.bert.model, I -> H) are this same step with transformers' names `dense` and
    `LayerNorm`.
    """

    def __init__(
        self, config: BertConfig, in_features: int, *, bias: bool = True, norm: bool = True
    ) -> None:
        super().__init__()
        self.dense = nn.Linear(in_features, config.hidden_size, bias=bias)
        # norm=False: no LayerNorm at all (ModernBERT's layer 0 reads its input as it is)
        self.LayerNorm = None
        if norm:
            self.LayerNorm = nn.LayerNorm(
                config.hidden_size, eps=config.layer_norm_eps, bias=config.norm_bias
            )
        self.dropout = nn.Dropout(config.hidden_dropout_prob)
        # pre-LN keeps the same LayerNorm but applies it to the sub-block's *input* (its caller)
        self.pre_norm = config.norm_placement == "pre"

    def normalise_input(self, hidden_states: Tensor) -> Tensor:
        """Pre-LN: what the sub-block reads, LN(x) (or x itself without a LayerNorm)."""
        return hidden_states if self.LayerNorm is None else self.LayerNorm(hidden_states)

    def forward(self, hidden_states: Tensor, input_tensor: Tensor) -> Tensor:
        hidden_states = self.dropout(self.dense(hidden_states))  # (B, T, H)
        if self.pre_norm:
            return input_tensor + hidden_states
        return self.LayerNorm(hidden_states + input_tensor)


class BertSelfOutput(ResidualOutput):
    """Mix the heads back together (dense H -> H), the residual, then LayerNorm (post-LN)."""

    def __init__(self, config: BertConfig, layer_index: int = 0) -> None:
        # ModernBERT's layer 0 has no LN1 (an Identity in transformers)
        norm = config.first_attention_norm or layer_index > 0
        super().__init__(config, config.hidden_size, bias=config.attention_bias, norm=norm)


class BertAttention(nn.Module):
    """Self-attention plus its output projection, residual and LayerNorm (`layer.N.attention`)."""

    def __init__(self, config: BertConfig, layer_index: int = 0) -> None:
        super().__init__()
        self.self = BertSelfAttention(config, layer_index)
        self.output = BertSelfOutput(config, layer_index)

    def attention_input(self, hidden_states: Tensor) -> Tensor:
        """What the self-attention sees: the layer input, normalised first under pre-LN."""
        if self.output.pre_norm:
            return self.output.normalise_input(hidden_states)
        return hidden_states

    def forward(
        self,
        hidden_states: Tensor,
        attention_mask: Tensor | None = None,
        position_ids: Tensor | None = None,
        output_attentions: bool = False,
        output_scores: bool = False,
    ) -> AttentionOutput:
        result = self.self(
            self.attention_input(hidden_states),
            attention_mask,
            position_ids,
            output_attentions=output_attentions,
            output_scores=output_scores,
        )
        return replace(result, output=self.output(result.output, hidden_states))


@dataclass(frozen=True)
class CellArithmetic:
    """Every number behind one attention weight: query `query` looking at key `key` in one head.

    score = (q·k + relative) × scale + mask, and weight = exp(score - row_max) / row_sum_exp.
    """

    query: int
    key: int
    head_dim: int
    q: tuple[float, ...]  # the query vector of this head (after rotary, if any)
    k: tuple[float, ...]  # the key vector of this head
    dot: float  # q · k
    relative: float  # q · r_(key - query) for relative positions, else 0
    scale: float  # 1 / √d
    scaled: float  # (dot + relative) × scale
    mask: float  # 0 if the key is allowed, else the dtype's most negative number
    score: float  # scaled + mask: the pre-softmax score
    row_scores: tuple[float, ...]  # every key's score for this query
    row_max: float
    row_sum_exp: float  # Σ_j exp(score_j - row_max)
    weight: float  # the softmax weight of this key
    row_weights: tuple[float, ...]


@torch.no_grad()
def cell_arithmetic(
    attention: BertSelfAttention,
    hidden_states: Tensor,
    attention_mask: Tensor | None,
    *,
    head: int,
    query: int,
    key: int,
    position_ids: Tensor | None = None,
) -> CellArithmetic:
    """Recompute one weight step by step from the self-attention's input (1, T, H).

    `attention_mask` is the additive mask (1, 1, T|1, T) the model used; the result agrees with
    the model's own weights (a test checks it).
    """
    length = hidden_states.shape[1]
    if not (
        0 <= head < attention.num_attention_heads and 0 <= query < length and 0 <= key < length
    ):
        raise ValueError(
            f"no cell (head {head}, query {query}, key {key}) in a {length}-token input"
        )
    q, k, _ = attention.project(hidden_states[:1], position_ids)
    q, k = q[0, head], k[0, head]  # (T, d)
    dot = q @ k.T  # (T, T)
    relative = torch.zeros_like(dot)
    if attention.position_embedding_type == "relative":
        relative = attention.relative_bias(q)  # (T, T)
    mask = torch.zeros_like(dot) if attention_mask is None else attention_mask[0, 0].expand_as(dot)
    row = (dot[query] + relative[query]) * attention.scaling + mask[query]  # (T,)
    row_max = row.max()
    exp = torch.exp(row - row_max)  # (T,)
    return CellArithmetic(
        query=query,
        key=key,
        head_dim=q.shape[-1],
        q=tuple(q[query].tolist()),
        k=tuple(k[key].tolist()),
        dot=float(dot[query, key]),
        relative=float(relative[query, key]),
        scale=attention.scaling,
        scaled=float((dot[query, key] + relative[query, key]) * attention.scaling),
        mask=float(mask[query, key]),
        score=float(row[key]),
        row_scores=tuple(row.tolist()),
        row_max=float(row_max),
        row_sum_exp=float(exp.sum()),
        weight=float(exp[key] / exp.sum()),
        row_weights=tuple((exp / exp.sum()).tolist()),
    )
