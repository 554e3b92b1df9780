"""The comparison: several sentence encoders and the lexical baseline on the same test pairs.

Each contender scores every test pair (cosine of the two sentence vectors, or the TF-IDF cosine
for the baseline) and gets one Spearman correlation with the gold scores per language, so the
Train page and `bench/sts_quality.py` show the same table:

    lexical     TF-IDF over character 1-2 grams, fitted on the training pairs of that language
    fresh       the model before training (random weights: the floor)
    trained     the model trained from scratch
    minilm      real all-MiniLM-L6-v2 as is (English-only pre-training)
    minilm_ft   MiniLM fine-tuned on the same training pairs

`unk_share` says how many of a contender's tokens on those pairs are its unknown token. MiniLM's
vocabulary (bert-base-uncased, 30,522 WordPiece ids) holds only a few thousand CJK characters, so
part of a Chinese sentence becomes [UNK], and every Chinese character it does know was hardly
seen in its English training: its vectors for Chinese sentences say little. A character-level
tokenizer trained on the pairs has (almost) no unknown characters, so the from-scratch model sees
every character of both languages.

>>> rows = [ComparisonRow("trained", "en", 0.70, 10), ComparisonRow("trained", "en", 0.74, 10)]
>>> s = summarize([rows[:1], rows[1:]])[0]
>>> (s.model, s.lang, round(s.mean, 2), round(s.sd, 3), s.runs)
('trained', 'en', 0.72, 0.028, 2)
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from explorer_core.bert.pooling import SentenceEncoder
from explorer_core.inputs.sts_format import SentencePair
from explorer_core.inputs.vocab import BertVocab
from explorer_core.tokenization import Tokenizer
from explorer_core.training.baselines import fit_baseline
from explorer_core.training.finetune import predict_cosines
from explorer_core.training.metrics import spearman

CONTENDERS = ("lexical", "fresh", "trained", "minilm", "minilm_ft")  # the table's row order
UNK_NAMES = ("[UNK]", "<unk>", "<UNK>")


@dataclass(frozen=True, eq=False)
class Contender:
    """One sentence encoder to compare: a BertModel with its tokenizer and pooling."""

    key: str  # one of CONTENDERS (or any other name)
    model: object  # a BertModel
    tokenizer: Tokenizer
    pooling: str = "mean"


@dataclass(frozen=True)
class ComparisonRow:
    model: str
    lang: str  # "en", "zh", ... or "all" for pairs without a language
    spearman: float
    pairs: int
    unk_share: float | None = None  # share of tokens that are [UNK]; None for the baseline


@dataclass(frozen=True)
class SummaryRow:
    model: str
    lang: str
    mean: float
    sd: float  # sample standard deviation over runs; 0 for one run
    runs: int
    unk_share: float | None = None


def by_lang(pairs: Sequence[SentencePair]) -> dict[str, list[SentencePair]]:
    """Pairs grouped by language, in order of first appearance ("all" when a pair has none)."""
    out: dict[str, list[SentencePair]] = {}
    for pair in pairs:
        out.setdefault(pair.lang or "all", []).append(pair)
    return out


def unk_share(tokenizer: Tokenizer, texts: Sequence[str]) -> float:
    """Share of the tokens of `texts` that are the tokenizer's unknown token (0 if it has none).

    >>> from explorer_core.tokenization.wordpiece import WordPieceTokenizer
    >>> names = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "a"]
    >>> tok = WordPieceTokenizer.from_dict({"vocab": {t: i for i, t in enumerate(names)}})
    >>> unk_share(tok, ["a a 猫 a"])
    0.25
    """
    vocab = tokenizer.vocab
    unk = next((vocab[name] for name in UNK_NAMES if name in vocab), None)
    bert = BertVocab.of(tokenizer)
    ids = [i for text in texts for i in bert.content_ids(tokenizer, text)]
    if unk is None or not ids:
        return 0.0
    return sum(i == unk for i in ids) / len(ids)


def compare(
    contenders: Sequence[Contender],
    train: Sequence[SentencePair],
    test: Sequence[SentencePair],
    max_length: int = 64,
    *,
    baseline: bool = True,
) -> list[ComparisonRow]:
    """Spearman of every contender (and, with `baseline`, the lexical baseline first) per
    language on `test`."""
    if len(test) < 3:
        raise ValueError("The comparison needs at least three test pairs")
    rows = []
    train_by_lang = by_lang(train)
    for lang, pairs in by_lang(test).items():
        gold = [p.score for p in pairs]
        fitted_on = train_by_lang.get(lang) or list(train)
        if baseline and fitted_on:
            lexical = fit_baseline(fitted_on)
            rows.append(ComparisonRow("lexical", lang, spearman(lexical.predict(pairs), gold),
                                      len(pairs)))  # fmt: skip
        texts = [s for p in pairs for s in (p.sentence1, p.sentence2)]
        for c in contenders:
            encoder = SentenceEncoder(c.model, c.pooling)
            vocab = BertVocab.of(c.tokenizer)
            cos = predict_cosines(encoder, c.tokenizer, pairs, max_length, vocab).tolist()
            share = unk_share(c.tokenizer, texts)
            rows.append(ComparisonRow(c.key, lang, spearman(cos, gold), len(pairs), share))
    return rows


def summarize(runs: Sequence[Sequence[ComparisonRow]]) -> list[SummaryRow]:
    """Mean and sample standard deviation of each (model, language) over several runs (seeds)."""
    groups: dict[tuple[str, str], list[ComparisonRow]] = {}
    for run in runs:
        for row in run:
            groups.setdefault((row.model, row.lang), []).append(row)
    out = []
    for (model, lang), rows in groups.items():
        values = [r.spearman for r in rows]
        sd = statistics.stdev(values) if len(values) > 1 else 0.0
        shares = [r.unk_share for r in rows if r.unk_share is not None]
        share = sum(shares) / len(shares) if shares else None
        out.append(SummaryRow(model, lang, statistics.fmean(values), sd, len(values), share))
    order = {key: i for i, key in enumerate(CONTENDERS)}
    return sorted(out, key=lambda r: (order.get(r.model, len(order)), r.model, r.lang))
