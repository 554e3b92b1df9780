"""One encoder, every family: tiny random models that transformers builds and saves here load into
our BertModel and give transformers' numbers (every hidden state, every attention weight, the
last hidden state, the pooler, to 1e-5), on a padded batch; the trace's intermediates equal
transformers' own sub-modules, hooked; the fused path equals the explicit one."""

from __future__ import annotations

import json

import pytest
import torch
import transformers

from explorer_core.bert.config import BertConfig
from explorer_core.bert.families import FAMILIES, UnsupportedModel, config_from_transformers
from explorer_core.bert.model import BertModel
from explorer_core.bert.trace import trace_encoder
from tests.family_models import hf_intermediates, padded_batch, save_tiny, theirs

ATOL = dict(atol=1e-5, rtol=0)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """{family: folder} of every family's tiny model, saved with save_pretrained."""
    root = tmp_path_factory.mktemp("families")
    return {family: save_tiny(family, root / family) for family in FAMILIES}


def batch_for(model: BertModel) -> dict[str, torch.Tensor]:
    return padded_batch(model.config.pad_token_id, model.config.type_vocab_size >= 2)


@pytest.mark.parametrize("family", FAMILIES)
def test_every_family_equals_transformers_on_a_padded_batch(saved, family):
    ours, reference = BertModel.from_transformers(saved[family]), theirs(saved[family])
    assert ours.config.model_type == family and not ours.training
    batch = batch_for(ours)
    with torch.no_grad():
        a = ours(**batch, output_hidden_states=True, output_attentions=True)
        b = reference(**batch, output_hidden_states=True, output_attentions=True)
    assert len(a.hidden_states) == len(b.hidden_states) == ours.config.num_hidden_layers + 1
    for mine, their in zip(a.hidden_states, b.hidden_states, strict=True):
        torch.testing.assert_close(mine, their, **ATOL)
    for mine, their in zip(a.attentions, b.attentions, strict=True):
        torch.testing.assert_close(mine, their, **ATOL)
    torch.testing.assert_close(a.last_hidden_state, b.last_hidden_state, **ATOL)
    their_pooler = getattr(b, "pooler_output", None)
    assert (a.pooler_output is None) == (their_pooler is None)
    if their_pooler is not None:
        torch.testing.assert_close(a.pooler_output, their_pooler, **ATOL)


@pytest.mark.parametrize("family", FAMILIES)
def test_fused_path_equals_the_explicit_path(saved, family):
    """SDPA (no weights asked for) and the explicit softmax agree, windows and rotary included."""
    ours = BertModel.from_transformers(saved[family])
    batch = batch_for(ours)
    with torch.no_grad():
        fused = ours(**batch, output_hidden_states=True)
        explicit = ours(**batch, output_hidden_states=True, output_attentions=True)
        unpadded = ours(batch["input_ids"][:1]), ours(batch["input_ids"][:1], output_scores=True)
    for a, b in zip(fused.hidden_states, explicit.hidden_states, strict=True):
        torch.testing.assert_close(a, b, **ATOL)
    torch.testing.assert_close(unpadded[0].last_hidden_state, unpadded[1].last_hidden_state, **ATOL)


def _trace_against_hooks(ours: BertModel, reference, family: str) -> None:
    ids = batch_for(ours)["input_ids"][:1]  # the full row: one sentence, no padding
    trace = trace_encoder(ours, ids[0])
    hooked = hf_intermediates(reference, family, input_ids=ids)
    assert len(trace.layers) == len(hooked) == ours.config.num_hidden_layers
    for layer, hf in zip(trace.layers, hooked, strict=True):
        for field, value in hf.items():
            if field == "up_and_gate":  # GeGLU: the 2I-wide up-projection, both halves
                mine = torch.cat([layer.ffn_pre_activation, layer.ffn_gate], dim=-1)
            else:
                mine = getattr(layer, field)
            torch.testing.assert_close(mine, value, **ATOL, msg=f"layer {layer.layer} {field}")
        torch.testing.assert_close(layer.attention_residual, layer.input + layer.attention_output)
    with torch.no_grad():
        states = reference(input_ids=ids, output_hidden_states=True).hidden_states
    for mine, their in zip(trace.hidden_states(), states, strict=True):
        torch.testing.assert_close(mine, their[0], **ATOL)


