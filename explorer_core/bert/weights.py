"""Reading transformers BERT checkpoints: a folder (config.json + model.safetensors) or a model.

Only safetensors files are read, never pickles (`torch.load` can run code hidden in a file). Names
are transformers' on both sides, so loading is a check of names and shapes, then a plain copy.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from torch import Tensor, nn

from explorer_core.bert.config import BertConfig

# buffers some checkpoints carry that hold no learned numbers (with or without a "bert." prefix)
IGNORED_KEYS = ("embeddings.position_ids", "embeddings.token_type_ids")


def read_transformers(source: str | Path | nn.Module) -> tuple[BertConfig, dict[str, Tensor]]:
    """(config, state dict) of a transformers BERT checkpoint folder or in-memory model."""
    if isinstance(source, nn.Module):
        if not hasattr(source, "config"):
            raise ValueError("expected a transformers model (it has no .config)")
        return BertConfig.from_dict(source.config.to_dict()), dict(source.state_dict())
    folder = Path(source)
    config_file, weights_file = folder / "config.json", folder / "model.safetensors"
    if not config_file.is_file() or not weights_file.is_file():
        raise ValueError(f"{folder} needs config.json and model.safetensors (pickles are not read)")
    from safetensors.torch import load_file

    data = json.loads(config_file.read_text(encoding="utf-8"))
    return BertConfig.from_dict(data), load_file(str(weights_file))


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
        )
    for name, tensor in state.items():
        if tensor.shape != expected[name].shape:
            raise ValueError(f"{name}: checkpoint shape {tuple(tensor.shape)} != model's")
    model.load_state_dict(state)
