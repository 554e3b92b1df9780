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

`_Incremental` below is the readable reference. When numba is installed, `train_bpe` runs the same
loop compiled, start to end in one call (`bpe_fast.py`), when `join` is None or concatenation
(`operator.add` on str or bytes keys, as byte- and char-BPE use); tests hold both loops to
identical traces, and to identical traces whatever the order of the words.
"""

from __future__ import annotations

import heapq
import operator
from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, pairwise
from typing import Any

import numpy as np

try:  # optional: the same merge loop compiled with numba (bpe_fast.py); pure Python otherwise
    from explorer_core.tokenization import bpe_fast
except (ImportError, RuntimeError):  # no numba, or numba found no writable cache folder at all
    bpe_fast = None

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
    # per step if top_k: the best pairs as (left, right, count), winner first (a list, or the
    # compiled loop's `bpe_fast.CandidateRows`, which reads the same rows from its arrays)
    candidates: Sequence[tuple[tuple[int, int, int], ...]] = field(default_factory=list)
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

    def units(self) -> dict[int, list[int]] | None:
        """What each symbol stands for as ints, for the compiled loop: None without `join`; the
        bytes or code points of each key when `join` concatenates (operator.add on bytes or str).

        >>> _Symbols(3, ["a", "b", "ab"], operator.add).units()
        {0: [97], 1: [98], 2: [97, 98]}
        """
        if self.join is None:
            return None
        kinds = {type(k) for k in self.keys.values()}
        if self.join is not operator.add or not kinds <= {str} and not kinds <= {bytes}:
            raise ValueError("the compiled loop needs join=operator.add on str or bytes keys")
        return {s: [*map(ord, k)] if isinstance(k, str) else list(k) for s, k in self.keys.items()}

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


SHIFT = 20  # a pair (a, b) is kept as the int a << SHIFT | b: cheaper to hash than a tuple
MASK = (1 << SHIFT) - 1
MAX_SYMBOLS = 1 << SHIFT


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
    compiled: bool | None = None,
) -> BpeTrace:
    """Learn up to `max_new_symbols` merges incrementally; see the module docstring.

    `compiled`: None uses the numba loop of `bpe_fast` when numba is installed, `tie_break` is
    the default and `join` is None or operator.add on str or bytes keys; False forces this
    pure-Python reference loop; both give identical traces.
    """
    _check(words, counts, max_new_symbols)
    if first_new_id + max_new_symbols > MAX_SYMBOLS:
        raise ValueError(f"at most {MAX_SYMBOLS:,} symbols are supported")
    symbols = _Symbols(first_new_id, keys, join)
    if compiled is None:
        compiled = bpe_fast is not None and tie_break is None and _concatenates(symbols)
    if compiled:
        if bpe_fast is None or tie_break is not None:
            raise ValueError("the compiled loop needs numba and the default tie-break")
        units = symbols.units()
        return _train_compiled(words, counts, max_new_symbols, first_new_id, units, top_k, groups)
    state = _Incremental(words, counts, groups, tie_break)
    trace = BpeTrace(steps=[], words=[])
    created = 0
    while created < max_new_symbols:
        top = state.pop_best()
        if top is None:
            break
        count, p = -top[0], top[3]
        if top_k:
            trace.candidates.append(state.runners_up(top, top_k))
        left, right = p >> SHIFT, p & MASK
        new_id, reused = symbols.merged(left, right)
        created += not reused
        applied = state.merge(left, right, new_id, top[4])
        rank = len(trace.steps)
        trace.steps.append(MergeStep(rank, left, right, new_id, count, sum(applied), reused))
        if groups is not None:
            trace.applied_by_group.append(tuple(applied))
    trace.words = [[ord(c) for c in word] for word in state.work]
    return trace


def _concatenates(symbols: _Symbols) -> bool:
    """True when the compiled loop can name merges as `symbols` does (see `_Symbols.units`)."""
    try:
        symbols.units()
    except ValueError:
        return False
    return True


def _train_compiled(
    words: Sequence[Sequence[int]],
    counts: Sequence[int],
    max_new: int,
    first_new_id: int,
    units: dict[int, list[int]] | None,
    top_k: int,
    groups: Sequence[int] | None,
) -> BpeTrace:
    """`train_bpe` through `bpe_fast.train_fast`, packed into the same trace."""
    raw, candidates, final, _ = bpe_fast.train_fast(
        words, counts, groups, max_new, first_new_id, units, top_k
    )
    trace = BpeTrace(steps=[], words=final, candidates=candidates)
    for rank, (left, right, new_id, count, reused, applied) in enumerate(raw):
        trace.steps.append(MergeStep(rank, left, right, new_id, count, sum(applied), reused))
        if groups is not None:
            trace.applied_by_group.append(applied)
    return trace


class _Incremental:
    """Hugging Face BpeTrainer's bookkeeping: pair counts, pair -> words, a lazy max-heap."""

    def __init__(
        self,
        words: Sequence[Sequence[int]],
        counts: Sequence[int],
        groups: Sequence[int] | None,
        tie_break: Callable[[Pair], Any] | None,
    ) -> None:
        # subtle: a word is kept as a str of chr(symbol): str.find locates a pair and
        # str.replace merges it at C speed (symbols stay below MAX_SYMBOLS < 0x110000)
        self.work = ["".join(map(chr, w)) for w in words]
        self.counts = list(counts)
        self.groups = groups
        self.n_groups = max(groups, default=0) + 1 if groups is not None else 1
        self.tie = tie_break
        totals, where = _initial_pairs(words, self.counts)
        self.pc: defaultdict[int, int] = defaultdict(int, totals)
        self.seq = 0  # subtle: equal (count, key) entries of one pair never compare their words
        self.heap: list[tuple[int, Any, int, int, list[int]]] = []
        self.push_all(where, heapify=True)

    def push_all(self, where: dict[int, list[int]], *, heapify: bool = False) -> None:
        """Queue every pair of `where` that has a positive count, with the words it is in."""
        heap, pc, tie = self.heap, self.pc, self.tie
        for p, pos in where.items():
            count = pc[p]
            if count > 0:
                key = p if tie is None else tie((p >> SHIFT, p & MASK))
                self.seq += 1
                if heapify:
                    heap.append((-count, key, self.seq, p, pos))
                else:
                    heapq.heappush(heap, (-count, key, self.seq, p, pos))
        if heapify:
            heapq.heapify(heap)

    def pop_best(self) -> tuple | None:
        """Pop entries until one's count is current (stale ones go back with the current count)."""
        heap, pc = self.heap, self.pc
        while heap:
            top = heapq.heappop(heap)
            p = top[3]
            if -top[0] != pc[p]:
                heapq.heappush(heap, (-pc[p], top[1], top[2], p, top[4]))
                continue
            return top if -top[0] >= 1 else None
        return None

    def runners_up(self, top: tuple, top_k: int) -> tuple[tuple[int, int, int], ...]:
        """The winner and the next best valid pairs as (left, right, count); heap left intact."""
        found = [(top[3] >> SHIFT, top[3] & MASK, -top[0])]
        seen, keep = {top[3]}, []
        while len(found) < top_k:
            entry = self.pop_best()
            if entry is None:
                break
            keep.append(entry)
            if entry[3] not in seen:
                seen.add(entry[3])
                found.append((entry[3] >> SHIFT, entry[3] & MASK, -entry[0]))
        for entry in keep:
            heapq.heappush(self.heap, entry)
        return tuple(found)

    def merge(self, a: int, b: int, new_id: int, positions: list[int]) -> list[int]:
        """Merge (a, b) in the words at `positions`, update counts where the words changed, queue
        the pairs that gained occurrences; return the tokens removed per group. The count changes
        are those of Hugging Face's `Word::merge`."""
        work, counts, pc, groups = self.work, self.counts, self.pc, self.groups
        # subtle: a word may be listed twice for one pair; the second visit finds nothing
        fresh: defaultdict[int, list[int]] = defaultdict(list)
        applied = [0] * self.n_groups
        pair_text, new_char = chr(a) + chr(b), chr(new_id)
        pb, new_hi = b << SHIFT, new_id << SHIFT
        for wi in positions:
            word = work[wi]
            s = word.find(pair_text)
            if s < 0:
                continue
            n, end, done = len(word), -1, 0
            cnt = counts[wi]
            while s >= 0:
                if s:  # the pair before: its left symbol is new_id if a merge just ended there
                    prev = new_id if s == end else ord(word[s - 1])
                    pc[prev << SHIFT | a] -= cnt
                    k = prev << SHIFT | new_id
                    pc[k] += cnt
                    fresh[k].append(wi)
                end = s + 2
                if end < n:  # the pair after it, with the next symbol as it was
                    nxt = ord(word[end])
                    pc[pb | nxt] -= cnt
                    k = new_hi | nxt
                    pc[k] += cnt
                    fresh[k].append(wi)
                done += 1
                s = word.find(pair_text, end)
            # subtle: str.replace is left to right and non-overlapping, exactly HF's Word::merge
            work[wi] = word.replace(pair_text, new_char)
            applied[groups[wi] if groups is not None else 0] += done * cnt
        self.push_all(fresh)
        return applied


