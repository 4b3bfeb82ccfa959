"""What a run takes (:class:`RunContext`) and gives back (:class:`RunResult`).

Every experiment's ``run(params, ctx)`` receives a context with the seed, an
optional :class:`~models.engine.Trace`, a progress callback and a cancel flag,
and returns a :class:`RunResult`. The GUI, ``zperflab run`` and ``zperflab
validate`` all go through :func:`models.experiments.run_experiment`.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping

from models.engine import Trace


class Cancelled(Exception):
    """Raised inside a run when the user cancelled it."""


class NotImplementedYet(Exception):
    """The experiment is declared but its model has not been built yet."""


@dataclass(frozen=True)
class Table:
    """A report table (RMF style): a title, column headings and rows."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple, ...]
    note: str = ""

    def as_dict(self) -> dict:
        return {"title": self.title, "columns": list(self.columns),
                "rows": [list(r) for r in self.rows], "note": self.note}


class RunContext:
    """Seed, trace, progress and cancellation for one run.

    Parameters
    ----------
    seed : int
        Run seed; models derive named random streams from it.
    trace : Trace or None
        Where to record animation events; ``None`` records nothing.
    progress : callable or None
        Called with a fraction 0–1 as the run advances.
    cancel : threading.Event or None
        Set by another thread to stop the run; :meth:`check` raises
        :class:`Cancelled` once it is set.
    config : models.drawing.config.Configuration or None
        The hardware and workloads drawn on the canvas. Models build their
        processors, channels, control units, ranks, volumes and tape
        drives from it, under their canvas names.
    phase : callable or None
        Called with a short text as each phase of a run starts (set-up,
        warm-up, the simulation); models without phases never call it.
    early : callable or None
        ``early(result, seconds)``: a long run's figures after its first
        ``early_after_s`` simulated seconds (``seconds``: the time they
        cover), once, while it goes on (:meth:`early_result`); models that
        cannot give figures mid-run never call it.
    early_after_s : float
        When the early figures are due, simulated seconds.
    warmup_s : float
        Simulated seconds at the start of the run to leave out of the
        figures (warm-up removal). Only a model with open arrivals can
        honour it: it drops what finished before then and records what it
        removed with :meth:`removed_warmup` (see
        :func:`models.studies.replicate.after_warmup`). A model that does not (a
        closed case study that runs a fixed piece of work to its end)
        leaves :attr:`warmup_removed_s` at ``None``, and the run says so.
    """

    def __init__(self, seed: int = 1, trace: Trace | None = None,
                 progress: Callable[[float], None] | None = None,
                 cancel: threading.Event | None = None, config: Any = None,
                 warmup_s: float = 0.0, phase: Callable[[str], None] | None = None,
                 early: Callable[[Any, float], None] | None = None, early_after_s: float = 0.0):
        self.seed = int(seed)
        self.trace = trace
        self.config = config
        self.warmup_s = float(warmup_s)
        #: Simulated seconds the model left out (``None``: it removes no warm-up).
        self.warmup_removed_s: float | None = None
        self._progress = progress
        self._cancel = cancel
        self._last = -1.0
        self._phase = phase
        self.early = early
        self.early_after_s = float(early_after_s)
        #: What a run's result goes through before it is given out (set by
        #: run_experiment: the component table, the measured figures), so
        #: early figures are finished as the final ones are.
        self.finish: Callable[[Any], Any] = lambda result: result

    def removed_warmup(self, seconds: float) -> None:
        """Record that the figures leave out the first ``seconds`` of the run."""
        self.warmup_removed_s = float(seconds)

    def check(self) -> None:
        """Raise :class:`Cancelled` if the run was cancelled."""
        if self._cancel is not None and self._cancel.is_set():
            raise Cancelled("run cancelled")

    def phase(self, text: str) -> None:
        """Say which phase of the run starts ("setting up 1,000 volumes",
        "warming the cache", "simulating 1 s"), and check for cancel: a long
        set-up or warm-up shows what it does before the first progress."""
        self.check()
        if self._phase is not None:
            self._phase(text)

    def early_result(self, result: Any, seconds: float) -> None:
        """Give out a long run's figures so far (``seconds`` of it), finished
        as a whole run's are; checks for cancel first."""
        self.check()
        if self.early is not None:
            self.early(self.finish(result), seconds)

    def progress(self, fraction: float) -> None:
        """Report progress (throttled to steps of 0.5 %) and check for cancel."""
        self.check()
        if self._progress is not None and (fraction - self._last >= 0.005 or fraction >= 1.0):
            self._last = fraction
            self._progress(min(1.0, max(0.0, fraction)))


