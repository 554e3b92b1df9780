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


# ---- transformers' own BertLayer, hooked: MiniLM and a model trained here -------------------

SENTENCES = ["The cat sat on the mat because it was tired.", "I deposited money at the bank."]


@pytest.fixture(scope="module")
def minilm(minilm_dir):
    import transformers

    tokenizer = transformers.AutoTokenizer.from_pretrained(minilm_dir)
    theirs = transformers.AutoModel.from_pretrained(minilm_dir, attn_implementation="eager")
    return tokenizer, theirs.eval(), BertModel.from_transformers(minilm_dir)


def assert_matches_transformers(trace: EncoderTrace, captured: list[dict], atol: float) -> None:
    assert len(trace.layers) == len(captured)
    for layer, theirs in zip(trace.layers, captured, strict=True):
        for field, value in theirs.items():
            ours = getattr(layer, field)
            assert ours.shape == value.shape, (layer.layer, field)
            torch.testing.assert_close(ours, value, atol=atol, rtol=0, msg=f"{layer.layer} {field}")
        # the stream between the hooks: residual = input + W_O output; LN1 reads it
        torch.testing.assert_close(layer.ln1.after, theirs["attention_norm"], atol=atol, rtol=0)
        torch.testing.assert_close(layer.ln2.after, theirs["output"], atol=atol, rtol=0)


@pytest.mark.parametrize("sentence", SENTENCES)
def test_every_intermediate_equals_transformers_bert_layer_on_minilm(minilm, sentence):
    """all-MiniLM-L6-v2: the heads' concatenated contexts, W_O's output, the first residual +
    LayerNorm, the FFN up-projection, GELU, the down-projection and the layer output all equal
    transformers' BertLayer (forward hooks, eager attention, eval mode) to 1e-5, in all 6
    layers; the layer inputs equal its hidden_states."""
    from tests.encoder_models import hf_intermediates

    tokenizer, theirs, ours = minilm
    enc = tokenizer(sentence, return_tensors="pt")
    trace = trace_encoder(ours, enc["input_ids"], token_type_ids=enc["token_type_ids"])
    assert_matches_transformers(trace, hf_intermediates(theirs, **enc), atol=1e-5)
    with torch.no_grad():
        states = theirs(**enc, output_hidden_states=True).hidden_states
    for layer, state in zip(trace.layers, states, strict=False):
        torch.testing.assert_close(layer.input, state[0], atol=1e-5, rtol=0)


def test_every_intermediate_equals_transformers_on_a_model_trained_here(tmp_path):
    """A BERT pre-trained here (20 MLM + NSP steps, post-LN), saved as the app saves models and
    opened by transformers' AutoModel from that folder: every intermediate agrees to 1e-5."""
    import transformers

    from explorer_core.training.checkpoint import Checkpoint, save_checkpoint
    from tests.encoder_models import ENGLISH, hf_intermediates, pretrained_here

    model, tokenizer = pretrained_here("post")
    save_checkpoint(Checkpoint(model.bert, tokenizer), tmp_path)
    theirs = transformers.AutoModel.from_pretrained(tmp_path, attn_implementation="eager").eval()
    hf_tokenizer = transformers.AutoTokenizer.from_pretrained(tmp_path)
    moved = False
    for sentence in ENGLISH:
        enc = hf_tokenizer(sentence, return_tensors="pt")
        enc.pop("token_type_ids", None)
        trace = trace_encoder(model.bert, enc["input_ids"])
        assert_matches_transformers(trace, hf_intermediates(theirs, **enc), atol=1e-5)
        moved |= not torch.allclose(trace.layers[0].ln1.gamma, torch.ones(32))
    assert moved, "training should have moved LayerNorm's gamma away from its start"


# ---- torch's nn.TransformerEncoderLayer: the independent reference for pre-LN (and post-LN) ----


