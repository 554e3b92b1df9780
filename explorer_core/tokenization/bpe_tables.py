"""Compiled pieces of the BPE merge loop (`bpe_fast`): a pair-count table, a heap, symbol units.

- The pair counts live in an open-addressing hash table `pc = (keys, values)` of two int64 arrays,
  keyed by `a << SHIFT | b` (linear probing, at most half full, never deletes). A numba typed Dict
  took ~10x longer per lookup, and the loop looks a pair up four times per merged occurrence.
- The max-heap holds entry numbers ordered by (count desc, pair asc, seq asc), in arrays.
- What a symbol stands for (bytes or code points) is a run of *units* `ubuf[u_lo[s] : u_lo[s] +
  u_n[s]]`; a merge whose units already belong to a symbol reuses its id (`merged_symbol`), as
  Hugging Face's trainer does.

    >>> pc, meta = table(4), np.zeros(META_SLOTS, np.int64)
    >>> add(pc, meta, 5 << SHIFT | 7, 3); add(pc, meta, 5 << SHIFT | 7, -1)
    >>> int(count(pc, 5 << SHIFT | 7)), int(count(pc, 1)), int(meta[PAIRS])
    (2, 0, 1)
"""

from __future__ import annotations

import numpy as np
from numba import njit

SHIFT = 20  # must equal bpe_engine.SHIFT
MASK = (1 << SHIFT) - 1
# meta slots: live heap size, number of entries, used pool length, last seq number, times grown,
# pairs in the count table
HEAP, ENTRIES, POOL, SEQ, GROWN, PAIRS = 0, 1, 2, 3, 4, 5
META_SLOTS = 6
EMPTY = -1  # a free slot of the pair-count table (pair keys are >= 0)
HASH_MULT = -7046029254386353131  # 0x9E3779B97F4A7C15 (Fibonacci hashing) as an int64


@njit(cache=True, inline="always")
def slot(keys, k):
    """The slot of pair k in the count table: where it is, or the free slot where it would go."""
    mask = keys.size - 1
    i = ((k * HASH_MULT) >> 32) & mask
    while keys[i] != k and keys[i] != EMPTY:
        i = (i + 1) & mask
    return i


@njit(cache=True, inline="always")
def count(pc, k):
    """The count of pair k (0 if never seen): `pc.get(k, 0)`."""
    return pc[1][slot(pc[0], k)]


@njit(cache=True, inline="always")
def add(pc, meta, k, delta):
    """`pc[k] += delta`, adding k when new."""
    keys, values = pc
    i = slot(keys, k)
    if keys[i] == EMPTY:
        keys[i] = k
        meta[PAIRS] += 1
    values[i] += delta


@njit(cache=True)
def table(n):
    """An empty count table with room for n pairs (capacity a power of 2, at least 2n)."""
    size = 16
    while size < 2 * n:
        size *= 2
    return np.full(size, EMPTY, np.int64), np.zeros(size, np.int64)


@njit(cache=True)
def rehashed(pc, n):
    """The same counts in a table with room for n pairs."""
    keys, values = pc
    out = table(n)
    for i in range(keys.size):
        if keys[i] != EMPTY:
            j = slot(out[0], keys[i])
            out[0][j], out[1][j] = keys[i], values[i]
    return out


@njit(cache=True, inline="always")
def before(e_count, e_pair, e_seq, i, j):
    """Entry i comes out of the heap before entry j: higher count, then smaller pair, then seq."""
    if e_count[i] != e_count[j]:
        return e_count[i] > e_count[j]
    if e_pair[i] != e_pair[j]:
        return e_pair[i] < e_pair[j]
    return e_seq[i] < e_seq[j]


@njit(cache=True)
def push(heap, meta, e_count, e_pair, e_seq, e):
    i = meta[HEAP]
    meta[HEAP] = i + 1
    while i > 0:
        parent = (i - 1) >> 1
        if not before(e_count, e_pair, e_seq, e, heap[parent]):
            break
        heap[i] = heap[parent]
        i = parent
    heap[i] = e


@njit(cache=True)
def pop(heap, meta, e_count, e_pair, e_seq):
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
        if child + 1 < n and before(e_count, e_pair, e_seq, heap[child + 1], heap[child]):
            child += 1
        if not before(e_count, e_pair, e_seq, heap[child], last):
            break
        heap[i] = heap[child]
        i = child
    heap[i] = last
    return top


@njit(cache=True)
def units_hash(ubuf, lo, n):
    """FNV-1a over the units `ubuf[lo : lo + n]` (what a symbol stands for), as an int64 >= 0."""
    h = np.uint64(14695981039346656037)
    for i in range(lo, lo + n):
        h = (h ^ np.uint64(ubuf[i])) * np.uint64(1099511628211)
    return np.int64(h >> np.uint64(1))


@njit(cache=True)
def merged_symbol(a, b, next_id, symbols, ubuf, used, by_units):
    """`_Symbols.merged` on units: (id of a + b, reused?, next_id, ubuf, used). `by_units` maps a
    hash of units to the newest symbol with that hash (older ones: `chain`)."""
    u_lo, u_n, chain = symbols
    n = u_n[a] + u_n[b]
    if used + n > ubuf.size:
        grown = np.zeros(max(2 * ubuf.size, used + n), np.int64)
        grown[:used] = ubuf[:used]
        ubuf = grown
    ubuf[used : used + u_n[a]] = ubuf[u_lo[a] : u_lo[a] + u_n[a]]
    ubuf[used + u_n[a] : used + n] = ubuf[u_lo[b] : u_lo[b] + u_n[b]]
    h = units_hash(ubuf, used, n)
    i = slot(by_units[0], h)
    head = by_units[1][i] if by_units[0][i] != EMPTY else -1
    s = head
    while s >= 0:  # same hash: the same units, unless a (vanishingly rare) collision
        if u_n[s] == n and same_units(ubuf, u_lo[s], used, n):
            return s, True, next_id, ubuf, used
        s = chain[s]
    new = next_id
    u_lo[new], u_n[new], chain[new] = used, n, head
    by_units[0][i], by_units[1][i] = h, new
    return new, False, next_id + 1, ubuf, used + n


@njit(cache=True, inline="always")
def same_units(ubuf, x, y, n):
    """ubuf[x : x + n] == ubuf[y : y + n], without allocating."""
    for t in range(n):
        if ubuf[x + t] != ubuf[y + t]:
            return False
    return True


@njit(cache=True)
def starting_units(symbols, ubuf):
    """The units-hash -> symbol table of the starting symbols (those with units), in id order:
    a later symbol with the same units wins, as in `_Symbols.by_key`."""
    u_lo, u_n, chain = symbols
    by_units = table(u_n.size)
    for s in range(u_n.size):
        if u_n[s] > 0:
            h = units_hash(ubuf, u_lo[s], u_n[s])
            i = slot(by_units[0], h)
            chain[s] = by_units[1][i] if by_units[0][i] != EMPTY else -1
            by_units[0][i], by_units[1][i] = h, s
    return by_units
