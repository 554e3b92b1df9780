"""The incremental BPE merge loop of `bpe_engine.train_bpe`, compiled with numba (optional).

Same bookkeeping as the readable pure-Python `_Incremental` in `bpe_engine.py`, so the merges,
ids, counts, candidates and per-group token counts are identical (tests run both paths); only the
data layout differs:

- every distinct word is a segment `flat[start[w] : start[w] + length[w]]`, merged in place;
- heap *entries* (the `(-count, pair, seq, pair, positions)` tuples of the Python heap) are rows of
  parallel arrays `e_count, e_pair, e_seq, e_lo, e_hi`; `pool[e_lo[e]:e_hi[e]]` are the words of
  entry `e` (a word once per occurrence, as in Hugging Face's trainer);
- the max-heap holds entry numbers ordered by (count desc, pair asc, seq asc); stale entries are
  re-validated lazily when they reach the top, exactly as the Python heap does;
- pair counts live in a numba typed Dict keyed by `a << SHIFT | b`.

Python drives the loop one merge at a time (`train_bpe_fast`) because choosing the new id may
reuse an existing symbol (`_Symbols.merged` calls the caller's `join`). The arrays grow by
doubling when a merge could outgrow them. Compiled functions are cached on disk (`cache=True`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain

import numpy as np
from numba import njit, types
from numba.typed import Dict

SHIFT = 20  # must equal bpe_engine.SHIFT
MASK = (1 << SHIFT) - 1
SLACK = 1024  # spare entries and pool slots at the start; the arrays double when full
# meta slots: live heap size, number of entries, used pool length, last seq number
HEAP, ENTRIES, POOL, SEQ = 0, 1, 2, 3


@njit(cache=True, inline="always")
def _before(e_count, e_pair, e_seq, i, j):
    """Entry i comes out of the heap before entry j: higher count, then smaller pair, then seq."""
    if e_count[i] != e_count[j]:
        return e_count[i] > e_count[j]
    if e_pair[i] != e_pair[j]:
        return e_pair[i] < e_pair[j]
    return e_seq[i] < e_seq[j]


@njit(cache=True)
def _push(heap, meta, e_count, e_pair, e_seq, e):
    i = meta[HEAP]
    meta[HEAP] = i + 1
    while i > 0:
        parent = (i - 1) >> 1
        if not _before(e_count, e_pair, e_seq, e, heap[parent]):
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = e


@njit(cache=True)
def _pop(heap, meta, e_count, e_pair, e_seq):
    top = heap[0]
    n = meta[HEAP] - 1
    meta[HEAP] = n
    if n == 0:
        return top
    last = heap[n]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= n:
            break
        if child + 1 < n and _before(e_count, e_pair, e_seq, heap[child + 1], heap[child]):
            child += 1
        if not _before(e_count, e_pair, e_seq, heap[child], last):
            break
        heap[i] = heap[child]
        i = child
    heap[i] = last
    return top


@njit(cache=True)
def _pop_best(pc, heap, meta, e_count, e_pair, e_seq):
    """`_Incremental.pop_best`: the best entry with a current count; -1 if count < 1 or empty."""
    while meta[HEAP] > 0:
        e = _pop(heap, meta, e_count, e_pair, e_seq)
        current = pc.get(e_pair[e], 0)
        if e_count[e] != current:  # stale: back in with the current count, same seq
            e_count[e] = current
            _push(heap, meta, e_count, e_pair, e_seq, e)
            continue
        return e if current >= 1 else -1
    return -1


@njit(cache=True)
def _next_winner(pc, heap, meta, e_count, e_pair, e_seq, top_k, found):
    """Pop the winner; with top_k fill `found` (top_k, 2) with (pair, count) rows like
    `_Incremental.runners_up`, heap left intact. Returns (winner entry or -1, rows filled)."""
    win = _pop_best(pc, heap, meta, e_count, e_pair, e_seq)
    if win < 0 or top_k == 0:
        return win, 0
    found[0, 0], found[0, 1] = e_pair[win], e_count[win]
    n_found, keep, n_keep = 1, np.empty(16, np.int64), 0
    while n_found < top_k:
        e = _pop_best(pc, heap, meta, e_count, e_pair, e_seq)
        if e < 0:
            break
        if n_keep == keep.size:
            keep = np.concatenate((keep, np.empty(keep.size, np.int64)))
        keep[n_keep] = e
        n_keep += 1
        seen = False
        for i in range(n_found):
            seen = seen or found[i, 0] == e_pair[e]
        if not seen:
            found[n_found, 0], found[n_found, 1] = e_pair[e], e_count[e]
            n_found += 1
    for i in range(n_keep):
        _push(heap, meta, e_count, e_pair, e_seq, keep[i])
    return win, n_found


@njit(cache=True)
def _room_needed(pool, e_lo, e_hi, length, win):
    """An upper bound on the entries and pool slots merging entry `win` can add (2 per symbol)."""
    need = 0
    for i in range(e_lo[win], e_hi[win]):
        need += 2 * length[pool[i]]
    return need


@njit(cache=True)
def _merge(state, pc, win, new_id, applied):
    """`_Incremental.merge` for the words of entry `win`; `applied[g]` gets the tokens removed."""
    flat, start, length, wcount, group, heap, meta, e_count, e_pair, e_seq, e_lo, e_hi, pool = state
    p = e_pair[win]
    a, b = p >> SHIFT, p & ((1 << SHIFT) - 1)
    size = _room_needed(pool, e_lo, e_hi, length, win)
    room = min(pool.size - meta[POOL], e_count.size - meta[ENTRIES], heap.size - meta[HEAP])
    if size > room:
        return size  # nothing changed: the caller grows the arrays and calls again
    fresh_key, fresh_word, n_fresh = np.empty(size, np.int64), np.empty(size, np.int64), 0
    for i in range(e_lo[win], e_hi[win]):
        w = pool[i]
        s, cnt = start[w], wcount[w]
        end, out, j, done = s + length[w], s, s, 0
        while j < end:
            if flat[j] == a and j + 1 < end and flat[j + 1] == b:
                if out > s:  # the pair before; its left symbol is new_id if a merge just ended
                    prev = flat[out - 1]
                    k = prev << SHIFT | a
                    pc[k] = pc.get(k, 0) - cnt
                    k = prev << SHIFT | new_id
                    pc[k] = pc.get(k, 0) + cnt
                    fresh_key[n_fresh], fresh_word[n_fresh] = k, w
                    n_fresh += 1
                if j + 2 < end:  # the pair after, with the next symbol as it was
                    nxt = flat[j + 2]
                    k = b << SHIFT | nxt
                    pc[k] = pc.get(k, 0) - cnt
                    k = new_id << SHIFT | nxt
                    pc[k] = pc.get(k, 0) + cnt
                    fresh_key[n_fresh], fresh_word[n_fresh] = k, w
                    n_fresh += 1
                flat[out] = new_id
                j += 2
                done += 1
            else:
                flat[out] = flat[j]
                j += 1
            out += 1
        length[w] = out - s
        applied[group[w]] += done * cnt
    _queue_fresh(state, pc, fresh_key, fresh_word, n_fresh)
    return 0


@njit(cache=True)
def _queue_fresh(state, pc, fresh_key, fresh_word, n_fresh):
    """`push_all(fresh)`: one new entry per pair that gained occurrences (words in visit order)."""
    _, _, _, _, _, heap, meta, e_count, e_pair, e_seq, e_lo, e_hi, pool = state
    slot = Dict.empty(types.int64, types.int64)  # pair -> its entry, in first-seen order
    first = meta[ENTRIES]
    for i in range(n_fresh):
        k = fresh_key[i]
        if k not in slot:
            e = meta[ENTRIES]
            meta[ENTRIES] = e + 1
            slot[k] = e
            e_pair[e], e_hi[e] = k, 0
        e_hi[slot[k]] += 1  # occurrences for now
    at = meta[POOL]
    for e in range(first, meta[ENTRIES]):
        e_lo[e] = at
        at += e_hi[e]
        e_hi[e] = e_lo[e]
    meta[POOL] = at
    for i in range(n_fresh):
        e = slot[fresh_key[i]]
        pool[e_hi[e]] = fresh_word[i]
        e_hi[e] += 1
    for e in range(first, meta[ENTRIES]):
        count = pc.get(e_pair[e], 0)
        if count > 0:
            meta[SEQ] += 1
            e_count[e], e_seq[e] = count, meta[SEQ]
            _push(heap, meta, e_count, e_pair, e_seq, e)


@njit(cache=True)
def _start(keys, totals, heap, meta, e_count, e_pair, e_seq):
    """Pair counts and one heap entry per starting pair (entry e = e-th distinct pair)."""
    pc = Dict.empty(types.int64, types.int64)
    for e in range(keys.size):
        pc[keys[e]] = totals[e]
        if totals[e] > 0:
            meta[SEQ] += 1
            e_count[e], e_pair[e], e_seq[e] = totals[e], keys[e], meta[SEQ]
            _push(heap, meta, e_count, e_pair, e_seq, e)
    return pc


def train_fast(
    words: Sequence[Sequence[int]],
    counts: Sequence[int],
    groups: Sequence[int] | None,
    max_new_symbols: int,
    merged: Callable[[int, int], tuple[int, bool]],
    top_k: int = 0,
) -> tuple[list[tuple[int, int, int, int, bool, tuple[int, ...]]], list, list[list[int]]]:
    """Run the merge loop; returns (steps as (left, right, new_id, count, reused, tokens
    removed per group), candidates per step as ((left, right, count), ...), the final words).

    `merged(a, b)` names the merge of a and b (`_Symbols.merged`).
    """
    state, pc = _initial_state(words, counts, groups)
    n_groups = max(groups, default=0) + 1 if groups is not None else 1
    # one row per step, filled in place by the compiled code, converted to lists once at the end
    found = np.zeros((max_new_symbols + 16, max(top_k, 1), 2), np.int64)
    n_found = np.zeros(len(found), np.int64)
    applied = np.zeros((len(found), n_groups), np.int64)
    steps: list[tuple[int, int, int, int, bool]] = []
    created = 0
    while created < max_new_symbols:
        if len(steps) == len(found):  # reused ids made more steps than new symbols: grow
            found, n_found, applied = (
                np.concatenate((x, np.zeros_like(x))) for x in (found, n_found, applied)
            )
        heap, meta, e_count, e_pair, e_seq = state[5:10]
        row = len(steps)
        win, n_found[row] = _next_winner(pc, heap, meta, e_count, e_pair, e_seq, top_k, found[row])
        if win < 0:
            break
        p, count = int(e_pair[win]), int(e_count[win])
        left, right = p >> SHIFT, p & MASK
        new_id, reused = merged(left, right)
        created += not reused
        while (need := _merge(state, pc, win, new_id, applied[row])) > 0:
            state = _grown(state, need)
        steps.append((left, right, new_id, count, reused))
    n = len(steps)
    return (
        [(*s, tuple(a)) for s, a in zip(steps, applied[:n].tolist(), strict=True)],
        _candidates(found[:n], n_found[:n]) if top_k else [],
        _final_words(state, len(words)),
    )


def _candidates(found: np.ndarray, n_found: np.ndarray) -> list[tuple[tuple[int, int, int], ...]]:
    rows = found.tolist()
    return [
        tuple((q >> SHIFT, q & MASK, c) for q, c in row[:k])
        for row, k in zip(rows, n_found.tolist(), strict=True)
    ]


def _initial_state(words, counts, groups):
    """Flat words, entry arrays with one entry per starting pair (its words in order), the heap."""
    lens = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    flat = np.fromiter(chain.from_iterable(words), dtype=np.int64, count=int(lens.sum()))
    start = np.zeros(len(words), np.int64)
    np.cumsum(lens[:-1], out=start[1:])
    word_of = np.repeat(np.arange(len(words), dtype=np.int64), lens)
    inside = word_of[:-1] == word_of[1:]  # pairs never cross two words
    keys = ((flat[:-1] << SHIFT) | flat[1:])[inside]
    order = np.argsort(keys, kind="stable")
    keys, wids = keys[order], word_of[:-1][inside][order]
    uniq, lo = np.unique(keys, return_index=True)
    wcount = np.asarray(counts, dtype=np.int64)
    if len(keys):
        totals = np.add.reduceat(wcount[wids], lo)
    else:
        totals = np.zeros(0, np.int64)
    cap = len(uniq) + SLACK
    e = [np.zeros(cap, np.int64) for _ in range(5)]  # count, pair, seq, lo, hi
    e[3][: len(uniq)] = lo
    e[4][: len(uniq)] = np.append(lo[1:], len(keys))[: len(uniq)]
    pool = np.zeros(len(keys) + SLACK, np.int64)
    pool[: len(keys)] = wids
    group = np.zeros(len(words), np.int64) if groups is None else np.asarray(groups, np.int64)
    meta = np.array([0, len(uniq), len(keys), 0], np.int64)
    heap = np.zeros(cap, np.int64)
    pc = _start(uniq.astype(np.int64), totals.astype(np.int64), heap, meta, *e[:3])
    return (flat, start, lens, wcount, group, heap, meta, *e, pool), pc


def _grown(state: tuple, need: int) -> tuple:
    """The same state with room for `need` more entries and pool slots."""
    flat, start, length, wcount, group, heap, meta, *entries, pool = state

    def grow(a: np.ndarray, used: int) -> np.ndarray:
        if used + need <= a.size:
            return a
        out = np.zeros(max(2 * a.size, used + need), np.int64)
        out[:used] = a[:used]
        return out

    n = int(meta[ENTRIES])
    entries = [grow(a, n) for a in entries]
    heap = grow(heap, int(meta[HEAP]))
    if heap.size < entries[0].size:
        heap = np.concatenate((heap, np.zeros(entries[0].size - heap.size, np.int64)))
    pool = grow(pool, int(meta[POOL]))
    return (flat, start, length, wcount, group, heap, meta, *entries, pool)


def _final_words(state: tuple, n_words: int) -> list[list[int]]:
    flat, start, length = state[0], state[1].tolist(), state[2].tolist()
    values = flat.tolist()
    return [values[s : s + n] for s, n in zip(start, length, strict=True)]
