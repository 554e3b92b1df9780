"""A generic, incremental BPE trainer over integer symbol sequences (byte-level and char-level BPE).

The caller turns its text into *words* (pre-tokenized chunks, each a list of integer symbols) with
a count per distinct word; this module learns the merges. It knows nothing about bytes or
characters, so byte-level BPE (`byte_bpe.py`) and character BPE (`char_bpe.py`) share it.

API
---
`train_bpe(words, counts, max_new_symbols, first_new_id, *, keys=None, join=None,
tie_break=None, top_k=0, groups=None) -> BpeTrace`

- `words[i]` is a sequence of symbol ids, `counts[i]` how often that word occurs in the corpus.
- At most `max_new_symbols` *new* symbols are created, numbered `first_new_id, first_new_id+1, ...`
  in creation order.
- `keys`/`join` (optional): `keys[s]` is what symbol `s` stands for (bytes, str) and
  `join(keys[a], keys[b])` what their merge stands for. When a merge stands for something that
  already has a symbol (e.g. ("ab","c") after ("a","bc") both give "abc"), that symbol is reused and
  no new id is spent, exactly as Hugging Face's BpeTrainer reuses the existing vocabulary id.
- Tie-break: the pair with the highest count wins; among equal counts the pair with the smallest
  `tie_break(pair)` wins (default: the pair itself, i.e. smallest left id, then smallest right id).
  Callers who need another order either pass `tie_break` or number their symbols so that the
  default order is the one they want (byte_bpe numbers bytes as Hugging Face does).
- `top_k > 0` records the best `top_k` candidate pairs before every merge (why this pair won).
- `groups[i]` (optional, small ints) puts word i in a group (e.g. 1 = contains Chinese); every step
  then records how many tokens each group lost, so tokens-per-character curves cost nothing.

Worked example: "hug" x10, "pug" x5, "hugs" x5 with h=1 u=2 g=3 p=4 s=5:
(u, g) occurs 10 + 5 + 5 = 20 times, more than any other pair, so it becomes symbol 6 first;
then (h, 6) occurs 15 times and becomes 7.

>>> trace = train_bpe([[1, 2, 3], [4, 2, 3], [1, 2, 3, 5]], [10, 5, 5], 2, first_new_id=6)
>>> [(s.left, s.right, s.new_id, s.count) for s in trace.steps]
[(2, 3, 6, 20), (1, 6, 7, 15)]
>>> trace.words
[[7], [4, 6], [7, 5]]

Counting follows Hugging Face `tokenizers`' BpeTrainer step for step (word counts once, a pair ->
words index, pair counts changed only where a merge happens, a max-heap with lazy re-validation),
including its one quirk: the count of a pair that has won is not reset, so when id reuse (`join`)
recreates that pair, it can win a second time with an inflated count. This keeps the merges equal to
HF's, in order. `train_bpe_textbook` recounts everything every step: a teaching mode for small text
that gives the same merges whenever no id is reused.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

Pair = tuple[int, int]


@dataclass(frozen=True)
class MergeStep:
    """One merge: `left` and `right` became `new_id`; `count` is the pair's count when it won."""

    rank: int  # 0-based position in the merge list
    left: int
    right: int
    new_id: int
    count: int  # the winning pair count (Hugging Face's count, see module docstring)
    applied: int  # tokens removed from the corpus by this merge (occurrences x word counts)
    reused: bool = False  # True when new_id already existed (the merge re-made a known symbol)


@dataclass(frozen=True)
class Candidate:
    """A pair in the running at step `rank`; place 0 is the winner."""

    rank: int
    place: int
    left: int
    right: int
    count: int


@dataclass
class BpeTrace:
    """What training produced: the merges, the final words, and what pages replay."""

    steps: list[MergeStep]
    words: list[list[int]]  # every input word after all merges
    candidates: list[tuple[Candidate, ...]] = field(default_factory=list)  # per step, if top_k
    applied_by_group: list[tuple[int, ...]] = field(default_factory=list)  # per step, if groups


def pair_counts(words: Sequence[Sequence[int]], counts: Sequence[int]) -> dict[Pair, int]:
    """Adjacent pair counts over weighted words (overlapping pairs count, as in minbpe).

    >>> pair_counts([[1, 2, 3, 1, 2]], [1])
    {(1, 2): 2, (2, 3): 1, (3, 1): 1}
    >>> pair_counts([[1, 1, 1], [1, 2]], [2, 1])
    {(1, 1): 4, (1, 2): 1}
    """
    out: dict[Pair, int] = {}
    for word, count in zip(words, counts, strict=True):
        for pair in pairwise(word):
            out[pair] = out.get(pair, 0) + count
    return out


