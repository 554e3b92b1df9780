"""Checkpoints: folder and zip round trips, transformers loading, zips that are not checkpoints,
and folders and zips in the old layout (version 1), which still open."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
import torch

from explorer_core.bert.heads import BertForPreTraining
from explorer_core.bert.model import BertModel
from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import new_tokenizer
from explorer_core.training import checkpoint as ckpt_mod
from explorer_core.training.checkpoint import (
    Checkpoint,
    checkpoint_from_zip,
    checkpoint_to_zip,
    load_checkpoint,
    save_checkpoint,
)
from explorer_core.training.loop import TrainLog, TrainStep
from explorer_core.training.presets import PRESETS, Preset
from explorer_core.training.run import mlm_head_weights
from tests.old_checkpoint import save_version_1

SENTENCES = ["A cat sits on the mat.", "Two dogs run in the park!", "猫坐在垫子上。", "x"]
SMALL = Preset(name="t", hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
               intermediate_size=37, max_position_embeddings=32)  # fmt: skip


@pytest.fixture(scope="module")
def tokenizer():
    tok = new_tokenizer("byte-bpe")
    tok.train(builtin_corpus("mixed")[:6000], 400)
    return tok


def make_checkpoint(tokenizer, preset: Preset = SMALL, seed: int = 3) -> Checkpoint:
    vocab = BertVocab.of(tokenizer)
    model = BertModel(preset.config(vocab.size, vocab.pad_id), seed=seed)
    log = TrainLog(steps=[TrainStep("finetune", 1, 0.5, 1e-3, 0.25, sim_loss=0.25)])
    return Checkpoint(model, tokenizer, "mean", "test model", {"finetune": log}, max_length=32)


def test_folder_round_trip_gives_identical_embeddings(tokenizer, tmp_path):
    original = make_checkpoint(tokenizer)
    save_checkpoint(original, tmp_path / "ck")
    assert sorted(p.name for p in (tmp_path / "ck").iterdir()) == [
        "1_Pooling", "README.md", "config.json", "config_sentence_transformers.json",
        "explorer_checkpoint.json", "explorer_tokenizer.json", "model.safetensors",
        "modules.json", "sentence_bert_config.json", "special_tokens_map.json", "tokenizer.json",
        "tokenizer_config.json", "training_log.json",
    ]  # fmt: skip
    loaded = load_checkpoint(tmp_path / "ck")
    assert torch.equal(original.embed(SENTENCES), loaded.embed(SENTENCES))
    assert loaded.label == "test model" and loaded.pooling == "mean"
    assert loaded.config == original.config
    assert loaded.log["finetune"].steps[0].sim_loss == 0.25
    assert not loaded.model.training


def test_transformers_loads_the_folder_itself_with_equal_outputs(tokenizer, tmp_path):
    from transformers import AutoModel
    from transformers import BertModel as HFBertModel

    original = make_checkpoint(tokenizer)
    save_checkpoint(original, tmp_path)
    hf = AutoModel.from_pretrained(str(tmp_path), attn_implementation="eager").eval()
    assert isinstance(hf, HFBertModel)
    rows = original.vocab.encode(tokenizer, SENTENCES, max_length=32)  # a padded batch
    ids, mask = rows.input_ids, rows.attention_mask
    with torch.no_grad():
        ours = original.model(ids, mask).last_hidden_state
        theirs = hf(input_ids=ids, attention_mask=mask).last_hidden_state
    real = mask.bool()
    assert (ours[real] - theirs[real]).abs().max() < 1e-5


TUTORIAL = Preset(**{**PRESETS["tutorial"].__dict__, "hidden_size": 32, "intermediate_size": 37,
                     "num_hidden_layers": 1})  # fmt: skip


def test_non_bert_architecture_round_trips_and_transformers_says_why_not(tokenizer, tmp_path):
    """Sinusoidal positions and pre-LN: AutoModel and SentenceTransformer fail with our one line
    (the folder's README says the same), not with 39 size mismatches."""
    from sentence_transformers import SentenceTransformer
    from transformers import AutoModel, AutoTokenizer

    original = make_checkpoint(tokenizer, TUTORIAL)
    save_checkpoint(original, tmp_path)
    assert torch.equal(original.embed(SENTENCES), load_checkpoint(tmp_path).embed(SENTENCES))
    line = (tmp_path / "README.md").read_text().strip()
    assert "\n" not in line and "sinusoidal positions, pre-LN blocks" in line
    assert "transformers' BertModel lacks" in line and "explorer_core embed" in line
    for load in (AutoModel.from_pretrained, SentenceTransformer):
        with pytest.raises(ValueError) as err:
            load(str(tmp_path))
        assert line in str(err.value)
    assert not (tmp_path / "modules.json").exists()
    ids = AutoTokenizer.from_pretrained(str(tmp_path))(SENTENCES[0])["input_ids"]
    assert (
        ids == original.vocab.encode(tokenizer, SENTENCES[:1], max_length=32).input_ids[0].tolist()
    )


def test_loading_never_unpickles(tokenizer, tmp_path, monkeypatch):
    save_checkpoint(make_checkpoint(tokenizer), tmp_path)

    def refuse(*args, **kwargs):
        raise AssertionError("torch.load must not be used")

    monkeypatch.setattr(torch, "load", refuse)
    load_checkpoint(tmp_path)


def test_zip_round_trip(tokenizer, tmp_path):
    original = make_checkpoint(tokenizer)
    save_checkpoint(original, tmp_path / "a")
    data = checkpoint_to_zip(tmp_path / "a")
    loaded = checkpoint_from_zip(data, tmp_path / "b")
    assert torch.equal(original.embed(SENTENCES), loaded.embed(SENTENCES))
    assert (tmp_path / "b" / "explorer_tokenizer.json").is_file()


def test_zip_of_the_folder_itself_is_accepted(tokenizer, tmp_path):
    """Zipping the folder (entries under "ck/") is what a file manager does."""
    save_checkpoint(make_checkpoint(tokenizer), tmp_path / "ck")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for path in sorted((tmp_path / "ck").rglob("*")):
            if path.is_file():
                zf.write(path, path.relative_to(tmp_path).as_posix())
    loaded = checkpoint_from_zip(buffer.getvalue(), tmp_path / "out")
    assert loaded.label == "test model"


def _zip(entries: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:
        for name, data in entries.items():
            zf.writestr(name, data)
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"not a zip at all", "not a zip"),
        (_zip({"readme.txt": b"hello"}), "needs explorer_checkpoint.json and model.safetensors"),
        (_zip({"../evil/config.json": b"{}", "model.safetensors": b""}), "unsafe path"),
        (_zip({"/abs/config.json": b"{}"}), "unsafe path"),
        (_zip({"config.json": b"{}", "model.safetensors": b"x"}), "not an Embedding Explorer"),
        (_zip({"config.json": b"not json", "model.safetensors": b"x"}), "not an Embedding Expl"),
        (_zip({"explorer_checkpoint.json": b"{", "model.safetensors": b"x"}), "not valid JSON"),
    ],
)
def test_bad_zips_are_refused_with_a_clear_message(tmp_path, data, message):
    dest = tmp_path / "dest"
    with pytest.raises(ValueError, match=message):
        checkpoint_from_zip(data, dest)
    assert not dest.exists() or not any(dest.iterdir())
    assert not (tmp_path / "evil").exists()