#: Per-component figures (``RunResult.components``) and their column titles.
COMPONENT_FIGURES = {
    "io_rate": "I/O rate /s", "resp_ms": "resp ms", "iosq_ms": "IOSQ ms",
    "pend_ms": "PEND ms", "disc_ms": "DISC ms", "conn_ms": "CONN ms",
    "utilization_pct": "utilisation %", "busy_pct": "busy %",
    "total_utilization_pct": "total utilisation % (every system)",
    # Two hit ratios, two names (issue 40): the cache model's per 4 KB
    # record, and RMF's per read request (READ H/R).
    "read_hit_ratio": "record hit ratio",
    "read_rate": "read rate /s", "seq_read_rate": "sequential read rate /s",
    "req_read_hit_ratio": "request hit ratio",
    "seq_read_hit_ratio": "sequential request hit ratio",
    "staged_tracks_rate": "tracks staged /s", "seq_staged_tracks_rate": "tracks prestaged /s",
    "read_bytes_per_req": "bytes / read (host)", "disk_read_bytes_per_req": "bytes / disk read",
    "tracks_used": "tracks used",
    "members": "members", "max_busy_pct": "busiest member busy %",
    "max_utilization_pct": "busiest member utilisation %",
    "rank_busy_pct": "own ranks busy %", "max_rank_busy_pct": "busiest own rank busy %",
}
_FIGURE_ORDER = {k: i for i, k in enumerate(COMPONENT_FIGURES)}


@dataclass(frozen=True)
class RunResult:
    """The immutable outcome of one run.

    ``components`` holds each simulated component's figures under its
    canvas label (a volume's ``io_rate``, ``resp_ms``, ``iosq_ms``,
    ``pend_ms``, ``disc_ms``, ``conn_ms``, ``busy_pct``; a channel's
    ``utilization_pct``; a control unit's ``read_hit_ratio``; a
    processor's or tape drive's ``busy_pct``); a group card (storage group,
    channel group) has its members' totals there (``members``, sums of
    rates, rate-weighted means of times, mean and ``max_`` busy), and each
    member's own figures are in ``members`` under the group's label.
    ``warmup_removed_s`` is the
    simulated time left out of the figures as warm-up (``None``: the model
    removes none; see :class:`RunContext`).
    """

    experiment: str
    params: Mapping[str, Any]
    seed: int
    metrics: Mapping[str, float]
    reports: tuple[Table, ...] = ()
    trace: Trace | None = field(default=None, compare=False, repr=False)
    notes: tuple[str, ...] = ()
    components: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    warmup_removed_s: float | None = None
    members: Mapping[str, Mapping[str, Mapping[str, float]]] = field(default_factory=dict)
    #: What RMF measured, when the drawing was imported from RMF reports:
    #: ``{"measured": {label: figures}, "members": {group: {member: figures}},
    #: "kinds": {label: what it is}, "interval": {system, start, …}}``.
    measured: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        object.__setattr__(self, "metrics", MappingProxyType(dict(self.metrics)))
        object.__setattr__(self, "components", MappingProxyType(
            {k: MappingProxyType(dict(v)) for k, v in dict(self.components).items()}))

    def component_table(self) -> Table | None:
        """The per-component figures as one report table (``None`` if none)."""
        if not self.components:
            return None
        # Long form (component, figure, value): it fits a narrow dock and a
        # slide whatever mix of components a drawing has.
        rows = tuple((name, COMPONENT_FIGURES.get(k, k), round(float(x), 4))
                     for name, v in self.components.items()
                     for k, x in sorted(v.items(), key=lambda kv: _FIGURE_ORDER.get(kv[0], 99)))
        return Table("Components as drawn", ("component", "figure", "value"), rows,
                     note="Each component under its canvas name.")

    def as_json(self) -> dict:
        """The ``run --json`` object."""
        out = {"experiment": self.experiment, "params": dict(self.params),
               "metrics": dict(self.metrics), "seed": self.seed,
               "components": {k: dict(v) for k, v in self.components.items()}}
        if self.members:
            out["members"] = {g: {m: dict(f) for m, f in ms.items()}
                              for g, ms in self.members.items()}
        if self.measured:
            out["measured"] = {k: dict(v) for k, v in self.measured["measured"].items()}
            out["measured_members"] = {g: {m: dict(f) for m, f in ms.items()}
                                       for g, ms in self.measured.get("members", {}).items()}
        return out