def merge_word(word: Sequence[int], pair: Pair, new_id: int) -> list[int]:
    """Replace every occurrence of `pair`, left to right and non-overlapping, by `new_id`.

    >>> merge_word([1, 1, 1, 2], (1, 1), 9)
    [9, 1, 2]
    """
    a, b = pair
    out: list[int] = []
    i, n = 0, len(word)
    while i < n:
        if word[i] == a and i + 1 < n and word[i + 1] == b:
            out.append(new_id)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return out


class _Symbols:
    """Hands out ids for merges, reusing the id of a symbol that stands for the same thing."""

    def __init__(self, first_new_id: int, keys: Any, join: Callable[[Any, Any], Hashable] | None):
        if join is not None and keys is None:
            raise ValueError("join needs keys: what each starting symbol stands for")
        self.next_id = first_new_id
        self.join = join
        if isinstance(keys, Mapping):
            self.keys: dict[int, Hashable] = dict(keys)
        else:
            self.keys = dict(enumerate(keys)) if keys is not None else {}
        self.by_key: dict[Hashable, int] = {k: s for s, k in self.keys.items()}

    def merged(self, a: int, b: int) -> tuple[int, bool]:
        """(id of the merge of a and b, whether that id already existed)."""
        if self.join is None:
            self.next_id += 1
            return self.next_id - 1, False
        key = self.join(self.keys[a], self.keys[b])
        if key in self.by_key:
            return self.by_key[key], True
        new = self.next_id
        self.next_id += 1
        self.keys[new] = key
        self.by_key[key] = new
        return new, False


def _check(words: Sequence[Sequence[int]], counts: Sequence[int], max_new: int) -> None:
    if len(words) != len(counts):
        raise ValueError(f"got {len(words)} words but {len(counts)} counts")
    if max_new < 0:
        raise ValueError(f"the number of new symbols must be at least 0, got {max_new}")


def train_bpe(
    words: Sequence[Sequence[int]],
    counts: Sequence[int],
    max_new_symbols: int,
    first_new_id: int,
    *,
    keys: Sequence[Hashable] | Mapping[int, Hashable] | None = None,
    join: Callable[[Any, Any], Hashable] | None = None,
    tie_break: Callable[[Pair], Any] | None = None,
    top_k: int = 0,
    groups: Sequence[int] | None = None,
) -> BpeTrace:
    """Learn up to `max_new_symbols` merges incrementally; see the module docstring."""
    _check(words, counts, max_new_symbols)
    symbols = _Symbols(first_new_id, keys, join)
    work = [list(w) for w in words]
    n_groups = (max(groups) + 1 if len(groups) else 1) if groups is not None else 0
    pc: dict[Pair, int] = {}
    where: dict[Pair, set[int]] = {}
    for wi, word in enumerate(work):
        cnt = counts[wi]
        for pair in pairwise(word):
            pc[pair] = pc.get(pair, 0) + cnt
            where.setdefault(pair, set()).add(wi)
    key = tie_break or (lambda p: p)
    seq = 0  # subtle: equal (count, key) entries of one pair never compare their position sets
    heap: list[tuple[int, Any, int, Pair, set[int]]] = []
    for pair, pos in where.items():
        if pc[pair] > 0:
            heap.append((-pc[pair], key(pair), seq, pair, pos))
            seq += 1
    heapq.heapify(heap)
    trace = BpeTrace(steps=[], words=work)
    created = 0
    while created < max_new_symbols and heap:
        top = heapq.heappop(heap)
        count, pair = -top[0], top[3]
        if count != pc[pair]:  # stale: re-queue with the current count (HF does the same)
            heapq.heappush(heap, (-pc[pair], top[1], top[2], pair, top[4]))
            continue
        if count < 1:
            break
        if top_k:
            trace.candidates.append(_runners_up(heap, pc, top, top_k, len(trace.steps)))
        new_id, reused = symbols.merged(*pair)
        created += not reused
        fresh, applied = _apply(work, counts, top[4], pair, new_id, pc, groups, n_groups)
        rank = len(trace.steps)
        trace.steps.append(MergeStep(rank, pair[0], pair[1], new_id, count, sum(applied), reused))
        if groups is not None:
            trace.applied_by_group.append(tuple(applied))
        for new_pair, pos in fresh.items():
            if pc[new_pair] > 0:
                heapq.heappush(heap, (-pc[new_pair], key(new_pair), seq, new_pair, pos))
                seq += 1
    return trace