def test_corrupt_weights_and_size_limits(tokenizer, tmp_path, monkeypatch):
    save_checkpoint(make_checkpoint(tokenizer), tmp_path / "ck")
    files = {n: (tmp_path / "ck" / n).read_bytes() for n in (ckpt_mod.META_FILE, "config.json")}
    bad = _zip({**files, "model.safetensors": b"garbage"})
    with pytest.raises(ValueError, match="not a usable checkpoint"):
        checkpoint_from_zip(bad, tmp_path / "d1")
    data = checkpoint_to_zip(tmp_path / "ck")
    monkeypatch.setattr(ckpt_mod, "MAX_UNZIPPED_BYTES", 1000)
    with pytest.raises(ValueError, match="size limit"):
        checkpoint_from_zip(data, tmp_path / "d2")
    monkeypatch.setattr(ckpt_mod, "MAX_ZIP_BYTES", 100)
    with pytest.raises(ValueError, match="larger than"):
        checkpoint_from_zip(data, tmp_path / "d3")


def test_destination_must_be_empty(tokenizer, tmp_path):
    save_checkpoint(make_checkpoint(tokenizer), tmp_path / "ck")
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "x.txt").write_text("mine")
    with pytest.raises(ValueError, match="not empty"):
        checkpoint_from_zip(checkpoint_to_zip(tmp_path / "ck"), tmp_path / "busy")
    assert (tmp_path / "busy" / "x.txt").read_text() == "mine"


