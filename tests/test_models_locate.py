"""locate: Hub names from a hand-made cache (MiniLM's real files), downloads only when allowed
(a fake hub, no network), folders only under the allowed roots, and every refusal in one line."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from explorer_core.models import ModelRefused, locate
from explorer_core.models import download as download_module
from explorer_core.models.locate import parse_reference
from tests.model_folders import COMMIT, MINILM_REPO, minilm_cache, tiny_model


@pytest.fixture
def env(monkeypatch, tmp_path):
    """A clean setting: an empty cache and one allowed folder, both under tmp_path."""
    for name in ("EXPLORER_MODEL_DIRS", "EXPLORER_ALLOW_DOWNLOADS", "EXPLORER_MODEL_MAX_MB",
                 "HF_HOME"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    (tmp_path / "hub").mkdir()
    (tmp_path / "allowed").mkdir()
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    monkeypatch.setenv("EXPLORER_MODEL_DIRS", str(tmp_path / "allowed"))
    return tmp_path


def refused(reference: str, **kwargs) -> str:
    with pytest.raises(ModelRefused) as info:
        locate(reference, **kwargs)
    message = str(info.value)
    assert "\n" not in message and message.strip() == message, message
    return message


# -- Hub names ------------------------------------------------------------------------------------


@pytest.mark.parametrize("newline", [False, True])
def test_hub_name_resolves_to_the_snapshot_in_the_cache(env, newline):
    cache, snapshot = minilm_cache(env, newline=newline)
    found = locate(MINILM_REPO)
    assert found.folder == snapshot.resolve()
    assert (found.kind, found.repo_id, found.commit, found.model_type) == (
        "hub", MINILM_REPO, COMMIT, "bert")  # fmt: skip
    assert found.weight_bytes == (snapshot / "model.safetensors").stat().st_size
    assert not found.downloaded


def test_huggingface_hub_resolves_the_same_folder(env):
    import huggingface_hub

    cache, snapshot = minilm_cache(env)
    hub_folder = huggingface_hub.snapshot_download(
        MINILM_REPO, cache_dir=str(cache), local_files_only=True
    )
    config = huggingface_hub.hf_hub_download(
        MINILM_REPO, "config.json", cache_dir=str(cache), local_files_only=True
    )
    assert os.path.realpath(hub_folder) == str(locate(MINILM_REPO).folder)
    assert os.path.dirname(os.path.realpath(config)) == str(locate(MINILM_REPO).folder)


def test_home_and_default_cache_places(env, monkeypatch):
    from explorer_core.models.settings import hub_cache_dir

    monkeypatch.delenv("HF_HUB_CACHE")
    monkeypatch.setenv("HF_HOME", str(env / "home"))
    assert hub_cache_dir() == env / "home" / "hub"
    monkeypatch.delenv("HF_HOME")
    monkeypatch.setenv("HOME", str(env))
    assert hub_cache_dir() == env / ".cache" / "huggingface" / "hub"


def test_revision_by_branch_and_by_commit(env):
    minilm_cache(env)
    assert locate(f"{MINILM_REPO}@main").commit == COMMIT
    assert locate(f"{MINILM_REPO}@{COMMIT}").commit == COMMIT
    assert "--revision v9" in refused(f"{MINILM_REPO}@v9")


@pytest.mark.parametrize("reference", ["a/b/c", "org/../x", "-bad", "org/na--me", "x@../main", ""])
def test_not_a_reference(env, reference):
    refused(reference)


def test_parse_reference():
    assert parse_reference("BAAI/bge-small-zh-v1.5@refs/pr/1") == (
        "BAAI/bge-small-zh-v1.5",
        "refs/pr/1",
    )


def test_not_cached_and_downloads_off_says_how_to_pre_download(env, monkeypatch):
    message = refused("org/missing")
    assert "hf download org/missing" in message and str(env / "hub") in message
    assert "EXPLORER_ALLOW_DOWNLOADS=1" in message
    # the caller's permission alone is not enough, nor the server's alone
    refused("org/missing", allow_download=True)
    monkeypatch.setenv("EXPLORER_ALLOW_DOWNLOADS", "1")
    refused("org/missing", allow_download=False)


# -- downloads through a fake hub -----------------------------------------------------------------


class FakeHub:
    """Stands in for huggingface_hub.snapshot_download: opens bars the way it does (a files bar,
    then bytes bars), reports bytes in chunks and writes a tiny model into the cache layout."""

    def __init__(self):
        self.calls = []

    def __call__(self, repo_id, revision=None, cache_dir=None, allow_patterns=None,
                 tqdm_class=None, **kwargs):  # fmt: skip
        self.calls.append({"repo_id": repo_id, "allow_patterns": allow_patterns})
        files = tqdm_class(total=3, desc="Fetching 3 files")
        transfer = tqdm_class(total=0, initial=0, unit="B", desc="Downloading bytes")
        written = tqdm_class(total=0, initial=0, unit="B", desc="Reconstructing")
        for _ in range(3):
            transfer.total += 1000  # the hub grows a total as it meets each file
            transfer.update(1000)
            written.update(1000)
            files.update(1)
        repo = os.path.join(cache_dir, "models--" + repo_id.replace("/", "--"))
        snapshot = os.path.join(repo, "snapshots", COMMIT)
        tiny_model(Path(snapshot))
        os.makedirs(os.path.join(repo, "refs"), exist_ok=True)
        with open(os.path.join(repo, "refs", revision or "main"), "w") as ref:
            ref.write(COMMIT)
        return snapshot


@pytest.fixture
def fake_hub(env, monkeypatch):
    import huggingface_hub

    hub = FakeHub()
    monkeypatch.setenv("EXPLORER_ALLOW_DOWNLOADS", "1")
    monkeypatch.setattr(huggingface_hub, "snapshot_download", hub)
    monkeypatch.setattr(huggingface_hub, "is_offline_mode", lambda: False)
    sizes = {"model.safetensors": 2500, "config.json": 500, "modeling.py": 100}
    monkeypatch.setattr(download_module, "remote_sizes", lambda repo_id, revision: sizes)
    return hub


def test_download_reports_bytes_and_lands_in_the_cache(fake_hub):
    seen = []
    found = locate(
        "org/tiny", allow_download=True, progress=lambda done, total: seen.append((done, total))
    )
    assert found.downloaded and found.model_type == "bert"
    # one bar, never jumping; the total is the Hub's sizes of the files fetched (not modeling.py)
    assert seen == [(1000, 3000), (2000, 3000), (3000, 3000)]
    patterns = fake_hub.calls[0]["allow_patterns"]
    assert "*.safetensors" in patterns and not any(p.endswith((".py", ".bin")) for p in patterns)
    again = locate("org/tiny", allow_download=True)  # now cached: no second download
    assert not again.downloaded and len(fake_hub.calls) == 1


def test_download_too_large_is_refused_before_fetching(fake_hub, monkeypatch):
    monkeypatch.setattr(
        download_module, "remote_sizes", lambda r, v: {"model.safetensors": 2 * 10**9}
    )
    assert "2.0 GB" in refused("org/huge", allow_download=True)
    assert fake_hub.calls == []


def test_download_offline_and_hub_errors_are_one_line(fake_hub, monkeypatch):
    import huggingface_hub

    monkeypatch.setattr(huggingface_hub, "is_offline_mode", lambda: True)
    assert "HF_HUB_OFFLINE" in refused("org/tiny", allow_download=True)
    monkeypatch.setattr(huggingface_hub, "is_offline_mode", lambda: False)

    def gone(*args, **kwargs):
        raise OSError("404 Client Error.\nRepository Not Found for url: ...")

    monkeypatch.setattr(huggingface_hub, "snapshot_download", gone)
    assert "404 Client Error." in refused("org/tiny", allow_download=True)


# -- folders --------------------------------------------------------------------------------------


def test_folder_under_an_allowed_root_opens(env, monkeypatch):
    tiny_model(env / "allowed" / "good")
    found = locate(str(env / "allowed" / "good"))
    real = (env / "allowed" / "good").resolve()
    assert (found.kind, found.folder, found.reference) == ("folder", real, str(real))
    monkeypatch.chdir(env / "allowed")
    assert locate("./good").folder == found.folder


def test_path_escapes_are_refused(env, monkeypatch):
    tiny_model(env / "outside" / "model")
    tiny_model(env / "allowed" / "good")
    escape = str(env / "allowed" / ".." / "outside" / "model")
    assert "outside the folders" in refused(escape)
    (env / "allowed" / "link").symlink_to(env / "outside" / "model")
    assert "outside the folders" in refused(str(env / "allowed" / "link"))
    assert "outside the folders" in refused(str(env / "outside" / "model"))  # absolute elsewhere
    assert "not a folder" in refused(str(env / "allowed" / "good" / "config.json"))
    assert "'~' is not expanded" in refused("~/models/good")
    monkeypatch.chdir(env / "allowed")
    assert "outside the folders" in refused("../outside/model")


def test_a_file_linked_from_outside_is_refused(env):
    folder = env / "allowed" / "sneaky"
    tiny_model(folder)
    tiny_model(env / "outside" / "model")
    (folder / "model.safetensors").unlink()
    (folder / "model.safetensors").symlink_to(env / "outside" / "model" / "model.safetensors")
    assert "links outside the allowed folders (model.safetensors)" in refused(str(folder))


# -- the checks, each one line --------------------------------------------------------------------


def _no_config(folder):
    (folder / "config.json").unlink()


def _pickle_only(folder):
    (folder / "model.safetensors").unlink()
    (folder / "pytorch_model.bin").write_bytes(b"\x80\x04pickle")


def _no_weights(folder):
    (folder / "model.safetensors").unlink()


def _auto_map(folder):
    tiny_model(folder, auto_map={"AutoModel": "modeling_x.XModel"})


def _python_file(folder):
    (folder / "modeling_x.py").write_text("import os\n", encoding="utf-8")


def _unsupported(folder):
    tiny_model(folder, model_type="t5")


def _too_large(folder):
    import torch
    from safetensors.torch import save_file

    save_file({"w": torch.zeros(300_000)}, str(folder / "model.safetensors"))  # 1.2 MB


CHECKS = [
    (_no_config, "no config.json"),
    (_pickle_only, "save_pretrained(dir, safe_serialization=True)"),
    (_no_weights, "no weights"),
    (_auto_map, "remote code is never run"),
    (_python_file, "holds Python code (modeling_x.py)"),
    (_unsupported, "supported families: bert, roberta, xlm-roberta, distilbert, albert"),
    (_too_large, "1.2 MB of weights, over this server's limit of 1.0 MB"),
]


@pytest.mark.parametrize(("spoil", "expected"), CHECKS, ids=[c[0].__name__ for c in CHECKS])
def test_each_check_refuses_in_one_line(env, monkeypatch, spoil, expected):
    monkeypatch.setenv("EXPLORER_MODEL_MAX_MB", "1")
    folder = env / "allowed" / "model"
    tiny_model(folder)
    spoil(folder)
    assert expected in refused(str(folder))


def test_a_newline_in_a_folder_name_stays_one_line(env):
    folder = env / "allowed" / "bad\nname"
    folder.mkdir()
    assert "no config.json" in refused(str(folder))


def test_the_pickle_check_also_holds_in_the_cache(env):
    cache, snapshot = minilm_cache(env)
    (snapshot / "model.safetensors").unlink()
    (snapshot / "pytorch_model.bin").write_bytes(b"\x80\x04")
    assert "only pickle weights (pytorch_model.bin)" in refused(MINILM_REPO)


def test_a_float16_checkpoint_is_sized_as_the_float32_it_becomes(env, monkeypatch):
    import torch
    from safetensors.torch import save_file

    monkeypatch.setenv("EXPLORER_MODEL_MAX_MB", "1")
    folder = env / "allowed" / "half"
    tiny_model(folder)
    save_file({"w": torch.zeros(300_000, dtype=torch.float16)}, str(folder / "model.safetensors"))
    assert (folder / "model.safetensors").stat().st_size < 700_000  # 0.6 MB on disk
    assert "1.2 MB of weights" in refused(str(folder))  # 300,000 parameters * 4 bytes


def test_sharded_weights_follow_their_index(env):
    import torch
    from safetensors.torch import save_file

    from tests.model_folders import write_json

    folder = env / "allowed" / "sharded"
    tiny_model(folder)
    (folder / "model.safetensors").unlink()
    save_file({"a": torch.zeros(3, 4)}, str(folder / "model-00001-of-00002.safetensors"))
    save_file({"b": torch.zeros(5)}, str(folder / "model-00002-of-00002.safetensors"))
    save_file({"c": torch.zeros(7)}, str(folder / "unrelated.safetensors"))
    shards = ["model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"]
    index = {"weight_map": {"a": shards[0], "b": shards[1]}}
    write_json(folder / "model.safetensors.index.json", index)
    found = locate(str(folder))
    assert [p.name for p in found.model.weights] == shards  # unrelated.safetensors is not read
    assert found.parameters == 12 + 5
    (folder / "model-00002-of-00002.safetensors").unlink()
    assert "lacks the shards model-00002-of-00002.safetensors" in refused(str(folder))


def test_a_broken_safetensors_file_is_refused(env):
    folder = env / "allowed" / "broken"
    tiny_model(folder)
    (folder / "model.safetensors").write_bytes(b"\xff" * 64)
    assert "not a safetensors file" in refused(str(folder))


def test_a_cache_laid_out_with_blobs_and_symlinks(env):
    """huggingface_hub's own layout: snapshot files are relative links into ../../blobs."""
    cache, snapshot = minilm_cache(env)
    blobs = snapshot.parents[1] / "blobs"
    blobs.mkdir()
    for path in sorted(snapshot.iterdir()):
        if path.is_file():
            blob = blobs / f"{abs(hash(path.name)):x}"
            path.rename(blob)
            path.symlink_to(os.path.relpath(blob, snapshot))
    found = locate(MINILM_REPO)
    assert found.folder == snapshot.resolve() and found.parameters == 22_713_216