def _apply(
    work: list[list[int]],
    counts: Sequence[int],
    positions: set[int],
    pair: Pair,
    new_id: int,
    pc: dict[Pair, int],
    groups: Sequence[int] | None,
    n_groups: int,
) -> tuple[dict[Pair, set[int]], list[int]]:
    """Merge `pair` in the words at `positions`; update pair counts where the words changed.

    Returns the pairs that gained occurrences (with the words where they did) and the number of
    tokens removed per group. The count changes are Hugging Face's `Word::merge` changes.
    """
    a, b = pair
    fresh: dict[Pair, set[int]] = {}
    applied = [0] * max(n_groups, 1)
    for wi in positions:
        word = work[wi]
        if a not in word:
            continue
        cnt = counts[wi]
        out: list[int] = []
        i, n, done = 0, len(word), 0
        while i < n:
            x = word[i]
            if x == a and i + 1 < n and word[i + 1] == b:
                if out:
                    prev = out[-1]
                    pc[(prev, a)] -= cnt
                    k = (prev, new_id)
                    pc[k] = pc.get(k, 0) + cnt
                    fresh.setdefault(k, set()).add(wi)
                if i + 2 < n:
                    nxt = word[i + 2]
                    pc[(b, nxt)] -= cnt
                    k = (new_id, nxt)
                    pc[k] = pc.get(k, 0) + cnt
                    fresh.setdefault(k, set()).add(wi)
                out.append(new_id)
                i += 2
                done += 1
            else:
                out.append(x)
                i += 1
        if done:
            work[wi] = out
            applied[groups[wi] if groups is not None else 0] += done * cnt
    return fresh, applied


def _runners_up(
    heap: list, pc: dict[Pair, int], top: tuple, top_k: int, rank: int
) -> tuple[Candidate, ...]:
    """The winner and the next best valid pairs, leaving the heap as HF would see it."""
    found = [Candidate(rank, 0, top[3][0], top[3][1], -top[0])]
    seen = {top[3]}
    keep: list[tuple] = []
    while len(found) < top_k and heap:
        entry = heapq.heappop(heap)
        pair = entry[3]
        if -entry[0] != pc[pair]:
            heapq.heappush(heap, (-pc[pair], entry[1], entry[2], pair, entry[4]))
            continue
        keep.append(entry)
        if pair not in seen and -entry[0] > 0:
            seen.add(pair)
            found.append(Candidate(rank, len(found), pair[0], pair[1], -entry[0]))
    for entry in keep:
        heapq.heappush(heap, entry)
    return tuple(found)


def train_bpe_textbook(
    words: Sequence[Sequence[int]],
    counts: Sequence[int],
    max_new_symbols: int,
    first_new_id: int,
    *,
    keys: Sequence[Hashable] | Mapping[int, Hashable] | None = None,
    join: Callable[[Any, Any], Hashable] | None = None,
    tie_break: Callable[[Pair], Any] | None = None,
) -> BpeTrace:
    """Teaching mode: recount every pair before every merge (slow; small text only).

    Same arguments, tie-break and merges as `train_bpe` (whenever no id is reused).

    >>> [s.new_id for s in train_bpe_textbook([[1, 2, 3], [1, 2]], [2, 1], 2, 4).steps]
    [4, 5]
    """
    _check(words, counts, max_new_symbols)
    symbols = _Symbols(first_new_id, keys, join)
    work = [list(w) for w in words]
    key = tie_break or (lambda p: p)
    trace = BpeTrace(steps=[], words=work)
    created = 0
    while created < max_new_symbols:
        stats = pair_counts(work, counts)
        if not stats:
            break
        best = max(stats.items(), key=lambda item: (item[1], _Reverse(key(item[0]))))
        pair, count = best
        new_id, reused = symbols.merged(*pair)
        created += not reused
        before = sum(len(w) * c for w, c in zip(work, counts, strict=True))
        work[:] = [merge_word(w, pair, new_id) for w in work]
        applied = before - sum(len(w) * c for w, c in zip(work, counts, strict=True))
        trace.steps.append(MergeStep(len(trace.steps), *pair, new_id, count, applied, reused))
    return trace


class _Reverse:
    """Wraps a sort key so that `max` prefers the smallest key."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __lt__(self, other: _Reverse) -> bool:
        return other.value < self.value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Reverse) and other.value == self.value
