"""Named counters a run keeps for its reports (I/Os, hits, switches...)."""
from __future__ import annotations


class Counters(dict):
    """A dict of name -> number with ``add``; missing names read as 0."""

    def add(self, name: str, amount: float = 1) -> None:
        self[name] = self.get(name, 0) + amount

    def __missing__(self, key: str) -> int:
        return 0
