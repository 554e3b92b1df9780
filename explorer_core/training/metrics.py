"""Correlation between predicted similarities and gold scores (pure numpy).

STS evaluation asks whether the model *orders* pairs like the human scores do, so the headline
number is Spearman's rank correlation; Pearson's linear correlation is reported next to it.

>>> round(pearson([1, 2, 3, 4], [1, 3, 2, 4]), 3)
0.8
>>> spearman([0.1, 0.4, 0.35, 0.8], [0, 3, 2, 5])  # same order: perfect rank agreement
1.0
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

ArrayLike = Sequence[float] | np.ndarray


def _vectors(x: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Two equal-length 1-D float arrays with at least two finite values each, or ValueError."""
    a = np.asarray(x, dtype=np.float64).ravel()
    b = np.asarray(y, dtype=np.float64).ravel()
    if a.shape != b.shape:
        raise ValueError(f"Cannot correlate {a.size} values with {b.size}: lengths differ.")
    if a.size < 2:
        raise ValueError("A correlation needs at least two pairs of values.")
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise ValueError("Cannot correlate values that contain NaN or infinity.")
    return a, b


def rankdata(x: ArrayLike) -> np.ndarray:
    """Ranks from 1 to n; tied values share the average of the ranks they span.

    >>> rankdata([10, 20, 20, 5]).tolist()  # 5 -> 1, 10 -> 2, the two 20s share (3 + 4) / 2
    [2.0, 3.5, 3.5, 1.0]
    """
    values = np.asarray(x, dtype=np.float64).ravel()
    n = values.size
    order = np.argsort(values, kind="mergesort")
    ordered = values[order]
    # 1) runs of equal values in sorted order: [start, end) of each run
    starts = np.concatenate(([0], np.flatnonzero(np.diff(ordered)) + 1))
    ends = np.concatenate((starts[1:], [n]))
    # 2) a run covering sorted positions start..end-1 gets the mean 1-based rank of that span
    mean_rank = (starts + ends - 1) / 2.0 + 1.0
    ranks = np.empty(n, dtype=np.float64)
    ranks[order] = np.repeat(mean_rank, ends - starts)
    return ranks


def pearson(x: ArrayLike, y: ArrayLike) -> float:
    """Pearson's r: the covariance of x and y over the product of their standard deviations.

    NaN when either side is constant (the correlation is undefined), as in scipy.

    >>> pearson([1, 2, 3], [2, 4, 6]), pearson([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    """
    a, b = _vectors(x, y)
    da, db = a - a.mean(), b - b.mean()
    denominator = float(np.sqrt((da * da).sum() * (db * db).sum()))
    if denominator == 0.0:
        return float("nan")
    r = float((da * db).sum() / denominator)
    return max(-1.0, min(1.0, r))  # subtle: rounding can push |r| a hair above 1


def spearman(x: ArrayLike, y: ArrayLike) -> float:
    """Spearman's rho: Pearson's r of the ranks (ties get average ranks), NaN if a side is constant.

    Worked example: x = [1, 2, 2, 3] has ranks [1, 2.5, 2.5, 4], y = [1, 3, 2, 4] has ranks
    [1, 3, 2, 4]; centred, (-1.5, 0, 0, 1.5) and (-1.5, 0.5, -0.5, 1.5); r = 4.5 / sqrt(4.5 * 5).

    >>> round(spearman([1, 2, 2, 3], [1, 3, 2, 4]), 4)
    0.9487
    """
    a, b = _vectors(x, y)
    return pearson(rankdata(a), rankdata(b))
