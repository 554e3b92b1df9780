"""Open a real model's tokenizer: its tokenizer.json run by our own code where we have it.

`load_tokenizer_file(path)` takes a model folder (or its tokenizer.json) and returns a
`FileTokenizer` (`hf_pipeline`) that gives exactly the ids `tokenizers` gives for that file. The
algorithm is chosen by the file's `model.type` (WordPiece, BPE, Unigram), never by
tokenizer_config.json's `tokenizer_class`, which some multilingual models get wrong. Our code runs
the steps we implement (BertNormalizer, Lowercase, NFKC, ..., BertPreTokenizer, ByteLevel,
Metaspace, our WordPiece / byte-level BPE / Unigram, the post-processor templates); a step we do not
implement, such as SentencePiece's Precompiled normalizer (a compiled charsmap), runs in
`tokenizers`, and `file_info` says so. An old BERT folder with only vocab.txt works too.

>>> info = TokenizerFileInfo("unigram", ("model: Unigram",),
...     ("normalizer: Precompiled (SentencePiece charsmap)",), {"unk": 3}, 250002, False)
>>> print(info.said())  # doctest: +NORMALIZE_WHITESPACE
Our Unigram code cut this text (model: Unigram); Hugging Face tokenizers ran the
normalizer: Precompiled (SentencePiece charsmap).
"""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

from explorer_core.tokenization.base import HF_FILE
from explorer_core.tokenization.hf_added import AddedToken, assign_ids
from explorer_core.tokenization.hf_decoders import build_decoder
from explorer_core.tokenization.hf_models import build_model
from explorer_core.tokenization.hf_normalizers import build_normalizer
from explorer_core.tokenization.hf_pipeline import FileTokenizer, TokenizerFileInfo
from explorer_core.tokenization.hf_post import Limits, PostProcessor
from explorer_core.tokenization.hf_pretokenizers import build_pre_tokenizer
from explorer_core.tokenization.wordpiece import WordPieceTokenizer

ROLES = ("cls", "sep", "pad", "mask", "unk", "bos", "eos")
__all__ = ["FileTokenizer", "TokenizerFileInfo", "load_tokenizer_file"]
_CONVENTIONS = {
    "cls": ("[CLS]", "<s>", "<cls>"),
    "sep": ("[SEP]", "</s>", "<sep>"),
    "pad": ("[PAD]", "<pad>", "<|padding|>"),
    "mask": ("[MASK]", "<mask>"),
    "unk": ("[UNK]", "<unk>"),
    "bos": ("<s>", "[BOS]", "<bos>"),
    "eos": ("</s>", "[EOS]", "<eos>", "<|endoftext|>"),
}


def load_tokenizer_file(path: str | Path) -> FileTokenizer:
    """The tokenizer of a model folder (tokenizer.json, else vocab.txt) or of a tokenizer.json."""
    path = Path(path)
    folder = path if path.is_dir() else path.parent
    file = path / HF_FILE if path.is_dir() else path
    if not file.is_file():
        if path.is_dir() and (path / "vocab.txt").is_file():
            return _from_doc(_vocab_txt_doc(path), folder, "vocab.txt")
        raise ValueError(f"{path} holds neither a tokenizer.json nor a vocab.txt")
    # subtle: the garbage collector would walk the 250k new tuples of XLM-R's vocabulary again
    # and again while they are made (~25% of the load); nothing made here is a cycle
    collecting = gc.isenabled()
    gc.disable()
    try:
        try:
            doc = json.loads(file.read_bytes())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise ValueError(f"Cannot read {file} as JSON: {err}") from err
        if not isinstance(doc, dict) or not isinstance(doc.get("model"), dict):
            raise ValueError(f"{file} is not a tokenizer.json (it has no model object)")
        return _from_doc(doc, folder, HF_FILE)
    finally:
        if collecting:
            gc.enable()


def _from_doc(doc: dict[str, Any], folder: Path, source: str) -> FileTokenizer:
    try:
        return _build(doc, folder, source)
    except (KeyError, TypeError, IndexError, AttributeError) as err:
        raise ValueError(f"The {source} in {folder} has an unexpected structure: {err!r}") from err


