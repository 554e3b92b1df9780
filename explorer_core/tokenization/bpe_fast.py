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
- pair counts live in an array hash table, and what each symbol stands for (`_Symbols.keys`, when
  `join` concatenates str or bytes) in runs of *units* (bytes or code points), so the id reuse of
  `_Symbols.merged` happens in the loop too (both in `bpe_tables`).

The whole loop, from the first pair to the last merge, is one compiled call (`_run`): driving it
from Python one merge at a time cost ~25 µs of call overhead per merge, about half of the training
time on 0.5 MB of English. The arrays grow by doubling when a merge could outgrow them. Compiled
functions are cached on disk (`cache=True`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain

import numpy as np
from numba import njit

from explorer_core.tokenization.bpe_tables import (
    ENTRIES,
    GROWN,
    HEAP,
    MASK,
    META_SLOTS,
    PAIRS,
    POOL,
    SEQ,
    SHIFT,
    add,
    count,
    merged_symbol,
    pop,
    push,
    rehashed,
    starting_units,
    table,
)

SLACK = 1024  # spare entries and pool slots at the start; the arrays double when full


@njit(cache=True)
def _pop_best(pc, heap, meta, e_count, e_pair, e_seq):
    """`_Incremental.pop_best`: the best entry with a current count; -1 if count < 1 or empty."""
    while meta[HEAP] > 0:
        e = pop(heap, meta, e_count, e_pair, e_seq)
        current = count(pc, e_pair[e])
        if e_count[e] != current:  # stale: back in with the current count, same seq
            e_count[e] = current
            push(heap, meta, e_count, e_pair, e_seq, e)
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
        push(heap, meta, e_count, e_pair, e_seq, keep[i])
    return win, n_found


@njit(cache=True)
def _room_needed(pool, e_lo, e_hi, length, win):
    """An upper bound on the entries and pool slots merging entry `win` can add (2 per symbol)."""
    need = 0
    for i in range(e_lo[win], e_hi[win]):
        need += 2 * length[pool[i]]
    return need


@njit(cache=True)
def _merge(state, pc, win, new_id, applied, slots):
    """`_Incremental.merge` for the words of entry `win`; `applied[g]` gets the tokens removed.
    `slots` (2, symbols), all -1: scratch space of `_queue_fresh`, left all -1 again. Returns
    (room still needed, 0 when merged; the count table, rehashed if it had to grow)."""
    flat, start, length, wcount, group, heap, meta, e_count, e_pair, e_seq, e_lo, e_hi, pool = state
    p = e_pair[win]
    a, b = p >> SHIFT, p & ((1 << SHIFT) - 1)
    size = _room_needed(pool, e_lo, e_hi, length, win)
    room = min(pool.size - meta[POOL], e_count.size - meta[ENTRIES], heap.size - meta[HEAP])
    if size > room:
        return size, pc  # nothing changed: the caller grows the arrays and calls again
    fresh_key, fresh_word, n_fresh = np.empty(size, np.int64), np.empty(size, np.int64), 0
    for i in range(e_lo[win], e_hi[win]):
        w = pool[i]
        if meta[PAIRS] + 2 * length[w] > pc[0].size >> 1:  # keep the count table half empty
            pc = rehashed(pc, 2 * (meta[PAIRS] + 2 * length[w]))
        s, cnt = start[w], wcount[w]
        end, out, j, done = s + length[w], s, s, 0
        while j < end:
            if flat[j] == a and j + 1 < end and flat[j + 1] == b:
                if out > s:  # the pair before; its left symbol is new_id if a merge just ended
                    prev = flat[out - 1]
                    add(pc, meta, prev << SHIFT | a, -cnt)
                    k = prev << SHIFT | new_id
                    add(pc, meta, k, cnt)
                    fresh_key[n_fresh], fresh_word[n_fresh] = k, w
                    n_fresh += 1
                if j + 2 < end:  # the pair after, with the next symbol as it was
                    nxt = flat[j + 2]
                    add(pc, meta, b << SHIFT | nxt, -cnt)
                    k = new_id << SHIFT | nxt
                    add(pc, meta, k, cnt)
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
    _queue_fresh(state, pc, fresh_key, fresh_word, n_fresh, new_id, slots)
    return 0, pc


@njit(cache=True)
def _slot_of(slots, k, new_id):
    """Where `_queue_fresh` keeps the entry of pair k, one that contains new_id: (x, new_id) in
    row 0 at x (so (new_id, new_id) too), (new_id, y) in row 1 at y. A dict per merge cost more."""
    left, right = k >> SHIFT, k & MASK
    return (0, left) if right == new_id else (1, right)


@njit(cache=True)
def _queue_fresh(state, pc, fresh_key, fresh_word, n_fresh, new_id, slots):
    """`push_all(fresh)`: one new entry per pair that gained occurrences (words in visit order)."""
    _, _, _, _, _, heap, meta, e_count, e_pair, e_seq, e_lo, e_hi, pool = state
    first = meta[ENTRIES]
    for i in range(n_fresh):  # pair -> its entry, in first-seen order
        k = fresh_key[i]
        row, col = _slot_of(slots, k, new_id)
        if slots[row, col] < 0:
            e = meta[ENTRIES]
            meta[ENTRIES] = e + 1
            slots[row, col] = e
            e_pair[e], e_hi[e] = k, 0
        e_hi[slots[row, col]] += 1  # occurrences for now
    at = meta[POOL]
    for e in range(first, meta[ENTRIES]):
        e_lo[e] = at
        at += e_hi[e]
        e_hi[e] = e_lo[e]
    meta[POOL] = at
    for i in range(n_fresh):
        row, col = _slot_of(slots, fresh_key[i], new_id)
        e = slots[row, col]
        pool[e_hi[e]] = fresh_word[i]
        e_hi[e] += 1
    for e in range(first, meta[ENTRIES]):
        row, col = _slot_of(slots, e_pair[e], new_id)
        slots[row, col] = -1  # clean for the next merge
        current = count(pc, e_pair[e])
        if current > 0:
            meta[SEQ] += 1
            e_count[e], e_seq[e] = current, meta[SEQ]
            push(heap, meta, e_count, e_pair, e_seq, e)


@njit(cache=True)
def _start(keys, totals, heap, meta, e_count, e_pair, e_seq, spare):
    """Pair counts and one heap entry per starting pair (entry e = e-th distinct pair)."""
    pc = table(keys.size + spare)
    for e in range(keys.size):
        add(pc, meta, keys[e], totals[e])
        if totals[e] > 0:
            meta[SEQ] += 1
            e_count[e], e_pair[e], e_seq[e] = totals[e], keys[e], meta[SEQ]
            push(heap, meta, e_count, e_pair, e_seq, e)
    return pc


@njit(cache=True)
def _grow(a, used, need):
    if used + need <= a.size:
        return a
    out = np.zeros(max(2 * a.size, used + need), np.int64)
    out[:used] = a[:used]
    return out


@njit(cache=True)
def _grown(state, need):
    """The same state with room for `need` more entries and pool slots."""
    flat, start, length, wcount, group, heap, meta, e_count, e_pair, e_seq, e_lo, e_hi, pool = state
    n = meta[ENTRIES]
    e_count, e_pair, e_seq = _grow(e_count, n, need), _grow(e_pair, n, need), _grow(e_seq, n, need)
    e_lo, e_hi = _grow(e_lo, n, need), _grow(e_hi, n, need)
    heap = _grow(heap, meta[HEAP], need)
    if heap.size < e_count.size:
        heap = np.concatenate((heap, np.zeros(e_count.size - heap.size, np.int64)))
    pool = _grow(pool, meta[POOL], need)
    meta[GROWN] += 1
    return (flat, start, length, wcount, group, heap, meta, e_count, e_pair, e_seq, e_lo, e_hi,
            pool)  # fmt: skip


@njit(cache=True)
def _run(state, pc, max_new, top_k, n_groups, next_id, reuse, symbols, ubuf, used):
    """The merge loop (`train_bpe`'s), all of it: returns the final state and per step
    (left, right, new_id, count, reused), the candidates found and tokens removed per group."""
    by_units = starting_units(symbols, ubuf)  # hash of units -> newest symbol
    slots = np.full((2, symbols[0].size), -1, np.int64)
    rows = max_new + 16
    steps = np.zeros((rows, 5), np.int64)
    found = np.zeros((rows, max(top_k, 1), 2), np.int64)
    n_found = np.zeros(rows, np.int64)
    applied = np.zeros((rows, n_groups), np.int64)
    created, n = 0, 0
    while created < max_new:
        if n == rows:  # reused ids made more steps than new symbols: grow
            steps = np.concatenate((steps, np.zeros_like(steps)))
            found = np.concatenate((found, np.zeros_like(found)))
            n_found = np.concatenate((n_found, np.zeros_like(n_found)))
            applied = np.concatenate((applied, np.zeros_like(applied)))
            rows *= 2
        heap, meta, e_count, e_pair, e_seq = state[5], state[6], state[7], state[8], state[9]
        win, n_found[n] = _next_winner(pc, heap, meta, e_count, e_pair, e_seq, top_k, found[n])
        if win < 0:
            break
        p, count = e_pair[win], e_count[win]
        left, right = p >> SHIFT, p & MASK
        if reuse:
            new_id, reused, next_id, ubuf, used = merged_symbol(
                left, right, next_id, symbols, ubuf, used, by_units
            )
        else:
            new_id, reused, next_id = next_id, False, next_id + 1
        created += 0 if reused else 1
        need, pc = _merge(state, pc, win, new_id, applied[n], slots)
        while need > 0:
            state = _grown(state, need)
            need, pc = _merge(state, pc, win, new_id, applied[n], slots)
        steps[n, 0], steps[n, 1], steps[n, 2], steps[n, 3] = left, right, new_id, count
        steps[n, 4] = 1 if reused else 0
        n += 1
    return state, steps[:n], found[:n], n_found[:n], applied[:n]


def train_fast(
    words: Sequence[Sequence[int]],
    counts: Sequence[int],
    groups: Sequence[int] | None,
    max_new_symbols: int,
    first_new_id: int,
    units: Mapping[int, Sequence[int]] | None,
    top_k: int = 0,
) -> tuple[list[tuple[int, int, int, int, bool, tuple[int, ...]]], Sequence, list[list[int]], int]:
    """Run the merge loop; returns (steps as (left, right, new_id, count, reused, tokens
    removed per group), candidates per step as ((left, right, count), ...), the final words,
    how often the arrays grew).

    `units[s]` is what starting symbol s stands for, as ints (bytes or code points); a merge then
    stands for the units of both sides, and one that re-makes existing units reuses that id.
    None: every merge gets a new id.
    """
    state, pc = _initial_state(words, counts, groups)
    n_groups = max(groups, default=0) + 1 if groups is not None else 1
    size = max(max(units, default=-1) + 1 if units else 0, first_new_id + max_new_symbols + 1)
    u_lo, u_n, chain = np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.int64)
    flat_units: list[int] = []
    for symbol, seq in (units or {}).items():
        u_lo[symbol], u_n[symbol] = len(flat_units), len(seq)
        flat_units.extend(seq)
    ubuf = np.zeros(2 * len(flat_units) + 1024, np.int64)
    ubuf[: len(flat_units)] = flat_units
    state, steps, found, n_found, applied = _run(
        state, pc, max_new_symbols, top_k, n_groups, first_new_id, units is not None,
        (u_lo, u_n, chain),
        ubuf, len(flat_units),
    )  # fmt: skip
    raw = [
        (left, right, new_id, count, bool(reused), tuple(a))
        for (left, right, new_id, count, reused), a in zip(
            steps.tolist(), applied.tolist(), strict=True
        )
    ]
    candidates = CandidateRows(found, n_found) if top_k else []
    return raw, candidates, _final_words(state, len(words)), int(state[6][GROWN])


