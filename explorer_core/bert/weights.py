"""Reading transformers checkpoints: a folder (config.json + model.safetensors) or a model.

Only safetensors files are read, never pickles (`torch.load` can run code hidden in a file); a
sharded checkpoint (model.safetensors.index.json) is read shard by shard. The config goes through
`explorer_core.bert.families` (any supported family); the weights come back with the
checkpoint's own names (`families.weights_to_ours` renames them), so loading is then a check of
names and shapes, and a plain copy.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from torch import Tensor, nn

from explorer_core.bert.config import BertConfig
from explorer_core.bert.families import UnsupportedModel, config_from_transformers

# buffers some checkpoints carry that hold no learned numbers (with or without a "bert." prefix)
IGNORED_KEYS = ("embeddings.position_ids", "embeddings.token_type_ids")
PICKLES = ("pytorch_model.bin", "pytorch_model.bin.index.json", "tf_model.h5", "flax_model.msgpack")


def _weight_files(folder: Path) -> list[Path]:
    """The safetensors file(s) of a checkpoint folder, or a one-line error saying what to do."""
    single, index = folder / "model.safetensors", folder / "model.safetensors.index.json"
    if single.is_file():
        return [single]
    if index.is_file():
        shards = json.loads(index.read_text(encoding="utf-8"))["weight_map"].values()
        return [folder / name for name in sorted(set(shards))]
    if any((folder / name).is_file() for name in PICKLES):
        raise UnsupportedModel(
            f"{folder} holds only pickled weights, which are never read here (they can run "
            "code): convert them once with transformers, AutoModel.from_pretrained(folder)"
            ".save_pretrained(folder, safe_serialization=True), to get model.safetensors"
        )
    raise UnsupportedModel(f"{folder} needs config.json and model.safetensors")


def read_transformers(source: str | Path | nn.Module) -> tuple[BertConfig, dict[str, Tensor]]:
    """(config, state dict with the checkpoint's names) of a transformers checkpoint folder or
    in-memory model, of any family in `explorer_core.bert.families`."""
    if isinstance(source, nn.Module):
        if not hasattr(source, "config"):
            raise ValueError("expected a transformers model (it has no .config)")
        return config_from_transformers(source.config.to_dict()), dict(source.state_dict())
    folder = Path(source)
    files = _weight_files(folder)
    config_file = folder / "config.json"
    if not config_file.is_file():
        raise UnsupportedModel(f"{folder} needs config.json next to its weights")
    from safetensors.torch import load_file

    config = config_from_transformers(json.loads(config_file.read_text(encoding="utf-8")))
    weights: dict[str, Tensor] = {}
    for file in files:
        weights.update(load_file(str(file)))
    return config, weights


def load_weights(
    model: nn.Module,
    weights: Mapping[str, Tensor],
    *,
    drop_prefix: str = "",
    ignore: tuple[str, ...] = (),
) -> None:
    """Copy a transformers state dict into `model`; a missing or misshapen weight is an error."""
    state = {}
    for name, tensor in weights.items():
        if drop_prefix and name.startswith(drop_prefix):
            name = name[len(drop_prefix) :]
        if name.endswith(IGNORED_KEYS) or name.startswith(ignore):
            continue
        state[name] = tensor
    expected = model.state_dict()
    missing = sorted(expected.keys() - state.keys())
    unexpected = sorted(state.keys() - expected.keys())
    if missing or unexpected:
        raise ValueError(
            f"the checkpoint does not fit this model: missing {missing[:5]}, unexpected "
            f"{unexpected[:5]}"
        )  # the names, not only the counts: the first thing a user needs to fix it
    for name, tensor in state.items():
        if tensor.shape != expected[name].shape:
            raise ValueError(f"{name}: checkpoint shape {tuple(tensor.shape)} != model's")
    model.load_state_dict(state)