def _build(doc: dict[str, Any], folder: Path, source: str) -> FileTokenizer:
    normalizer = build_normalizer(doc.get("normalizer"))
    splitter = build_pre_tokenizer(doc.get("pre_tokenizer"))
    model = build_model(doc["model"], splitter.byte_level)
    post = PostProcessor.from_json(doc.get("post_processor"))
    decoder = build_decoder(doc.get("decoder"))
    listed = [AddedToken.from_json(t) for t in doc.get("added_tokens") or []]
    added = assign_ids(listed, model.vocab, model.size)
    tokenizer = FileTokenizer(
        model, normalizer, splitter, added, post, Limits.from_json(doc), decoder
    )
    ours = [f"normalizer: {n}" for n in normalizer.names if n not in normalizer.theirs]
    ours += [f"pre-tokenizer: {n}" for n in splitter.names if n not in splitter.theirs]
    ours.append(f"model: {model.name}")
    ours.append(f"post-processor: {post.name}")
    ours += [f"decoder: {n}" for n in decoder.names if n not in decoder.theirs]
    theirs = [f"normalizer: {n}" for n in normalizer.theirs]
    theirs += [f"pre-tokenizer: {n}" for n in splitter.theirs]
    theirs += [f"decoder: {n}" for n in decoder.theirs]
    if source == "vocab.txt":
        ours.insert(0, "vocabulary: vocab.txt (no tokenizer.json)")
    tokenizer.file_info = TokenizerFileInfo(
        kind=model.kind,
        ours=tuple(ours),
        theirs=tuple(theirs),
        specials=_specials(tokenizer, doc, folder),
        vocab_size=tokenizer.vocab_size,
        lowercase=_lowercases(doc.get("normalizer"), normalizer.theirs),
    )
    tokenizer.source, tokenizer.loader = folder, load_tokenizer_file  # how it pickles
    return tokenizer


def _lowercases(spec: dict[str, Any] | None, theirs: tuple[str, ...]) -> bool | None:
    """True if a step lower-cases; None when a step of `tokenizers` (not Precompiled) might."""
    if spec is None:
        return False
    kinds = _normalizer_kinds(spec)
    if "Lowercase" in kinds or any(s.get("lowercase") for s in _bert_specs(spec)):
        return True
    return None if any(not t.startswith("Precompiled") for t in theirs) else False


def _normalizer_kinds(spec: dict[str, Any]) -> list[str]:
    if spec.get("type") == "Sequence":
        return [k for s in spec.get("normalizers", []) for k in _normalizer_kinds(s)]
    return [str(spec.get("type"))]


def _bert_specs(spec: dict[str, Any]) -> list[dict[str, Any]]:
    if spec.get("type") == "Sequence":
        return [b for s in spec.get("normalizers", []) for b in _bert_specs(s)]
    return [spec] if spec.get("type") == "BertNormalizer" else []


def _specials(tokenizer: FileTokenizer, doc: dict[str, Any], folder: Path) -> dict[str, int]:
    """Role -> id: from special_tokens_map.json / tokenizer_config.json where they name a token
    of the vocabulary, else by the usual names ([CLS], <s>, ...), else from the templates."""
    find = tokenizer.token_to_id
    named: dict[str, int] = {}
    for name in ("tokenizer_config.json", "special_tokens_map.json"):  # the map wins
        data = _read_json(folder / name)
        for role in ROLES:
            value = data.get(f"{role}_token")
            value = value.get("content") if isinstance(value, dict) else value
            if isinstance(value, str) and find(value) is not None:
                named[role] = find(value)
    out = dict(named)
    for role in ROLES:
        if role not in out:
            token = next((t for t in _CONVENTIONS[role] if t in tokenizer.special_tokens), None)
            if token is not None:
                out[role] = tokenizer.special_tokens[token]
    unk = tokenizer.model.unk
    if "unk" not in out and unk is not None and find(unk) is not None:
        out["unk"] = find(unk)
    padding = doc.get("padding") or {}
    if "pad" not in out and "pad_id" in padding:
        out["pad"] = int(padding["pad_id"])
    return out


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _vocab_txt_doc(folder: Path) -> dict[str, Any]:
    """The tokenizer.json that transformers' BertTokenizer would write for an old BERT folder:
    vocab.txt with tokenizer_config.json's do_lower_case (default True), strip_accents and
    tokenize_chinese_chars."""
    config = _read_json(folder / "tokenizer_config.json")
    vocab = WordPieceTokenizer.from_vocab(folder / "vocab.txt").vocab
    lowercase = bool(config.get("do_lower_case", True))
    specials = [s for s in ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]") if s in vocab]
    added = [{"id": vocab[s], "content": s, "special": True, "normalized": False} for s in specials]
    template = None
    if "[CLS]" in vocab and "[SEP]" in vocab:
        template = {"type": "BertProcessing", "cls": ["[CLS]", vocab["[CLS]"]],
                    "sep": ["[SEP]", vocab["[SEP]"]]}  # fmt: skip
    return {
        "added_tokens": added,
        "normalizer": {
            "type": "BertNormalizer",
            "clean_text": True,
            "handle_chinese_chars": bool(config.get("tokenize_chinese_chars", True)),
            "strip_accents": config.get("strip_accents"),
            "lowercase": lowercase,
        },
        "pre_tokenizer": {"type": "BertPreTokenizer"},
        "post_processor": template,
        "decoder": {"type": "WordPiece", "prefix": "##", "cleanup": True},
        "model": {
            "type": "WordPiece",
            "unk_token": "[UNK]",
            "vocab": vocab,
            "continuing_subword_prefix": "##",
            "max_input_chars_per_word": 100,
        },  # fmt: skip
    }
