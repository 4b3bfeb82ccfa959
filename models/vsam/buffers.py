"""Least-recently-used pools of control intervals: an LSR buffer pool, the
SMSVSAM local buffers of one system, a CF cache structure, a control unit's
cache. Each counts its hits and misses; ``discard`` is cross-invalidation."""
from __future__ import annotations

from collections import OrderedDict
from typing import Iterable


class BufferPool:
    """An LRU set of CI ids with a fixed capacity.

    Parameters
    ----------
    capacity : int
        Buffers (CIs) the pool holds.
    name : str
        Shown in reports.
    """

    def __init__(self, capacity: int, name: str = ""):
        if capacity < 1:
            raise ValueError("a buffer pool needs at least one buffer")
        self.capacity = capacity
        self.name = name
        self._lru: OrderedDict = OrderedDict()
        self.hits = 0
        self.misses = 0
        self.invalidations = 0

    def __len__(self) -> int:
        return len(self._lru)

    def __contains__(self, ci: int) -> bool:
        return ci in self._lru

    def lookup(self, ci: int) -> bool:
        """Is ``ci`` in the pool? Counts a hit (and refreshes it) or a miss."""
        lru = self._lru
        if ci in lru:
            lru.move_to_end(ci)
            self.hits += 1
            return True
        self.misses += 1
        return False

    def load(self, ci: int) -> None:
        """Put ``ci`` in the pool, evicting the least recently used if full."""
        lru = self._lru
        if ci in lru:
            lru.move_to_end(ci)
            return
        lru[ci] = None
        if len(lru) > self.capacity:
            lru.popitem(last=False)

    def discard(self, ci: int) -> bool:
        """Invalidate ``ci`` (cross-invalidation); True if a copy was held."""
        if self._lru.pop(ci, 0) is None:
            self.invalidations += 1
            return True
        return False

    def warm(self, cis: Iterable[int]) -> None:
        """Load ``cis`` without counting hits or misses (steady-state start)."""
        for ci in cis:
            self.load(ci)

    def reset_counts(self) -> None:
        self.hits = self.misses = self.invalidations = 0

    @property
    def hit_ratio(self) -> float:
        n = self.hits + self.misses
        return self.hits / n if n else 0.0