def _initial_pairs(
    words: Sequence[Sequence[int]], counts: list[int]
) -> tuple[dict[int, int], dict[int, list[int]]]:
    """Pair counts and pair -> words (in word order, a word once per occurrence), with numpy.

    >>> _initial_pairs([[1, 2, 1, 2], [2, 1]], [1, 5])
    ({1048578: 2, 2097153: 6}, {1048578: [0, 0], 2097153: [0, 1]})
    """
    lens = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    flat = np.fromiter(chain.from_iterable(words), dtype=np.int64, count=int(lens.sum()))
    word_of = np.repeat(np.arange(len(words), dtype=np.int64), lens)
    inside = word_of[:-1] == word_of[1:]  # pairs never cross two words
    keys = ((flat[:-1] << SHIFT) | flat[1:])[inside]
    order = np.argsort(keys, kind="stable")
    keys, wids = keys[order], word_of[:-1][inside][order]
    if not len(keys):
        return {}, {}
    uniq, starts = np.unique(keys, return_index=True)
    totals = np.add.reduceat(np.asarray(counts, dtype=np.int64)[wids], starts)
    flat_wids, bounds = wids.tolist(), [*starts.tolist(), len(keys)]
    groups = [flat_wids[i:j] for i, j in pairwise(bounds)]
    pairs = uniq.tolist()
    return dict(zip(pairs, totals.tolist(), strict=True)), dict(zip(pairs, groups, strict=True))


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
