"""The catalogue: what is already on this machine (the cache and the allowed folders), with facts
read from small files only; refused folders listed with their reason; fast."""

from __future__ import annotations

import shutil
import time

import pytest

from explorer_core.models import locate, scan
from explorer_core.models.card import read_card, split_card
from explorer_core.models.header import count_files
from tests.model_folders import MINILM_REPO, minilm_cache, tiny_model, write_sentence_files

CARD_LIST = "---\nlanguage: [en, zh]\nlicense: mit\npipeline_tag: feature-extraction\n---\n# A\n"
CARD_ONE = "---\nlanguage: zh\nlicense: apache-2.0\n---\n# B\n"


def numel(tensors: dict) -> int:
    """Elements of the floating-point tensors (the parameters; integer buffers are none)."""
    return sum(t.numel() for t in tensors.values() if t.is_floating_point())


@pytest.fixture
def machine(monkeypatch, tmp_path):
    """MiniLM in the cache; two fake models and one refused folder in an allowed folder."""
    monkeypatch.delenv("HF_HOME", raising=False)
    monkeypatch.delenv("EXPLORER_MODEL_MAX_MB", raising=False)
    cache, snapshot = minilm_cache(tmp_path)
    models = tmp_path / "models"
    bert = tiny_model(models / "tiny-bert", "bert", card=CARD_LIST)
    roberta = tiny_model(models / "tiny-roberta", "roberta", card=CARD_ONE, hidden=12, layers=3,
                         vocab=50)  # fmt: skip
    write_sentence_files(models / "tiny-roberta", pooling="cls", normalize=False)
    pickled = models / "pickled"
    pickled.mkdir()
    (pickled / "config.json").write_text('{"model_type": "bert"}', encoding="utf-8")
    (pickled / "pytorch_model.bin").write_bytes(b"\x80\x04")
    (models / "notes").mkdir()  # no config.json: not a model, not listed
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    monkeypatch.setenv("EXPLORER_MODEL_DIRS", str(models))
    # its own install cache: the decoders other tests train land in the shared one's trained/
    monkeypatch.setenv("EXPLORER_CACHE_DIR", str(tmp_path / "install-cache"))
    return {"snapshot": snapshot, "models": models, "bert": bert, "roberta": roberta}


def by_name(entries):
    return {entry.reference.rsplit("/", 1)[-1]: entry for entry in entries}


def test_catalogue_lists_the_cache_and_the_allowed_folders(machine):
    from safetensors.torch import load_file

    entries = by_name(scan())
    assert set(entries) == {"all-MiniLM-L6-v2", "tiny-bert", "tiny-roberta", "pickled"}
    minilm = entries["all-MiniLM-L6-v2"]
    tensors = load_file(str(machine["snapshot"] / "model.safetensors"))
    assert (minilm.reference, minilm.kind, minilm.family) == (MINILM_REPO, "hub", "bert")
    assert minilm.parameters == numel(tensors) == 22_713_216
    assert "embeddings.position_ids" in tensors  # an I64 buffer: 512 elements not counted
    assert (minilm.hidden_size, minilm.num_hidden_layers, minilm.max_position_embeddings,
            minilm.vocab_size) == (384, 6, 512, 30522)  # fmt: skip
    assert (minilm.languages, minilm.license) == (("en",), "apache-2.0")
    assert (minilm.sentence_transformers, minilm.pooling, minilm.normalize) == (True, "mean", True)
    assert minilm.tokenizer_files == ("tokenizer.json", "vocab.txt")
    assert minilm.size_bytes > (machine["snapshot"] / "model.safetensors").stat().st_size


