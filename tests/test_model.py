"""BertModel and BertForPreTraining: shapes, seeds, parity with transformers (tiny and MiniLM)."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
import transformers

from explorer_core.bert.heads import BertForPreTraining
from explorer_core.bert.model import BertConfig, BertModel

B, T = 13, 7


def tiny(**overrides) -> BertConfig:
    values = dict(
        vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37,
    )  # fmt: skip
    return BertConfig(**{**values, **overrides})


def hf_tiny_config() -> transformers.BertConfig:
    return transformers.BertConfig(
        vocab_size=99, hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
        intermediate_size=37, attn_implementation="eager",
    )  # fmt: skip


def batch(seed: int = 0) -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    lengths = torch.tensor([7, 1, 2, 3, 4, 5, 6, 7, 3, 5, 2, 6, 4])
    mask = (torch.arange(T)[None, :] < lengths[:, None]).long()
    ids = torch.randint(1, 99, (B, T), generator=g) * mask  # [PAD] = 0 after each sentence
    types = torch.randint(0, 2, (B, T), generator=g) * mask
    return {"input_ids": ids, "attention_mask": mask, "token_type_ids": types}


def max_error(ours, theirs, mask=None) -> float:
    errors = []
    for a, b in zip(ours, theirs, strict=True):
        diff = (a - b).abs()
        errors.append(float(diff[mask].max() if mask is not None else diff.max()))
    return max(errors)


@torch.no_grad()
def test_output_shapes_on_the_tiny_odd_config():
    model = BertModel(tiny()).eval()
    out = model(**batch(), output_attentions=True, output_hidden_states=True, output_scores=True)
    assert out.last_hidden_state.shape == (B, T, 32)
    assert out.pooler_output.shape == (B, 32)
    assert len(out.hidden_states) == 3 and all(h.shape == (B, T, 32) for h in out.hidden_states)
    assert len(out.attentions) == 2 and all(a.shape == (B, 4, T, T) for a in out.attentions)
    assert len(out.scores) == 2 and all(s.shape == (B, 4, T, T) for s in out.scores)
    plain = model(**batch())
    assert plain.attentions is None and plain.hidden_states is None and plain.scores is None
    torch.testing.assert_close(plain.last_hidden_state, out.last_hidden_state, atol=1e-5, rtol=0)


def test_same_seed_same_weights_other_seed_other_weights():
    a, b, c = BertModel(tiny(), seed=3), BertModel(tiny(), seed=3), BertModel(tiny(), seed=4)
    for (name, x), y in zip(a.state_dict().items(), b.state_dict().values(), strict=True):
        assert torch.equal(x, y), name
    assert not torch.equal(a.encoder.layer[0].attention.self.query.weight,
                           c.encoder.layer[0].attention.self.query.weight)  # fmt: skip
    assert a.embeddings.word_embeddings.weight[0].abs().sum() == 0  # the [PAD] row


@pytest.mark.parametrize("norm", ["post", "pre"])
@pytest.mark.parametrize("position", ["learned", "sinusoidal", "relative", "rotary"])
@torch.no_grad()
def test_every_variant_runs_and_fast_equals_explicit(position, norm):
    model = BertModel(tiny(position_embedding_type=position, norm_placement=norm)).eval()
    out = model(**batch(), output_attentions=True, output_hidden_states=True)
    fast = model(**batch())
    torch.testing.assert_close(fast.last_hidden_state, out.last_hidden_state, atol=1e-5, rtol=0)
    assert torch.equal(out.hidden_states[-1], out.last_hidden_state)


@torch.no_grad()
def test_parity_with_transformers_tiny_bert():
    torch.manual_seed(0)  # transformers initialises from the global generator
    theirs = transformers.BertModel(hf_tiny_config()).eval()
    ours = BertModel.from_transformers(theirs)
    inputs = batch()
    a = theirs(**inputs, output_attentions=True, output_hidden_states=True)
    b = ours(**inputs, output_attentions=True, output_hidden_states=True)
    assert max_error(b.hidden_states, a.hidden_states) < 1e-5
    assert max_error(b.attentions, a.attentions) < 1e-6
    torch.testing.assert_close(b.pooler_output, a.pooler_output, atol=1e-5, rtol=0)


def test_state_dicts_load_both_ways():
    ours = BertForPreTraining(tiny(), seed=1)
    theirs = transformers.BertForPreTraining(hf_tiny_config())
    assert theirs.load_state_dict(ours.state_dict(), strict=True)  # ours -> transformers
    back = BertForPreTraining.from_transformers(theirs)  # transformers -> ours
    for name, tensor in ours.state_dict().items():
        assert torch.equal(back.state_dict()[name], tensor), name
    model = BertModel(tiny(), seed=1)
    assert transformers.BertModel(hf_tiny_config()).load_state_dict(model.state_dict())


def pretraining_labels(ids: torch.Tensor, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    g = torch.Generator().manual_seed(seed)
    chosen = (torch.rand(ids.shape, generator=g) < 0.3) & (ids > 0)
    chosen[0, 1] = True  # at least one label
    labels = torch.where(chosen, ids, torch.full_like(ids, -100))
    return labels, torch.randint(0, 2, (ids.shape[0],), generator=g)


@torch.no_grad()
def test_pretraining_parity_with_transformers_and_masked_only_logits():
    torch.manual_seed(1)
    theirs = transformers.BertForPreTraining(hf_tiny_config()).eval()
    ours = BertForPreTraining.from_transformers(theirs)
    inputs = batch()
    labels, nsp = pretraining_labels(inputs["input_ids"])
    a = theirs(**inputs, labels=labels, next_sentence_label=nsp)
    b = ours(**inputs, labels=labels, next_sentence_label=nsp)
    c = ours(**inputs, labels=labels, next_sentence_label=nsp, masked_logits_only=True)
    assert float(b.loss) == pytest.approx(float(a.loss), abs=1e-5)
    assert float(c.loss) == pytest.approx(float(a.loss), abs=1e-5)
    torch.testing.assert_close(b.prediction_logits, a.prediction_logits, atol=1e-5, rtol=0)
    torch.testing.assert_close(b.seq_relationship_logits, a.seq_relationship_logits)
    selected = labels != -100
    assert c.prediction_logits.shape == (int(selected.sum()), 99)
    torch.testing.assert_close(
        c.prediction_logits, b.prediction_logits[selected], atol=1e-5, rtol=0
    )
    assert torch.equal(c.masked_positions, selected)


@torch.no_grad()
def test_losses_ignore_minus_100_and_are_reported_apart():
    model = BertForPreTraining(tiny()).eval()
    inputs = batch()
    labels, nsp = pretraining_labels(inputs["input_ids"])
    out = model(**inputs, labels=labels, next_sentence_label=nsp)
    keep = labels != -100
    mlm = F.cross_entropy(out.prediction_logits[keep], labels[keep])
    torch.testing.assert_close(out.mlm_loss, mlm)
    torch.testing.assert_close(out.nsp_loss, F.cross_entropy(out.seq_relationship_logits, nsp))
    torch.testing.assert_close(out.loss, out.mlm_loss + out.nsp_loss)
    only_mlm = model(**inputs, labels=labels)
    assert only_mlm.nsp_loss is None and torch.equal(only_mlm.loss, only_mlm.mlm_loss)
    nothing = model(**inputs)
    assert nothing.loss is None and nothing.prediction_logits.shape == (B, T, 99)
    with pytest.raises(ValueError, match="needs labels"):
        model(**inputs, masked_logits_only=True)


def test_decoder_is_tied_to_the_word_embeddings_and_training_moves_both():
    model = BertForPreTraining(tiny(), seed=2).train()
    assert model.cls.predictions.decoder.weight is model.bert.embeddings.word_embeddings.weight
    assert model.cls.predictions.decoder.bias is model.cls.predictions.bias
    inputs = batch()
    labels, nsp = pretraining_labels(inputs["input_ids"])
    before = model.cls.predictions.decoder.weight.detach().clone()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    model(**inputs, labels=labels, next_sentence_label=nsp, masked_logits_only=True).loss.backward()
    optimizer.step()
    assert not torch.equal(before, model.bert.embeddings.word_embeddings.weight)
    assert model.cls.predictions.decoder.weight is model.bert.embeddings.word_embeddings.weight


def test_saved_transformers_folder_loads_and_pickles_are_refused(tmp_path):
    torch.manual_seed(2)
    theirs = transformers.BertForPreTraining(hf_tiny_config()).eval()
    theirs.save_pretrained(tmp_path / "hf")  # writes tied weights once
    ours = BertForPreTraining.from_transformers(tmp_path / "hf")
    inputs = batch()
    with torch.no_grad():
        torch.testing.assert_close(
            ours(**inputs).prediction_logits, theirs(**inputs).prediction_logits, atol=1e-5, rtol=0
        )
    bert_only = BertModel.from_transformers(tmp_path / "hf")  # "bert." prefix, "cls." ignored
    assert bert_only.config.vocab_size == 99
    (tmp_path / "pickle").mkdir()
    (tmp_path / "pickle" / "config.json").write_text("{}")
    (tmp_path / "pickle" / "pytorch_model.bin").write_bytes(b"not read")
    with pytest.raises(ValueError, match="safetensors"):
        BertModel.from_transformers(tmp_path / "pickle")


def test_bad_inputs_raise_readable_errors():
    model = BertModel(tiny(max_position_embeddings=8)).eval()
    with pytest.raises(ValueError, match="longer than this model's maximum of 8"):
        model(torch.ones(1, 9, dtype=torch.long))
    with pytest.raises(ValueError, match="empty"):
        model(torch.ones(1, 0, dtype=torch.long))
    with pytest.raises(ValueError, match="outside"):
        model(torch.full((1, 3), 99))
    with pytest.raises(ValueError, match="same shape"):
        model(torch.ones(2, 3, dtype=torch.long), torch.ones(2, 4, dtype=torch.long))


# ---- the real pretrained model: all-MiniLM-L6-v2 (loaded once for this module) ----

SENTENCES = ["A man is playing a guitar.", "Attention weights are not explanations!"]


@pytest.fixture(scope="module")
def minilm(minilm_dir):
    tokenizer = transformers.AutoTokenizer.from_pretrained(minilm_dir)
    theirs = transformers.AutoModel.from_pretrained(minilm_dir, attn_implementation="eager")
    return tokenizer, theirs.eval(), BertModel.from_transformers(minilm_dir)


@torch.no_grad()
def test_minilm_parity_single_sentences(minilm):
    tokenizer, theirs, ours = minilm
    for sentence in SENTENCES:
        enc = tokenizer(sentence, return_tensors="pt")
        a = theirs(**enc, output_attentions=True, output_hidden_states=True)
        b = ours(**enc, output_attentions=True, output_hidden_states=True)
        assert len(b.attentions) == 6 and b.attentions[0].shape[1] == 12
        assert max_error(b.hidden_states, a.hidden_states) < 1e-4
        assert max_error(b.attentions, a.attentions) < 1e-4


@torch.no_grad()
def test_minilm_parity_padded_batch(minilm):
    tokenizer, theirs, ours = minilm
    enc = tokenizer([*SENTENCES, "Hi."], padding=True, return_tensors="pt")
    assert (enc["attention_mask"] == 0).any()
    a = theirs(**enc, output_attentions=True, output_hidden_states=True)
    b = ours(**enc, output_attentions=True, output_hidden_states=True)
    real = enc["attention_mask"].bool()
    assert max_error(b.hidden_states, a.hidden_states, real) < 1e-4
    assert max_error(b.hidden_states, a.hidden_states) < 1e-4  # padded rows too
    assert max_error(b.attentions, a.attentions) < 1e-4
    fast = ours(**enc)
    torch.testing.assert_close(fast.last_hidden_state, a.last_hidden_state, atol=1e-4, rtol=0)


def test_a_model_built_to_be_loaded_skips_the_seeded_start(minilm_dir):
    """from_transformers builds without BERT's random start (every weight is loaded next), and
    the result is the same model as one built with it."""
    from explorer_core.bert.weights import load_weights, read_transformers

    config, weights = read_transformers(minilm_dir)
    drawn = BertModel(config, seed=3)
    load_weights(drawn, dict(weights), drop_prefix="bert.", ignore=("cls.",))
    loaded = BertModel.from_transformers(minilm_dir)
    for (name, a), (_, b) in zip(
        drawn.state_dict().items(), loaded.state_dict().items(), strict=True
    ):
        assert torch.equal(a, b), name
    bare = BertModel(config, initialize=False)
    seeded = BertModel(config, seed=0)
    assert not torch.equal(bare.pooler.dense.weight, seeded.pooler.dense.weight)
