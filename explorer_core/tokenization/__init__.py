"""Tokenizers: one algorithm per module, one shared interface (`base.Tokenizer`).

`ALGORITHMS` maps the registry name used by the pages and the CLI to the class; modules register
themselves by being listed here, so a new algorithm is one new module and one line.

Read in this order:

1. `base`          `Token`, `Tokenizer` (encode, decode, save, load) and pure helpers on text.
2. `pretokenize`   splitting text into words before any algorithm runs (GPT-2's regex, CJK).
3. `byte_bpe`      byte-level BPE with a per-merge trace; `bpe_engine` is its readable merge
                   loop, `bpe_fast` the compiled one that gives identical merges (its hash
                   table, heap and symbol units in `bpe_tables`).
4. `char_bpe`      character-level BPE with an end-of-word marker (Chinese and English).
5. `wordpiece`     WordPiece encoding (greedy longest match, "##" pieces), with
                   `wordpiece_trainer`, `bert_basic` and `bert_unicode` (BERT's text clean-up).
6. `unigram`       the Unigram language model (Viterbi over `unigram_lattice`), `unigram_trainer`.
7. `word_level`    a word vocabulary with special tokens: the baseline every other one improves.
8. `hf_file`       a real model's tokenizer.json (or old vocab.txt) run by the modules above:
                   `load_tokenizer_file(folder)`; its steps in `hf_pipeline`, built by
                   `hf_added`, `hf_normalizers`, `hf_pretokenizers`, `hf_models`, `hf_post` and
                   `hf_decoders` over `hf_aligned` (text that remembers its original spans).
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path

from explorer_core.tokenization.base import META_FILE, Token, Tokenizer

# registry name -> "module:Class"; imported lazily so one broken module cannot break the others
_REGISTRY: dict[str, str] = {
    "byte-bpe": "explorer_core.tokenization.byte_bpe:ByteBPETokenizer",
    "char-bpe": "explorer_core.tokenization.char_bpe:CharBPETokenizer",
    "wordpiece": "explorer_core.tokenization.wordpiece:WordPieceTokenizer",
    "unigram": "explorer_core.tokenization.unigram:UnigramTokenizer",
    "word": "explorer_core.tokenization.word_level:WordLevelTokenizer",
}

ALGORITHMS: tuple[str, ...] = tuple(_REGISTRY)


def tokenizer_class(algo: str) -> type[Tokenizer]:
    """The class registered under `algo` (one of `ALGORITHMS`)."""
    if algo not in _REGISTRY:
        raise ValueError(
            f"Unknown tokenizer algorithm {algo!r}; choose one of {', '.join(_REGISTRY)}"
        )
    module_name, class_name = _REGISTRY[algo].split(":")
    return getattr(importlib.import_module(module_name), class_name)


def new_tokenizer(algo: str) -> Tokenizer:
    """An untrained tokenizer of the given algorithm."""
    return tokenizer_class(algo)()


def load_tokenizer(folder: str | Path) -> Tokenizer:
    """Load any tokenizer saved with `Tokenizer.save`."""
    path = Path(folder) / META_FILE
    if not path.is_file():
        raise ValueError(f"{folder} is not a saved tokenizer (no {META_FILE})")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ValueError(f"{path} is not valid JSON: {err}") from err
    algo = data.pop("algo", None)
    return tokenizer_class(str(algo)).from_dict(data)


__all__ = ["ALGORITHMS", "Token", "Tokenizer", "load_tokenizer", "new_tokenizer", "tokenizer_class"]