class CandidateRows(Sequence):
    """Per step, the best pairs as ((left, right, count), ...), winner first, read from the
    compiled loop's arrays when asked: turning every step into tuples up front (~20,000 at 4k
    merges) cost about a tenth of a whole training. Equal to a list holding the same rows."""

    def __init__(self, found: np.ndarray, n_found: np.ndarray) -> None:
        self.found, self.n_found = found, n_found  # (steps, top_k, 2) pair keys and counts

    def __len__(self) -> int:
        return len(self.n_found)

    def __getitem__(self, step):  # an int (one step) or a slice (a list of steps)
        if isinstance(step, slice):
            return [self[i] for i in range(*step.indices(len(self)))]
        rows = self.found[step, : self.n_found[step]].tolist()
        return tuple((q >> SHIFT, q & MASK, c) for q, c in rows)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]  # mutable arrays inside, like a list


def _initial_state(words, counts, groups):
    """Flat words, entry arrays with one entry per starting pair (its words in order), the heap."""
    lens = np.fromiter(map(len, words), dtype=np.int64, count=len(words))
    if all(isinstance(w, bytes) for w in words):  # byte-level BPE: read the bytes at C speed
        flat = np.frombuffer(b"".join(words), np.uint8).astype(np.int64)
    else:
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
    meta = np.zeros(META_SLOTS, np.int64)
    meta[ENTRIES], meta[POOL] = len(uniq), len(keys)
    heap = np.zeros(cap, np.int64)
    pc = _start(uniq.astype(np.int64), totals.astype(np.int64), heap, meta, *e[:3], SLACK)
    return (flat, start, lens, wcount, group, heap, meta, *e, pool), pc


def _final_words(state: tuple, n_words: int) -> list[list[int]]:
    flat, start, length = state[0], state[1].tolist(), state[2].tolist()
    values = flat.tolist()
    return [values[s : s + n] for s, n in zip(start, length, strict=True)]
