"""Starting from a pretrained model (--init), devices (--device) and the CLI's progress lines."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
import torch

from explorer_core.bert.model import BertModel
from explorer_core.cli import main
from explorer_core.inputs.datasets import builtin_sts_pairs
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import load_tokenizer
from explorer_core.tokenization.char_bpe import CharBPETokenizer
from explorer_core.training.checkpoint import Checkpoint, save_checkpoint
from explorer_core.training.devices import resolve_device
from explorer_core.training.finetune import FinetuneConfig
from explorer_core.training.jobs import StsJob, build_plan, get_tokenizer
from explorer_core.training.presets import Preset
from explorer_core.training.run import TrainingPlan, build_model, run_plan
from tests.models import write_pairs_table
from tests.old_checkpoint import save_version_1

SMALL = Preset(name="test", hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
               intermediate_size=37, max_position_embeddings=48)  # fmt: skip
NO_CUDA = "needs a CUDA GPU (torch.cuda.is_available() is False on this machine)"


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> Path:
    return write_pairs_table(tmp_path_factory.mktemp("data") / "pairs.tsv")


@pytest.fixture(scope="module")
def parts():
    pairs = builtin_sts_pairs()
    return {s: [p for p in pairs if p.split == s] for s in ("train", "dev", "test")}


def small_plan(parts, **fields) -> TrainingPlan:
    tok = CharBPETokenizer(lowercase=True)
    tok.train("\n".join(s for p in parts["train"] for s in (p.sentence1, p.sentence2)), 800)
    vocab = BertVocab.of(tok)
    config = replace(SMALL.config(vocab.size, vocab.pad_id), hidden_dropout_prob=0.0,
                     attention_probs_dropout_prob=0.0)  # fmt: skip
    fine = FinetuneConfig(steps=3, batch_size=8, max_length=32, eval_every=0)
    return TrainingPlan(tokenizer=tok, model_config=config, train_pairs=tuple(parts["train"]),
                        finetune=fine, **fields)  # fmt: skip


def test_init_minilm_starts_from_minilm_weights_with_its_own_tokenizer(parts, minilm_dir):
    """--init minilm: WordPiece of 30,522 ids, MiniLM's config, no pre-training, lr 2e-5."""
    job = StsJob(train=Path("unused"), out=Path("unused"), init="minilm", device="cpu")
    tokenizer = get_tokenizer(job, [])
    plan = build_plan(job, tokenizer, parts)
    assert tokenizer.algo == "wordpiece" and BertVocab.of(tokenizer).size == 30522
    assert plan.pretrain is None and plan.finetune.learning_rate == 2e-5
    assert plan.model_config.hidden_size == 384 and plan.pooling == "mean"
    assert not plan.finetune.in_batch_negatives
    model = build_model(plan, pretraining=False)
    reference = BertModel.from_transformers(minilm_dir)
    for name, tensor in reference.state_dict().items():
        assert torch.equal(model.state_dict()[name], tensor), name


@pytest.mark.parametrize("save", [save_checkpoint, save_version_1], ids=["current", "version-1"])
def test_init_from_a_checkpoint_folder_continues_from_its_weights(parts, tmp_path, save):
    """--init FOLDER reads the current layout and the old one (our config.json, tokenizer/)."""
    first = run_plan(small_plan(parts))
    save(first, tmp_path / "ckpt")
    job = StsJob(train=Path("unused"), out=Path("unused"), init=str(tmp_path / "ckpt"))
    tokenizer = get_tokenizer(job, [])
    assert tokenizer.vocab == first.tokenizer.vocab
    plan = build_plan(job, tokenizer, parts)
    model = build_model(plan, pretraining=False)
    for name, tensor in first.model.state_dict().items():
        assert torch.equal(model.state_dict()[name], tensor), name
    fresh = build_model(replace(plan, init="fresh"), pretraining=False)
    assert not torch.equal(fresh.embeddings.word_embeddings.weight,
                           first.model.embeddings.word_embeddings.weight)  # fmt: skip


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"init": "minilm", "pretrain_on_pairs": True}, "fine-tuned only"),
        ({"init": "/no/such/folder"}, "neither"),
    ],
)
def test_bad_starts_are_refused(parts, fields, message):
    job = StsJob(train=Path("unused"), out=Path("unused"), **fields)
    with pytest.raises(ValueError, match=message):
        build_plan(job, get_tokenizer(job, ["a b"]), parts)


