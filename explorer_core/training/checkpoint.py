"""Checkpoints: save, load, zip and unzip a trained sentence-embedding model.

A checkpoint is a folder::

    config.json          {"format": "embedding-explorer-checkpoint", "model": BertConfig fields,
                          "pooling": "mean", "tokenizer": {"algo": ...}, "special_ids": {...}, ...}
    model.safetensors    the BertModel's weights (transformers' parameter names)
    tokenizer/           the tokenizer, saved by `Tokenizer.save`
    training_log.json    {"pretrain": TrainLog, "finetune": TrainLog} (phases that ran)
    hf/                  only for BERT-compatible configs (learned positions, post-LN, segments):
      config.json        a transformers BertConfig, and model.safetensors again, so that
      model.safetensors  transformers.BertModel.from_pretrained(folder / "hf") gives equal vectors
      tokenizer.json...  plus tokenizer and sentence-transformers files (`st_export`), so that
                         SentenceTransformer(folder / "hf") gives our sentence vectors

Weights are read with safetensors only: loading never unpickles anything (no `torch.load`), so an
uploaded zip cannot run code. `checkpoint_from_zip` also refuses paths that leave the folder
("zip slip"), links, and archives larger than `MAX_UNZIPPED_BYTES`.

In use (a sketch; the tests run the real thing)::

    ckpt = Checkpoint(model, tokenizer, label="Tiny, 200 steps")
    save_checkpoint(ckpt, "out/");  load_checkpoint("out/").embed(["a cat", "a dog"]).shape
    torch.Size([2, 128])
"""

from __future__ import annotations

import io
import json
import shutil
import tempfile
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import torch
import torch.nn.functional as F

from explorer_core.bert.config import BertConfig
from explorer_core.bert.model import BertModel
from explorer_core.bert.pooling import POOLING_MODES, SentenceEncoder
from explorer_core.bert.weights import load_weights
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer, load_tokenizer
from explorer_core.training.devices import module_device
from explorer_core.training.loop import TrainLog
from explorer_core.training.st_export import write_hf_extras

FORMAT = "embedding-explorer-checkpoint"
VERSION = 1
CONFIG_FILE, WEIGHTS_FILE, LOG_FILE = "config.json", "model.safetensors", "training_log.json"
TOKENIZER_DIR, HF_DIR = "tokenizer", "hf"
MAX_ZIP_BYTES = 200 * 2**20  # refuse bigger uploads outright
MAX_UNZIPPED_BYTES = 600 * 2**20  # and archives that would unpack to more (zip bombs)


@dataclass
class Checkpoint:
    """A trained encoder with everything needed to use it; what the Train page shares.

    `model` is the BertModel (eval mode), `tokenizer` its tokenizer, `pooling` how token vectors
    become one sentence vector, `label` a short caption, `log` the training logs by phase.
    """

    model: BertModel
    tokenizer: Tokenizer
    pooling: str = "mean"
    label: str = ""
    log: dict[str, TrainLog] = field(default_factory=dict)
    max_length: int = 128

    def __post_init__(self) -> None:
        if self.pooling not in POOLING_MODES:
            raise ValueError(f"pooling must be one of {', '.join(POOLING_MODES)}")
        vocab = BertVocab.of(self.tokenizer)
        if vocab.size > self.config.vocab_size:
            raise ValueError(
                f"The tokenizer needs {vocab.size} ids but the model has only "
                f"{self.config.vocab_size} rows: they do not belong together"
            )
        self.model.eval()

    @property
    def config(self) -> BertConfig:
        return self.model.config

    @property
    def vocab(self) -> BertVocab:
        return BertVocab.of(self.tokenizer)

    def encoder(self, normalize: bool = False) -> SentenceEncoder:
        """The model with its pooling, as a module: (ids, mask) -> (B, H)."""
        return SentenceEncoder(self.model, self.pooling, normalize=normalize).eval()

    def embed(self, texts: Sequence[str], normalize: bool = True) -> torch.Tensor:
        """One vector per text, (N, H); unit length unless `normalize=False`."""
        vocab = self.vocab
        limit = min(self.max_length, self.config.max_position_embeddings)
        rows = vocab.encode(self.tokenizer, list(texts), max_length=limit)
        device = module_device(self.model)  # the model may sit on a GPU; vectors come back on CPU
        ids, mask = rows.input_ids.to(device), rows.attention_mask.to(device)
        return self.encoder(normalize).encode(ids, mask).cpu()

    def cosine(self, a: str, b: str) -> float:
        """Cosine similarity of two texts' vectors."""
        u, v = self.embed([a, b], normalize=False)
        return float(F.cosine_similarity(u, v, dim=0))


