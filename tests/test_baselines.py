"""The lexical baseline: TF-IDF cosine over character 1-2 grams."""

from __future__ import annotations

import doctest
import math

import pytest

from explorer_core.inputs.datasets import SentencePair, builtin_sts_pairs, split_pairs
from explorer_core.training import baselines
from explorer_core.training.baselines import CharTfidf, evaluate_baseline, fit_baseline


def test_doctests() -> None:
    assert doctest.testmod(baselines).failed == 0


def test_hand_worked_similarity() -> None:
    """Fit on ["ab", "b"]: n-grams a, b, ab / b, so df a=1, b=2, ab=1 over N=2 documents.
    idf(a) = idf(ab) = ln(3/2) + 1 = i, idf(b) = ln(3/3) + 1 = 1.
    "ab" -> (a: i, b: 1, ab: i) / sqrt(2 i² + 1); "b" -> (b: 1); cosine = 1 / sqrt(2 i² + 1)."""
    model = CharTfidf.fit(["ab", "b"])
    i = math.log(1.5) + 1
    assert model.idf == pytest.approx({"a": i, "b": 1.0, "ab": i})
    assert model.similarity("ab", "b") == pytest.approx(1 / math.sqrt(2 * i * i + 1))
    assert model.similarity("AB", "ab") == pytest.approx(1.0)  # lower-cased
    assert model.similarity("zz", "ab") == 0.0  # unseen n-grams carry no weight


def test_fit_needs_sentences_and_evaluation_needs_pairs() -> None:
    with pytest.raises(ValueError, match="at least one training sentence"):
        CharTfidf.fit([])
    with pytest.raises(ValueError, match="at least two test pairs"):
        evaluate_baseline([SentencePair("a", "b", 1.0)], [SentencePair("a", "b", 1.0)])


def test_matches_scikit_learn() -> None:
    from sklearn.feature_extraction import text  # scikit-learn: requirements-dev.txt

    parts = split_pairs(builtin_sts_pairs())
    train, test = parts["train"], parts["test"]
    ours = fit_baseline(train).predict(test)
    sentences = [s for p in train for s in (p.sentence1, p.sentence2)]
    vec = text.TfidfVectorizer(analyzer="char", ngram_range=(1, 2)).fit(sentences)
    a = vec.transform([p.sentence1 for p in test])
    b = vec.transform([p.sentence2 for p in test])
    theirs = a.multiply(b).sum(axis=1).A.ravel()
    assert ours == pytest.approx(theirs.tolist(), abs=1e-12)


def test_builtin_split_is_not_solved_by_word_overlap() -> None:
    """The built-in pairs are made so that overlap helps but misleads: well below 1, above 0."""
    parts = split_pairs(builtin_sts_pairs())
    for split in ("dev", "test"):
        for lang in ("en", "zh"):
            pairs = [p for p in parts[split] if p.lang == lang]
            rho = evaluate_baseline(parts["train"], pairs)
            assert 0.2 < rho < 0.8, (split, lang, rho)


def test_paraphrase_in_other_words_looks_unrelated_to_the_baseline() -> None:
    model = fit_baseline(split_pairs(builtin_sts_pairs())["train"])
    paraphrase = model.similarity("The soup needs more salt.", "The soup is not salty enough.")
    trap = model.similarity("The soup needs more salt.", "We need more time to finish the project.")
    assert trap > 0.5 * paraphrase  # shared function words score a 0.0 pair near a 4.4 one
