"""Parameter sweeps: one experiment over a range of one parameter, for several
variants (e.g. sampling 1–99 % for FICON/zHPF × 10K/15K/SSD), the building
block of the charts that reproduce the published figures; and grids, the
full cross product of several parameters (``zperflab sweep``).

:class:`SweepSpec` says what to run and :class:`SweepResult` holds the
metrics; :func:`run_serial` runs every point in this process, in order.
``app.sweep.run_sweep`` runs the same points on a process pool for the GUI
(same seed per point, so the same numbers). :class:`GridSpec` is the command
line's cross product, optionally replicated over seeds
(:func:`models.studies.replicate.seed_list`); :func:`grid_rows` turns its finished
runs into one :class:`GridRow` per combination, with means and 95 %
intervals. Every point, whichever way it is run (here, a process pool, a
Dask cluster), is :func:`point_metrics`: an ordinary run through
:func:`models.experiments.run_experiment`, the path of the command line and
the validator.
"""
from __future__ import annotations

import importlib
import itertools
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from models import experiments
from models.experiments import DEFAULT_SEED
from models.studies.replicate import Estimate, estimate, seed_list

#: The function each point runs: ``run(name, overrides, seed=...)``.
DEFAULT_RUNNER = "models.experiments:run_experiment"


@dataclass(frozen=True)
class SweepSpec:
    """What to sweep.

    Parameters
    ----------
    experiment : str
    param : str
        The parameter varied along the x axis.
    values : tuple
        Its values, in plot order.
    variants : tuple of (label, overrides)
        One curve each; ``(("", {}),)`` for a single curve.
    base : dict
        Overrides every point shares.
    seed : int
    runner : str
        ``"module:function"`` run in the workers (tests pass their own),
        called as ``run(name, overrides, seed=..., cancel=event)`` (plus
        ``scenario=`` when the sweep has one).
    scenario : dict or None
        The drawing every point runs on (a scenario dict); ``None``: the
        experiment's built-in case study.
    """

    experiment: str
    param: str
    values: tuple
    variants: tuple = (("", {}),)
    base: dict = field(default_factory=dict)
    seed: int = DEFAULT_SEED
    runner: str = DEFAULT_RUNNER
    scenario: dict | None = None

    def points(self) -> list[tuple[int, int, dict]]:
        """(variant index, value index, overrides) for every point."""
        return [(v, i, {**self.base, **over, self.param: x})
                for v, (_label, over) in enumerate(self.variants)
                for i, x in enumerate(self.values)]


@dataclass(frozen=True)
class SweepResult:
    """Metrics per variant and value: ``metric(name)[variant, value_index]``."""

    spec: SweepSpec
    metrics: tuple[tuple[dict, ...], ...]

    def metric(self, name: str) -> np.ndarray:
        """A (variants × values) array of one metric (NaN where missing)."""
        return np.array([[m.get(name, np.nan) for m in row] for row in self.metrics], dtype=float)

    def labels(self) -> list[str]:
        return [label for label, _ in self.spec.variants]


class SweepCancelled(Exception):
    """The sweep was cancelled before every point finished.

    ``partial``: when the runner keeps them, each point's metrics in point
    order, ``None`` where the point had not finished.
    """

    def __init__(self, message: str = "sweep cancelled", partial: list | None = None):
        super().__init__(message)
        self.partial = partial


def resolve_runner(runner: str) -> Callable:
    """The function a ``"module:function"`` runner string names."""
    module, _, name = runner.partition(":")
    return getattr(importlib.import_module(module), name)


def point_metrics(runner: str, experiment: str, overrides: dict, seed: int,
                  cancel=None, scenario: dict | None = None) -> dict:
    """Run one point of a sweep; its metrics as floats (the pool's and
    :func:`run_serial`'s one way to run a point)."""
    extra = {} if scenario is None else {"scenario": scenario}
    result = resolve_runner(runner)(experiment, overrides, seed=seed, cancel=cancel, **extra)
    return {k: float(v) for k, v in result.metrics.items()}


#: The paper's curve families: protocol × back-end device (REDP-4862).
PROTOCOL_DEVICE_VARIANTS = tuple(
    (f"{proto} {dev}", {"protocol": proto, "device": dev})
    for proto in ("FICON", "zHPF") for dev in ("HDD10K", "HDD15K", "SSD"))


def run_serial(spec: SweepSpec, progress: Callable[[int, int], None] | None = None,
               cancel: threading.Event | None = None) -> SweepResult:
    """Run every point of ``spec`` here, one after the other.

    Raises
    ------
    SweepCancelled
        ``cancel`` was set between points (a running point stops at its
        model's next progress report with ``models.core.run.Cancelled``).
    ParamError, NotImplementedYet
        From the first point that fails.
    """
    points = spec.points()
    out: list[list[dict]] = [[{} for _ in spec.values] for _ in spec.variants]
    for n, (v, i, over) in enumerate(points, 1):
        if cancel is not None and cancel.is_set():
            raise SweepCancelled("sweep cancelled")
        out[v][i] = point_metrics(spec.runner, spec.experiment, over, spec.seed, cancel,
                                  spec.scenario)
        if progress is not None:
            progress(n, len(points))
    return SweepResult(spec, tuple(tuple(row) for row in out))