@pytest.mark.parametrize("norm", ["pre", "post"])
@pytest.mark.parametrize("causal", [False, True])
def test_every_intermediate_equals_torch_transformer_encoder_layer(norm, causal):
    """transformers has no pre-LN BERT, so torch's TransformerEncoderLayer(norm_first=True) with
    our weights copied in (in_proj from Q/K/V, out_proj from W_O, linear1/2, norm1/2) is the
    reference: hooked on each sub-module, every intermediate agrees to 1e-5. Pre-LN is the tutorial
    preset (ReLU; its sinusoidal positions are added to the embeddings, outside the layer); post-LN
    (norm_first=False) is BERT's order, a second reference next to transformers."""
    from tests.encoder_models import ENGLISH, pretrained_here, torch_intermediates, torch_reference

    model, tokenizer = pretrained_here(norm)
    bert = model.bert
    activation = torch.nn.ReLU() if bert.config.hidden_act == "relu" else torch.nn.GELU()
    assert (bert.config.hidden_act == "relu") == (norm == "pre")
    for sentence in ENGLISH:
        from explorer_core.inputs.vocab import BertVocab

        ids = BertVocab.of(tokenizer).encode(tokenizer, [sentence]).input_ids[0]
        trace = trace_encoder(bert, ids, causal=causal)
        length = len(ids)
        mask = torch.ones(length, length).triu(1).bool() if causal else None
        for layer, module in zip(trace.layers, bert.encoder.layer, strict=True):
            ref = torch_reference(module, norm == "pre", activation)
            got = torch_intermediates(ref, layer.input, mask)
            expected = {
                "attention_weights": got["attention_weights"],
                "attention_input": got["attention_output.in"],
                "attention_output": got["attention_output"],
                "ffn_input": got["linear1.in"],
                "ffn_pre_activation": got["linear1"],
                "ffn_activation": got["activation"],
                "ffn_output": got["linear2"],
                "output": got["output"],
            }
            if norm == "pre":  # x -> norm1 -> attention -> + x -> norm2 -> FFN -> +
                expected |= {"ln1.before": got["norm1.in"], "ln1.after": got["norm1.out"],
                             "attention_residual": got["norm2.in"],
                             "ln2.after": got["norm2.out"]}  # fmt: skip
            else:  # x -> attention -> + x -> norm1 -> FFN -> + -> norm2
                expected |= {"attention_residual": got["norm1.in"],
                             "attention_norm": got["norm1.out"], "ffn_residual": got["norm2.in"],
                             "ln2.after": got["norm2.out"]}  # fmt: skip
            for name, value in expected.items():
                ours = layer
                for part in name.split("."):
                    ours = getattr(ours, part)
                torch.testing.assert_close(ours, value, atol=1e-5, rtol=0, msg=name)
        if norm == "pre":
            torch.testing.assert_close(trace.final_norm, bert.encoder.LayerNorm(layer.output))


def test_bad_inputs_raise_readable_errors():
    model = BertModel(tiny(max_position_embeddings=8)).eval()
    with pytest.raises(ValueError, match="the input is empty"):
        trace_encoder(model, torch.zeros(0, dtype=torch.long))
    with pytest.raises(ValueError, match="9 tokens is longer than this model's maximum of 8"):
        trace_encoder(model, ids(length=9))
    with pytest.raises(ValueError, match=r"trace one sentence: input_ids \(T,\) or \(1, T\)"):
        trace_encoder(model, torch.stack([ids(), ids(1)]))
    with pytest.raises(ValueError, match="token id 99 is outside the table"):
        trace_encoder(model, torch.tensor([1, 99]))


def test_segment_ids_change_the_embeddings_as_in_the_forward():
    model = BertModel(tiny()).eval()
    types = torch.tensor([0, 0, 0, 1, 1, 1, 1])
    trace = trace_encoder(model, ids(), token_type_ids=types)
    with torch.no_grad():
        out = model(ids()[None], token_type_ids=types[None], output_hidden_states=True)
    torch.testing.assert_close(trace.embeddings, out.hidden_states[0][0], atol=0, rtol=0)
    assert not torch.equal(trace.embeddings, trace_encoder(model, ids()).embeddings)
