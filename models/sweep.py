"""Parameter sweeps: one experiment over a range of one parameter, for several
variants (e.g. sampling 1–99 % for FICON/zHPF × 10K/15K/SSD), the building
block of the charts that reproduce the published figures.

:class:`SweepSpec` says what to run and :class:`SweepResult` holds the
metrics; :func:`run_serial` runs every point in this process, in order.
``app.sweep.run_sweep`` runs the same points on a process pool for the GUI
(same seed per point, so the same numbers). Every point is an ordinary run
through :func:`models.experiments.run_experiment`: the path of the command
line and the validator.
"""
from __future__ import annotations

import importlib
import threading
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from models.experiments import DEFAULT_SEED

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
    """The sweep was cancelled before every point finished."""


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
        model's next progress report with ``models.run.Cancelled``).
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
