"""A lexical reference for sentence similarity: TF-IDF cosine over character 1-2 grams.

It knows nothing about meaning, only which characters and character pairs two sentences share, so
"A cat naps on the couch." / "The kitten sleeps on the sofa." looks unrelated to it while "The bank
of the river" / "The bank raised its rates" looks close. A trained sentence encoder should beat it.

The weighting follows scikit-learn's ``TfidfVectorizer(analyzer="char", ngram_range=(1, 2))``:
lower-cased text with whitespace runs collapsed to one space, raw n-gram counts, smoothed idf
``ln((1 + N) / (1 + df)) + 1`` fitted on the training sentences, L2-normalised vectors; n-grams
never seen in training are ignored.

>>> model = CharTfidf.fit(["the cat sat", "the dog ran", "a cat ran"])
>>> round(model.similarity("the cat", "the cat"), 6), model.similarity("xyz", "the cat")
(1.0, 0.0)
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from explorer_core.inputs.sts_format import SentencePair
from explorer_core.training.metrics import spearman

_WHITESPACE = re.compile(r"\s\s+")


def char_ngrams(text: str, n_min: int = 1, n_max: int = 2) -> list[str]:
    """Character n-grams of the lower-cased text, whitespace runs collapsed, shortest first.

    >>> char_ngrams("Hi  yo")
    ['h', 'i', ' ', 'y', 'o', 'hi', 'i ', ' y', 'yo']
    >>> char_ngrams("你好")
    ['你', '好', '你好']
    """
    text = _WHITESPACE.sub(" ", text.lower())
    return [text[i : i + n] for n in range(n_min, n_max + 1) for i in range(len(text) - n + 1)]


@dataclass(frozen=True)
class CharTfidf:
    """Smoothed idf weights of the character 1-2 grams seen in training sentences."""

    idf: dict[str, float] = field(default_factory=dict)

    @classmethod
    def fit(cls, sentences: Iterable[str]) -> CharTfidf:
        """Count in how many sentences each n-gram occurs; idf = ln((1 + N) / (1 + df)) + 1."""
        df: Counter[str] = Counter()
        n = 0
        for sentence in sentences:
            df.update(set(char_ngrams(sentence)))
            n += 1
        if n == 0:
            raise ValueError("The lexical baseline needs at least one training sentence.")
        return cls({g: math.log((1 + n) / (1 + c)) + 1.0 for g, c in df.items()})

    def vector(self, sentence: str) -> dict[str, float]:
        """The L2-normalised TF-IDF vector as {n-gram: weight} (unseen n-grams dropped)."""
        counts = Counter(g for g in char_ngrams(sentence) if g in self.idf)
        weights = {g: c * self.idf[g] for g, c in counts.items()}
        norm = math.sqrt(sum(w * w for w in weights.values()))
        return {g: w / norm for g, w in weights.items()} if norm else {}

    def similarity(self, sentence1: str, sentence2: str) -> float:
        """Cosine of the two TF-IDF vectors, from 0 (nothing shared) to 1."""
        a, b = self.vector(sentence1), self.vector(sentence2)
        if len(b) < len(a):
            a, b = b, a
        return float(sum(w * b[g] for g, w in a.items() if g in b))

    def predict(self, pairs: Sequence[SentencePair]) -> list[float]:
        """The cosine for every pair, in order."""
        return [self.similarity(p.sentence1, p.sentence2) for p in pairs]


def fit_baseline(train: Sequence[SentencePair]) -> CharTfidf:
    """Fit the idf weights on every sentence of the training pairs."""
    return CharTfidf.fit(s for p in train for s in (p.sentence1, p.sentence2))


def evaluate_baseline(train: Sequence[SentencePair], test: Sequence[SentencePair]) -> float:
    """Spearman correlation between the baseline's cosine and the gold score on `test`.

    >>> pairs = [SentencePair("a cat", "a cat", 5.0), SentencePair("a cat", "a dog", 2.0),
    ...          SentencePair("a cat", "xyz", 0.0)]
    >>> evaluate_baseline(pairs, pairs)
    1.0
    """
    if len(test) < 2:
        raise ValueError("Evaluating the baseline needs at least two test pairs.")
    model = fit_baseline(train)
    return spearman(model.predict(test), [p.score for p in test])
