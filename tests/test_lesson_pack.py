"""Lesson packs: round trips of settings, tokenizers (with the Lab's replay) and a model; files
that are not packs; which session values count as settings."""

from __future__ import annotations

import io
import json
import zipfile

import pytest

from explorer_core.bert.model import BertModel
from explorer_core.files import lesson_pack as lp
from explorer_core.files.export import zip_bytes
from explorer_core.files.lab_record import trace_from_json, trace_to_json
from explorer_core.files.lesson_pack import (
    LabResult,
    PackError,
    TokenizerBundle,
    read_pack,
    write_pack,
)
from explorer_core.files.pack_settings import check_settings, storable_settings
from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import ALGORITHMS, new_tokenizer
from explorer_core.training.checkpoint import Checkpoint
from explorer_core.training.loop import TrainLog, TrainStep
from explorer_core.training.presets import Preset

TEXTS = ["The cat sat on the mat.", "猫坐在垫子上。", "emoji 🙂🎉 ok", "naïve café", "", "x"]
SETTINGS = {"attn.layer": 3, "lang": "zh", "tok.train.algo": "char-bpe", "sim.a": "猫 🙂",
            "train.lr": 0.0005, "attn.causal": True, "tok.train.lang": None}  # fmt: skip
SMALL = Preset(name="t", hidden_size=32, num_hidden_layers=2, num_attention_heads=4,
               intermediate_size=37, max_position_embeddings=32)  # fmt: skip
VOCAB = {"byte-bpe": 300, "char-bpe": 400, "wordpiece": 400, "unigram": 400, "word": 400}


@pytest.fixture(scope="module")
def trained() -> dict:
    """One small trained tokenizer per algorithm, with its trace: {algo: (tokenizer, trace)}."""
    corpus = builtin_corpus("mixed")[:4000]
    out = {}
    for algo in ALGORITHMS:
        tokenizer = new_tokenizer(algo)
        out[algo] = (tokenizer, tokenizer.train(corpus, VOCAB[algo]))
    return out


def bundle(trained, algo: str) -> TokenizerBundle:
    tokenizer, trace = trained[algo]
    return TokenizerBundle(tokenizer, f"{algo}, tiny", LabResult(tuple(trace), algo, "corpus"))


@pytest.fixture(scope="module")
def model(trained) -> Checkpoint:
    tokenizer = trained["byte-bpe"][0]
    vocab = BertVocab.of(tokenizer)
    net = BertModel(SMALL.config(vocab.size, vocab.pad_id), seed=5)
    log = TrainLog(steps=[TrainStep("finetune", 1, 0.5, 1e-3, 0.25, sim_loss=0.25)])
    return Checkpoint(net, tokenizer, "mean", "Tiny, 1 step", {"finetune": log}, max_length=32)


def members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def rezip(data: bytes, changes: dict[str, bytes | None]) -> bytes:
    """The pack with members replaced or added (bytes) or removed (None; a folder: "x/")."""
    files = members(data)
    for name, value in changes.items():
        if value is None:
            files = {k: v for k, v in files.items() if k != name and not k.startswith(name)}
        else:
            files[name] = value
    return zip_bytes(files)


def manifest(data: bytes) -> dict:
    return json.loads(members(data)["manifest.json"])


# ---- round trips ---------------------------------------------------------------------------


@pytest.mark.parametrize("algo", ALGORITHMS)
def test_round_trip_keeps_settings_encodings_and_the_lab_record(trained, algo):
    tokenizer, trace = trained[algo]
    pack = read_pack(write_pack(SETTINGS, bundle(trained, algo)))
    assert pack.settings == SETTINGS and pack.model is None
    restored = pack.tokenizer.tokenizer
    assert restored.algo == algo and pack.tokenizer.name == f"{algo}, tiny"
    for text in TEXTS:
        assert restored.encode(text) == tokenizer.encode(text), text
    assert list(pack.tokenizer.lab.trace) == list(trace)
    assert pack.tokenizer.lab.label == "corpus"
    if hasattr(tokenizer, "candidates"):  # the BPE family: the scrubber replays every step
        assert restored.stats == tokenizer.stats and restored.stats is not None
        steps = range(len(tokenizer.merges))
        assert [restored.candidates(k) for k in steps] == [tokenizer.candidates(k) for k in steps]