def hf_config(config: BertConfig) -> dict[str, Any]:
    """A transformers config.json for a BERT-compatible `config` (learned positions, post-LN)."""
    if not config.bert_compatible:
        raise ValueError(
            "Only BERT-compatible configs (learned positions, post-LN) load in transformers"
        )
    keys = (
        "vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
        "intermediate_size", "hidden_act", "hidden_dropout_prob", "attention_probs_dropout_prob",
        "max_position_embeddings", "type_vocab_size", "initializer_range", "layer_norm_eps",
        "pad_token_id",
    )  # fmt: skip
    data = {k: getattr(config, k) for k in keys}
    return {"architectures": ["BertModel"], "model_type": "bert",
            "position_embedding_type": "absolute", **data}  # fmt: skip


def save_checkpoint(ckpt: Checkpoint, folder: str | Path) -> Path:
    """Write `ckpt` into `folder` (created; existing checkpoint files are overwritten)."""
    from safetensors.torch import save_file

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    weights = {k: v.detach().cpu().contiguous() for k, v in ckpt.model.state_dict().items()}
    save_file(weights, str(folder / WEIGHTS_FILE))
    if (folder / TOKENIZER_DIR).exists():
        shutil.rmtree(folder / TOKENIZER_DIR)
    ckpt.tokenizer.save(folder / TOKENIZER_DIR)
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "model": ckpt.config.to_dict(),
        "pooling": ckpt.pooling,
        "label": ckpt.label,
        "max_length": ckpt.max_length,
        "tokenizer": {"algo": ckpt.tokenizer.algo, "folder": TOKENIZER_DIR},
        "special_ids": ckpt.vocab.to_dict(),
    }
    _write_json(folder / CONFIG_FILE, meta)
    _write_json(folder / LOG_FILE, {phase: log.to_dict() for phase, log in ckpt.log.items()})
    if ckpt.config.bert_compatible:
        (folder / HF_DIR).mkdir(exist_ok=True)
        _write_json(folder / HF_DIR / CONFIG_FILE, hf_config(ckpt.config))
        shutil.copyfile(folder / WEIGHTS_FILE, folder / HF_DIR / WEIGHTS_FILE)
        limit = min(ckpt.max_length, ckpt.config.max_position_embeddings)
        write_hf_extras(folder / HF_DIR, ckpt.tokenizer, ckpt.config.hidden_size, ckpt.pooling,
                        limit)  # fmt: skip
    elif (folder / HF_DIR).exists():
        shutil.rmtree(folder / HF_DIR)
    return folder


def _write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path.name} is missing or not valid JSON: {err}") from err


