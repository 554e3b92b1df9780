"""How a model's authors turn token vectors into one sentence vector, read from their files.

A sentence-transformers folder says it in four small files:

- ``modules.json``: the steps in order: a Transformer (the encoder, at path ""), a Pooling, any
  number of Dense layers (a linear map and an activation), then optionally Normalize;
- ``1_Pooling/config.json``: which pooling (``pooling_mode``, or the older
  ``pooling_mode_cls_token`` / ``..._mean_tokens`` / ``..._max_tokens`` /
  ``..._mean_sqrt_len_tokens`` / ``..._weightedmean_tokens`` / ``..._lasttoken`` flags; several
  modes are concatenated) and ``include_prompt``;
- ``config_sentence_transformers.json``: ``prompts`` (name -> text put before the input),
  ``default_prompt_name``, ``similarity_fn_name``;
- ``sentence_bert_config.json``: ``max_seq_length``, ``do_lower_case``.

Without ``modules.json`` the default is what sentence-transformers itself builds for a plain
transformers folder: mean pooling, no normalisation; ``source`` is then empty and a note says so.
When the model card names prefixes (e5's ``query: `` / ``passage: ``, bge's query instruction)
that the files do not carry, they are offered as prompts but not added by default, and a note
says so. No torch here: the catalogue reads pipelines without loading a tensor.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from explorer_core.models.card import read_card
from explorer_core.models.settings import ModelRefused

POOLING_MODES = ("cls", "max", "mean", "mean_sqrt_len_tokens", "weightedmean", "lasttoken")
# sentence-transformers' older flags, in the order it concatenates them
LEGACY_POOLING_KEYS = {
    "pooling_mode_cls_token": "cls",
    "pooling_mode_max_tokens": "max",
    "pooling_mode_mean_tokens": "mean",
    "pooling_mode_mean_sqrt_len_tokens": "mean_sqrt_len_tokens",
    "pooling_mode_weightedmean_tokens": "weightedmean",
    "pooling_mode_lasttoken": "lasttoken",
}
# Dense activations that are plain torch modules (sentence-transformers' own trusted set)
DENSE_ACTIVATIONS = {
    "torch.nn.modules.activation.Tanh": "tanh",
    "torch.nn.modules.linear.Identity": "identity",
    "torch.nn.modules.activation.ReLU": "relu",
    "torch.nn.modules.activation.GELU": "gelu",
    "torch.nn.modules.activation.Sigmoid": "sigmoid",
}
# Prefixes model cards ask for, each family's set found only whole: {prompt name: text}
CARD_PREFIXES = (
    {"query": "query: ", "passage": "passage: "},  # e5
    {"search_query": "search_query: ", "search_document": "search_document: "},  # nomic
    {"query": "Represent this sentence for searching relevant passages: "},  # bge (English)
    {"query": "为这个句子生成表示以用于检索相关文章："},  # bge (Chinese)
)


@dataclass(frozen=True)
class DenseLayer:
    """One sentence-transformers Dense step: ``activation(W x + b)`` (weights in ``path``)."""

    path: str  # the module's folder, e.g. "2_Dense"
    in_features: int
    out_features: int
    bias: bool = True
    activation: str = "tanh"  # a name from DENSE_ACTIVATIONS' values


@dataclass(frozen=True)
class SentencePipeline:
    pooling_modes: tuple[str, ...] = ("mean",)  # concatenated in this order (usually one)
    include_prompt: bool = True  # False: the prompt's tokens are left out of the pooling
    dense: tuple[DenseLayer, ...] = ()
    normalize: bool = False  # divide by the length, so a dot product is the cosine
    prompts: tuple[tuple[str, str], ...] = ()  # (name, text put before the input)
    default_prompt_name: str | None = None  # the prompt used when the page asks for none
    similarity_fn_name: str = "cosine"  # sentence-transformers' default when unset
    max_seq_length: int | None = None  # longer inputs are cut here (None: the model's own limit)
    do_lower_case: bool = False
    source: tuple[str, ...] = ()  # the files that said so; empty: our documented default
    notes: tuple[str, ...] = ()  # one line each, for the page

    def __post_init__(self) -> None:
        for mode in self.pooling_modes:
            if mode not in POOLING_MODES:
                raise ValueError(f"pooling must be among {', '.join(POOLING_MODES)}, got {mode!r}")
        if not self.pooling_modes:
            raise ValueError("pooling needs at least one mode")

    @property
    def pooling_mode(self) -> str:
        """The pooling as one word: ``"mean"``, or ``"cls+mean"`` for a concatenation."""
        return "+".join(self.pooling_modes)

    @property
    def is_default(self) -> bool:
        """True when no file said how to pool (mean pooling, no normalisation)."""
        return not self.source

    def prompt(self, name: str | None = None) -> str:
        """The text of prompt ``name`` (the default prompt when None); "" when there is none."""
        name = self.default_prompt_name if name is None else name
        return dict(self.prompts).get(name, "") if name else ""


def _json(path: Path) -> dict | list | None:
    if not path.is_file():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ModelRefused(f"{path.name} in {path.parent} is not readable JSON ({err})") from err


def _object(path: Path) -> dict:
    """A JSON file that should hold an object; {} when it is missing or holds something else."""
    data = _json(path)
    return data if isinstance(data, dict) else {}


def _default_prompt(name: object, prompts: dict) -> tuple[str | None, tuple[str, ...]]:
    if not name:
        return None, ()
    if name not in prompts:  # sentence-transformers refuses to load such a model
        return None, (f"the default prompt {name!r} is not among the prompts: none is used",)
    return str(name), ()


def pooling_from_config(config: dict) -> tuple[tuple[str, ...], bool]:
    """(modes, include_prompt) from a Pooling module's config.json, old flags or new key.

    >>> pooling_from_config({"pooling_mode_cls_token": True, "pooling_mode_mean_tokens": False})
    (('cls',), True)
    >>> pooling_from_config({"pooling_mode": ["cls", "mean"], "include_prompt": False})
    (('cls', 'mean'), False)
    """
    mode = config.get("pooling_mode")
    if mode is None:
        modes = tuple(m for key, m in LEGACY_POOLING_KEYS.items() if config.get(key))
    else:
        modes = (mode,) if isinstance(mode, str) else tuple(mode)
    for name in modes:
        if name not in POOLING_MODES:
            raise ModelRefused(f"pooling {name!r} is not one of {', '.join(POOLING_MODES)}")
    return modes or ("mean",), bool(config.get("include_prompt", True))


def _dense(folder: Path, path: str) -> DenseLayer:
    config = _json(folder / path / "config.json")
    if not isinstance(config, dict):
        raise ModelRefused(f"the Dense step {path} in {folder} has no config.json")
    name = config.get("activation_function") or "torch.nn.modules.activation.Tanh"
    if name not in DENSE_ACTIVATIONS:
        raise ModelRefused(
            f"the Dense step {path} uses activation {name!r}; supported: "
            f"{', '.join(sorted(DENSE_ACTIVATIONS.values()))}"
        )
    if config.get("use_residual"):
        raise ModelRefused(f"the Dense step {path} has a residual connection, not supported here")
    if not (folder / path / "model.safetensors").is_file():
        raise ModelRefused(f"the Dense step {path} has no model.safetensors (pickle is refused)")
    return DenseLayer(
        path,
        int(config["in_features"]),
        int(config["out_features"]),
        bool(config.get("bias", True)),
        DENSE_ACTIVATIONS[name],
    )


# the steps that may follow each step in modules.json
NEXT_STEPS = {
    "Transformer": ("Pooling",),
    "Pooling": ("Dense", "Normalize"),
    "Dense": ("Dense", "Normalize"),
    "Normalize": (),
}


def _steps(folder: Path, modules: list) -> dict:
    """The Pooling, Dense and Normalize steps of modules.json, in the one order supported."""
    modules = sorted((m for m in modules if isinstance(m, dict)), key=lambda m: m.get("idx", 0))
    kinds = [str(m.get("type", "")).rsplit(".", 1)[-1] for m in modules]
    if kinds[:1] != ["Transformer"] or modules[0].get("path", "") != "":
        raise ModelRefused(
            f"modules.json in {folder} does not start with the Transformer at the top folder"
        )
    found: dict = {"pooling": None, "dense": [], "normalize": False}
    previous = "Transformer"
    for module, kind in zip(modules[1:], kinds[1:], strict=True):
        if kind not in NEXT_STEPS:
            raise ModelRefused(f"modules.json in {folder} has a {kind} step, not supported here")
        if kind not in NEXT_STEPS[previous]:
            raise ModelRefused(f"modules.json in {folder} puts {kind} after {previous}")
        previous = kind
        path = str(module.get("path", ""))
        if Path(path).is_absolute() or ".." in Path(path).parts:
            raise ModelRefused(f"modules.json in {folder} points outside its folder ({path})")
        if kind == "Pooling":
            found["pooling"] = path
        elif kind == "Dense":
            found["dense"].append(_dense(folder, path))
        else:
            found["normalize"] = True
    if found["pooling"] is None:
        raise ModelRefused(f"modules.json in {folder} has no Pooling step: no sentence vector")
    return found


def _card_notes(folder: Path, prompts: dict) -> tuple[dict, tuple[str, ...]]:
    """Prefixes the card names but the files lack, added as prompts; with a note saying so."""
    if prompts:
        return prompts, ()
    text = read_card(folder).text
    asked = {}
    for family in CARD_PREFIXES:
        if all(prefix in text for prefix in family.values()):
            asked.update(family)
    if not asked:
        return prompts, ()
    shown = " / ".join(repr(prefix) for prefix in asked.values())
    note = (
        f"the model card asks for the prefixes {shown}, which the model's files do not carry: "
        "they are offered as prompts but not added unless you choose one"
    )
    return asked, (note,)


def _pooling(folder: Path, steps: dict) -> tuple[tuple[str, ...], bool, list[str], list[str]]:
    """(modes, include_prompt, files read, notes) of the Pooling step (mean when unsaid)."""
    if steps["pooling"] is None:
        return ("mean",), True, [], []
    config = _json(folder / steps["pooling"] / "config.json")
    if not isinstance(config, dict):
        return ("mean",), True, [], ["the Pooling step has no config.json: mean pooling"]
    modes, include_prompt = pooling_from_config(config)
    return modes, include_prompt, [f"{steps['pooling']}/config.json"], []


def _prompts(folder: Path, st_config: dict) -> tuple[dict, str | None, tuple[str, ...]]:
    """(prompts, default prompt name, notes): the files' prompts, else the card's prefixes."""
    files_prompts = st_config.get("prompts")
    files_prompts = files_prompts if isinstance(files_prompts, dict) else {}
    default, default_notes = _default_prompt(st_config.get("default_prompt_name"), files_prompts)
    prompts, card_notes = _card_notes(folder, files_prompts)
    return prompts, default, (*default_notes, *card_notes)


def read_pipeline(folder: Path) -> SentencePipeline:
    """The sentence pipeline of ``folder`` (see the module's doc for what is read)."""
    folder = Path(folder)
    modules = _json(folder / "modules.json")
    steps = {"pooling": None, "dense": [], "normalize": False}
    source, notes = [], []
    if isinstance(modules, list) and modules:
        source.append("modules.json")
        steps = _steps(folder, modules)
    else:
        notes.append(
            "no sentence-transformers files: mean pooling without normalisation "
            "(sentence-transformers' default for a plain transformers model)"
        )
    modes, include_prompt, pooling_source, pooling_notes = _pooling(folder, steps)
    st_config = _object(folder / "config_sentence_transformers.json")
    bert_config = _object(folder / "sentence_bert_config.json")
    source += pooling_source
    source += [name for name, data in (
        ("config_sentence_transformers.json", st_config),
        ("sentence_bert_config.json", bert_config),
    ) if data]  # fmt: skip
    prompts, default, prompt_notes = _prompts(folder, st_config)
    max_seq_length = bert_config.get("max_seq_length")
    return SentencePipeline(
        pooling_modes=modes,
        include_prompt=include_prompt,
        dense=tuple(steps["dense"]),
        normalize=steps["normalize"],
        prompts=tuple((str(k), str(v)) for k, v in prompts.items()),
        default_prompt_name=default,
        similarity_fn_name=str(st_config.get("similarity_fn_name") or "cosine"),
        max_seq_length=int(max_seq_length) if max_seq_length else None,
        do_lower_case=bool(bert_config.get("do_lower_case", False)),
        source=tuple(source),
        notes=(*notes, *pooling_notes, *prompt_notes),
    )
