"""The files that make a checkpoint folder a standard transformers / sentence-transformers model.

`save_checkpoint` writes the weights (`model.safetensors`, transformers' parameter names) and our
own files; this module writes the rest, so that the folder itself loads everywhere::

    transformers.AutoTokenizer.from_pretrained("my_model")        same ids as our tokenizer
    transformers.AutoModel.from_pretrained("my_model")            same hidden states (a BertModel)
    sentence_transformers.SentenceTransformer("my_model")         same sentence vectors

Files written::

    config.json                  a transformers BertConfig (`hf_config`); for an architecture that
                                 BertModel cannot run (rotary, sinusoidal or relative positions,
                                 pre-LN, no segments) a config whose model_type is the one line
                                 saying so (`unsupported`), which AutoModel and SentenceTransformer
                                 repeat in their error instead of loading wrong weights
    README.md                    how to load the folder (that line, when transformers cannot)
    tokenizer.json               our tokenizer in Hugging Face `tokenizers` form (every algorithm of
                                 the Tokenizer Lab has one, `Tokenizer.to_hf_json`), plus BERT's
                                 specials at the ids `BertVocab` gave them and the post-processor
                                 that wraps a text as ``[CLS] text [SEP]``
    tokenizer_config.json        PreTrainedTokenizerFast and the names of the special tokens
    special_tokens_map.json
    modules.json                 sentence-transformers' pipeline: Transformer (this folder), Pooling
    sentence_bert_config.json    max_seq_length: the checkpoint's max_length
    config_sentence_transformers.json
    1_Pooling/config.json        mean, cls or max pooling, as the checkpoint pools

A brought model fine-tuned here (its tokenizer a `FileTokenizer`) keeps its own tokenizer files
instead, copied as they are (`copy_tokenizer_files`). The tokenizer files are written for every
other model; config.json's BertConfig and the
sentence-transformers files only when BertModel can run the architecture. The vectors are not
normalised (no Normalize module), as `Checkpoint.embed(normalize=False)`.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from explorer_core.bert.config import BertConfig
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer

SPECIAL_NAMES = {"pad": "[PAD]", "cls": "[CLS]", "sep": "[SEP]", "mask": "[MASK]"}  # when added


def special_tokens(tokenizer: Tokenizer, vocab: BertVocab) -> dict[str, str]:
    """The token string of each BERT role: the tokenizer's own, or BERT's name when added."""
    inverse = {i: s for s, i in tokenizer.vocab.items()}
    ids = {"pad": vocab.pad_id, "cls": vocab.cls_id, "sep": vocab.sep_id, "mask": vocab.mask_id}
    return {role: inverse.get(i, SPECIAL_NAMES[role]) for role, i in ids.items()}


def hf_tokenizer_json(tokenizer: Tokenizer, max_length: int) -> str:
    """tokenizer.json encoding a text exactly as `BertVocab.encode(tokenizer, [text], max_length)`.

    # subtle: HF numbers an added token after the vocabulary's largest id, in the order added,
    # which is also how `BertVocab.of` numbers the specials a tokenizer lacks (ROLES order).
    """
    from tokenizers import AddedToken, processors
    from tokenizers import Tokenizer as HFTokenizer

    vocab = BertVocab.of(tokenizer)
    names = special_tokens(tokenizer, vocab)
    hf = HFTokenizer.from_str(tokenizer.to_hf_json())
    for role in ("pad", "cls", "sep", "mask"):
        hf.add_special_tokens([AddedToken(names[role], special=True)])
        if hf.token_to_id(names[role]) != getattr(vocab, f"{role}_id"):
            raise ValueError(f"cannot give {names[role]} the id the model uses in tokenizer.json")
    cls, sep = names["cls"], names["sep"]
    hf.post_processor = processors.TemplateProcessing(
        single=f"{cls}:0 $A:0 {sep}:0",
        pair=f"{cls}:0 $A:0 {sep}:0 $B:1 {sep}:1",
        special_tokens=[(cls, vocab.cls_id), (sep, vocab.sep_id)],
    )
    hf.enable_truncation(max_length)
    return hf.to_str()


def _unk(tokenizer: Tokenizer) -> str | None:
    for name in ("[UNK]", "<unk>", "<UNK>"):
        if name in tokenizer.vocab:
            return name
    return None


ST_FILES = ("modules.json", "sentence_bert_config.json", "config_sentence_transformers.json",
            "1_Pooling")  # fmt: skip


def unsupported(config: BertConfig) -> str | None:
    """The one line saying why transformers' BertModel cannot run `config`; None when it can.

    >>> unsupported(BertConfig(position_embedding_type="rotary"))[:47]
    'Embedding Explorer model with rotary positions,'
    """
    gaps = []
    if config.position_embedding_type != "learned":
        gaps.append(f"{config.position_embedding_type} positions")
    if config.norm_placement != "post":
        gaps.append("pre-LN blocks")
    if config.type_vocab_size == 0:
        gaps.append("no segment embedding")
    if not config.embedding_layer_norm:
        gaps.append("no LayerNorm on the embeddings")
    if not gaps and not config.bert_compatible:  # a family switch (bert/families.py) is set
        gaps.append(f"{config.model_type} switches (RoBERTa positions, GeGLU, ...)")
    if not gaps:
        return None
    return (
        f"Embedding Explorer model with {', '.join(gaps)}, which transformers' BertModel lacks: "
        "load it with explorer_core (python -m explorer_core embed --model FOLDER)"
    )


def hf_config(config: BertConfig) -> dict[str, Any]:
    """config.json: a transformers BertConfig, or for an architecture BertModel cannot run, a
    model_type that is the reason (AutoConfig's error repeats it)."""
    reason = unsupported(config)
    if reason is not None:
        return {"model_type": reason, "architectures": []}
    keys = (
        "vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
        "intermediate_size", "hidden_act", "hidden_dropout_prob", "attention_probs_dropout_prob",
        "max_position_embeddings", "type_vocab_size", "initializer_range", "layer_norm_eps",
        "pad_token_id",
    )  # fmt: skip
    data = {k: getattr(config, k) for k in keys}
    return {"architectures": ["BertModel"], "model_type": "bert",
            "position_embedding_type": "absolute", **data}  # fmt: skip


def write_hf_files(
    folder: Path, tokenizer: Tokenizer, config: BertConfig, pooling: str, max_length: int
) -> None:
    """Write config.json, README.md, the tokenizer files and, when transformers can run the model,
    the sentence-transformers files (see the module doc); stale ones are removed."""
    _write(folder / "config.json", hf_config(config))
    reason = unsupported(config)
    readme = reason or (
        "A BERT sentence encoder trained with Embedding Explorer (pooling: "
        f"{pooling}). Load it with `SentenceTransformer(folder)`, "
        "`transformers.AutoModel.from_pretrained(folder)` or `python -m explorer_core embed "
        "--model folder`."
    )
    (folder / "README.md").write_text(readme + "\n", "utf-8")
    if tokenizer.algo != "hf-file":  # a brought model's own tokenizer files are already there
        write_tokenizer_files(folder, tokenizer, max_length)
    for name in ST_FILES:
        if (folder / name).is_dir():
            shutil.rmtree(folder / name)
        elif (folder / name).exists():
            (folder / name).unlink()
    if reason is None:
        write_st_files(folder, config.hidden_size, pooling, max_length)


def write_tokenizer_files(folder: Path, tokenizer: Tokenizer, max_length: int) -> None:
    """tokenizer.json, tokenizer_config.json and special_tokens_map.json for AutoTokenizer."""
    vocab = BertVocab.of(tokenizer)
    names = special_tokens(tokenizer, vocab)
    (folder / "tokenizer.json").write_text(hf_tokenizer_json(tokenizer, max_length), "utf-8")
    specials = {f"{role}_token": name for role, name in names.items()}
    if _unk(tokenizer):
        specials["unk_token"] = _unk(tokenizer)
    _write(folder / "special_tokens_map.json", specials)
    _write(folder / "tokenizer_config.json", {
        "tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": max_length,
        "clean_up_tokenization_spaces": False, **specials,
    })  # fmt: skip


# a model's own tokenizer files (hf_file reads them back): copied into a checkpoint as they are
MODEL_TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "tokenizer_config.json",
                         "special_tokens_map.json")  # fmt: skip