def load_checkpoint(folder: str | Path) -> Checkpoint:
    """Load a checkpoint folder written by `save_checkpoint` (safetensors only, never pickles)."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    folder = Path(folder)
    if not (folder / CONFIG_FILE).is_file():
        raise ValueError(f"{folder} is not a checkpoint folder (it has no {CONFIG_FILE})")
    meta = _read_json(folder / CONFIG_FILE)
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueError(f"{folder} is not an Embedding Explorer checkpoint (config.json format)")
    if meta.get("version", 0) > VERSION:
        raise ValueError(f"This checkpoint was written by a newer version ({meta['version']})")
    try:
        config = BertConfig.from_dict(meta["model"])
        tokenizer = load_tokenizer(folder / str(meta["tokenizer"]["folder"]))
        weights = load_file(str(folder / WEIGHTS_FILE))
    except (KeyError, TypeError) as err:
        raise ValueError(f"config.json of {folder} lacks a field: {err}") from err
    except (SafetensorError, OSError) as err:
        raise ValueError(f"{WEIGHTS_FILE} of {folder} cannot be read: {err}") from err
    model = BertModel(config, initialize=False)  # load_weights sets every weight or fails
    load_weights(model, weights)
    logs = _read_json(folder / LOG_FILE) if (folder / LOG_FILE).is_file() else {}
    return Checkpoint(
        model=model,
        tokenizer=tokenizer,
        pooling=str(meta.get("pooling", "mean")),
        label=str(meta.get("label", "")),
        log={phase: TrainLog.from_dict(data) for phase, data in logs.items()},
        max_length=int(meta.get("max_length", config.max_position_embeddings)),
    )


def checkpoint_to_zip(folder: str | Path) -> bytes:
    """The checkpoint folder as zip bytes (files at the archive's root), e.g. for a download."""
    folder = Path(folder)
    if not (folder / CONFIG_FILE).is_file():
        raise ValueError(f"{folder} is not a checkpoint folder (no {CONFIG_FILE})")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            archive.write(path, path.relative_to(folder).as_posix())
    return buffer.getvalue()


def _safe_members(archive: zipfile.ZipFile) -> tuple[list[zipfile.ZipInfo], str]:
    """The archive's files, checked, and the folder prefix that holds config.json ('' or 'x/')."""
    infos, total = [], 0
    for info in archive.infolist():
        name = info.filename
        parts = PurePosixPath(name).parts
        if name.startswith(("/", "\\")) or "\\" in name or ".." in parts or ":" in name:
            raise ValueError(f"The zip holds an unsafe path ({name!r}); it is not a checkpoint")
        if (info.external_attr >> 16) & 0o170000 == 0o120000:
            raise ValueError(f"The zip holds a link ({name!r}); checkpoints hold plain files only")
        total += info.file_size
        if total > MAX_UNZIPPED_BYTES:
            raise ValueError("The zip unpacks to more than the size limit; it is not a checkpoint")
        if not info.is_dir():
            infos.append(info)
    names = {i.filename for i in infos}
    prefixes = sorted(n[: -len(CONFIG_FILE)] for n in names if n.endswith(CONFIG_FILE))
    for prefix in prefixes:  # shortest first: the root's config.json, not hf/config.json
        if prefix + WEIGHTS_FILE in names and prefix.count("/") <= 1:
            return [i for i in infos if i.filename.startswith(prefix)], prefix
    raise ValueError("The zip is not a checkpoint: it needs config.json and model.safetensors")


def checkpoint_from_zip(data: bytes, dest: str | Path) -> Checkpoint:
    """Unpack an uploaded checkpoint zip into the empty or new folder `dest` and load it.

    Raises ValueError (a sentence for the user) when the bytes are not a valid checkpoint; `dest`
    is then left as it was.
    """
    if len(data) > MAX_ZIP_BYTES:
        raise ValueError(
            f"The file is larger than {MAX_ZIP_BYTES // 2**20} MB; it is not a checkpoint"
        )
    dest = Path(dest)
    if dest.exists() and any(dest.iterdir()):
        raise ValueError(f"{dest} is not empty; choose a new folder for the checkpoint")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as err:
        raise ValueError("The file is not a zip archive, so it is not a checkpoint") from err
    with archive, tempfile.TemporaryDirectory() as tmp:
        members, prefix = _safe_members(archive)
        for info in members:
            target = Path(tmp, info.filename[len(prefix) :])
            target.parent.mkdir(parents=True, exist_ok=True)
            with archive.open(info) as src, open(target, "wb") as out:
                shutil.copyfileobj(src, out)
        try:
            load_checkpoint(tmp)  # validate before anything reaches dest
        except ValueError as err:
            raise ValueError(f"The zip is not a usable checkpoint: {err}") from err
        dest.mkdir(parents=True, exist_ok=True)
        for item in Path(tmp).iterdir():
            shutil.move(str(item), dest / item.name)
    return load_checkpoint(dest)