def test_fake_models_facts(machine):
    entries = by_name(scan())
    bert, roberta = entries["tiny-bert"], entries["tiny-roberta"]
    assert (bert.family, bert.parameters, bert.kind) == ("bert", numel(machine["bert"]), "folder")
    assert (roberta.family, roberta.parameters) == ("roberta", numel(machine["roberta"]))
    assert (roberta.hidden_size, roberta.num_hidden_layers, roberta.vocab_size) == (12, 3, 50)
    assert bert.languages == ("en", "zh") and roberta.languages == ("zh",)
    assert (bert.license, bert.pipeline_tag) == ("mit", "feature-extraction")
    assert bert.tokenizer_files == ()  # the fake models carry none
    assert (bert.sentence_transformers, bert.pooling) == (False, "mean")
    assert "mean pooling without normalisation" in bert.notes[0]
    assert (roberta.sentence_transformers, roberta.pooling, roberta.normalize) == (
        True,
        "cls",
        False,
    )
    # every reference opens with locate, and to the same folder
    for entry in (bert, roberta, entries["all-MiniLM-L6-v2"]):
        assert locate(entry.reference).folder == entry.folder


def test_refused_folders_are_listed_with_their_reason(machine):
    pickled = by_name(scan())["pickled"]
    assert pickled.family == "bert" and "only pickle weights" in pickled.refused
    assert "pickled" not in by_name(scan(include_refused=False))


def test_a_model_dir_that_is_itself_a_model_and_the_same_folder_twice(machine, monkeypatch):
    one = machine["models"] / "tiny-bert"
    monkeypatch.setenv("EXPLORER_MODEL_DIRS", f"{one}:{machine['models']}")
    references = [entry.reference for entry in scan()]
    assert references.count(str(one.resolve())) == 1


def test_cache_without_refs_main_uses_the_newest_snapshot(machine):
    refs = machine["snapshot"].parents[1] / "refs" / "main"
    refs.unlink()
    minilm = [e for e in scan() if e.reference.startswith(MINILM_REPO)][0]
    assert minilm.reference == f"{MINILM_REPO}@{machine['snapshot'].name}"
    assert locate(minilm.reference).folder == minilm.folder


def test_twenty_models_scan_well_under_a_second(machine):
    for copy in range(19):
        shutil.copytree(machine["models"] / "tiny-bert", machine["models"] / f"copy-{copy:02d}")
    scan()  # warm the file system cache once, as a server's second page view would
    best = min(_timed(scan) for _ in range(3))
    assert len(scan()) == 23
    assert best < 1.0, f"{best:.3f} s"


def _timed(function) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


# -- the pieces -----------------------------------------------------------------------------------


def test_card_language_as_string_list_or_missing(tmp_path):
    tiny_model(tmp_path / "a", card=CARD_LIST)
    tiny_model(tmp_path / "b", card=CARD_ONE)
    tiny_model(tmp_path / "c", card="# no front matter\n")
    assert read_card(tmp_path / "a").languages == ("en", "zh")
    assert read_card(tmp_path / "b").languages == ("zh",)
    assert read_card(tmp_path / "c").languages == ()
    assert read_card(tmp_path / "missing").languages == ()
    assert split_card("---\nlanguage: [broken\n---\nx") == ({}, "---\nlanguage: [broken\n---\nx")


def test_header_counts_equal_the_tensors(tmp_path):
    tensors = tiny_model(tmp_path / "m", hidden=7, layers=1, vocab=13)
    counts = count_files([tmp_path / "m" / "model.safetensors"])
    assert (counts.tensors, counts.parameters) == (len(tensors), numel(tensors))
    assert counts.data_bytes == 4 * numel(tensors)


def test_not_a_safetensors_file_is_a_readable_error(tmp_path):
    from explorer_core.models.header import read_header

    path = tmp_path / "model.safetensors"
    path.write_bytes(b"\xff" * 16)
    with pytest.raises(ValueError, match="not a safetensors file"):
        read_header(path)


def test_the_installs_own_trained_models_are_listed(machine):
    from explorer_core.models.settings import trained_dir

    tiny_model(trained_dir() / "decoder-en-s0-x", "bert")
    entries = by_name(scan())
    assert entries["decoder-en-s0-x"].kind == "folder"
    assert len(entries) == 5
