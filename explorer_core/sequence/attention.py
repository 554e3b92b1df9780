"""One self-attention layer next to the recurrent models: BERT's own, with a seeded start.

    h_t = Σ_s softmax_s(q_t · k_s / √d) v_s        q = W_q x + b_q, k = W_k x + b_k, v = W_v x + b_v

This is `explorer_core.bert.attention.BertSelfAttention` itself (no copy), Q, K, V drawn
U(-1/√d, 1/√d) from the generator like nn.Linear. Every token reaches every other in one step:
the path from x_s to h_t has length 1 whatever t - s is, and all T rows come from one masked
matmul. Without positions the layer cannot tell order at all (a permutation of the tokens
permutes the rows); `positions` adds the sinusoidal table to the input or rotates q and k (RoPE).
"""

from __future__ import annotations

import torch
from torch import Tensor, nn

from explorer_core.bert.attention import BertSelfAttention
from explorer_core.bert.config import BertConfig
from explorer_core.bert.masks import additive_mask, allowed_keys
from explorer_core.bert.positional import SinusoidalPositionEncoding
from explorer_core.sequence.base import SequenceOutput, init_linear_
from explorer_core.sequence.config import AttentionConfig


def bert_config(config: AttentionConfig) -> BertConfig:
    """The BertConfig of one self-attention layer: no dropout; RoPE only when asked."""
    return BertConfig(
        vocab_size=1,  # no vocabulary here: the layer reads embeddings
        hidden_size=config.hidden_size,
        num_hidden_layers=1,
        num_attention_heads=config.num_attention_heads,
        intermediate_size=1,
        attention_probs_dropout_prob=0.0,
        hidden_dropout_prob=0.0,
        type_vocab_size=0,
        position_embedding_type="rotary" if config.positions == "rotary" else "learned",
    )


class SelfAttentionLayer(nn.Module):
    """embeddings (B, T, d) -> contexts (B, T, d); records "weights" (B, heads, T, T)."""

    def __init__(self, config: AttentionConfig, generator: torch.Generator) -> None:
        super().__init__()
        self.config = config
        with torch.random.fork_rng():  # nn.Linear draws from the global RNG: leave it untouched
            self.attention = BertSelfAttention(bert_config(config))
        for linear in (self.attention.query, self.attention.key, self.attention.value):
            init_linear_(linear, generator)
        self.sinusoidal = None
        if config.positions == "sinusoidal":
            self.sinusoidal = SinusoidalPositionEncoding(config.hidden_size)

    def forward(self, embeddings: Tensor) -> SequenceOutput:
        if embeddings.dim() != 3 or embeddings.shape[-1] != self.config.hidden_size:
            raise ValueError(
                f"embeddings must be (batch, tokens, {self.config.hidden_size}), "
                f"got {tuple(embeddings.shape)}"
            )
        length = embeddings.shape[1]
        x = embeddings  # (B, T, d)
        if self.sinusoidal is not None:
            x = x + self.sinusoidal(torch.arange(length, device=x.device))  # (B, T, d)
        # 1) mask: 0 or the most negative number, (1, 1, T, T) under causal, else none
        mask = additive_mask(allowed_keys(None, length, causal=self.config.causal), x.dtype)
        # 2) scores, softmax and the weighted sum of values, in BERT's own code
        out = self.attention(x, mask, output_attentions=True)
        return SequenceOutput(out.output, {"weights": out.weights})
