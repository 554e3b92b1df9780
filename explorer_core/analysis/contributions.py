"""Who wrote into this vector? How much of token i's output comes from token j, three ways.

(a) `attention`: the attention weights α_h,ij averaged over the heads.

(b) `norm` (Kobayashi et al. 2020, "Attention is Not Only a Weight"): the weight times what is
    actually moved. Each head sends f_h(x_j) = (x_j W_V^h + b_V^h) W_O^h, token j's value vector
    already through the output projection (W_O^h: head h's d columns of W_O), so

        attention_output_i = Σ_j Σ_h α_h,ij f_h(x_j) + b_O

    exactly; ‖Σ_h α_h,ij f_h(x_j)‖ is token j's share (b_O belongs to no token). A large weight on a
    small vector moves little: [CLS] and [SEP] collect weight but send short vectors.

(c) `residual_norm` (Kobayashi et al. 2021, "Incorporating Residual and Normalization Layers into
    Analysis of Masked Language Models"): the residual and LayerNorm too. Token i's own input
    joins its own term, z_ij = Σ_h α_h,ij f_h(x_j) + [i = j] x_i, and LayerNorm is linear once its
    divisor s_i (the std of the whole sum at i) is fixed:

        LN1(x_i + attention_output_i) = Σ_j g_i(z_ij) + g_i(b_O) + β,
        g_i(z) = γ ⊙ (z - mean(z)) / s_i

    ‖g_i(z_ij)‖ is token j's share. Under pre-LN nothing normalises the stream after the residual:
    there z_ij itself is the share (attention reads LN1(x), the residual adds the raw x_i).

Each matrix is (T, T), row i = the output token, column j = the source token; rows sum to 1.
The vectors are computed in float64 (the decomposition then sums back to the model's float32
numbers within rounding); the matrices are float32.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import torch
from torch import Tensor

from explorer_core.bert.model import BertLayer
from explorer_core.bert.trace import LayerTrace


@dataclass(frozen=True)
class Contributions:
    """Three (T, T) answers to "how much of token i comes from token j", rows summing to 1."""

    attention: Tensor  # (a) weights averaged over the heads
    norm: Tensor  # (b) ‖Σ_h α f_h(x_j)‖, row-normalised
    residual_norm: Tensor  # (c) ‖g_i(z_ij)‖ with residual and LayerNorm, row-normalised


def transformed_values(module: BertLayer, layer: LayerTrace) -> Tensor:
    """(heads, T, H): f_h(x_j) = (x_j W_V^h + b_V^h) W_O^h, each value through its head's part
    of the output projection."""
    heads, _, width = layer.values.shape
    w_o = module.attention.output.dense.weight.detach().double()  # (H_out, heads · d)
    w_o = w_o.reshape(w_o.shape[0], heads, width)  # (H_out, heads, d): head h's columns
    return torch.einsum("hjd,ohd->hjo", layer.values.double(), w_o)


@torch.no_grad()
def mixed_vectors(module: BertLayer, layer: LayerTrace) -> Tensor:
    """(T, T, H): Σ_h α_h,ij f_h(x_j), what token j sends to token i (bias b_O excluded)."""
    weights = layer.attention_weights.double()
    return torch.einsum("hij,hjo->ijo", weights, transformed_values(module, layer))


@torch.no_grad()
def residual_vectors(module: BertLayer, layer: LayerTrace) -> tuple[Tensor, Tensor]:
    """(g_i(z_ij) (T, T, H), g_i(b_O) (T, H)): the decomposition (c); under pre-LN g is the
    identity. Post-LN: Σ_j g_i(z_ij) + g_i(b_O) + β = LN1's output (a test checks it)."""
    z = mixed_vectors(module, layer)  # (T, T, H)
    # subtle: the residual adds the layer input x_i to token i's own column only
    z = z + torch.diag_embed(layer.input.double().T).permute(1, 2, 0)  # (T, T, H): + [i = j] x_i
    dense = module.attention.output.dense
    b_o = dense.bias if dense.bias is not None else dense.weight.new_zeros(dense.out_features)
    bias = b_o.detach().double().expand(z.shape[0], -1)  # (T, H); ModernBERT has no b_O: 0
    if layer.pre_norm:
        return z, bias
    norm = module.attention.output.LayerNorm
    before = layer.ln1.before.double()  # (T, H): the whole sum at each i
    s = torch.sqrt(before.var(dim=-1, unbiased=False) + norm.eps)  # (T,) s_i, in float64
    gamma = layer.ln1.gamma.double()  # (H,)
    g = gamma * (z - z.mean(dim=-1, keepdim=True)) / s[:, None, None]
    g_bias = gamma * (bias - bias.mean(dim=-1, keepdim=True)) / s[:, None]
    return g, g_bias


def _rows_to_one(m: Tensor) -> Tensor:
    return (m / m.sum(dim=-1, keepdim=True)).float()


def contributions(module: BertLayer, layer: LayerTrace) -> Contributions:
    """The three matrices of one layer: `module` is the model's BertLayer that made `layer`."""
    return Contributions(
        attention=layer.attention_weights.mean(dim=0),
        norm=_rows_to_one(mixed_vectors(module, layer).norm(dim=-1)),
        residual_norm=_rows_to_one(residual_vectors(module, layer)[0].norm(dim=-1)),
    )


def column_share(matrix: Tensor, columns: Sequence[int]) -> float:
    """The mean over rows of the share that `columns` take (e.g. [CLS] and [SEP]).

    >>> column_share(torch.tensor([[0.5, 0.25, 0.25], [0.25, 0.5, 0.25]]), [0, 2])
    0.625
    """
    return float(matrix[:, list(columns)].sum(dim=-1).mean())


def self_share(matrix: Tensor) -> float:
    """The mean of the diagonal: how much each token keeps of itself.

    >>> self_share(torch.tensor([[0.75, 0.25], [0.5, 0.5]]))
    0.625
    """
    return float(matrix.diagonal().mean())
