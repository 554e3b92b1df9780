"""Training a WordPiece vocabulary by the score count(ab) / (count(a) · count(b)).

BPE merges the most *frequent* pair; WordPiece merges the pair whose parts occur together far more
often than apart, which is the pair that most raises the likelihood of a unigram model of the
corpus. Words start as characters, every character after the first carries the `##` continuation
prefix, and a merge glues two symbols (dropping the right one's `##`):

    "hugs" -> h ##u ##g ##s ;  merging (##u, ##g) gives h ##ug ##s ;  (h, ##ug) gives hug ##s

Tie-break (documented, deterministic): highest score; on equal scores the pair seen more often; then
the smallest (left, right) strings in code-point order.

Worked example: "hug" x10, "pug" x5, "pun" x12, "bun" x4. Counts: ##u 31, ##g 15, ##n 16, h 10,
p 17, b 4. Every pair scores 1/31: (##u, ##g) 15/(31·15), (##u, ##n) 16/(31·16), (h, ##u)
10/(10·31), (p, ##u) 17/(17·31), (b, ##u) 4/(4·31). On that tie the pair seen most often wins:
(p, ##u), 17 times. (BPE would also pick it, but for its count alone.)

>>> steps = train_wordpiece({"hug": 10, "pug": 5, "pun": 12, "bun": 4}, 1)[1]
>>> (steps[0].left, steps[0].right, steps[0].merged, steps[0].pair_count)
('p', '##u', 'pu', 17)
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

PREFIX = "##"


@dataclass(frozen=True)
class WordPieceMerge:
    """One training step: `left` + `right` became `merged` (a new entry, or one already known)."""

    rank: int  # 0-based position in the merge list
    left: str
    right: str
    merged: str
    score: float  # pair_count / (left_count * right_count) when the pair won
    pair_count: int  # how often the two symbols stood side by side in the corpus
    left_count: int  # how often `left` occurred, anywhere
    right_count: int
    new_entry: bool = True  # False when `merged` was already in the vocabulary


def split_word(word: str) -> list[str]:
    """A word as WordPiece's starting symbols.

    >>> split_word("hug")
    ['h', '##u', '##g']
    """
    return [word[0]] + [PREFIX + c for c in word[1:]] if word else []


def join_pieces(left: str, right: str) -> str:
    """What merging two symbols gives.

    >>> join_pieces("h", "##ug"), join_pieces("##u", "##g")
    ('hug', '##ug')
    """
    return left + (right[len(PREFIX) :] if right.startswith(PREFIX) else right)


def alphabet(words: Mapping[str, int]) -> list[str]:
    """Every character as a word start, and `##c` for each character seen inside a word; sorted.

    >>> alphabet({"ab": 3, "b": 1})
    ['##b', 'a', 'b']
    """
    symbols: set[str] = set()
    for word in words:
        if word:
            symbols.add(word[0])
            symbols.update(PREFIX + c for c in word[1:])
    symbols.update(c for word in words for c in word)  # every character may also start a word
    return sorted(symbols)


class _State:
    """Words as symbol lists with incremental pair and symbol counts (only touched words change)."""

    def __init__(self, words: Mapping[str, int]) -> None:
        self.words = [split_word(w) for w in words]
        self.freqs = list(words.values())
        self.pairs: dict[tuple[str, str], int] = defaultdict(int)
        self.where: dict[tuple[str, str], set[int]] = defaultdict(set)
        self.symbols: dict[str, int] = defaultdict(int)
        self.partners: dict[str, set[tuple[str, str]]] = defaultdict(set)
        for i, (word, freq) in enumerate(zip(self.words, self.freqs, strict=True)):
            self._count(i, word, freq, +1)

    def _count(self, i: int, word: list[str], freq: int, sign: int) -> None:
        for s in word:
            self.symbols[s] += sign * freq
        for pair in zip(word, word[1:], strict=False):
            self.pairs[pair] += sign * freq
            if sign > 0:
                self.where[pair].add(i)
                self.partners[pair[0]].add(pair)
                self.partners[pair[1]].add(pair)

    def entry(self, pair: tuple[str, str]) -> tuple[float, int, str, str] | None:
        """The heap entry for `pair` now: (-score, -count, left, right), or None if it is gone."""
        count = self.pairs.get(pair, 0)
        if count <= 0:
            return None
        score = count / (self.symbols[pair[0]] * self.symbols[pair[1]])
        return (-score, -count, pair[0], pair[1])

    def merge(self, pair: tuple[str, str], merged: str) -> set[tuple[str, str]]:
        """Merge `pair` everywhere; return the pairs whose scores may have changed."""
        left, right = pair
        for i in sorted(self.where.pop(pair, ())):
            word, freq = self.words[i], self.freqs[i]
            if len(word) < 2:
                continue
            self._count(i, word, freq, -1)
            out, k = [], 0
            while k < len(word):
                if k + 1 < len(word) and word[k] == left and word[k + 1] == right:
                    out.append(merged)
                    k += 2
                else:
                    out.append(word[k])
                    k += 1
            self.words[i] = out
            self._count(i, out, freq, +1)
        touched = set(self.partners[left]) | self.partners[right] | self.partners[merged]
        return touched


def train_wordpiece(
    words: Mapping[str, int], max_merges: int
) -> tuple[list[str], list[WordPieceMerge]]:
    """Learn up to `max_merges` new vocabulary entries from word counts.

    Returns the alphabet (see `alphabet`) and the merge steps; the vocabulary is the alphabet
    followed by each step's `merged` where `new_entry` is true.
    """
    state = _State(words)
    known = set(alphabet(words))
    heap = [e for e in map(state.entry, list(state.pairs)) if e is not None]
    heapq.heapify(heap)
    steps: list[WordPieceMerge] = []
    added = 0
    while heap and added < max_merges:
        item = heapq.heappop(heap)
        pair = (item[2], item[3])
        if state.entry(pair) != item:  # stale: the counts changed since it was pushed
            continue
        merged = join_pieces(*pair)
        new_entry = merged not in known
        steps.append(
            WordPieceMerge(
                rank=len(steps),
                left=pair[0],
                right=pair[1],
                merged=merged,
                score=-item[0],
                pair_count=-item[1],
                left_count=state.symbols[pair[0]],
                right_count=state.symbols[pair[1]],
                new_entry=new_entry,
            )
        )
        known.add(merged)
        added += new_entry
        for changed in state.merge(pair, merged):
            entry = state.entry(changed)
            if entry is not None:
                heapq.heappush(heap, entry)
    return sorted(alphabet(words)), steps
