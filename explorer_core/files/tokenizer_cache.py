"""The built-in tokenizers, trained once per install: a folder on disk per algorithm, corpus,
vocabulary size and version of the training code.

Training the five default tokenizers of the Text → tokens → ids page on the built-in corpus takes
~1.8 s and counting their tokens over it another ~0.6 s, on every server start; read back from
disk the same tokenizers take ~15 ms. A folder's name holds a fingerprint of what decides the
result (the corpus text and the source of `explorer_core.tokenization`), so a changed corpus or
trainer never reads an old folder. A folder that cannot be read is trained again; a cache that
cannot be written is skipped (the tokenizer is still returned).

The cache lives in `EXPLORER_CACHE_DIR`, else `$XDG_CACHE_HOME/embedding-explorer`, else
`~/.cache/embedding-explorer`.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import tempfile
from collections import Counter
from functools import lru_cache
from pathlib import Path

from explorer_core import tokenization
from explorer_core.inputs.datasets import builtin_corpus
from explorer_core.runtime import cache_root
from explorer_core.tokenization import Tokenizer, load_tokenizer, new_tokenizer

COUNTS_FILE = "corpus_counts.json"  # id -> how often it occurs in the corpus, beside the tokenizer


@lru_cache(maxsize=8)
def fingerprint(corpus: str) -> str:
    """12 hex digits of SHA-256 over the corpus text and every source file of the tokenizers."""
    digest = hashlib.sha256(builtin_corpus(corpus).encode("utf-8"))
    package = Path(tokenization.__file__).parent
    for source in sorted(package.glob("*.py")):
        digest.update(source.name.encode("utf-8"))
        digest.update(source.read_bytes())
    return digest.hexdigest()[:12]


def folder_of(algo: str, corpus: str, vocab_size: int) -> Path:
    return cache_root() / "tokenizers" / f"{algo}-{corpus}-{vocab_size}-{fingerprint(corpus)}"


def trained_tokenizer(algo: str, corpus: str, vocab_size: int) -> tuple[Tokenizer, dict[int, int]]:
    """`algo` trained on the built-in `corpus` to `vocab_size`, and how often each id occurs when
    that corpus is encoded: from the cache when this code trained it before, else trained now
    and written there."""
    folder = folder_of(algo, corpus, vocab_size)
    try:
        tokenizer = load_tokenizer(folder)
        counts = json.loads((folder / COUNTS_FILE).read_text(encoding="utf-8"))
        if tokenizer.algo == algo:
            return tokenizer, {int(token_id): n for token_id, n in counts.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        pass  # absent, half-written by hand or from another version: train it again
    tokenizer = new_tokenizer(algo)
    text = builtin_corpus(corpus)
    tokenizer.train(text, vocab_size)
    counts = dict(Counter(tokenizer.encode(text)))
    _write(folder, tokenizer, counts)
    return tokenizer, counts


def _write(folder: Path, tokenizer: Tokenizer, counts: dict[int, int]) -> None:
    """Write into a fresh folder beside `folder`, then rename it into place: a reader sees a whole
    folder or none (a damaged one is removed first). Two servers writing at once: the first
    rename wins, the other is dropped."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".writing-", dir=folder.parent))
    except OSError:
        return  # read-only home, full disk: run without the cache
    try:
        tokenizer.save(staging)
        (staging / COUNTS_FILE).write_text(json.dumps(counts), encoding="utf-8")
        shutil.rmtree(folder, ignore_errors=True)  # a damaged folder that could not be read
        staging.rename(folder)
    except OSError:
        pass
    finally:
        shutil.rmtree(staging, ignore_errors=True)
