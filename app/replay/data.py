"""A finished run's trace, sorted by time and indexed for replay (numpy only, no Qt).

Models record trace rows in the order their code runs, which is not always
time order (an I/O model books a drive read ahead, then records the miss that
caused it). :class:`ReplayData` sorts the rows once, stably, and keeps per
kind and per (component, kind) index arrays, so that "what had happened by
time t" is a binary search (``numpy.searchsorted``) instead of a replay from
the start. That is what makes scrubbing backwards exact and cheap.

Nothing here re-runs or changes a model: it regroups rows the run recorded.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models.engine import trace_vocab as V
from models.engine.trace_vocab import ROLES

#: Bins across the run used to find bursts for the scrubber's markers.
MARKER_BINS = 300
#: A bin is a "burst" when it holds at least this many times the mean count
#: of the non-empty bins of that kind (and at least ``BURST_MIN`` events).
BURST_FACTOR = 3.0
BURST_MIN = 8
#: Most markers of one type drawn on the scrubber (the rest are merged).
MAX_MARKERS = 200


@dataclass(frozen=True)
class Marker:
    """A notable moment on the scrubber: ``kind`` is a short label."""

    t: float
    kind: str
    label: str


class ReplayData:
    """Trace rows of one run, sorted by time, with lookup tables.

    Parameters
    ----------
    trace : models.engine.Trace
        The recorded trace (a ring may have dropped its oldest rows; see
        :attr:`dropped`).
    """

    def __init__(self, trace):
        cols = trace.columns()
        t = cols["t"]
        # Each column gathered on its own, straight into a contiguous array
        # (gathering whole rows, then copying each column out, read a
        # 2-million-row ring twice); rows already in time order are kept as
        # they are (the stable sort would not move them).
        order = None if np.all(t[1:] >= t[:-1]) else np.argsort(t, kind="stable")
        self.t, self.comp, self.kind, self.a, self.b = (
            np.ascontiguousarray(cols[name]) if order is None else cols[name][order]
            for name in ("t", "comp", "kind", "a", "b"))
        self.components: list[str] = list(trace.components)
        self.kinds: list[str] = list(trace.kinds)
        self.meta: dict = dict(trace.meta)
        self.dropped: int = int(getattr(trace, "dropped", 0))
        #: When the run started recording (``None``: at its start; see Trace.restart).
        self.since: float | None = getattr(trace, "since", None)
        self._by_kind: dict[str, np.ndarray] = {}
        for kid, name in enumerate(self.kinds):
            self._by_kind[name] = np.flatnonzero(self.kind == kid)
        self._by_ck: dict[tuple[str, str], np.ndarray] = {}
        self._sums: dict[tuple[str, str, str], np.ndarray] = {}
        self._times: dict[tuple[str, str], np.ndarray] = {}

    def __len__(self) -> int:
        return len(self.t)

    @property
    def t0(self) -> float:
        """Time of the first kept row (0 for an empty trace)."""
        return float(self.t[0]) if len(self.t) else 0.0

    @property
    def t1(self) -> float:
        """Time of the last row (0 for an empty trace)."""
        return float(self.t[-1]) if len(self.t) else 0.0

    def has(self, *kinds: str) -> bool:
        """True if the trace holds at least one row of any of ``kinds``."""
        return any(len(self._by_kind.get(k, ())) for k in kinds)

    def rows(self, kind: str) -> np.ndarray:
        """Sorted row indices of ``kind`` (empty if the run recorded none)."""
        return self._by_kind.get(kind, np.empty(0, dtype=np.intp))

    def rows_of(self, component: str | None, kind: str) -> np.ndarray:
        """Sorted row indices of ``kind`` recorded by ``component`` (None: any)."""
        if component is None:
            return self.rows(kind)
        key = (component, kind)
        idx = self._by_ck.get(key)
        if idx is None:
            rows = self.rows(kind)
            if component in self.components:
                idx = rows[self.comp[rows] == self.components.index(component)]
            else:
                idx = rows[:0]
            self._by_ck[key] = idx
        return idx

    def times_of(self, component: str | None, kind: str) -> np.ndarray:
        """Times of :meth:`rows_of` (cached: a frame must not copy columns)."""
        key = (component or "", kind)
        times = self._times.get(key)
        if times is None:
            times = self._times[key] = self.t[self.rows_of(component, kind)]
        return times

    def total(self, component: str | None, kind: str, column: str, t: float) -> int:
        """Sum of ``column`` ("a" or "b") over ``kind`` rows at or before ``t``.

        ``component`` None sums over every component. Prefix sums are built
        once per (component, kind, column), so each call is one binary search.
        """
        key = (component or "", kind, column)
        sums = self._sums.get(key)
        if sums is None:
            col = self.a if column == "a" else self.b
            sums = self._sums[key] = np.concatenate(
                ([0], np.cumsum(col[self.rows_of(component, kind)])))
        return int(sums[self.count_of(component, kind, t)])

    def count_of(self, component: str | None, kind: str, t: float) -> int:
        """How many ``kind`` rows of ``component`` (None: any) happened by ``t``."""
        return int(np.searchsorted(self.times_of(component, kind), t, side="right"))

    def count(self, kind: str, t: float) -> int:
        """How many ``kind`` rows happened at or before ``t``."""
        return self.count_of(None, kind, t)

    def last_of(self, component: str | None, kind: str, t: float) -> int:
        """Row index of the last ``kind`` row of ``component`` by ``t``, or -1."""
        i = self.count_of(component, kind, t) - 1
        return int(self.rows_of(component, kind)[i]) if i >= 0 else -1

    def next_of(self, component: str | None, kind: str, t: float) -> int:
        """Row index of the first ``kind`` row of ``component`` after ``t``, or -1."""
        i = self.count_of(component, kind, t)
        rows = self.rows_of(component, kind)
        return int(rows[i]) if i < len(rows) else -1

    def upto(self, t: float) -> int:
        """Number of rows at or before ``t`` (the index of the first later row)."""
        return int(np.searchsorted(self.t, t, side="right"))

    def next_time(self, t: float) -> float:
        """Time of the first row strictly after ``t`` (``t`` itself at the end)."""
        i = self.upto(t)
        return float(self.t[i]) if i < len(self.t) else t

    def prev_time(self, t: float) -> float:
        """Time of the last row strictly before ``t`` (``t0`` at the start)."""
        i = int(np.searchsorted(self.t, t, side="left")) - 1
        return float(self.t[i]) if i >= 0 else self.t0

    def role_of(self, name: str) -> str | None:
        """What component ``name`` is (a :data:`models.engine.trace.ROLES`
        entry): as the model recorded it, else read from a name like VOL0."""
        role = self.meta.get("roles", {}).get(name)
        if role is not None:
            return role
        for r in ROLES:
            if name.startswith(r):
                return r
        return None

    def first_of_role(self, role: str, default: str) -> str:
        """The first component of ``role`` (``default`` when there is none)."""
        names = self.component_names(role)
        return names[0] if names else default

    def component_names(self, role: str) -> list[str]:
        """Components of one role (``"DRV"``, ``"VOL"`` …), in trace order."""
        return [c for c in self.components if self.role_of(c) == role]

    def meta_name(self, table: str, index: int) -> str:
        """Entry ``index`` of ``meta[table]`` (e.g. a switch cause), or ``#index``."""
        names = self.meta.get(table)
        if names is not None and 0 <= index < len(names):
            return str(names[index])
        return f"#{index}"


