"""Whole model folders a user could bring: a tiny random model of each family, saved by
transformers, with a real tokenizer.json of that family (tests/hf_files.py) and, when asked, the
sentence-transformers files (modules.json, 1_Pooling, 2_Normalize), in a folder or laid out as a
Hugging Face cache entry (`models--org--name/refs/main` + `snapshots/<commit>/`).

The model's vocabulary is the tokenizer's (its size and special ids), so every id the tokenizer
gives has a row: what `explorer_core.models.opened.open_model` reads is a real, consistent model.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch
import transformers

from tests import family_models, hf_files

# family -> (tokenizer of tests/hf_files.py, token names of the config's pad / cls / sep ids)
TOKENIZERS = {
    "bert": ("bert_chinese", ("[PAD]", "[CLS]", "[SEP]")),
    "roberta": ("roberta", ("<pad>", "<s>", "</s>")),
    "xlm-roberta": ("xlmr_precompiled", ("<pad>", "<s>", "</s>")),
    "distilbert": ("bert_uncased", ("[PAD]", "[CLS]", "[SEP]")),
    "albert": ("albert_precompiled", ("<pad>", "[CLS]", "[SEP]")),
    "electra": ("bert_cased", ("[PAD]", "[CLS]", "[SEP]")),
    "modernbert": ("modernbert", ("[PAD]", "[CLS]", "[SEP]")),
}
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def _config(family: str, vocab: dict[str, int]) -> transformers.PretrainedConfig:
    config = family_models.hf_config(family)
    pad, cls, sep = (vocab[name] for name in TOKENIZERS[family][1])
    config.vocab_size = max(vocab.values()) + 1
    config.pad_token_id = pad
    for name, value in (("bos_token_id", cls), ("eos_token_id", sep), ("cls_token_id", cls),
                        ("sep_token_id", sep)):  # fmt: skip
        if hasattr(config, name):
            setattr(config, name, value)
    return config


def sentence_files(folder: Path, pooling: str = "mean", normalize: bool = True) -> None:
    """modules.json, 1_Pooling/config.json (and 2_Normalize) as sentence-transformers writes."""
    kind = "sentence_transformers.models."
    modules = [{"idx": 0, "name": "0", "path": "", "type": kind + "Transformer"},
               {"idx": 1, "name": "1", "path": "1_Pooling", "type": kind + "Pooling"}]  # fmt: skip
    if normalize:
        modules.append({"idx": 2, "name": "2", "path": "2_Normalize",
                        "type": kind + "Normalize"})  # fmt: skip
        (folder / "2_Normalize").mkdir(exist_ok=True)
    (folder / "modules.json").write_text(json.dumps(modules), encoding="utf-8")
    (folder / "1_Pooling").mkdir(exist_ok=True)
    hidden = json.loads((folder / "config.json").read_text("utf-8"))
    width = hidden.get("hidden_size") or hidden.get("dim")
    pool = {"word_embedding_dimension": width, "pooling_mode_cls_token": pooling == "cls",
            "pooling_mode_mean_tokens": pooling == "mean", "pooling_mode_max_tokens": False,
            "pooling_mode_mean_sqrt_len_tokens": False}  # fmt: skip
    (folder / "1_Pooling" / "config.json").write_text(json.dumps(pool), encoding="utf-8")
    (folder / "sentence_bert_config.json").write_text(
        json.dumps({"max_seq_length": 32, "do_lower_case": False}), encoding="utf-8"
    )


def model_folder(
    family: str, folder: Path, *, seed: int = 0, pooling: str | None = "mean",
    card: str | None = None,
) -> Path:  # fmt: skip
    """A whole tiny `family` model in `folder`: weights, config, tokenizer.json, optionally the
    sentence-transformers files (`pooling` "mean" or "cls"; None: none) and a model card."""
    folder.mkdir(parents=True, exist_ok=True)
    path = hf_files.build(TOKENIZERS[family][0], folder)
    (folder / "spiece.model").unlink(missing_ok=True)  # the converters' input, not the model's
    vocab = json.loads(path.read_text("utf-8"))
    table = (
        dict(vocab["model"]["vocab"])
        if isinstance(vocab["model"]["vocab"], dict)
        else {piece: i for i, (piece, _) in enumerate(vocab["model"]["vocab"])}
    )
    table.update({t["content"]: t["id"] for t in vocab.get("added_tokens", [])})
    torch.manual_seed(seed)
    model = transformers.AutoModel.from_config(_config(family, table))
    family_models.randomise_norms(model, seed)
    model.eval().save_pretrained(folder)
    pad, cls, sep = TOKENIZERS[family][1]
    # subtle: without a tokenizer_config.json, AutoTokenizer (and so sentence-transformers) makes
    # a BertTokenizer that lower-cases whatever tokenizer.json says; real folders carry one
    transformers.PreTrainedTokenizerFast(
        tokenizer_file=str(path), pad_token=pad, cls_token=cls, sep_token=sep
    ).save_pretrained(folder)
    if pooling is not None:
        sentence_files(folder, pooling)
    if card is not None:
        (folder / "README.md").write_text(card, encoding="utf-8")
    return folder


def cache_entry(cache: Path, repo_id: str, family: str, **kwargs: object) -> Path:
    """`repo_id` laid out in the Hugging Face cache `cache` as huggingface_hub does offline."""
    repo = cache / ("models--" + repo_id.replace("/", "--"))
    (repo / "refs").mkdir(parents=True, exist_ok=True)
    (repo / "refs" / "main").write_text(COMMIT, encoding="ascii")  # no trailing newline
    return model_folder(family, repo / "snapshots" / COMMIT, **kwargs)