def test_lowercase_char_bpe_is_the_default_and_round_trips(parts, tmp_path):
    job = StsJob(train=Path("unused"), out=Path("unused"))
    tok = get_tokenizer(job, ["The Cat sat.", "the cat SAT", "猫坐着"])
    assert tok.lowercase and tok.encode("THE CAT") == tok.encode("the cat")
    tok.save(tmp_path / "tok")
    again = load_tokenizer(tmp_path / "tok")
    assert again.lowercase and again.encode("The Cat 猫") == tok.encode("the cat 猫")
    from tokenizers import Tokenizer as HFTokenizer

    hf = HFTokenizer.from_file(str(tmp_path / "tok" / "tokenizer.json"))
    assert hf.encode("The CAT sat, 猫坐着").ids == tok.encode("The CAT sat, 猫坐着")
    kept = get_tokenizer(replace(job, lowercase=False), ["The Cat sat."])
    assert kept.encode("The") != kept.encode("the")


def test_cuda_without_a_gpu_is_one_line_and_exit_2(table, tmp_path, capsys):
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: --device cuda is valid here")
    for argv in (
        ["train", "sts", "--train", str(table), "--device", "cuda", "--out", str(tmp_path)],
        ["embed", "--model", str(tmp_path), "--text", "a", "--device", "cuda"],
        ["train", "sts", "--train", str(table), "--device", "tpu", "--out", str(tmp_path)],
    ):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and err.startswith("error: ")
        assert "CUDA" in err or "device must be" in err
    assert resolve_device("auto") == "cpu"


def test_progress_goes_to_stderr_and_json_stays_one_object(table, tmp_path, capsys):
    argv = ["train", "sts", "--train", str(table), "--steps", "5", "--vocab-size", "800",
            "--device", "cpu", "--out", str(tmp_path / "m"), "--json"]  # fmt: skip
    assert main(argv) == 0
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["finetune_steps"] == 5
    err = captured.err.splitlines()
    assert err[0].startswith("[finetune] step 1/5  loss ") and "s left" in err[0]
    assert any("step 5: dev Spearman" in line for line in err)  # the final evaluation
    assert all(line.startswith("[finetune] step ") for line in err)


@pytest.mark.slow
def test_cli_fine_tunes_minilm_and_it_stays_good_in_english(table, tmp_path, capsys):
    argv = ["train", "sts", "--train", str(table), "--init", "minilm", "--steps", "2",
            "--out", str(tmp_path / "m"), "--json"]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tokenizer"] == "wordpiece, 30522 ids" and report["pretrain_steps"] == 0
    assert report["test_spearman_by_lang"]["en"] > 0.7  # MiniLM as is scores ~0.87 here
    assert (tmp_path / "m" / "modules.json").is_file()


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason=NO_CUDA)
def test_training_on_cuda_equals_the_cpu(parts):
    """Same seed, no dropout: the loss curve and the final vectors agree within float tolerance."""
    on_cpu = run_plan(small_plan(parts, device="cpu"))
    on_gpu = run_plan(small_plan(parts, device="cuda"))
    cpu_losses = [s.loss for s in on_cpu.log["finetune"].steps]
    gpu_losses = [s.loss for s in on_gpu.log["finetune"].steps]
    assert gpu_losses == pytest.approx(cpu_losses, rel=1e-4, abs=1e-5)
    assert str(next(on_gpu.model.parameters()).device).startswith("cuda")
    texts = ["A man plays a guitar.", "一个男人在弹吉他。"]
    assert torch.allclose(on_gpu.embed(texts), on_cpu.embed(texts), atol=1e-4)


@pytest.mark.gpu
@pytest.mark.skipif(not torch.cuda.is_available(), reason=NO_CUDA)
def test_embed_on_cuda_equals_the_cpu(parts, tmp_path, capsys):
    save_checkpoint(run_plan(small_plan(parts)), tmp_path / "m")
    vectors = {}
    for device in ("cpu", "cuda"):
        assert main(["embed", "--model", str(tmp_path / "m"), "--text", "a cat", "--json",
                     "--device", device]) == 0  # fmt: skip
        vectors[device] = json.loads(capsys.readouterr().out)["vectors"][0]
    assert vectors["cuda"] == pytest.approx(vectors["cpu"], abs=1e-4)


def test_checkpoint_type_is_unchanged(parts):
    assert isinstance(run_plan(small_plan(parts)), Checkpoint)
