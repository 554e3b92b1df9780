"""A checkpoint's `hf/` folder as Hugging Face and sentence-transformers load it.

`save_checkpoint` writes `hf/config.json` and `hf/model.safetensors` for BERT-compatible models
(learned positions, post-LN, segments). This module adds the rest, so that one folder serves both:

    transformers.AutoTokenizer.from_pretrained("out/hf")       same ids as our tokenizer
    transformers.BertModel.from_pretrained("out/hf")           same hidden states
    sentence_transformers.SentenceTransformer("out/hf")        same sentence vectors

Files written::

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

The vectors are not normalised (no Normalize module), as `Checkpoint.embed(normalize=False)`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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


def write_hf_extras(
    folder: Path, tokenizer: Tokenizer, hidden_size: int, pooling: str, max_length: int
) -> None:
    """Add the tokenizer and sentence-transformers files to an `hf/` folder (see module doc)."""
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