def test_model_round_trip_gives_the_same_vectors(trained, model):
    data = write_pack(SETTINGS, bundle(trained, "byte-bpe"), model)
    names = members(data)
    assert "model/model.safetensors" in names and "model/explorer_tokenizer.json" in names
    assert "model/modules.json" in names  # the model folder as transformers loads it
    pack = read_pack(data)
    assert pack.model.label == "Tiny, 1 step" and pack.model.config == model.config
    assert pack.model.log["finetune"].steps[0].sim_loss == 0.25
    before, after = model.embed(TEXTS[:4]), pack.model.embed(TEXTS[:4])
    assert (before - after).abs().max() <= 1e-6
    assert manifest(data)["contents"]["model"] == {"label": "Tiny, 1 step", "algo": "byte-bpe"}


def test_a_pack_whose_model_has_the_version_1_layout_still_opens(trained, model, tmp_path):
    """Packs written before the standard layout hold model/config.json (ours) and tokenizer/."""
    from tests.old_checkpoint import save_version_1

    old = save_version_1(model, tmp_path / "old")
    data = write_pack(SETTINGS, bundle(trained, "byte-bpe"), model)
    files = {n: None for n in members(data) if n.startswith("model/")}
    files |= {f"model/{p.relative_to(old).as_posix()}": p.read_bytes()
              for p in sorted(old.rglob("*")) if p.is_file() and "hf" not in p.parts}  # fmt: skip
    assert "model/tokenizer/explorer_tokenizer.json" in files
    pack = read_pack(rezip(data, files))
    assert pack.model.label == "Tiny, 1 step"
    assert (model.embed(TEXTS[:4]) - pack.model.embed(TEXTS[:4])).abs().max() <= 1e-6


def test_the_manifest_says_what_is_inside(trained):
    meta = manifest(write_pack(SETTINGS, bundle(trained, "unigram")))
    assert meta["format"] == "embedding-explorer-lesson-pack" and meta["version"] == 1
    assert meta["app_version"] == "0.1.0"
    tokenizer = {"algo": "unigram", "name": "unigram, tiny"}
    assert meta["contents"] == {
        "settings": len(SETTINGS), "lab": True, "model": None, "tokenizer": tokenizer,
    }  # fmt: skip


def test_same_state_gives_the_same_bytes(trained, model):
    first = write_pack(SETTINGS, bundle(trained, "char-bpe"), model)
    again = write_pack(dict(reversed(SETTINGS.items())), bundle(trained, "char-bpe"), model)
    assert first == again
    assert write_pack(SETTINGS) != write_pack({**SETTINGS, "attn.layer": 4})


def test_a_pack_with_settings_only_and_a_tokenizer_without_lab(trained):
    tokenizer = trained["word"][0]
    pack = read_pack(write_pack({}, TokenizerBundle(tokenizer, "w")))
    assert pack.settings == {} and pack.tokenizer.lab is None
    assert pack.tokenizer.tokenizer.encode("the cat") == tokenizer.encode("the cat")


def test_trace_json_round_trips_bytes_and_tuples(trained):
    byte_trace = trained["byte-bpe"][1]
    assert trace_from_json(json.loads(json.dumps(trace_to_json(byte_trace)))) == byte_trace
    unigram_trace = trained["unigram"][1]
    assert trace_from_json(json.loads(json.dumps(trace_to_json(unigram_trace)))) == unigram_trace


# ---- files that are not packs ----------------------------------------------------------------


def reason(data: bytes) -> str:
    with pytest.raises(PackError) as err:
        read_pack(data)
    return err.value.reason


