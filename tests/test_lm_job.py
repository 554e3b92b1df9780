"""The decoder's run as a job of the Train section's machinery (training.lm_job), where its
folder goes (models.settings.trained_dir, listed by the catalog), and a decoder's sentence
vectors on a few pairs (analysis.decoder_vectors)."""

from __future__ import annotations

import threading

import pytest

from explorer_core.training.lm_job import LMPlan, LMStart, need_bytes, new_folder, prune
from explorer_core.training.loop import TrainStep
from tests.decoder_runs import tiny_config, tiny_decoder_folder


def test_the_plan_reports_its_references_steps_and_saves_a_gpt2_folder(tmp_path):
    from explorer_core.decoder import LMRecord, LMSample, load_decoder

    out = tmp_path / "trained" / "decoder-x"
    plan = LMPlan(tiny_config(steps=6), out=str(out))
    assert plan.returns_model is False and plan.phases[0][0] == "lm"
    records = []
    plan.run(callback=records.append, stop=threading.Event())
    assert isinstance(records[0], LMStart) and records[0].bigram_loss < records[0].uniform_loss
    evals = [r for r in records if isinstance(r, LMRecord)]
    steps = [r for r in records if isinstance(r, TrainStep)]
    assert evals and [s.step for s in steps] == [e.step for e in evals]
    assert any(isinstance(r, LMSample) for r in records)
    assert (out / "config.json").is_file() and not list(out.parent.glob(".*partial"))
    model, tokenizer = load_decoder(out)
    assert model.config.causal


def test_a_stopped_plan_still_saves_its_model(tmp_path):
    stop = threading.Event()
    stop.set()  # before the first step
    out = tmp_path / "decoder-stopped"
    LMPlan(tiny_config(steps=1000), out=str(out)).run(callback=None, stop=stop)
    assert (out / "config.json").is_file()


def test_the_trained_folder_is_an_allowed_root_and_the_catalog_lists_the_decoder():
    from explorer_core.models import scan
    from explorer_core.models.settings import allowed_roots, model_dirs, trained_dir

    folder = tiny_decoder_folder()
    assert trained_dir() in model_dirs() and folder.parent == trained_dir()
    assert any(str(folder.resolve()).startswith(str(root)) for root in allowed_roots())
    entry = next(e for e in scan() if e.folder.resolve() == folder.resolve())
    assert entry.family == "gpt2" and not entry.refused, entry.refused


def test_prune_keeps_the_newest_decoders(tmp_path, monkeypatch):
    import os
    import time

    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path))
    folders = [new_folder("en", seed) for seed in range(4)]
    for age, folder in enumerate(folders):
        folder.mkdir(parents=True)
        os.utime(folder, (time.time() - 100 * age,) * 2)  # folders[0] is the newest
    assert prune(keep=2) == folders[2:]
    assert [f.exists() for f in folders] == [True, True, False, False]


def test_memory_need_grows_with_the_model_and_has_a_floor():
    small, big = tiny_config(), tiny_config(hidden_size=512, num_hidden_layers=8, block_size=256)
    assert need_bytes(small) == 160 * 2**20 and need_bytes(big) > need_bytes(small)


def test_decoder_poolings_differ_and_spearman_needs_three_pairs():
    from explorer_core.analysis.decoder_vectors import pair_scores
    from explorer_core.decoder import load_decoder
    from explorer_core.inputs.datasets import builtin_sts_pairs

    model, tokenizer = load_decoder(tiny_decoder_folder())
    pairs = [p for p in builtin_sts_pairs() if p.lang == "en"][:5]
    scores = pair_scores(model.bert, tokenizer, pairs)
    assert set(scores.cosines) == {"decoder.mean", "decoder.weighted_mean", "decoder.last"}
    assert scores.cosines["decoder.mean"] != scores.cosines["decoder.last"]
    assert all(-1.0 - 1e-6 <= v <= 1.0 + 1e-6 for vs in scores.cosines.values() for v in vs)
    assert all(v is None or -1 <= v <= 1 for v in scores.spearman_row().values())
    short = pair_scores(model.bert, tokenizer, pairs[:2])
    assert set(short.spearman_row().values()) == {None}
    with pytest.raises(ValueError, match="No sentence pairs"):
        pair_scores(model.bert, tokenizer, [])