def markers(data: ReplayData) -> list[Marker]:
    """Notable moments: tape changes, cache-miss storms and switch bursts.

    Returns
    -------
    list of Marker
        Sorted by time. Tape changes are marked each (merged per bin above
        ``MAX_MARKERS``); storms and bursts are bins with ``BURST_FACTOR``
        times the usual count of misses or SRB/TCB switches.
    """
    out: list[Marker] = []
    tape = data.t[data.rows(V.TAPE_CHANGE_START)]
    if len(tape) > MAX_MARKERS:
        tape = _bin_starts(data, tape)
    out += [Marker(float(t), "tape", "tape cartridge change") for t in tape]
    out += _bursts(data, (V.CACHE_MISS,), "miss", "cache-miss storm")
    out += _bursts(data, (V.SRB_TO_TCB, V.TCB_TO_SRB), "switch", "SRB/TCB switch burst")
    return sorted(out, key=lambda m: m.t)


def _bin_edges(data: ReplayData) -> np.ndarray:
    span = max(data.t1 - data.t0, 1e-12)
    return data.t0 + span * np.arange(MARKER_BINS + 1) / MARKER_BINS


def _bin_starts(data: ReplayData, times: np.ndarray) -> np.ndarray:
    """Start times of the bins holding at least one of ``times``."""
    edges = _bin_edges(data)
    counts, _ = np.histogram(times, bins=edges)
    return edges[:-1][counts > 0]


def _bursts(data: ReplayData, kinds: tuple[str, ...], tag: str, label: str) -> list[Marker]:
    times = np.concatenate([data.t[data.rows(k)] for k in kinds])
    if len(times) < BURST_MIN:
        return []
    edges = _bin_edges(data)
    counts, _ = np.histogram(times, bins=edges)
    nonzero = counts[counts > 0]
    threshold = max(BURST_MIN, BURST_FACTOR * float(nonzero.mean()))
    hot = np.flatnonzero(counts >= threshold)[:MAX_MARKERS]
    return [Marker(float(edges[i]), tag, f"{label} ({counts[i]} in "
                   f"{(edges[1] - edges[0]) * 1e3:.3g} ms)") for i in hot]
