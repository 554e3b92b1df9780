"""Checkpoints: save, load, zip and unzip a trained sentence-embedding model.

A checkpoint is a folder that transformers and sentence-transformers load as it is::

    config.json               a transformers BertConfig (or, for an architecture BertModel cannot
                              run, the one line saying so: see st_export.unsupported)
    model.safetensors         the BertModel's weights (transformers' parameter names)
    tokenizer.json ...        AutoTokenizer's files; modules.json, 1_Pooling/ ... for
                              SentenceTransformer (`st_export` writes them, and README.md)
    explorer_checkpoint.json  what only we read: {"format": "embedding-explorer-checkpoint",
                              "version": 2, "model": our BertConfig (RoPE, relative positions,
                              pre-LN ...), "pooling", "label", "max_length", "special_ids", ...}
    explorer_tokenizer.json   our tokenizer (`Tokenizer.save`'s own file); a model brought from
                              elsewhere and fine-tuned keeps its own tokenizer files instead
                              (tokenizer.json ..., read back by `tokenization.hf_file`)
    training_log.json         {"pretrain": TrainLog, "finetune": TrainLog} (phases that ran)

So `SentenceTransformer("my_model")` and `AutoModel.from_pretrained("my_model")` give our vectors.
Version 1 folders (until 2026-11) are still read: our fields in config.json (with "format"), the
tokenizer in `tokenizer/`, and the transformers copy in `hf/`.

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
import os
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
from explorer_core.bert.heads import BertForPreTraining
from explorer_core.bert.model import BertModel
from explorer_core.bert.pooling import POOLING_MODES, SentenceEncoder
from explorer_core.bert.weights import load_weights
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer, load_tokenizer
from explorer_core.tokenization.base import META_FILE as TOKENIZER_FILE
from explorer_core.tokenization.hf_pipeline import FileTokenizer
from explorer_core.training.devices import module_device
from explorer_core.training.loop import TrainLog
from explorer_core.training.st_export import copy_tokenizer_files, write_hf_files

FORMAT = "embedding-explorer-checkpoint"
VERSION = 2  # 1: our fields in config.json, tokenizer/ and hf/ (still read)
META_FILE = "explorer_checkpoint.json"  # our settings; transformers never reads it
CONFIG_FILE = "config.json"  # transformers' (version 1: ours)
WEIGHTS_FILE, LOG_FILE = "model.safetensors", "training_log.json"
TOKENIZER_DIR, HF_DIR = "tokenizer", "hf"  # version 1's folders
TIED_DECODER = "predictions.decoder.weight"  # in BertPreTrainingHeads: the word embeddings
MAX_ZIP_BYTES = 200 * 2**20  # refuse bigger uploads outright
MAX_UNZIPPED_BYTES = 600 * 2**20  # and archives that would unpack to more (zip bombs)


@dataclass
class Checkpoint:
    """A trained encoder with everything needed to use it; what the Train page shares.

    `model` is the BertModel (eval mode), `tokenizer` its tokenizer, `pooling` how token vectors
    become one sentence vector, `label` a short caption, `log` the training logs by phase.
    `mlm_head`, when set, is the pre-training heads' own weights (`BertForPreTraining.cls`, less
    the decoder, which is the word-embedding matrix) as they were trained for exactly this
    encoder: a model pre-trained and not fine-tuned after. It stays in memory (the Inside the
    encoder page's logit lens reads it) and is not saved with the model.
    """

    model: BertModel
    tokenizer: Tokenizer
    pooling: str = "mean"
    label: str = ""
    log: dict[str, TrainLog] = field(default_factory=dict)
    max_length: int = 128
    mlm_head: dict[str, torch.Tensor] | None = field(default=None, repr=False)

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
        limit = min(self.max_length, self.config.max_tokens)
        rows = vocab.encode(self.tokenizer, list(texts), max_length=limit)
        device = module_device(self.model)  # the model may sit on a GPU; vectors come back on CPU
        ids, mask = rows.input_ids.to(device), rows.attention_mask.to(device)
        return self.encoder(normalize).encode(ids, mask).cpu()

    def cosine(self, a: str, b: str) -> float:
        """Cosine similarity of two texts' vectors."""
        u, v = self.embed([a, b], normalize=False)
        return float(F.cosine_similarity(u, v, dim=0))

    def pretraining_model(self) -> BertForPreTraining | None:
        """The encoder with its MLM and NSP heads (`mlm_head`), sharing this model's weights; None
        when the model has no heads that belong to it (fine-tuned, uploaded, distilled)."""
        if self.mlm_head is None:
            return None
        full = BertForPreTraining(self.config)
        full.bert = self.model
        full.tie_weights()
        missing, unexpected = full.cls.load_state_dict(self.mlm_head, strict=False)
        if missing != [TIED_DECODER] or unexpected:
            raise ValueError(f"the MLM head does not fit this model: {missing + unexpected}")
        return full.to(module_device(self.model)).eval()


def save_checkpoint(ckpt: Checkpoint, folder: str | Path) -> Path:
    """Write `ckpt` into `folder` (created; existing checkpoint files are overwritten)."""
    from safetensors.torch import save_file

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if _version_1_meta(folder) is not None:  # rewriting an old checkpoint: drop its folders
        for name in (TOKENIZER_DIR, HF_DIR):
            shutil.rmtree(folder / name, ignore_errors=True)
    weights, seen = {}, set()
    for name, tensor in ckpt.model.state_dict().items():
        tensor = tensor.detach().cpu().contiguous()
        # subtle: ALBERT's shared layer appears under every layer index; safetensors refuses
        # tensors that share memory, so each repeat is written as its own copy
        weights[name] = tensor.clone() if tensor.data_ptr() in seen else tensor
        seen.add(tensor.data_ptr())
    save_file(weights, str(folder / WEIGHTS_FILE), metadata={"format": "pt"})
    if isinstance(ckpt.tokenizer, FileTokenizer):  # a brought model's own: its files, as they are
        copy_tokenizer_files(ckpt.tokenizer.source, folder)
        (folder / TOKENIZER_FILE).unlink(missing_ok=True)
    else:  # our file, and a plain tokenizer.json that write_hf_files replaces
        ckpt.tokenizer.save(folder)
    limit = min(ckpt.max_length, ckpt.config.max_tokens)
    write_hf_files(folder, ckpt.tokenizer, ckpt.config, ckpt.pooling, limit)
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "model": ckpt.config.to_dict(),
        "pooling": ckpt.pooling,
        "label": ckpt.label,
        "max_length": ckpt.max_length,
        "tokenizer": {"algo": ckpt.tokenizer.algo, "file": _tokenizer_file(ckpt.tokenizer)},
        "special_ids": ckpt.vocab.to_dict(),
    }
    _write_json(folder / META_FILE, meta)
    _write_json(folder / LOG_FILE, {phase: log.to_dict() for phase, log in ckpt.log.items()})
    return folder


