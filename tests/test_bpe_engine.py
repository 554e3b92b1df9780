"""The generic incremental BPE engine: known answers, the textbook loop agrees, tie-breaks."""

from __future__ import annotations

import operator
import random
from itertools import pairwise

import pytest

from explorer_core.tokenization.bpe_engine import (
    SHIFT,
    _initial_pairs,
    merge_word,
    pair_counts,
    train_bpe,
    train_bpe_textbook,
)


def test_hug_pug_example_by_hand():
    """ "hug" x10, "pug" x5, "hugs" x5 (h=1 u=2 g=3 p=4 s=5): (u, g) occurs 10 + 5 + 5 = 20 times
    and wins; then (h, ug) occurs 10 + 5 = 15 times, more than (p, ug) 5 or (ug, s) 5."""
    trace = train_bpe([[1, 2, 3], [4, 2, 3], [1, 2, 3, 5]], [10, 5, 5], 2, first_new_id=6)
    assert [(s.left, s.right, s.new_id, s.count) for s in trace.steps] == [
        (2, 3, 6, 20),
        (1, 6, 7, 15),
    ]
    assert [s.applied for s in trace.steps] == [20, 15]
    assert trace.words == [[7], [4, 6], [7, 5]]


def test_pure_helpers():
    assert pair_counts([[1, 2, 3, 1, 2]], [1]) == {(1, 2): 2, (2, 3): 1, (3, 1): 1}
    assert merge_word([1, 1, 1, 2], (1, 1), 9) == [9, 1, 2]
    assert merge_word([1, 1, 1, 1], (1, 1), 9) == [9, 9]


def random_corpus(seed: int, n_words: int = 60, alphabet: int = 5):
    rng = random.Random(seed)
    words = [[rng.randrange(alphabet) for _ in range(rng.randint(1, 9))] for _ in range(n_words)]
    counts = [rng.randint(1, 4) for _ in words]
    return words, counts


@pytest.mark.parametrize("seed", range(12))
def test_incremental_equals_textbook(seed):
    """Runs of one symbol ("aaaa"), many ties and weighted words: both trainers agree."""
    words, counts = random_corpus(seed)
    fast = train_bpe(words, counts, 40, 5)
    slow = train_bpe_textbook(words, counts, 40, 5)
    assert fast.steps == slow.steps
    assert fast.words == slow.words


def test_tie_break_is_the_callers():
    """(1, 2) and (3, 4) both occur twice: the smaller pair wins; a reversed key flips it."""
    words, counts = [[1, 2], [3, 4]], [2, 2]
    default = train_bpe(words, counts, 1, 5).steps[0]
    flipped = train_bpe(words, counts, 1, 5, tie_break=lambda p: (-p[0], -p[1])).steps[0]
    assert (default.left, default.right) == (1, 2)
    assert (flipped.left, flipped.right) == (3, 4)
    textbook = train_bpe_textbook(words, counts, 1, 5, tie_break=lambda p: (-p[0], -p[1]))
    assert textbook.steps[0] == flipped


def test_merge_to_an_existing_symbol_reuses_its_id():
    """Symbol 3 already stands for "ab": merging (a, b) re-makes it, so no new id is spent."""
    keys = {1: "a", 2: "b", 3: "ab", 4: "c"}
    trace = train_bpe([[1, 2, 4], [1, 2]], [3, 1], 2, 5, keys=keys, join=operator.add)
    first = trace.steps[0]
    assert (first.left, first.right, first.new_id, first.reused) == (1, 2, 3, True)
    assert trace.steps[1].new_id == 5  # the next merge (ab, c) gets the first free id
    assert trace.words == [[5], [3]]


def test_candidates_are_the_best_pairs_before_each_step():
    words, counts = random_corpus(3)
    trace = train_bpe(words, counts, 10, 5, top_k=4)
    for step, row in zip(trace.steps, trace.candidates, strict=True):
        assert row[0] == (step.left, step.right, step.count)
        assert [c for _, _, c in row] == sorted((c for _, _, c in row), reverse=True)
    replay = [list(w) for w in words]
    stats = pair_counts(replay, counts)
    best = sorted(stats.items(), key=lambda item: (-item[1], item[0]))[:4]
    assert list(trace.candidates[0]) == [(a, b, c) for (a, b), c in best]


def test_groups_count_the_tokens_each_merge_removes():
    words, counts = random_corpus(5)
    groups = [i % 2 for i in range(len(words))]
    trace = train_bpe(words, counts, 20, 5, groups=groups)
    before = [
        sum(len(w) * c for w, c, g in zip(words, counts, groups, strict=True) if g == k)
        for k in (0, 1)
    ]
    after = [
        sum(len(w) * c for w, c, g in zip(trace.words, counts, groups, strict=True) if g == k)
        for k in (0, 1)
    ]
    removed = [sum(r[k] for r in trace.applied_by_group) for k in (0, 1)]
    assert [b - a for b, a in zip(before, after, strict=True)] == removed


def test_stops_when_no_pair_is_left_and_checks_input():
    assert train_bpe([[1]], [3], 10, 2).steps == []
    with pytest.raises(ValueError, match="counts"):
        train_bpe([[1, 2]], [1, 2], 1, 3)
    with pytest.raises(ValueError, match="at least 0"):
        train_bpe([[1, 2]], [1], -1, 3)
    with pytest.raises(ValueError, match="join needs keys"):
        train_bpe([[1, 2]], [1], 1, 3, join=operator.add)


@pytest.mark.parametrize("seed", range(4))
def test_initial_pair_index_matches_a_plain_count(seed):
    """The numpy start-up counts equal `pair_counts`; each word is listed once per occurrence."""
    words, counts = random_corpus(seed)
    words.append([])
    counts.append(2)
    totals, where = _initial_pairs(words, counts)
    plain = {(p >> SHIFT, p & ((1 << SHIFT) - 1)): c for p, c in totals.items()}
    assert plain == pair_counts(words, counts)
    for p, listed in where.items():
        a, b = p >> SHIFT, p & ((1 << SHIFT) - 1)
        expected = [i for i, w in enumerate(words) for x, y in pairwise(w) if (x, y) == (a, b)]
        assert listed == expected
    assert _initial_pairs([], []) == ({}, {})
