"""The two lines a decoder's loss is read against: a uniform guess and a count bigram model.

Both are next-token cross-entropies in nats, over the same held-out transitions the decoder is
evaluated on (every id predicting the one after it):

    uniform:  every token equally likely, loss = ln V (what an untrained decoder starts near)
    bigram:   P(b | a) = (C(a, b) + k) / (C(a) + k V), counted on the training ids

C(a, b) counts how often b follows a in the training ids and C(a) how often a is followed by
anything; add-k smoothing gives a pair never seen a small share instead of probability 0 (an
infinite loss). A decoder that only learned which token follows which would reach the bigram line;
going below it needs context longer than one token.

Worked example (`bigram_loss([0, 1, 0, 1, 1], [0, 1, 1], vocab_size=2, k=1)`): the training
pairs are (0,1), (1,0), (0,1), (1,1), so C(0,·) = [0, 2] and C(1,·) = [1, 1]. P(1|0) = (2+1)/(2+2)
= 3/4 and P(1|1) = (1+1)/(2+2) = 1/2; the held-out pairs (0,1), (1,1) give the loss
-(ln 3/4 + ln 1/2) / 2 = (0.2877 + 0.6931) / 2 ≈ 0.4904.

>>> round(bigram_loss([0, 1, 0, 1, 1], [0, 1, 1], vocab_size=2, k=1.0), 4)
0.4904
>>> round(uniform_loss(512), 4)
6.2383
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

DEFAULT_K = 0.1  # fixed in advance, not tuned on the held-out ids the lines are drawn from


def bigram_counts(ids: Sequence[int]) -> tuple[Counter, Counter]:
    """(C(a, b), C(a)): pair counts and how often each id is followed by anything.

    >>> pairs, firsts = bigram_counts([5, 6, 5, 6])
    >>> dict(pairs), dict(firsts)
    ({(5, 6): 2, (6, 5): 1}, {5: 2, 6: 1})
    """
    pairs = Counter(zip(ids[:-1], ids[1:], strict=True))
    firsts = Counter(ids[:-1])
    return pairs, firsts


def bigram_loss(
    train: Sequence[int], heldout: Sequence[int], vocab_size: int, k: float = DEFAULT_K
) -> float:
    """Mean -ln P(b | a) over the held-out pairs, P counted on `train` with add-k smoothing."""
    if len(heldout) < 2:
        raise ValueError("the held-out ids need at least two tokens (one pair) for a bigram loss")
    if not k > 0:
        raise ValueError(f"the smoothing k must be above 0, got {k}")
    pairs, firsts = bigram_counts(list(train))
    total = 0.0
    for a, b in zip(heldout[:-1], heldout[1:], strict=True):
        total -= math.log((pairs[(a, b)] + k) / (firsts[a] + k * vocab_size))
    return total / (len(heldout) - 1)


def uniform_loss(vocab_size: int) -> float:
    """ln V: the loss of a model that gives every one of V tokens the same probability."""
    if vocab_size < 1:
        raise ValueError("the vocabulary needs at least one token")
    return math.log(vocab_size)
