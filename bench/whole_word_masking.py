"""Character masking against whole-word masking: pre-train the same tiny BERT both ways on the
built-in Chinese corpus and test both on held-out lines.

Setup, the same for both runs: the built-in Chinese corpus (`builtin_corpus("zh")`), every 7th
line held out, the rest for pre-training; a character tokenizer (one token per character, the
corpus's own characters); the Tiny preset (hidden 128, 2 layers, 4 heads), MLM only (no NSP),
the same seed, steps, batch and learning rate. The only difference is `PretrainConfig.whole_word`:
15% of the characters (80/10/10) against 15% of the characters chosen as whole jieba words.

Measured on the held-out lines, for every jieba word of two or more Chinese characters:
- whole word: all its characters become [MASK] at once; the model's cross-entropy (nats) per
  masked character, the share of words whose every character it predicts right (argmax) and the
  share of those characters predicted right;
- one character: one character of the word becomes [MASK] (each in turn), the rest stay visible;
  the cross-entropy and the share predicted right. This is what character masking trains for, so
  it is the fair check that whole-word masking does not simply win everywhere.
The cross-entropy is the main figure: a model this small trained this briefly on ~9,000
characters predicts few characters exactly right, but its loss still tells the two apart.
Several seeds give the mean and the spread; the last lines are a Markdown table for the page.

    python bench/whole_word_masking.py [--steps 400] [--seeds 0] [--threads 1]
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

import torch  # noqa: E402

from explorer_core.bert.heads import BertForPreTraining  # noqa: E402
from explorer_core.inputs.datasets import builtin_corpus  # noqa: E402
from explorer_core.inputs.vocab import BertVocab  # noqa: E402
from explorer_core.inputs.whole_word import segment  # noqa: E402
from explorer_core.tokenization.base import is_cjk  # noqa: E402
from explorer_core.tokenization.wordpiece import WordPieceTokenizer  # noqa: E402
from explorer_core.training.presets import PRESETS  # noqa: E402
from explorer_core.training.pretrain import PretrainConfig, pretrain  # noqa: E402

SPECIALS = ("[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]")


def split(lines: list[str]) -> tuple[list[str], list[str]]:
    """Every 7th line held out."""
    return [x for i, x in enumerate(lines) if i % 7], [x for i, x in enumerate(lines) if not i % 7]


def char_tokenizer(lines: list[str], folder: Path) -> WordPieceTokenizer:
    """One token per character: the corpus's characters (and ## forms for non-CJK letters)."""
    chars = sorted({c for line in lines for c in line if not c.isspace()})
    pieces = [*SPECIALS, *chars, *(f"##{c}" for c in chars if not is_cjk(c))]
    (folder / "vocab.txt").write_text("\n".join(pieces) + "\n", encoding="utf-8")
    return WordPieceTokenizer.from_vocab(folder / "vocab.txt", lowercase=False)


def probes(tokenizer: WordPieceTokenizer, lines: list[str]) -> list[tuple[list[int], list[int]]]:
    """(ids of [CLS] line [SEP], positions of one word) for every multi-character Chinese word."""
    vocab, out = BertVocab.of(tokenizer), []
    for line in lines:
        tokens = [t for t in tokenizer.explain(line) if t.end > t.start]
        ids = vocab.row_ids([t.id for t in tokens])
        where = {t.start: i + 1 for i, t in enumerate(tokens)}  # +1: [CLS]
        at = 0
        for word in segment(line):
            if len(word) > 1 and all(is_cjk(c) for c in word):
                out.append((ids, [where[at + k] for k in range(len(word))]))
            at += len(word)
    return out


@torch.no_grad()
def predict(
    model: BertForPreTraining, rows: list[list[int]], masked: list[list[int]], mask_id: int
) -> list[tuple[list[int], list[float]]]:
    """For each row, with its positions masked: (argmax ids, cross-entropy in nats) there."""
    width = max(map(len, rows))
    ids = torch.tensor([r + [0] * (width - len(r)) for r in rows])  # (B, T)
    attention = torch.arange(width)[None, :] < torch.tensor([len(r) for r in rows])[:, None]
    inputs = ids.clone()
    for b, positions in enumerate(masked):
        inputs[b, positions] = mask_id
    logits = model(inputs, attention.long()).prediction_logits  # (B, T, V)
    out = []
    for b, positions in enumerate(masked):
        rows_logits = logits[b, positions]  # (n, V)
        loss = torch.nn.functional.cross_entropy(rows_logits, ids[b, positions], reduction="none")
        out.append((rows_logits.argmax(-1).tolist(), loss.tolist()))
    return out


