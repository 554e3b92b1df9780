"""The lattice of a unigram language model: every way to cut a string into vocabulary pieces.

A node is a piece occurrence (start, end, id, score); a path from 0 to len(text) is a segmentation
whose log-likelihood is the sum of its pieces' log-probabilities (scores). Viterbi finds the best
path; forward-backward gives each piece's expected count (the E-step of training); forward filtering
and backward sampling draws a segmentation at random (subword regularisation).

Worked example with p(ab) = 2/3, p(c) = 1/3 (so p(a), p(b) = 0: those characters have no piece):
"ababc" has exactly one path, ab|ab|c, of log-likelihood log(2/3 · 2/3 · 1/3) = log(4/27).

>>> import math
>>> pieces = {"ab": (0, math.log(2 / 3)), "c": (1, math.log(1 / 3))}
>>> best = viterbi(build_lattice("ababc", pieces, 2, unk=(9, -99.0)))
>>> [(s, e) for s, e, _, _ in best], math.isclose(sum(n[3] for n in best), math.log(4 / 27))
([(0, 2), (2, 4), (4, 5)], True)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

Node = tuple[int, int, int, float]  # (start, end, piece id, score)
Lattice = list[list[Node]]  # nodes grouped by start position; lattice[i] = nodes starting at i


def build_lattice(
    text: str, pieces: Mapping[str, tuple[int, float]], max_len: int, unk: tuple[int, float]
) -> Lattice:
    """All piece occurrences in `text`, grouped by start; a character that is no piece gets `unk`.

    `pieces` maps a piece to (id, score); `unk` is (id, score) of the unknown node, which (as in
    `tokenizers`) is added only where no one-character piece starts.
    """
    lattice: Lattice = []
    n = len(text)
    for i in range(n):
        nodes: list[Node] = []
        for end in range(i + 1, min(n, i + max_len) + 1):
            hit = pieces.get(text[i:end])
            if hit is not None:
                nodes.append((i, end, hit[0], hit[1]))
        if not nodes or nodes[0][1] != i + 1:
            nodes.insert(0, (i, i + 1, unk[0], unk[1]))
        lattice.append(nodes)
    return lattice


def viterbi(lattice: Lattice) -> list[Node]:
    """The best path; on equal scores the path whose last piece starts earliest (as `tokenizers`).

    Scores are summed left to right in the same order as `tokenizers`' Unigram, so the float
    comparisons, and therefore the ties, come out the same.
    """
    n = len(lattice)
    best: list[float] = [0.0] + [-math.inf] * n
    back: list[Node | None] = [None] * (n + 1)
    for i in range(n):
        base = best[i]
        for node in lattice[i]:
            end = node[1]
            candidate = base + node[3]
            if back[end] is None or candidate > best[end]:
                best[end], back[end] = candidate, node
    path: list[Node] = []
    end = n
    while end > 0:
        node = back[end]
        assert node is not None  # every position is reachable through single pieces or unk
        path.append(node)
        end = node[0]
    path.reverse()
    return path


def _forward(lattice: Lattice, scale: float = 1.0) -> list[float]:
    """alpha[e] = log of the summed (scaled) probability of every path from 0 to e."""
    n = len(lattice)
    incoming: list[list[float]] = [[] for _ in range(n + 1)]
    alpha = [0.0] + [-math.inf] * n
    for i in range(n):
        if incoming[i]:
            alpha[i] = _logsumexp(incoming[i])
        for _, end, _, score in lattice[i]:
            incoming[end].append(alpha[i] + scale * score)
    if n:
        alpha[n] = _logsumexp(incoming[n])
    return alpha


def expected_counts(lattice: Lattice, weight: float, counts: dict[int, float]) -> float:
    """E-step for one string seen `weight` times: add expected piece counts; return weight·log Z."""
    n = len(lattice)
    if n == 0:
        return 0.0
    alpha = _forward(lattice)
    beta = [-math.inf] * n + [0.0]
    for i in range(n - 1, -1, -1):
        beta[i] = _logsumexp([score + beta[end] for _, end, _, score in lattice[i]])
    z = alpha[n]
    for i in range(n):
        for _, end, piece, score in lattice[i]:
            p = math.exp(alpha[i] + score + beta[end] - z)
            if p > 0.0:
                counts[piece] = counts.get(piece, 0.0) + weight * p
    return weight * z


def sample(lattice: Lattice, alpha: float, rng: random.Random) -> list[Node]:
    """Draw a path with probability ∝ exp(alpha · log-likelihood) (forward filter, backward sample).

    alpha → 0 makes every segmentation equally likely; a large alpha approaches Viterbi.
    """
    n = len(lattice)
    forward = _forward(lattice, alpha)
    ending: list[list[Node]] = [[] for _ in range(n + 1)]
    for nodes in lattice:
        for node in nodes:
            ending[node[1]].append(node)
    path: list[Node] = []
    end = n
    while end > 0:
        options = ending[end]
        weights = [
            math.exp(forward[s] + alpha * score - forward[end]) for s, _, _, score in options
        ]
        node = rng.choices(options, weights=weights)[0]
        path.append(node)
        end = node[0]
    path.reverse()
    return path


def _logsumexp(values: list[float]) -> float:
    """log(sum(exp(v))) without overflow.

    >>> round(_logsumexp([math.log(1), math.log(3)]), 12) == round(math.log(4), 12)
    True
    """
    if len(values) == 1:
        return values[0]
    top = max(values)
    if top == -math.inf:
        return top
    return top + math.log(sum(math.exp(v - top) for v in values))