def test_tokenizer_and_model_must_fit(tokenizer):
    model = BertModel(SMALL.config(vocab_size=50))
    with pytest.raises(ValueError, match="do not belong together"):
        Checkpoint(model, tokenizer)


def test_our_file_records_tokenizer_and_specials_and_config_json_is_transformers(
    tokenizer, tmp_path
):
    save_checkpoint(make_checkpoint(tokenizer), tmp_path)
    meta = json.loads((tmp_path / "explorer_checkpoint.json").read_text())
    assert meta["tokenizer"]["algo"] == "byte-bpe" and meta["version"] == 2
    assert meta["special_ids"]["size"] == meta["model"]["vocab_size"]
    assert meta["model"]["rope_base"] == 10000.0  # settings transformers has no field for
    hf = json.loads((tmp_path / "config.json").read_text())
    assert hf["model_type"] == "bert" and hf["position_embedding_type"] == "absolute"
    assert "format" not in hf and "rope_base" not in hf


@pytest.mark.parametrize("preset", [SMALL, TUTORIAL], ids=["bert", "tutorial"])
def test_a_version_1_folder_still_loads(tokenizer, tmp_path, preset):
    original = make_checkpoint(tokenizer, preset)
    save_version_1(original, tmp_path / "old")
    assert ckpt_mod.is_checkpoint(tmp_path / "old")
    loaded = load_checkpoint(tmp_path / "old")
    assert torch.equal(original.embed(SENTENCES), loaded.embed(SENTENCES))
    assert loaded.label == "test model" and loaded.log["finetune"].steps[0].sim_loss == 0.25


def test_a_version_1_zip_still_uploads(tokenizer, tmp_path):
    """The Train page's upload (checkpoint_from_zip) of a zip downloaded before the new layout:
    the root's config.json, not hf/config.json, marks the checkpoint."""
    original = make_checkpoint(tokenizer)
    save_version_1(original, tmp_path / "old")
    data = checkpoint_to_zip(tmp_path / "old")
    assert "hf/config.json" in zipfile.ZipFile(io.BytesIO(data)).namelist()
    loaded = checkpoint_from_zip(data, tmp_path / "up")
    assert torch.equal(original.embed(SENTENCES), loaded.embed(SENTENCES))


def test_saving_over_a_version_1_folder_leaves_the_new_layout_only(tokenizer, tmp_path):
    from sentence_transformers import SentenceTransformer

    original = make_checkpoint(tokenizer)
    save_version_1(original, tmp_path)
    save_checkpoint(original, tmp_path)
    assert not (tmp_path / "hf").exists() and not (tmp_path / "tokenizer").exists()
    vectors = SentenceTransformer(str(tmp_path), device="cpu").encode(SENTENCES)
    assert torch.allclose(torch.as_tensor(vectors), original.embed(SENTENCES, False), atol=1e-5)


def test_the_mlm_head_rebuilds_the_pre_training_model_on_the_same_weights(tokenizer):
    vocab = BertVocab.of(tokenizer)
    full = BertForPreTraining(SMALL.config(vocab.size, vocab.pad_id), seed=5).eval()
    ckpt = Checkpoint(model=full.bert, tokenizer=tokenizer, mlm_head=mlm_head_weights(full))
    rebuilt = ckpt.pretraining_model()
    assert rebuilt.bert is ckpt.model  # one encoder: the lens reads the model the page traces
    assert rebuilt.cls.predictions.decoder.weight is ckpt.model.embeddings.word_embeddings.weight
    ids = torch.tensor([[2, 9, 14, 3]])
    with torch.no_grad():
        want, got = full(ids), rebuilt(ids)
    assert torch.equal(got.prediction_logits, want.prediction_logits)
    assert torch.equal(got.seq_relationship_logits, want.seq_relationship_logits)
    assert Checkpoint(model=full.bert, tokenizer=tokenizer).pretraining_model() is None
    wrong = {**mlm_head_weights(full), "extra.weight": torch.zeros(1)}
    with pytest.raises(ValueError, match="does not fit"):
        Checkpoint(model=full.bert, tokenizer=tokenizer, mlm_head=wrong).pretraining_model()