def evaluate(model: BertForPreTraining, vocab: BertVocab, cases: list) -> dict[str, float]:
    """Whole word masked: words all right, characters right, loss per character; one character
    masked: right, loss."""
    model.eval()
    whole: list[tuple[bool, list[bool], list[float]]] = []
    single: list[tuple[bool, float]] = []
    for start in range(0, len(cases), 64):
        chunk = cases[start : start + 64]
        found = predict(model, [i for i, _ in chunk], [p for _, p in chunk], vocab.mask_id)
        for (ids, positions), (guess, loss) in zip(chunk, found, strict=True):
            right = [g == ids[p] for g, p in zip(guess, positions, strict=True)]
            whole.append((all(right), right, loss))
        one = [(ids, [p]) for ids, positions in chunk for p in positions]
        found = predict(model, [i for i, _ in one], [p for _, p in one], vocab.mask_id)
        single += [(g[0] == i[p[0]], loss[0]) for (i, p), (g, loss) in zip(one, found, strict=True)]
    chars = [ok for _, right, _ in whole for ok in right]
    losses = [x for _, _, loss in whole for x in loss]
    return {
        "word": sum(ok for ok, _, _ in whole) / len(whole),
        "word_chars": sum(chars) / len(chars),
        "word_loss": sum(losses) / len(losses),
        "one_char": sum(ok for ok, _ in single) / len(single),
        "one_loss": sum(loss for _, loss in single) / len(single),
    }


def run(tokenizer, train: list[str], cases: list, whole_word: bool, seed: int, steps: int) -> dict:
    vocab = BertVocab.of(tokenizer)
    model = BertForPreTraining(PRESETS["tiny"].config(vocab_size=vocab.size), seed=seed)
    config = PretrainConfig(
        steps=steps, seed=seed, nsp=False, whole_word=whole_word, batch_size=32, max_length=64,
        learning_rate=PRESETS["tiny"].learning_rate, eval_every=steps,
    )  # fmt: skip
    start = time.perf_counter()
    pretrain(model, tokenizer, train, config)
    result = evaluate(model, vocab, cases)
    result["seconds"] = time.perf_counter() - start
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    lines = [x for x in builtin_corpus("zh").splitlines() if x.strip()]
    train, held = split(lines)
    with tempfile.TemporaryDirectory() as folder:
        tokenizer = char_tokenizer(lines, Path(folder))
    cases = probes(tokenizer, held)
    print(f"{len(train)} training lines, {len(held)} held out, {len(cases)} held-out words of "
          f"2+ characters; vocabulary {tokenizer.vocab_size}; {args.steps} steps, "
          f"seeds {args.seeds}", flush=True)  # fmt: skip
    results: dict[str, list[dict]] = {"char": [], "whole": []}
    keys = ("word_loss", "one_loss", "word", "word_chars", "one_char")
    for seed in args.seeds:
        for name in results:
            r = run(tokenizer, train, cases, name == "whole", seed, args.steps)
            results[name].append(r)
            cells = "  ".join(f"{k} {r[k]:.4f}" for k in keys)
            print(f"seed {seed} {name:5s}  {cells}  ({r['seconds']:.0f} s)", flush=True)
    print(
        "\n| pre-training masks | loss, whole word masked | loss, one character masked "
        "| whole words right | characters right (word masked) | one character right |"
    )
    print("|---|---|---|---|---|---|")
    for name, label in (("char", "characters (15%)"), ("whole", "whole words (jieba)")):
        cells = []
        for key in keys:
            values = [r[key] * (1 if "loss" in key else 100) for r in results[name]]
            spread = f" ± {statistics.stdev(values):.2f}" if len(values) > 1 else ""
            unit = "" if "loss" in key else "%"
            cells.append(f"{statistics.mean(values):.2f}{unit}{spread}")
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
