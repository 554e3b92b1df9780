"""The decoder (bert/causal_lm.py) against transformers' GPT2LMHeadModel on tiny odd-sized models:
a GPT-2 saved by transformers read into ours, and ours saved as GPT-2 read by transformers, give
the same logits, every hidden state and every attention weight to 1e-5, tied and untied, with and
without our √d embedding scale; the causal mask gives exactly 0 above the diagonal; the app's
"open a model" path and the layer trace run a saved decoder."""

from __future__ import annotations

import json

import pytest
import torch
import transformers

from explorer_core.bert.causal_lm import OWN_KEY, BertForCausalLM, decoder_config
from explorer_core.bert.families import config_from_transformers
from explorer_core.bert.trace import trace_encoder
from explorer_core.tokenization.byte_bpe import ByteBPETokenizer
from tests.family_models import randomise_norms

SIZES = dict(vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
             intermediate_size=37, max_position_embeddings=40)  # fmt: skip
B, T = 13, 7


def ids(vocab: int = 99, seed: int = 0) -> torch.Tensor:
    return torch.randint(0, vocab, (B, T), generator=torch.Generator().manual_seed(seed))


def hf_gpt2(folder, tied: bool, seed: int = 0):
    """A tiny random GPT2LMHeadModel (norms randomised), saved by transformers."""
    torch.manual_seed(seed)
    config = transformers.GPT2Config(
        vocab_size=99, n_embd=32, n_layer=2, n_head=4, n_inner=37, n_positions=40,
        tie_word_embeddings=tied, bos_token_id=None, eos_token_id=None,
    )  # fmt: skip
    model = transformers.GPT2LMHeadModel(config)
    randomise_norms(model, seed)
    model.save_pretrained(folder)
    return folder


def theirs(folder):
    return transformers.GPT2LMHeadModel.from_pretrained(folder, attn_implementation="eager").eval()


@torch.no_grad()
def assert_same(ours: BertForCausalLM, hf, input_ids: torch.Tensor) -> None:
    """logits, hidden states (embeddings, each layer, the last after ln_f), attention weights."""
    out = hf(input_ids, output_hidden_states=True, output_attentions=True)
    mine = ours.bert(input_ids, output_hidden_states=True, output_attentions=True)
    torch.testing.assert_close(ours(input_ids), out.logits, atol=1e-5, rtol=0)
    assert len(mine.hidden_states) == len(out.hidden_states) == 3
    for a, b in zip(mine.hidden_states, out.hidden_states, strict=True):
        torch.testing.assert_close(a, b, atol=1e-5, rtol=0)
    assert len(mine.attentions) == len(out.attentions) == 2
    for a, b in zip(mine.attentions, out.attentions, strict=True):
        torch.testing.assert_close(a, b, atol=1e-5, rtol=0)


@pytest.mark.parametrize("tied", [True, False])
def test_a_gpt2_saved_by_transformers_runs_as_ours(tmp_path, tied):
    folder = hf_gpt2(tmp_path / "gpt2", tied)
    ours = BertForCausalLM.from_transformers(folder)
    config = ours.config
    assert (config.model_type, config.causal, config.norm_placement) == ("gpt2", True, "pre")
    assert config.tie_word_embeddings == tied and not config.scale_embedding
    assert (ours.lm_head.weight is ours.bert.embeddings.word_embeddings.weight) == tied
    assert_same(ours, theirs(folder), ids())


@pytest.mark.parametrize("scale", [True, False])
@pytest.mark.parametrize("tied", [True, False])
def test_ours_saved_as_gpt2_runs_in_transformers_and_loads_back(tmp_path, scale, tied):
    """With the √d scale GPT-2 must read wte·√d and an untied lm_head = our matrix: proven by
    transformers reproducing our logits and hidden states; our own switch comes back on load."""
    config = decoder_config(**SIZES, scale_embedding=scale, tie_word_embeddings=tied)
    model = BertForCausalLM(config, seed=5).eval()
    randomise_norms(model, 5)
    folder = model.save_gpt2(tmp_path / "ours")
    data = json.loads((folder / "config.json").read_text())
    assert data["tie_word_embeddings"] == (tied and not scale)
    assert data[OWN_KEY] == {"scale_embedding": scale, "tie_word_embeddings": tied}
    assert_same(model, theirs(folder), ids())
    back = BertForCausalLM.from_transformers(folder)
    assert back.config == config
    assert (back.lm_head.weight is back.bert.embeddings.word_embeddings.weight) == tied
    with torch.no_grad():
        torch.testing.assert_close(back(ids()), model(ids()), atol=1e-5, rtol=0)


def test_scaling_really_changes_the_model():
    """The trap the save guards against: the same weights with and without √d differ."""
    plain = BertForCausalLM(decoder_config(**SIZES), seed=1).eval()
    scaled = BertForCausalLM(decoder_config(**SIZES, scale_embedding=True), seed=1).eval()
    scaled.load_state_dict(plain.state_dict())
    with torch.no_grad():
        assert (plain(ids()) - scaled(ids())).abs().max() > 1e-2


