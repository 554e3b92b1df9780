"""A model the user brought, opened: our encoder, its own tokenizer and its authors' pooling.

`open_model(ref)` turns a reference (a Hub name such as ``google-bert/bert-base-chinese`` found in
this machine's Hugging Face cache, or a folder under the allowed roots, see `locate`) into an
`OpenedModel`:

1. `locate`            where the files are, and whether they may be read (safetensors only, no
                         remote code, a known family, not larger than the memory setting);
2. `BertModel.from_transformers`  our one readable encoder with the family's switches
                         (`bert.families`), weights copied by name;
3. `load_tokenizer_file` the model's `tokenizer.json` through our own WordPiece / byte-level BPE /
                         Unigram (a piece we do not implement runs in `tokenizers`, and says so);
4. `read_pipeline`       pooling, normalisation and prompts from its sentence-transformers files.

`embed` then gives the sentence vectors its authors' pipeline gives (sentence-transformers'
`encode`, to 1e-5, where that library can load the folder).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch
from torch import Tensor

from explorer_core.bert.model import BertModel
from explorer_core.bert.pooling import SentenceEncoder
from explorer_core.inputs.vocab import BertVocab
from explorer_core.models.download import ProgressCallback
from explorer_core.models.locate import LocatedModel, locate
from explorer_core.models.pipeline import SentencePipeline, read_pipeline
from explorer_core.models.sentence import DenseWeights, load_dense, prompt_length, sentence_vectors
from explorer_core.models.settings import ModelRefused
from explorer_core.tokenization import Tokenizer

OWN_POOLING = "own"  # = analysis.similarity.OWN_POOLING (models sits below analysis)


@dataclass(frozen=True, eq=False)
class OpenedModel:
    """One opened model; shared by every session of a server, so treat it as read-only."""

    ref: str  # what the user typed or picked: a Hub name or a folder
    label: str  # for captions: the Hub name, or the folder's name
    located: LocatedModel  # where it lies, its commit, its checked facts
    model: BertModel
    tokenizer: Tokenizer
    pipeline: SentencePipeline
    dense: DenseWeights = ()  # the pipeline's Dense steps, if any

    @property
    def folder(self) -> Path:
        return self.located.folder

    @property
    def family(self) -> str:
        return self.model.config.model_type

    @property
    def parameter_bytes(self) -> int:
        """Memory its weights take (the server's health figures show it)."""
        return sum(p.numel() * p.element_size() for p in self.model.parameters())

    @property
    def tokenizer_said(self) -> str:
        """Which code cut the text (ours, or which pieces ran in `tokenizers`)."""
        info = getattr(self.tokenizer, "file_info", None)
        return info.said() if info is not None else "our WordPiece, from vocab.txt"


def _tokenizer(folder: Path) -> Tokenizer:
    """tokenizer.json (else an old BERT folder's vocab.txt) through our own code."""
    from explorer_core.tokenization.hf_file import load_tokenizer_file

    try:
        return load_tokenizer_file(folder)
    except ValueError as err:
        raise ModelRefused(f"{folder.name}: {str(err).splitlines()[0]}") from err


def open_model(
    ref: str, *, allow_download: bool = False, progress: ProgressCallback | None = None,
    anywhere: bool = False,
) -> OpenedModel:  # fmt: skip
    """Locate, check and load `ref`; `ModelRefused` (one line) when it may not be opened.
    `anywhere=True` (the command line only) lets a folder lie outside the allowed roots."""
    located = locate(ref, allow_download=allow_download, progress=progress, anywhere=anywhere)
    return open_located(ref, located)


def open_located(ref: str, located: LocatedModel) -> OpenedModel:
    """Load a model `locate` found and checked (load right after locating: the files are not
    checked again)."""
    folder = located.folder
    tokenizer = _tokenizer(folder)
    try:
        model = BertModel.from_transformers(folder)
    except ModelRefused:
        raise
    except ValueError as err:  # a checkpoint that does not fit its own config
        raise ModelRefused(f"{located.reference}: {str(err).splitlines()[0]}") from err
    pipeline = read_pipeline(folder)
    label = located.reference if located.kind == "hub" else folder.name
    dense = load_dense(folder, pipeline)
    return OpenedModel(ref, label, located, model, tokenizer, pipeline, dense)


def encode_rows(opened: OpenedModel, texts: Sequence[str]) -> tuple[Tensor, Tensor]:
    """(input_ids, attention_mask), each (B, T), right-padded: the model's own special tokens."""
    tokenizer, vocab = opened.tokenizer, BertVocab.of(opened.tokenizer)
    limit = min(opened.pipeline.max_seq_length or 10**9, opened.model.config.max_tokens)
    rows = []
    for text in texts:
        text = text.lower() if opened.pipeline.do_lower_case else text
        if hasattr(tokenizer, "encode_with_specials"):
            ids = tokenizer.encode_with_specials(text, limits=False)[0]  # we cut and pad
        else:
            ids = vocab.row_ids(vocab.content_ids(tokenizer, text))
        rows.append(ids[: limit - 1] + ids[-1:] if len(ids) > limit else ids)
    width = max(len(r) for r in rows)
    # subtle: a tokenizer without a pad token (a GPT-2 decoder's byte-level BPE) gets one after
    # its last id, a row the model does not have; padded keys are masked, so any id of the
    # model's table pads as well: 0 then
    pad = vocab.pad_id if vocab.pad_id < opened.model.config.vocab_size else 0
    ids = torch.full((len(rows), width), pad, dtype=torch.long)
    mask = torch.zeros((len(rows), width), dtype=torch.long)
    for i, row in enumerate(rows):
        ids[i, : len(row)] = torch.tensor(row)
        mask[i, : len(row)] = 1
    return ids, mask


@torch.no_grad()
def embed(opened: OpenedModel, texts: Sequence[str], prompt: str | None = None) -> Tensor:
    """Sentence vectors (B, H) as the model's authors pool them (`SentencePipeline`)."""
    if not texts or any(not t.strip() for t in texts):
        raise ValueError("every text must hold some text")
    pipeline = opened.pipeline
    prefix = pipeline.prompt(prompt)  # the default prompt (e5's "query: ") when none is named
    ids, mask = encode_rows(opened, [prefix + t for t in texts])
    skip = 0
    if prefix and not pipeline.include_prompt:
        vocab = BertVocab.of(opened.tokenizer)
        skip = prompt_length(encode_rows(opened, [prefix])[0][0].tolist(), vocab.special_ids)
    hidden = opened.model(ids, mask).last_hidden_state  # (B, T, H)
    return sentence_vectors(pipeline, hidden, mask, skip, opened.dense)


@dataclass(frozen=True, eq=False)
class OpenedEncoder:
    """An opened model as the Similarity page's encoder: unit vectors (N, H) as float64 numpy,
    pooled as its authors do (`OWN_POOLING`: its pipeline, prompt and Dense steps included) or
    with one of our modes over its last hidden state (mean, cls, max), for comparison."""

    opened: OpenedModel
    batch_size: int = 32

    @torch.no_grad()
    def embed(self, texts: Sequence[str], pooling: str = OWN_POOLING) -> np.ndarray:
        texts = [str(t) for t in texts]
        if not texts:
            raise ValueError("Nothing to embed: the list of sentences is empty")
        out = []
        for i in range(0, len(texts), self.batch_size):
            chunk = texts[i : i + self.batch_size]
            if pooling == OWN_POOLING:
                vectors = embed(self.opened, chunk)  # (B, D)
            else:
                ids, mask = encode_rows(self.opened, chunk)
                vectors = SentenceEncoder(self.opened.model, pooling).encode(ids, mask)
            out.append(torch.nn.functional.normalize(vectors.double(), dim=-1))
        return torch.cat(out).numpy()