DOWNLOAD_SCRIPT = """
import json
from explorer_core.models import locate
seen = []
found = locate("org/tiny", allow_download=True, progress=lambda d, t: seen.append((d, t)))
again = locate("org/tiny", allow_download=True)
files = sorted(p.name for p in found.folder.iterdir())
print(json.dumps({"seen": seen, "folder": str(found.folder), "downloaded": found.downloaded,
                  "again": again.downloaded, "files": files}))
"""


@pytest.mark.slow
def test_real_snapshot_download_from_a_local_hub_reports_progress(env, tmp_path):
    """huggingface_hub's own snapshot_download (in a fresh process, HF_ENDPOINT read at import)
    against tests/fake_hub.py on 127.0.0.1: bytes reported, monotonic, to the expected total;
    no Python file fetched; the second locate finds the cache."""
    import json
    import subprocess
    import sys

    from tests.fake_hub import COMMIT as HUB_COMMIT
    from tests.fake_hub import serving

    repo = tmp_path / "repo"
    tiny_model(repo, card="---\nlanguage: en\n---\n")
    (repo / "modeling_evil.py").write_text("raise SystemExit\n", encoding="utf-8")
    expected = sum(p.stat().st_size for p in repo.iterdir() if p.suffix != ".py")
    with serving(repo) as endpoint:
        result = subprocess.run(
            [sys.executable, "-c", DOWNLOAD_SCRIPT],
            env={**os.environ, "HF_ENDPOINT": endpoint, "HF_HUB_OFFLINE": "0",
                 "EXPLORER_ALLOW_DOWNLOADS": "1", "HF_HUB_DISABLE_TELEMETRY": "1"},
            capture_output=True, text=True, timeout=120, cwd=Path(__file__).resolve().parents[1],
        )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    out = json.loads(result.stdout.strip().splitlines()[-1])
    assert out["downloaded"] and not out["again"]
    assert out["folder"].endswith(f"models--org--tiny/snapshots/{HUB_COMMIT}")
    assert "modeling_evil.py" not in out["files"] and "model.safetensors" in out["files"]
    done = [d for d, _ in out["seen"]]
    assert done == sorted(done) and out["seen"][-1] == [expected, expected]
    assert all(total == expected for _, total in out["seen"])


def test_cache_keys_name_the_version(env):
    minilm_cache(env)
    tiny_model(env / "allowed" / "good")
    assert locate(f"{MINILM_REPO}@main").cache_key == f"{MINILM_REPO}@{COMMIT}"
    assert locate(str(env / "allowed" / "good")).cache_key == str(
        (env / "allowed" / "good").resolve()
    )
