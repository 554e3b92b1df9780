"""The families in use beyond loading: a fresh model of each family's config runs, and its trace
equals its forward; a local layer's cell arithmetic sees the window; checkpoints of the family
switches (ALBERT's shared layer, ModernBERT's everything) save and load."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch

from explorer_core.bert.families import FAMILIES, config_from_transformers
from explorer_core.bert.model import BertModel
from explorer_core.bert.trace import trace_encoder
from tests.family_models import hf_config

ATOL = dict(atol=1e-5, rtol=0)


def fresh(family: str, **overrides) -> BertModel:
    config = config_from_transformers(hf_config(family).to_dict())
    return BertModel(replace(config, **overrides), seed=4).eval()


@pytest.mark.parametrize("family", FAMILIES)
def test_a_fresh_model_of_every_family_traces_what_it_computes(family):
    model = fresh(family)
    ids = torch.randint(3, 99, (11,), generator=torch.Generator().manual_seed(2))
    trace = trace_encoder(model, ids)
    with torch.no_grad():
        out = model(ids[None], output_hidden_states=True, output_attentions=True)
    for mine, theirs in zip(trace.hidden_states(), out.hidden_states, strict=True):
        torch.testing.assert_close(mine, theirs[0], **ATOL)
    for layer, weights in zip(trace.layers, out.attentions, strict=True):
        torch.testing.assert_close(layer.attention_weights, weights[0], **ATOL)


def test_cell_arithmetic_of_a_local_layer_sees_the_window():
    model = fresh("modernbert")
    ids = torch.randint(3, 99, (1, 11), generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        weights = model(ids, output_attentions=True).attentions[1][0, 2]  # layer 1 is local
    near = model.explain_cell(ids, layer=1, head=2, query=5, key=6)
    far = model.explain_cell(ids, layer=1, head=2, query=5, key=9)
    assert near.weight == pytest.approx(float(weights[5, 6]), abs=1e-6) and near.mask == 0.0
    assert far.weight == 0.0 and far.mask < -1e30
    torch.testing.assert_close(torch.tensor(near.row_weights), weights[5], **ATOL)


@pytest.mark.parametrize("family", ["albert", "modernbert", "roberta"])
def test_family_checkpoints_save_and_load(family, tmp_path):
    from explorer_core.inputs.datasets import builtin_corpus
    from explorer_core.inputs.vocab import BertVocab
    from explorer_core.tokenization import new_tokenizer
    from explorer_core.training.checkpoint import Checkpoint, load_checkpoint, save_checkpoint

    tokenizer = new_tokenizer("byte-bpe")
    tokenizer.train(builtin_corpus("en")[:3000], 300)
    vocab = BertVocab.of(tokenizer)
    room = vocab.pad_id + 40  # RoBERTa's positions start after the pad id
    model = fresh(family, vocab_size=vocab.size, pad_token_id=vocab.pad_id,
                  max_position_embeddings=room)  # fmt: skip
    original = Checkpoint(model, tokenizer, "mean", family, max_length=24)
    save_checkpoint(original, tmp_path / "ckpt")
    loaded = load_checkpoint(tmp_path / "ckpt")
    assert loaded.config == original.config
    distinct = len(set(map(id, loaded.model.encoder.layer)))
    assert distinct == (1 if family == "albert" else loaded.config.num_hidden_layers)
    texts = ["a cat sat on the mat", "the dog"]
    torch.testing.assert_close(loaded.embed(texts), original.embed(texts), **ATOL)