def test_not_a_zip_is_refused():
    assert reason(b"hello, this is text") == "not_zip"
    assert reason(b"") == "not_zip"


def test_a_zip_without_manifest_or_of_another_format_is_refused():
    assert reason(zip_bytes({"notes.txt": "hi"})) == "not_pack"
    data = write_pack(SETTINGS)
    other = {**manifest(data), "format": "embedding-explorer-checkpoint"}
    assert reason(rezip(data, {"manifest.json": json.dumps(other).encode()})) == "not_pack"


def test_a_newer_version_is_refused_with_both_versions():
    data = write_pack(SETTINGS)
    newer = json.dumps({**manifest(data), "version": 2}).encode()
    with pytest.raises(PackError, match="newer version") as err:
        read_pack(rezip(data, {"manifest.json": newer}))
    assert err.value.reason == "newer" and err.value.values == {"version": 2, "supported": 1}
    for bad in ("1", None, 0, True):
        broken = json.dumps({**manifest(data), "version": bad}).encode()
        with pytest.raises(ValueError, match="version"):
            read_pack(rezip(data, {"manifest.json": broken}))


@pytest.mark.parametrize("name", ["../evil.txt", "tokenizer/../../evil", "/abs.txt", "a\\b.txt"])
def test_unsafe_member_paths_are_refused(name):
    files = members(write_pack(SETTINGS))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for member, content in files.items():
            archive.writestr(member, content)
        archive.writestr(name, b"x")
    assert reason(buffer.getvalue()) == "unsafe"


def test_a_link_is_refused():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for member, content in members(write_pack(SETTINGS)).items():
            archive.writestr(member, content)
        link = zipfile.ZipInfo("tokenizer/link")
        link.external_attr = 0o120777 << 16
        archive.writestr(link, "/etc/passwd")
    assert reason(buffer.getvalue()) == "unsafe"


def test_declared_parts_that_are_missing_are_refused(trained, model):
    data = write_pack(SETTINGS, bundle(trained, "byte-bpe"), model)
    for part in ("tokenizer/", "model/", "lab.json", "settings.json"):
        with pytest.raises(PackError) as err:
            read_pack(rezip(data, {part: None}))
        assert err.value.reason == "missing" and err.value.values == {"part": part}


def test_oversize_files_and_members_are_refused(monkeypatch):
    data = write_pack({"tok.train.paste": "猫" * 5000})
    monkeypatch.setattr(lp, "MAX_JSON_BYTES", 1000)
    assert reason(data) == "too_big"
    monkeypatch.setattr(lp, "MAX_PACK_BYTES", len(data) - 1)
    assert reason(data) == "too_big"


def test_damaged_parts_raise_a_sentence_and_never_half_load(trained):
    data = write_pack(SETTINGS, bundle(trained, "char-bpe"))
    lab = json.loads(members(data)["lab.json"])
    bad_replay = {**lab, "replay": {**lab["replay"], "candidates": [[[9999, 9998, 1]]]}}
    cases = [
        ("settings.json", b"[1, 2]"),
        ("settings.json", b"{not json"),
        ("lab.json", json.dumps({**lab, "algo": "byte-bpe"}).encode()),
        ("lab.json", json.dumps(bad_replay).encode()),
        ("lab.json", json.dumps({**lab, "trace": {"type": "os.system", "rows": [[1]]}}).encode()),
        ("tokenizer/explorer_tokenizer.json", b'{"algo": "nope"}'),
        ("tokenizer/explorer_tokenizer.json", b'{"algo": "char-bpe"}'),
    ]
    for name, content in cases:
        with pytest.raises(ValueError) as err:
            read_pack(rezip(data, {name: content}))
        assert str(err.value)[0].isupper(), (name, err.value)  # a sentence, not a bare KeyError