@dataclass(frozen=True)
class GridSpec:
    """A cross product of parameter values, each combination run over one or
    more seeds.

    Parameters
    ----------
    experiment : str
    axes : tuple of (key, values)
        One axis per ``--over KEY=V1,V2,…``; the first changes slowest.
    base : dict
        Overrides every point shares (``--set``).
    seed : int
        The first seed; replications use ``seed_list(seed, replications)``.
    replications : int
        Runs per combination (1: one run, no interval).
    runner, scenario
        As :class:`SweepSpec`.
    """

    experiment: str
    axes: tuple[tuple[str, tuple], ...]
    base: dict = field(default_factory=dict)
    seed: int = DEFAULT_SEED
    replications: int = 1
    runner: str = DEFAULT_RUNNER
    scenario: dict | None = None

    def combinations(self) -> list[dict]:
        """The overrides of each combination, in output order."""
        keys = [k for k, _ in self.axes]
        return [{**self.base, **dict(zip(keys, combo))}
                for combo in itertools.product(*(values for _, values in self.axes))]

    def seeds(self) -> list[int]:
        return seed_list(self.seed, self.replications)

    def points(self) -> list[tuple[dict, int]]:
        """(overrides, seed) of every run: each combination's replications together."""
        seeds = self.seeds()
        return [(over, s) for over in self.combinations() for s in seeds]


@dataclass(frozen=True)
class GridRow:
    """One combination's results: its values of the swept keys and an
    :class:`~models.studies.replicate.Estimate` per metric."""

    values: dict
    metrics: dict[str, Estimate]


def grid_rows(spec: GridSpec, results: Sequence[dict | None]) -> list[GridRow]:
    """The combinations whose every replication finished (``results`` in
    :meth:`GridSpec.points` order, ``None`` for a run that did not)."""
    keys = [k for k, _ in spec.axes]
    n = spec.replications
    rows = []
    for c, over in enumerate(spec.combinations()):
        runs = results[c * n:(c + 1) * n]
        if len(runs) < n or any(r is None for r in runs):
            continue
        names = dict.fromkeys(k for r in runs for k in r)
        rows.append(GridRow({k: over[k] for k in keys},
                            {m: estimate([r.get(m, np.nan) for r in runs]) for m in names}))
    return rows


def check_grid(spec: GridSpec) -> None:
    """Check every combination before anything runs.

    Raises
    ------
    ParamError
        An unknown key or a bad value, naming it (from
        :func:`models.experiments.prepare`).
    """
    for over in spec.combinations():
        experiments.prepare(spec.experiment, over, spec.scenario)


def _unit(text: str, title: str = "") -> str:
    """`` (unit)`` after a title, unless the title already says it ("Tapes",
    "tapes"; "Pages per I/O", "pages")."""
    return f" ({text})" if text and text.lower() not in title.lower() else ""


def param_heading(experiment: str, key: str) -> str:
    """A parameter's column heading: its title and unit ("Pages per request")."""
    try:
        p = experiments.get(experiment).schema[key]
    except KeyError:
        return key
    return p.title + _unit(p.unit, p.title)


def metric_headings(experiment: str, names: Sequence[str]) -> dict[str, tuple[str, str]]:
    """(title, unit) of each metric from the experiment's Metric definitions
    (its title; the key, spelled out, for a metric it does not declare)."""
    declared = {m.name: m for m in experiments.get(experiment).metrics}
    out, seen = {}, set()
    for name in names:
        m = declared.get(name)
        title = m.title if m is not None else name.replace("_", " ").capitalize()
        if title in seen:           # two metrics described alike: keep the columns apart
            title = f"{title} [{name}]"
        seen.add(title)
        out[name] = (title, m.unit if m is not None else "")
    return out


def metric_order(experiment: str, rows: Sequence[GridRow]) -> list[str]:
    """The metrics of ``rows``: the experiment's declared ones first."""
    found = dict.fromkeys(k for r in rows for k in r.metrics)
    declared = [m.name for m in experiments.get(experiment).metrics if m.name in found]
    return declared + [k for k in found if k not in declared]


def grid_table(spec: GridSpec, rows: Sequence[GridRow]) -> tuple[list[str], list[list[Any]]]:
    """Column headings (human names) and cells of the sweep's CSV: one column
    per swept parameter, then per metric its mean and, with replications,
    the half-width of its 95 % interval."""
    names = metric_order(spec.experiment, rows)
    heads = metric_headings(spec.experiment, names)
    header = [param_heading(spec.experiment, k) for k, _ in spec.axes]
    for name in names:
        title, unit = heads[name]
        header.append(title + _unit(unit, title))
        if spec.replications > 1:
            header.append(f"{title}, 95 % CI half-width" + _unit(unit, title))
    cells = []
    for row in rows:
        line = [row.values[k] for k, _ in spec.axes]
        for name in names:
            e = row.metrics.get(name, Estimate(np.nan, np.nan, np.nan, 0))
            line.append(e.mean)
            if spec.replications > 1:
                line.append(e.half)
        cells.append(line)
    return header, cells


def grid_json(spec: GridSpec, rows: Sequence[GridRow], total: int | None = None) -> dict:
    """The ``sweep --json`` object: per point its ``params`` and ``metrics``
    (means), and with replications ``ci95`` (``[lo, hi]``) beside them."""
    names = metric_order(spec.experiment, rows)
    heads = metric_headings(spec.experiment, names)
    total = len(spec.combinations()) if total is None else total

    def num(v: float) -> float | None:
        return v if np.isfinite(v) else None

    points = []
    for row in rows:
        point = {"params": dict(row.values),
                 "metrics": {k: num(e.mean) for k, e in row.metrics.items()}}
        if spec.replications > 1:
            point["ci95"] = {k: e.ci_json() for k, e in row.metrics.items()}
        points.append(point)
    return {"experiment": spec.experiment, "over": {k: list(v) for k, v in spec.axes},
            "base": dict(spec.base), "replications": spec.replications, "seeds": spec.seeds(),
            "metric_info": {k: {"title": t, "unit": u} for k, (t, u) in heads.items()},
            "points": points, "finished": len(rows), "total": total,
            "complete": len(rows) == total}
