"""Mini-batches for training on pairs of token rows: shuffled, and grouped by length.

Each row of a batch is padded to the batch's longest row, and every padded position costs as much
compute as a real token. Batches of neighbours in length pad little.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch


class LengthBatches:
    """Mini-batches of pair indices, reshuffled every epoch from one seeded generator, each cut
    from a pool of `pool` batches sorted by length, so that a batch pads little.

    An epoch: shuffle all indices; take them `pool * batch_size` at a time, sort each pool by
    length (a stable sort: equal lengths stay shuffled), cut it into batches; shuffle the batches.

    >>> lengths = [5, 1, 4, 2, 6, 3]
    >>> batches = LengthBatches(lengths, batch_size=2, seed=0, pool=3)
    >>> epoch = [batches.next() for _ in range(3)]  # every index once; neighbours in length
    >>> sorted(i for b in epoch for i in b), sorted(sorted(lengths[i] for i in b) for b in epoch)
    ([0, 1, 2, 3, 4, 5], [[1, 2], [3, 4], [5, 6]])
    """

    def __init__(self, lengths: Sequence[int], batch_size: int, seed: int, pool: int = 8) -> None:
        self.lengths, self.batch_size, self.pool = list(lengths), batch_size, pool
        self.generator = torch.Generator().manual_seed(seed)
        self.queue: list[list[int]] = []

    def _epoch(self) -> list[list[int]]:
        order = torch.randperm(len(self.lengths), generator=self.generator).tolist()
        size, cut = self.batch_size * self.pool, []
        for start in range(0, len(order), size):
            pool = sorted(order[start : start + size], key=self.lengths.__getitem__)
            cut += [pool[i : i + self.batch_size] for i in range(0, len(pool), self.batch_size)]
        shuffled = torch.randperm(len(cut), generator=self.generator).tolist()
        return [cut[i] for i in shuffled]

    def next(self) -> list[int]:
        if not self.queue:
            self.queue = self._epoch()
        return self.queue.pop()
