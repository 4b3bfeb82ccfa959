"""A compact trace of what happened in a run, for animation replay.

Each record is five numbers: time (s), component id, event kind id and two
payload integers whose meaning the kind defines (a track and a record, a slot
and a staging mode, an engine and a cause...). Components and kinds are
interned to small integers, with their names kept in tables.

Columns are ``array.array`` while recording (one append each, no numpy
scalar boxing) and become numpy arrays on :meth:`columns`. The trace keeps
only the newest ``limit`` records (a ring, trimmed in bulk), by default
:data:`DEFAULT_LIMIT`, so a long run of a big system stays within bounded
memory (at most ``2 * limit`` records of 32 bytes between trims: 128 MB by
default); :meth:`Trace.kept` says which part of the run it holds.
"""
from __future__ import annotations

from array import array
from typing import Iterable

import numpy as np

from models.engine.trace_vocab import KINDS, ROLES  # noqa: F401  (ROLES: re-exported)

DTYPE = np.dtype([("t", "f8"), ("comp", "i4"), ("kind", "i4"), ("a", "i8"), ("b", "i8")])
#: Records a trace keeps unless told otherwise (issue 29: a replay of at most
#: two million events; the window's setting ``trace_rows`` has the same default).
DEFAULT_LIMIT = 2_000_000


class Trace:
    """Record ``(t, component, kind, a, b)`` events.

    Parameters
    ----------
    limit : int or None
        Keep at most this many of the newest records (default
        :data:`DEFAULT_LIMIT`; ``None``: keep all, memory grows with the run).
    """

    def __init__(self, limit: int | None = DEFAULT_LIMIT):
        if limit is not None and limit < 1:
            raise ValueError("trace limit must be at least 1")
        self.limit = limit
        self.components: list[str] = []
        self.kinds: list[str] = []
        self._comp_ids: dict[str, int] = {}
        self._kind_ids: dict[str, int] = {}
        self._t = array("d")
        self._c = array("i")
        self._k = array("i")
        self._a = array("q")
        self._b = array("q")
        self.dropped = 0
        self._t_first = 0.0       # time of the first record, kept when it is dropped
        self.meta: dict = {}
        self._sums: dict = {}     # exact running totals behind whole-unit amounts (``whole``)
        #: Simulated time from which the rows were recorded, when the run
        #: recorded only its end (``None``: from its start); see :meth:`restart`.
        self.since: float | None = None

    def __len__(self) -> int:
        return len(self._t)

    def component(self, name: str, role: str | None = None) -> int:
        """The id of component ``name`` (created on first use).

        ``name`` is the component's canvas label where it has one;
        ``role`` says what it is for the replay views (one of
        :data:`ROLES`), recorded in ``meta["roles"]``.
        """
        cid = self._comp_ids.get(name)
        if cid is None:
            cid = self._comp_ids[name] = len(self.components)
            self.components.append(name)
        if role is not None:
            if role not in ROLES:
                raise ValueError(f"unknown trace role {role!r}; known: {', '.join(ROLES)}")
            self.meta.setdefault("roles", {})[name] = role
        return cid

    def kind(self, name: str) -> int:
        """The id of event kind ``name`` (one of :data:`~models.engine.trace_vocab.KINDS`;
        created on first use)."""
        kid = self._kind_ids.get(name)
        if kid is None:
            if name not in KINDS:
                raise ValueError(f"unknown trace kind {name!r}; add it to models.engine.trace_vocab")
            kid = self._kind_ids[name] = len(self.kinds)
            self.kinds.append(name)
        return kid

    def whole(self, key, amount: float) -> int:
        """``amount`` as the whole number to record for ``key`` (a CPU's
        microseconds), carrying what rounding leaves over to the next: the
        amounts recorded for a key add up to its exact total, rounded. Each
        slice rounded alone drifted: a replay's zIIP summed to 30,012 µs where
        the run's account says 30,276."""
        before = self._sums.get(key, 0.0)
        after = before + amount
        self._sums[key] = after
        return round(after) - round(before)

    def record(self, t: float, comp: int, kind: int, a: int = 0, b: int = 0) -> None:
        """Append one event. ``comp`` and ``kind`` are ids from the tables."""
        self._t.append(t)
        self._c.append(comp)
        self._k.append(kind)
        self._a.append(a)
        self._b.append(b)
        if self.limit is not None and len(self._t) >= 2 * self.limit:
            self._trim()

    def _trim(self) -> None:
        if not self.dropped:
            self._t_first = self._t[0]
        drop = len(self._t) - self.limit
        for col in (self._t, self._c, self._k, self._a, self._b):
            del col[:drop]
        self.dropped += drop

    def restart(self, t: float) -> None:
        """Forget every row so far: the run records again from time ``t`` on.

        For a run that turns its trace off until the part whose rows the
        ring will keep (:class:`models.workloads.system._TraceTail`); the
        component and kind tables stay, and :meth:`kept` says from when the
        rows were recorded.
        """
        for col in (self._t, self._c, self._k, self._a, self._b):
            del col[:]
        self.dropped = 0
        self.since = float(t)

    def kept(self) -> str:
        """Which part of the run the trace holds, in a sentence for a replay or a note.

        Say "every one of the run's N events" when nothing was dropped, else
        the newest N of M events, from when to when, and from when the run's
        first record was made; for a trace recorded over the run's end only
        (:meth:`restart`), from when it was recorded.
        """
        if self.limit is not None and len(self._t) > self.limit:
            self._trim()
        n = len(self._t)
        # Records are made in event order, but some carry a time ahead of it
        # (a stage's end, booked when it starts): the span is min to max.
        t = np.frombuffer(self._t, dtype="f8") if n else None
        span = f"{t.min():.6g}–{t.max():.6g} s" if n else "none"
        if self.since is not None:
            of = f" of {n + self.dropped:,}" if self.dropped else ""
            return (f"the newest {n:,}{of} trace events ({span}), recorded from {self.since:.6g} s "
                    f"on only: the part of the run a trace of at most {self.limit:,} events "
                    "keeps (the earlier part was not traced)")
        if not self.dropped:
            return f"every one of the run's {n:,} trace events"
        total = n + self.dropped
        first = self._t_first
        return (f"the newest {n:,} of {total:,} trace events ({span}; the run's trace starts "
                f"at {first:.6g} s): the {self.dropped:,} oldest were dropped to bound memory "
                f"(limit {self.limit:,})")

    def columns(self) -> np.ndarray:
        """All kept records as a structured array, oldest first."""
        if self.limit is not None and len(self._t) > self.limit:
            self._trim()
        out = np.empty(len(self._t), dtype=DTYPE)
        out["t"] = np.frombuffer(self._t, dtype="f8") if len(self._t) else []
        out["comp"] = np.frombuffer(self._c, dtype=np.intc) if len(self._c) else []
        out["kind"] = np.frombuffer(self._k, dtype=np.intc) if len(self._k) else []
        out["a"] = np.frombuffer(self._a, dtype="i8") if len(self._a) else []
        out["b"] = np.frombuffer(self._b, dtype="i8") if len(self._b) else []
        return out

    def of_kind(self, names: Iterable[str]) -> np.ndarray:
        """Records whose kind is one of ``names``."""
        cols = self.columns()
        ids = [self._kind_ids[n] for n in names if n in self._kind_ids]
        return cols[np.isin(cols["kind"], ids)]
