"""Spearman and Pearson against hand-worked examples and scipy."""

from __future__ import annotations

import doctest
import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from explorer_core.training import metrics
from explorer_core.training.metrics import pearson, rankdata, spearman


def test_doctests() -> None:
    assert doctest.testmod(metrics).failed == 0


def test_hand_worked_pearson() -> None:
    """x = [1, 2, 3, 4], y = [1, 3, 2, 4]: centred (-1.5, -.5, .5, 1.5) both, cov 4, var 5 → 0.8."""
    assert pearson([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)


def test_hand_worked_spearman_with_ties_on_both_sides() -> None:
    """x ranks [1.5, 1.5, 3, 4], y ranks [1, 2.5, 2.5, 4]; centred x (-1, -1, .5, 1.5),
    y (-1.5, 0, 0, 1.5): sum xy = 3.75, sum x² = 4.5, sum y² = 4.5 → 3.75 / 4.5 = 0.8333."""
    assert spearman([5, 5, 7, 9], [0, 2, 2, 4]) == pytest.approx(3.75 / 4.5)


def test_rankdata_average_ties() -> None:
    assert rankdata([3, 1, 3, 3, 2]).tolist() == [4.0, 1.0, 4.0, 4.0, 2.0]
    assert rankdata([7]).tolist() == [1.0]


def test_spearman_is_invariant_to_monotone_maps() -> None:
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=50), rng.normal(size=50)
    assert spearman(x, y) == pytest.approx(spearman(np.exp(x), y**3))


def test_constant_input_is_nan_and_bad_input_is_a_value_error() -> None:
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))
    assert math.isnan(pearson([1, 2, 3], [4, 4, 4]))
    with pytest.raises(ValueError, match="lengths differ"):
        spearman([1, 2], [1, 2, 3])
    with pytest.raises(ValueError, match="at least two"):
        pearson([1], [1])
    with pytest.raises(ValueError, match="NaN"):
        spearman([1, float("nan")], [1, 2])


@pytest.mark.parametrize("seed", range(5))
def test_matches_scipy_with_many_ties(seed: int) -> None:
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 6, size=200).astype(float)  # scores 0-5: heavy ties
    pred = np.round(gold / 5 + rng.normal(scale=0.3, size=200), 1)  # ties on this side too
    assert spearman(pred, gold) == pytest.approx(stats.spearmanr(pred, gold).statistic, abs=1e-12)
    assert pearson(pred, gold) == pytest.approx(stats.pearsonr(pred, gold).statistic, abs=1e-12)
    assert rankdata(pred).tolist() == stats.rankdata(pred).tolist()


def test_matches_pandas() -> None:
    x = [0.2, 0.9, 0.9, 0.1, 0.5, 0.5, 0.7]
    y = [1, 5, 4, 0, 2, 3, 3]
    assert spearman(x, y) == pytest.approx(pd.Series(x).corr(pd.Series(y), method="spearman"))
    assert pearson(x, y) == pytest.approx(pd.Series(x).corr(pd.Series(y)))
