"""The layer trace (explorer_core.bert.trace): shapes on the tiny odd config, the trace equals the
model's own forward, and every intermediate equals independent references: transformers' BertLayer
(MiniLM and a model trained here, post-LN) and torch's nn.TransformerEncoderLayer (pre-LN and
post-LN), hooked at each sub-module, to 1e-5."""

from __future__ import annotations

import pytest
import torch

from explorer_core.bert.model import BertConfig, BertModel
from explorer_core.bert.trace import EncoderTrace, trace_encoder

T = 7


def tiny(**overrides) -> BertConfig:
    values = dict(
        vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37,
    )  # fmt: skip
    return BertConfig(**{**values, **overrides})


def ids(seed: int = 0, length: int = T) -> torch.Tensor:
    return torch.randint(1, 99, (length,), generator=torch.Generator().manual_seed(seed))


@pytest.mark.parametrize("norm", ["post", "pre"])
def test_shapes_on_the_tiny_odd_config(norm):
    trace = trace_encoder(BertModel(tiny(norm_placement=norm)).eval(), ids())
    assert isinstance(trace, EncoderTrace) and len(trace.layers) == 2
    assert trace.tokens_ids.shape == (T,) and trace.embeddings.shape == (T, 32)
    assert (trace.final_norm is not None) == (norm == "pre")
    for index, layer in enumerate(trace.layers):
        assert layer.layer == index and layer.pre_norm == (norm == "pre")
        assert layer.attention_weights.shape == (4, T, T)
        assert layer.values.shape == layer.head_contexts.shape == (4, T, 8)
        for name in ("input", "concat", "attention_output", "attention_residual",
                     "attention_norm", "ffn_output", "ffn_residual", "output"):  # fmt: skip
            assert getattr(layer, name).shape == (T, 32), name
        assert layer.ffn_pre_activation.shape == layer.ffn_activation.shape == (T, 37)
        for stats in (layer.ln1, layer.ln2):
            assert stats.mean.shape == stats.std.shape == (T,)
            assert stats.gamma.shape == stats.beta.shape == (32,)
            assert stats.before.shape == stats.after.shape == (T, 32)
        torch.testing.assert_close(layer.attention_weights.sum(-1), torch.ones(4, T))


@pytest.mark.parametrize("position", ["learned", "sinusoidal", "relative", "rotary"])
@pytest.mark.parametrize("norm", ["post", "pre"])
@pytest.mark.parametrize("causal", [False, True])
def test_trace_equals_the_models_hidden_states(position, norm, causal):
    """layers[l].output == hidden_states[l + 1]; under pre-LN the model's last entry is the
    final LayerNorm's output, which the trace keeps as final_norm."""
    model = BertModel(tiny(position_embedding_type=position, norm_placement=norm)).eval()
    trace = trace_encoder(model, ids(), causal=causal)
    with torch.no_grad():
        out = model(ids()[None], output_hidden_states=True, output_attentions=True, causal=causal)
    for ours, theirs in zip(trace.hidden_states(), out.hidden_states, strict=True):
        torch.testing.assert_close(ours, theirs[0], atol=1e-6, rtol=0)
    for layer, weights in zip(trace.layers, out.attentions, strict=True):
        torch.testing.assert_close(layer.attention_weights, weights[0], atol=1e-6, rtol=0)
    if norm == "pre":
        torch.testing.assert_close(trace.final_norm, out.hidden_states[-1][0])
        assert not torch.equal(trace.layers[-1].output, trace.final_norm)
    else:
        torch.testing.assert_close(trace.layers[-1].output, out.hidden_states[-1][0])
