"""MiniLM + 中文 on disk (files.taught_model) and as a worker's plan (multilingual.DistillPlan)."""

from __future__ import annotations

import pytest

from explorer_core.files import taught_model
from explorer_core.inputs.parallel import builtin_parallel_pairs
from explorer_core.inputs.vocab import BertVocab
from explorer_core.training import multilingual, taught_folder
from explorer_core.training.checkpoint import load_checkpoint, replace_checkpoint
from explorer_core.training.multilingual import DistillPlan, MultilingualConfig
from explorer_core.ui.training import chinese


def test_not_built_is_none_everywhere(tmp_path, monkeypatch):
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path))
    assert taught_model.folder().parent == tmp_path / "models"
    assert taught_model.built_folder() is None and taught_model.stamp() is None
    assert taught_model.load() is None and taught_model.load_tokenizer() is None


@pytest.mark.slow
def test_the_installed_model_loads_whole_and_its_tokenizer_alone(taught):
    ckpt = taught_model.load()
    assert ckpt is not None and not ckpt.model.training
    alone = taught_model.load_tokenizer()
    assert alone.vocab == ckpt.tokenizer.vocab  # the lesson's first screens read only this
    assert alone.encode("猫坐在垫子上。") == ckpt.tokenizer.encode("猫坐在垫子上。")
    assert taught_model.built_folder().name == f"minilm-zh-{taught_model.fingerprint()}"


def test_install_replaces_atomically_and_removes_older_recipes(tmp_path, monkeypatch, taught):
    ckpt = taught_model.load()
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path))
    stale = tmp_path / "models" / "minilm-zh-000000000000"
    stale.mkdir(parents=True)
    first = taught_model.install(ckpt)
    stamp = taught_model.stamp()
    again = taught_model.install(ckpt)
    assert first == again == taught_model.built_folder()
    assert taught_model.stamp() >= stamp
    assert not stale.exists()
    assert [p.name for p in (tmp_path / "models").iterdir()] == [first.name]  # nothing aside


def test_replace_checkpoint_leaves_the_old_folder_when_the_write_fails(tmp_path, taught):
    ckpt = taught_model.load()
    folder = replace_checkpoint(ckpt, tmp_path / "m")
    before = (folder / "model.safetensors").read_bytes()

    class Broken:
        def __getattr__(self, name):
            raise OSError("disk full")

    with pytest.raises(OSError):
        replace_checkpoint(Broken(), folder)
    assert (folder / "model.safetensors").read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["m"]  # the aside folder is gone
    assert load_checkpoint(folder).config.vocab_size == ckpt.config.vocab_size


def test_fingerprint_follows_the_recipe(monkeypatch):
    first = taught_model.fingerprint()
    taught_model.fingerprint.cache_clear()
    monkeypatch.setattr(taught_folder, "RECIPE_VERSION", "test")
    assert taught_model.fingerprint() != first
    taught_model.fingerprint.cache_clear()


def test_distill_plan_for_the_worker():
    plan = DistillPlan(MultilingualConfig(batch_size=32))  # 3 epochs over the shipped pairs
    ((phase, config),) = plan.phases
    assert phase == multilingual.PHASE == chinese.PHASE
    assert config.steps == 3 * -(-len(builtin_parallel_pairs()) // 32)
    assert plan.returns_model and not DistillPlan(out="x").returns_model
    app = chinese.plan()
    assert app.out == str(taught_model.folder()) and app.config.eval_every == chinese.EVAL_EVERY
    assert app.config.epochs == MultilingualConfig().epochs  # the app builds the default recipe


@pytest.mark.slow
def test_the_installed_folder_loads_in_sentence_transformers_and_transformers(taught):
    """The issue's check: the taught folder, as installed, gives our vectors (1e-4) in
    sentence-transformers, and transformers' tokenizer cuts Chinese into the same ids."""
    import torch
    from sentence_transformers import SentenceTransformer
    from transformers import AutoTokenizer

    texts = [
        "猫坐在垫子上。",
        "一个男人在弹吉他。",
        "A man is playing a guitar.",
        "今天股市大幅下跌。",
    ]
    folder = taught_model.built_folder()
    ckpt = taught_model.load()
    st = SentenceTransformer(str(folder), device="cpu")
    theirs = torch.as_tensor(st.encode(texts, convert_to_numpy=True))
    ours = ckpt.embed(texts, normalize=False)
    assert torch.allclose(theirs, ours, atol=1e-4), (theirs - ours).abs().max()
    hf, vocab = AutoTokenizer.from_pretrained(str(folder)), BertVocab.of(ckpt.tokenizer)
    for text in texts:
        ids = [vocab.cls_id, *vocab.content_ids(ckpt.tokenizer, text), vocab.sep_id]
        assert hf(text)["input_ids"] == ids, text
    assert max(hf("猫坐在垫子上。")["input_ids"]) >= 30_522  # a new character's id