def test_settings_that_do_not_fit_the_page_are_dropped():
    data = write_pack({"tok.train.vocab": "many", "attn.layer": 2, "tok.train.algo": None})
    examples = {"tok.train.vocab": 1000, "attn.layer": 1, "tok.train.algo": "byte-bpe"}
    assert read_pack(data, examples=examples).settings == {"attn.layer": 2, "tok.train.algo": None}


# ---- which values are settings ---------------------------------------------------------------


def test_only_plain_settings_are_stored():
    state = {
        "attn.layer": 2, "sim.list": ["a", "b"], "_url_seeded.attn.view": "masks", "$$ID-1": 3,
        "shared.tokenizer": object(), "tok.train.result": ("tok", [], "byte-bpe", ""),
        "train.published": 1234, "tok.encode.source.lab_seen": 99, "present": True,
        "tok.train.go": False, "tok.train.upload": None, "quiz.tok.reveal": False,
        "emb.pos.ratio": float("nan"), "attn.pair": (1, 2), 7: "x",
    }  # fmt: skip
    kept = storable_settings(state, {"tok.train.go", "tok.train.upload"}, [r".+\.reveal"])
    assert kept == {"attn.layer": 2, "sim.list": ["a", "b"]}
    assert list(storable_settings({"b": 1, "a": 2})) == ["a", "b"]  # sorted: same file
    with pytest.raises(ValueError):
        check_settings({"a": object()})
    assert check_settings({"tok.train.go": True, "a.b": 1}, {"tok.train.go"}) == {"a.b": 1}


def test_the_pack_keeps_only_declared_settings_so_no_button_or_upload():
    """The app passes its declared settings (ui/settings.py) as `allowed`: buttons, uploads and
    downloads are never declared, so their keys never reach a pack, even when a session holds
    them (restoring one would make Streamlit raise on the page that draws it)."""
    from explorer_core.ui.pack import allowed_settings

    allowed = allowed_settings()
    actions = {"tok.train.go", "tok.train.upload", "train.zip", "train.start", "train.stop",
               "train.data_file", "train.vocab_file", "train.download", "home.pack.upload",
               "home.pack.download", "tok.train.quiz.reveal", "tok.train.reveal"}  # fmt: skip
    assert not actions & allowed
    state = dict.fromkeys(actions, False) | {"attn.layer": 3, "tok.train.vocab": 500}
    data = write_pack(state, allowed=allowed)
    assert read_pack(data, allowed=allowed).settings == {"attn.layer": 3, "tok.train.vocab": 500}
    # a hand-made pack with a button in it: dropped on reading too
    assert read_pack(write_pack(state), allowed=allowed).settings == {
        "attn.layer": 3, "tok.train.vocab": 500,
    }  # fmt: skip


def test_internal_keys_of_the_ui_are_never_settings():
    from explorer_core.files.pack_settings import is_setting_key
    from explorer_core.ui.pack import LAB_KEY, RESULT_KEY
    from explorer_core.ui.training import calls as training
    from explorer_core.ui.training import panels as train_panels
    from explorer_core.ui.training import run as train_run

    for key in (training.RUN_KEY, training.PUBLISHED_KEY, training.ZIP_SEEN_KEY,
                training.SCORES_KEY, training.PARTS_KEY, training.FRESH_KEY,
                train_panels.ZIP_RESULT_KEY, train_panels.FIGURES_KEY, train_panels.DRAWN_KEY,
                train_run.OWNER_KEY, LAB_KEY, RESULT_KEY):  # fmt: skip
        assert not is_setting_key(key), key


def test_declared_settings_give_each_setting_its_kind():
    from explorer_core.ui.pack import page_examples

    examples = page_examples()
    assert examples["tok.train.algo"] == "byte-bpe" and examples["tok.train.vocab"] == 1000
    assert examples["attn.causal"] is False
    assert examples["tok.train.probe"] == ""  # a translated default: some text
    assert isinstance(examples["train.hidden"], int)  # a preset's size: a whole number
    assert isinstance(examples["train.lr"], float)