def copy_tokenizer_files(source: Path | None, folder: Path) -> None:
    """Copy the tokenizer files of the folder a FileTokenizer was read from into `folder`."""
    if source is None:
        raise ValueError("this tokenizer does not know the folder it was read from")
    for name in MODEL_TOKENIZER_FILES:
        src, dst = Path(source) / name, folder / name
        if src.is_file() and not (dst.exists() and os.path.samefile(src, dst)):
            shutil.copyfile(src, dst)


def write_st_files(folder: Path, hidden_size: int, pooling: str, max_length: int) -> None:
    """sentence-transformers' modules.json, its settings and 1_Pooling/config.json."""
    _write(folder / "modules.json", [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling",
         "type": "sentence_transformers.models.Pooling"},
    ])  # fmt: skip
    _write(folder / "sentence_bert_config.json", {"max_seq_length": max_length,
                                                  "do_lower_case": False})  # fmt: skip
    _write(folder / "config_sentence_transformers.json", {
        "model_type": "SentenceTransformer", "prompts": {}, "default_prompt_name": None,
        "similarity_fn_name": "cosine",
    })  # fmt: skip
    (folder / "1_Pooling").mkdir(exist_ok=True)
    _write(folder / "1_Pooling" / "config.json", pooling_config(hidden_size, pooling))


def pooling_config(hidden_size: int, pooling: str) -> dict[str, Any]:
    """sentence-transformers' Pooling settings for our pooling mode.

    >>> pooling_config(128, "mean")["pooling_mode_mean_tokens"]
    True
    """
    return {
        "word_embedding_dimension": hidden_size,
        "pooling_mode_cls_token": pooling == "cls",
        "pooling_mode_mean_tokens": pooling == "mean",
        "pooling_mode_max_tokens": pooling == "max",
        "pooling_mode_mean_sqrt_len_tokens": False,
        "pooling_mode_weightedmean_tokens": False,
        "pooling_mode_lasttoken": False,
        "include_prompt": True,
    }


def _write(path: Path, data: Any) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
