"""`inspect` and `embed` with a model the user brings, of every family: a folder anywhere (outside
EXPLORER_MODEL_DIRS: the command line is the user's own machine) or a Hub name from a hand-made
cache. The rows are the model's own template, `last_hidden_state` is transformers' own, the
vectors are sentence-transformers'; every refusal is one line and exit code 2."""

from __future__ import annotations

import inspect
import json

import pytest
import torch

from explorer_core.bert.families import FAMILIES
from explorer_core.cli import main
from tests import opened_models

TEXT, TEXT_B = "The cat sat on the mat, 猫.", "A dog barked."


def run(argv, capsys) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("anywhere")
    pooling = {"roberta": "cls", "modernbert": "cls"}
    return {f: opened_models.model_folder(f, root / f, pooling=pooling.get(f, "mean"))
            for f in FAMILIES}  # fmt: skip


@pytest.fixture(autouse=True)
def elsewhere(tmp_path, monkeypatch):
    """The allowed roots are an empty folder and an empty cache: the models lie outside both."""
    monkeypatch.setenv("EXPLORER_MODEL_DIRS", str(tmp_path / "allowed"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))


def inspect_json(argv, capsys) -> dict:
    code, out, err = run(["inspect", *argv, "--json"], capsys)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("pair", [False, True], ids=["single", "pair"])
@pytest.mark.parametrize("family", FAMILIES)
def test_inspect_is_transformers_own(folders, family, pair, capsys):
    from transformers import AutoModel, AutoTokenizer

    folder = folders[family]
    argv = ["--model", folder, "--text", TEXT, *(["--text-b", TEXT_B] if pair else [])]
    report = inspect_json(argv, capsys)
    tokenizer = AutoTokenizer.from_pretrained(folder)
    # the segment ids tokenizer.json's template gives (a bare PreTrainedTokenizerFast leaves them
    # out unless asked, and transformers would then put zeros)
    encoded = tokenizer(TEXT, TEXT_B if pair else None, return_tensors="pt",
                        return_token_type_ids=True)  # fmt: skip
    assert report["family"] == family
    assert report["ids"] == encoded["input_ids"][0].tolist()  # the model's own template
    assert report["tokens"] == tokenizer.convert_ids_to_tokens(report["ids"])
    model = AutoModel.from_pretrained(folder, attn_implementation="eager").eval()
    if "token_type_ids" not in inspect.signature(model.forward).parameters:
        del encoded["token_type_ids"]  # DistilBERT, ModernBERT: no segments
    with torch.no_grad():
        theirs = model(**encoded).last_hidden_state[0]
    torch.testing.assert_close(torch.tensor(report["last_hidden_state"]), theirs,
                               atol=1e-5, rtol=0)  # fmt: skip


def test_a_roberta_pair_reads_as_roberta_writes_it(folders, capsys):
    report = inspect_json(["--model", folders["roberta"], "--text", "a", "--text-b", "b"], capsys)
    tokens = report["tokens"]
    assert tokens[0] == "<s>" and tokens[-1] == "</s>" and "</s></s>" in "".join(tokens)
    assert "[CLS]" not in tokens


def test_a_hub_name_from_the_cache(tmp_path, capsys):
    opened_models.cache_entry(tmp_path / "cache", "someone/tiny-electra", "electra")
    report = inspect_json(["--model", "someone/tiny-electra", "--text", TEXT], capsys)
    assert report["family"] == "electra" and report["model"] == "someone/tiny-electra"
    code, out, err = run(["inspect", "--model", "someone/tiny-electra", "--text", TEXT], capsys)
    assert code == 0 and out.startswith("someone/tiny-electra · "), err


@pytest.mark.parametrize(("family", "pooling"), [("roberta", "cls"), ("bert", "mean")])
def test_embed_vectors_are_sentence_transformers(folders, family, pooling, capsys):
    from sentence_transformers import SentenceTransformer

    folder, texts = folders[family], [TEXT, TEXT_B]
    assert json.loads((folder / "1_Pooling" / "config.json").read_text())[
        f"pooling_mode_{'cls_token' if pooling == 'cls' else 'mean_tokens'}"
    ]
    code, out, err = run(["embed", "--model", folder, "--text", *texts, "--vectors", "--json"],
                         capsys)  # fmt: skip
    assert code == 0, err
    ours = torch.tensor(json.loads(out)["vectors"])
    theirs = SentenceTransformer(str(folder), device="cpu").encode(texts, convert_to_tensor=True)
    torch.testing.assert_close(ours, theirs, atol=1e-5, rtol=0)
    code, out, err = run(["embed", "--model", folder, "--text", *texts], capsys)
    cosine = float(torch.nn.functional.cosine_similarity(theirs[0], theirs[1], dim=0))
    assert code == 0 and out == f"cosine {cosine:.4f}\n", err


def _bad_folders(folders, tmp_path):
    """Folders each check refuses, copied from a real one."""
    import shutil

    def copy(name: str):
        return shutil.copytree(folders["bert"], tmp_path / name)

    no_weights = copy("no-weights")
    (no_weights / "model.safetensors").unlink()
    pickled = copy("pickled")
    (pickled / "model.safetensors").rename(pickled / "pytorch_model.bin")
    remote = copy("remote")
    config = json.loads((remote / "config.json").read_text())
    (remote / "config.json").write_text(json.dumps({**config, "auto_map": {"AutoModel": "x.Y"}}))
    t5 = copy("t5")
    (t5 / "config.json").write_text(json.dumps({**config, "model_type": "t5"}))
    return {"no weights": no_weights, "pickle": pickled, "remote": remote, "t5": t5}


@pytest.mark.parametrize("command", ["inspect", "embed"])
@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("missing hub name", "not in this machine's Hugging Face cache"),
        ("no weights", "no weights in"),
        ("pickle", "only pickle weights"),
        ("remote", "auto_map"),
        ("t5", "model_type 't5'"),
        ("too large", "EXPLORER_MODEL_MAX_MB"),
        ("empty text", "empty"),
    ],
)
def test_bad_input_is_one_line(folders, tmp_path, monkeypatch, command, case, message, capsys):
    model, text = folders["bert"], "a cat"
    if case == "missing hub name":
        model = "nobody/not-cached"
    elif case == "too large":
        monkeypatch.setenv("EXPLORER_MODEL_MAX_MB", "0")
    elif case == "empty text":
        text = "   "
    elif case in ("no weights", "pickle", "remote", "t5"):
        model = _bad_folders(folders, tmp_path)[case]
    code, out, err = run([command, "--model", model, "--text", text], capsys)
    assert code == 2 and out == "", err
    assert err.startswith("error: ") and err.count("\n") == 1 and message in err
    assert "Traceback" not in err


def test_the_servers_folder_rule_still_holds_without_anywhere(folders):
    """Only the command line passes anywhere=True: open_model itself refuses the same folder."""
    from explorer_core.models.opened import open_model
    from explorer_core.models.settings import ModelRefused

    with pytest.raises(ModelRefused, match="outside the folders models may come from"):
        open_model(str(folders["bert"]))
    assert open_model(str(folders["bert"]), anywhere=True).family == "bert"
