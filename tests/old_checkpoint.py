"""The checkpoint layout of version 1 (until 2026-11), written as `save_checkpoint` then wrote it.

Kept so that tests can prove that folders, zips and lesson packs saved by earlier versions still
open everywhere a checkpoint is read::

    config.json          {"format": "embedding-explorer-checkpoint", "version": 1, "model": ...}
    model.safetensors
    tokenizer/           Tokenizer.save
    training_log.json
    hf/                  transformers' copy (BERT-compatible architectures only)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from explorer_core.training.checkpoint import Checkpoint
from explorer_core.training.st_export import write_hf_files


def save_version_1(ckpt: Checkpoint, folder: Path) -> Path:
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    weights = {k: v.detach().cpu().contiguous() for k, v in ckpt.model.state_dict().items()}
    save_file(weights, str(folder / "model.safetensors"))
    ckpt.tokenizer.save(folder / "tokenizer")
    meta = {
        "format": "embedding-explorer-checkpoint",
        "version": 1,
        "model": ckpt.config.to_dict(),
        "pooling": ckpt.pooling,
        "label": ckpt.label,
        "max_length": ckpt.max_length,
        "tokenizer": {"algo": ckpt.tokenizer.algo, "folder": "tokenizer"},
        "special_ids": ckpt.vocab.to_dict(),
    }
    (folder / "config.json").write_text(json.dumps(meta), encoding="utf-8")
    logs = {phase: log.to_dict() for phase, log in ckpt.log.items()}
    (folder / "training_log.json").write_text(json.dumps(logs), encoding="utf-8")
    if ckpt.config.bert_compatible:
        (folder / "hf").mkdir()
        limit = min(ckpt.max_length, ckpt.config.max_position_embeddings)
        write_hf_files(folder / "hf", ckpt.tokenizer, ckpt.config, ckpt.pooling, limit)
        shutil.copyfile(folder / "model.safetensors", folder / "hf" / "model.safetensors")
        (folder / "hf" / "README.md").unlink()  # version 1 wrote none
    return folder