def _tokenizer_file(tokenizer: Tokenizer) -> str:
    return "tokenizer.json" if isinstance(tokenizer, FileTokenizer) else TOKENIZER_FILE


def _read_tokenizer(folder: Path, meta: dict[str, Any]) -> Tokenizer:
    """Our tokenizer file, or (algo "hf-file") the model's own tokenizer files."""
    if meta["tokenizer"].get("algo") == FileTokenizer.algo:
        from explorer_core.tokenization.hf_file import load_tokenizer_file

        return load_tokenizer_file(folder)
    return load_tokenizer(folder / str(meta["tokenizer"].get("folder", ".")))


def _write_json(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ValueError(f"{path.name} is missing or not valid JSON: {err}") from err


def _version_1_meta(folder: Path) -> dict[str, Any] | None:
    """The old layout's metadata (our fields in config.json), or None when it is not one."""
    try:
        meta = json.loads((folder / CONFIG_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return meta if isinstance(meta, dict) and meta.get("format") == FORMAT else None


def is_checkpoint(folder: str | Path) -> bool:
    """True when `folder` holds a checkpoint of this app, in the current or the old layout."""
    folder = Path(folder)
    return (folder / META_FILE).is_file() or _version_1_meta(folder) is not None


def _read_meta(folder: Path) -> dict[str, Any]:
    """Our metadata, from explorer_checkpoint.json or (version 1) config.json."""
    if (folder / META_FILE).is_file():
        meta = _read_json(folder / META_FILE)
    elif (old := _version_1_meta(folder)) is not None:
        return old
    elif (folder / CONFIG_FILE).is_file():
        raise ValueError(f"{folder} is not an Embedding Explorer checkpoint (no {META_FILE})")
    else:
        raise ValueError(f"{folder} is not a checkpoint folder (it has no {META_FILE})")
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ValueError(f"{folder} is not an Embedding Explorer checkpoint ({META_FILE} format)")
    return meta


def replace_checkpoint(ckpt: Checkpoint, folder: str | Path) -> Path:
    """Write `ckpt` into `folder` atomically: into a hidden sibling first, then renamed into
    place (a checkpoint there before is replaced), so a reader never sees half a folder and a
    write that dies leaves the old one. Returns the folder."""
    folder = Path(folder)
    folder.parent.mkdir(parents=True, exist_ok=True)
    aside = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    try:
        save_checkpoint(ckpt, aside)
        old = None
        if folder.exists():
            old = folder.with_name(f".{folder.name}-old-{os.getpid()}")
            os.replace(folder, old)
        os.replace(aside, folder)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(aside, ignore_errors=True)
    return folder


@dataclass(frozen=True, eq=False)
class CheckpointHead:
    """A checkpoint's small files: its architecture, tokenizer and pooling, without weights."""

    config: BertConfig
    tokenizer: Tokenizer
    pooling: str = "mean"
    label: str = ""
    max_length: int = 512


def read_head(folder: str | Path) -> CheckpointHead:
    """The metadata and tokenizer of a checkpoint folder (either layout); its weights unread."""
    folder = Path(folder)
    meta = _read_meta(folder)
    if meta.get("version", 0) > VERSION:
        raise ValueError(f"This checkpoint was written by a newer version ({meta['version']})")
    try:
        config = BertConfig.from_dict(meta["model"])
        tokenizer = _read_tokenizer(folder, meta)
    except (KeyError, TypeError, AttributeError) as err:
        raise ValueError(f"The checkpoint's metadata lacks a field: {err}") from err
    return CheckpointHead(
        config, tokenizer, pooling=str(meta.get("pooling", "mean")),
        label=str(meta.get("label", "")),
        max_length=int(meta.get("max_length", config.max_tokens)),
    )  # fmt: skip


def load_checkpoint(folder: str | Path) -> Checkpoint:
    """Load a checkpoint folder written by `save_checkpoint`, in either layout (safetensors
    only, never pickles)."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    folder = Path(folder)
    head = read_head(folder)
    try:
        weights = load_file(str(folder / WEIGHTS_FILE))
    except (SafetensorError, OSError) as err:
        raise ValueError(f"{WEIGHTS_FILE} of {folder} cannot be read: {err}") from err
    model = BertModel(head.config, initialize=False)  # load_weights sets every weight or fails
    load_weights(model, weights)
    logs = _read_json(folder / LOG_FILE) if (folder / LOG_FILE).is_file() else {}
    return Checkpoint(
        model=model,
        tokenizer=head.tokenizer,
        pooling=head.pooling,
        label=head.label,
        log={phase: TrainLog.from_dict(data) for phase, data in logs.items()},
        max_length=head.max_length,
    )


def checkpoint_to_zip(folder: str | Path) -> bytes:
    """The checkpoint folder as zip bytes (files at the archive's root), e.g. for a download."""
    folder = Path(folder)
    if not is_checkpoint(folder):
        raise ValueError(f"{folder} is not a checkpoint folder (no {META_FILE})")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            archive.write(path, path.relative_to(folder).as_posix())
    return buffer.getvalue()


def _safe_members(archive: zipfile.ZipFile) -> tuple[list[zipfile.ZipInfo], str]:
    """The archive's files, checked, and the folder prefix that holds the checkpoint ('' or 'x/'):
    where explorer_checkpoint.json is, or (version 1) config.json beside model.safetensors."""
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
    for marker in (META_FILE, CONFIG_FILE):
        holders = [n for n in names if n == marker or n.endswith("/" + marker)]
        prefixes = sorted(n[: -len(marker)] for n in holders)
        for prefix in prefixes:  # shortest first: the root's config.json, not hf/config.json
            if prefix + WEIGHTS_FILE in names and prefix.count("/") <= 1:
                return [i for i in infos if i.filename.startswith(prefix)], prefix
    raise ValueError(f"The zip is not a checkpoint: it needs {META_FILE} and {WEIGHTS_FILE}")


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