def test_the_causal_mask_is_exactly_zero_above_the_diagonal():
    model = BertForCausalLM(decoder_config(**SIZES), seed=2).eval()
    with torch.no_grad():
        out = model.bert(ids(), output_attentions=True)
        open_ = model.bert(ids(), output_attentions=True, causal=False)  # the override
    above = torch.ones(T, T, dtype=torch.bool).triu(1)
    for weights in out.attentions:  # (B, H, T, T)
        assert torch.all(weights[..., above] == 0.0)
        torch.testing.assert_close(weights.sum(-1), torch.ones(B, 4, T))
    assert all(bool((w[..., above] > 0).any()) for w in open_.attentions)


def test_a_prefix_does_not_see_what_follows():
    """Changing the last token leaves every earlier position's logits unchanged."""
    model = BertForCausalLM(decoder_config(**SIZES), seed=3).eval()
    a = ids()
    b = a.clone()
    b[:, -1] = (b[:, -1] + 1) % 99
    with torch.no_grad():
        torch.testing.assert_close(model(a)[:, :-1], model(b)[:, :-1], atol=0, rtol=0)


def test_gpt2_config_json_reads_into_the_switches():
    config = config_from_transformers({"model_type": "gpt2", "n_embd": 64, "n_head": 4})
    assert config.intermediate_size == 256 and config.causal and not config.embedding_layer_norm
    assert (config.type_vocab_size, config.layer_norm_eps) == (0, 1e-5)
    assert config.hidden_act == "gelu_new"
    from explorer_core.bert.family_weights import UnsupportedModel

    with pytest.raises(UnsupportedModel, match="scales its attention"):
        config_from_transformers({"model_type": "gpt2", "scale_attn_by_inverse_layer_idx": True})


def test_an_encoder_config_cannot_be_saved_as_gpt2():
    from explorer_core.bert.config import BertConfig

    with pytest.raises(ValueError, match="needs causal=True"):
        BertForCausalLM(BertConfig(**SIZES))
    model = BertForCausalLM(decoder_config(**SIZES, embedding_layer_norm=True))
    with pytest.raises(ValueError, match="GPT-2 cannot hold this model: it has embedding_layer"):
        model.to_gpt2()


def saved_with_tokenizer(folder) -> tuple[BertForCausalLM, ByteBPETokenizer]:
    tokenizer = ByteBPETokenizer()
    tokenizer.train("the cat sat on the mat. 猫坐在垫子上。 " * 20, 300, trace=False)
    model = BertForCausalLM(decoder_config(**{**SIZES, "vocab_size": 300}), seed=4).eval()
    model.save_gpt2(folder)
    (folder / "tokenizer.json").write_text(tokenizer.to_hf_json(), encoding="utf-8")
    return model, tokenizer


def test_the_app_opens_a_saved_decoder_as_family_gpt2(tmp_path, monkeypatch):
    from explorer_core.models.opened import embed, open_model

    model, tokenizer = saved_with_tokenizer(tmp_path / "decoder")
    monkeypatch.setenv("EXPLORER_MODEL_DIRS", str(tmp_path))
    opened = open_model(str(tmp_path / "decoder"))
    assert opened.family == "gpt2" and opened.model.config.causal
    text = "the cat 猫"
    assert opened.tokenizer.encode(text) == tokenizer.encode(text)
    row = torch.tensor([tokenizer.encode(text)])
    with torch.no_grad():
        torch.testing.assert_close(
            opened.model(row).last_hidden_state, model.bert(row).last_hidden_state, atol=1e-6,
            rtol=0,
        )  # fmt: skip
    # a batch pads the shorter row although the byte-level BPE has no pad token
    vectors = embed(opened, [text, "the cat sat on the mat 猫坐在垫子上"])  # (2, H): mean pooling
    alone = embed(opened, [text])
    torch.testing.assert_close(vectors[:1], alone, atol=1e-5, rtol=0)


def test_the_trace_equals_the_plain_forward_under_the_causal_mask(tmp_path):
    model, tokenizer = saved_with_tokenizer(tmp_path / "decoder")
    row = torch.tensor(tokenizer.encode("the cat sat 猫"))
    trace = trace_encoder(model.bert, row)  # causal from the config
    assert trace.causal and trace.model_type == "gpt2"
    with torch.no_grad():
        out = model.bert(row[None], output_hidden_states=True, output_attentions=True)
    for a, b in zip(trace.hidden_states(), out.hidden_states, strict=True):
        torch.testing.assert_close(a, b[0], atol=1e-5, rtol=0)
    for layer, weights in zip(trace.layers, out.attentions, strict=True):
        torch.testing.assert_close(layer.attention_weights, weights[0], atol=1e-5, rtol=0)
        assert torch.all(layer.attention_weights.triu(1) == 0.0)