@pytest.mark.parametrize("family", FAMILIES)
def test_trace_intermediates_equal_transformers_hooks(saved, family):
    ours, reference = BertModel.from_transformers(saved[family]), theirs(saved[family])
    _trace_against_hooks(ours, reference, family)


def test_modernbert_trace_shows_windows_rotary_bases_geglu_and_the_missing_first_norm(saved):
    model = BertModel.from_transformers(saved["modernbert"])
    assert [layer.window for layer in model.encoder.layer] == [None, 2, None]
    trace = trace_encoder(model, batch_for(model)["input_ids"][0])
    assert [layer.rope_base for layer in trace.layers] == [160000.0, 10000.0, 160000.0]
    assert trace.layers[0].ln1.identity and not trace.layers[1].ln1.identity
    assert trace.layers[0].ffn_kind == "geglu" and trace.layers[0].ffn_gate.shape == (11, 37)
    band = trace.layers[1].allowed_keys
    assert band[0].tolist() == [True] * 3 + [False] * 8 and bool(trace.layers[0].allowed_keys.all())
    blocked = trace.layers[1].attention_weights[:, ~band]
    assert float(blocked.abs().max()) == 0.0  # keys outside the window get weight exactly 0
    torch.testing.assert_close(trace.hidden_states()[-1], trace.final_norm)


def test_narrow_embeddings_and_the_shared_layer(saved):
    albert = BertModel.from_transformers(saved["albert"])
    assert len(set(map(id, albert.encoder.layer))) == 1 and len(albert.encoder.layer) == 3
    trace = trace_encoder(albert, batch_for(albert)["input_ids"][0])
    assert trace.embedding_sum.shape == trace.embedding_norm.shape == (11, 16)
    assert trace.embeddings.shape == (11, 32)  # after the E -> H projection: what layer 1 reads
    electra = BertModel.from_transformers(saved["electra"])
    assert electra.embeddings.projection.in_features == 24 and electra.pooler is None


def test_roberta_positions_follow_the_padding(saved):
    model = BertModel.from_transformers(saved["roberta"])
    ids = torch.tensor([[5, 6, 7, 1, 1], [5, 1, 7, 8, 9]])  # pad id 1, even inside a row
    assert model.embeddings.position_ids(ids).tolist() == [[2, 3, 4, 1, 1], [2, 1, 3, 4, 5]]
    assert model.config.first_position == 2 and model.config.max_tokens == 38
    reference = theirs(saved["roberta"])
    with torch.no_grad():
        torch.testing.assert_close(
            model(ids).last_hidden_state, reference(input_ids=ids).last_hidden_state, **ATOL
        )


