"""One encoder layer: attention, then the position-wise feed-forward block (MLP or GeGLU).

    BertLayer
    ├── attention     self-attention, dense, residual, LayerNorm  (explorer_core.bert.attention)
    ├── intermediate  dense H -> I, GELU; GeGLU: dense H -> 2I, act(input half) ⊙ gate half
    └── output        dense I -> H, residual, LayerNorm

Post-LN (BERT): x = LN(x + sublayer(x)). Pre-LN (GPT-2, ModernBERT): x = x + sublayer(LN(x)).
`explorer_core.bert.model` stacks these layers into the encoder.
"""

from __future__ import annotations

from collections.abc import Callable

import torch.nn.functional as F
from torch import Tensor, nn

from explorer_core.bert.attention import AttentionOutput, BertAttention, ResidualOutput
from explorer_core.bert.config import BertConfig

ACTIVATIONS: dict[str, Callable[[Tensor], Tensor]] = {
    "gelu": F.gelu,  # exact erf GELU, as BERT and transformers' "gelu"
    "gelu_new": lambda x: F.gelu(x, approximate="tanh"),
    "relu": F.relu,
    "silu": F.silu,
}


class BertIntermediate(nn.Module):
    """The feed-forward block's first half: dense H -> I, then the activation (GELU).

    GeGLU (`ffn_type="geglu"`, ModernBERT): dense H -> 2I, split into an input half and a gate
    half, then act(input) ⊙ gate, so the down-projection still reads I numbers per token.
    """

    def __init__(self, config: BertConfig) -> None:
        super().__init__()
        self.gated = config.ffn_type == "geglu"
        width = config.intermediate_size * (2 if self.gated else 1)
        self.dense = nn.Linear(config.hidden_size, width, bias=config.mlp_bias)
        self.intermediate_act_fn = ACTIVATIONS[config.hidden_act]

    def forward(self, hidden_states: Tensor) -> Tensor:
        up = self.dense(hidden_states)  # (B, T, I), or (B, T, 2I) gated
        if not self.gated:
            return self.intermediate_act_fn(up)  # (B, T, I)
        value, gate = up.chunk(2, dim=-1)  # (B, T, I) each: the first half is the input
        return self.intermediate_act_fn(value) * gate  # (B, T, I)


class BertOutput(ResidualOutput):
    """The feed-forward block's second half: dense I -> H, dropout, residual, LayerNorm."""

    def __init__(self, config: BertConfig) -> None:
        super().__init__(config, config.intermediate_size, bias=config.mlp_bias)


class BertLayer(nn.Module):
    """One Transformer encoder layer: attention, then the position-wise feed-forward block.

    `layer_index` (0-based) fixes what differs between layers: ModernBERT's window and rotary base
    (local or global layer) and its missing first LayerNorm in layer 0.
    """

    def __init__(self, config: BertConfig, layer_index: int = 0) -> None:
        super().__init__()
        self.attention = BertAttention(config, layer_index)
        self.intermediate = BertIntermediate(config)
        self.output = BertOutput(config)

    @property
    def window(self) -> int | None:
        """The farthest key distance this layer's queries see; None: every key (global)."""
        return self.attention.self.window

    def forward(
        self,
        hidden_states: Tensor,
        attention_mask: Tensor | None = None,
        position_ids: Tensor | None = None,
        output_attentions: bool = False,
        output_scores: bool = False,
    ) -> AttentionOutput:
        """(B, T, H) -> (B, T, H); `weights` and `scores` are the attention's when asked for."""
        attended = self.attention(
            hidden_states, attention_mask, position_ids, output_attentions, output_scores
        )
        x = attended.output  # (B, T, H)
        ffn_input = self.output.normalise_input(x) if self.output.pre_norm else x
        out = self.output(self.intermediate(ffn_input), x)  # (B, T, H)
        return AttentionOutput(out, attended.weights, attended.scores)