def test_an_in_memory_model_a_sharded_folder_and_a_head_checkpoint_load(saved, tmp_path):
    reference = theirs(saved["modernbert"])
    ids = torch.randint(3, 99, (2, 9), generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        expected = reference(input_ids=ids).last_hidden_state
        in_memory = BertModel.from_transformers(reference)(ids).last_hidden_state
    torch.testing.assert_close(in_memory, expected, **ATOL)
    reference.save_pretrained(tmp_path / "sharded", max_shard_size="20KB")
    assert (tmp_path / "sharded" / "model.safetensors.index.json").is_file()
    with torch.no_grad():
        sharded = BertModel.from_transformers(tmp_path / "sharded")(ids).last_hidden_state
    torch.testing.assert_close(sharded, expected, **ATOL)
    folder = save_tiny("roberta", tmp_path / "mlm", transformers.RobertaForMaskedLM)
    model = BertModel.from_transformers(folder)  # "roberta." prefix, lm_head left out, no pooler
    assert model.pooler is None and model(ids).pooler_output is None


def test_legacy_gamma_beta_names_with_the_bert_prefix_load(tmp_path):
    from safetensors.torch import save_file

    torch.manual_seed(3)
    reference = transformers.BertModel(
        transformers.BertConfig(vocab_size=99, hidden_size=32, num_hidden_layers=2,
                                num_attention_heads=4, intermediate_size=37)
    ).eval()  # fmt: skip
    old = {}
    for name, tensor in reference.state_dict().items():
        name = name.replace("LayerNorm.weight", "LayerNorm.gamma")
        old["bert." + name.replace("LayerNorm.bias", "LayerNorm.beta")] = tensor.contiguous()
    old["cls.predictions.bias"] = torch.zeros(99)  # a pre-training head: left out
    (tmp_path / "old").mkdir()
    save_file(old, str(tmp_path / "old" / "model.safetensors"))
    config = reference.config.to_dict()
    (tmp_path / "old" / "config.json").write_text(json.dumps(config), encoding="utf-8")
    ids = torch.randint(1, 99, (2, 7), generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        got = BertModel.from_transformers(tmp_path / "old")(ids).last_hidden_state
        torch.testing.assert_close(got, reference(input_ids=ids).last_hidden_state, **ATOL)


def test_refusals_are_one_line_a_user_can_act_on(saved, tmp_path):
    (tmp_path / "pickle").mkdir()
    (tmp_path / "pickle" / "config.json").write_text('{"model_type": "bert"}')
    (tmp_path / "pickle" / "pytorch_model.bin").write_bytes(b"never read")
    with pytest.raises(UnsupportedModel) as pickled:
        BertModel.from_transformers(tmp_path / "pickle")
    assert "safe_serialization=True" in str(pickled.value) and "\n" not in str(pickled.value)
    with pytest.raises(UnsupportedModel, match="auto_map") as remote:
        config_from_transformers({"model_type": "bert", "auto_map": {"AutoModel": "x.Y"}})
    assert "\n" not in str(remote.value)
    with pytest.raises(UnsupportedModel) as unknown:
        config_from_transformers({"model_type": "llama"})  # gpt2 is read since the decoder
    assert all(family in str(unknown.value) for family in FAMILIES)
    with pytest.raises(UnsupportedModel, match="num_hidden_groups=2"):
        config_from_transformers({"model_type": "albert", "num_hidden_groups": 2})


def test_an_unknown_or_missing_weight_is_an_error_naming_it(saved, tmp_path):
    from safetensors.torch import load_file, save_file

    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "config.json").write_text((saved["distilbert"] / "config.json").read_text())
    weights = load_file(str(saved["distilbert"] / "model.safetensors"))
    save_file({**weights, "transformer.layer.0.surprise.weight": torch.zeros(2)},
              str(folder / "model.safetensors"))  # fmt: skip
    with pytest.raises(UnsupportedModel, match="transformer.layer.0.surprise.weight"):
        BertModel.from_transformers(folder)
    del weights["transformer.layer.1.ffn.lin2.bias"]
    save_file(weights, str(folder / "model.safetensors"))
    with pytest.raises(ValueError, match=r"encoder\.layer\.1\.output\.dense\.bias"):
        BertModel.from_transformers(folder)


@pytest.mark.parametrize("family", FAMILIES)
def test_family_configs_round_trip_and_old_dicts_still_load(saved, family):
    config = BertModel.from_transformers(saved[family]).config
    assert BertConfig.from_dict(json.loads(json.dumps(config.to_dict()))) == config
    old = {k: v for k, v in BertConfig().to_dict().items() if k in OLD_FIELDS}
    assert BertConfig.from_dict(old) == BertConfig()
    assert config.bert_compatible == (family == "bert")


OLD_FIELDS = (  # what a checkpoint saved before the family switches holds
    "vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads", "intermediate_size",
    "hidden_act", "hidden_dropout_prob", "attention_probs_dropout_prob", "max_position_embeddings",
    "type_vocab_size", "initializer_range", "layer_norm_eps", "pad_token_id",
    "position_embedding_type", "norm_placement", "relative_clip", "rope_base",
    "embedding_layer_norm",
)  # fmt: skip
