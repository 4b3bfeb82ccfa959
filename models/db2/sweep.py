"""Sweeps: one experiment run over a list of values of one parameter.

A sweep returns one curve per metric: the building block of the charts that
reproduce the paper's figures (elapsed time and throughput against sampling
percentage, one curve per protocol and device). Every point is an ordinary
run through :func:`models.experiments.run_experiment`: the same path as the
command line and the validator.

Nothing here is DB2-specific; it lives in the DB2 package because the DB2
figures are the first to need it.
"""
from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from models import experiments


@dataclass(frozen=True)
class Sweep:
    """Curves of one experiment over one parameter.

    ``curves[metric][i]`` is the metric at ``values[i]``.
    """

    experiment: str
    param: str
    values: tuple
    fixed: dict
    curves: dict

    def curve(self, metric: str) -> np.ndarray:
        return self.curves[metric]

    def rows(self) -> list[tuple]:
        """(value, metric...) rows in the order of ``metrics`` (CSV export)."""
        names = list(self.curves)
        return [(v, *(float(self.curves[m][i]) for m in names)) for i, v in enumerate(self.values)]


def sweep(experiment: str, param: str, values: Sequence, fixed: dict | None = None,
          seed: int = experiments.DEFAULT_SEED,
          progress: Callable[[float], None] | None = None,
          cancel: threading.Event | None = None) -> Sweep:
    """Run ``experiment`` once per value of ``param``.

    Parameters
    ----------
    experiment : str
        Registered experiment name.
    param : str
        The parameter to vary; must be one of the experiment's.
    values : sequence
        Values of ``param`` (each checked like a ``--set`` value).
    fixed : dict or None
        Other parameters held for every point.
    seed : int
    progress : callable or None
        Called with the fraction of points done.
    cancel : threading.Event or None

    Returns
    -------
    Sweep

    Raises
    ------
    models.params.ParamError
        Unknown experiment or parameter, or a bad value.
    """
    fixed = dict(fixed or {})
    exp = experiments.get(experiment)
    exp.resolve({**fixed, param: values[0]} if len(values) else fixed)   # fail early on bad keys
    names = [m.name for m in exp.metrics]
    data = {m: np.empty(len(values)) for m in names}
    for i, v in enumerate(values):
        res = experiments.run_experiment(experiment, {**fixed, param: v}, seed=seed, cancel=cancel)
        for m in names:
            data[m][i] = res.metrics[m]
        if progress is not None:
            progress((i + 1) / len(values))
    return Sweep(experiment, param, tuple(values), fixed, data)


def family(experiment: str, param: str, values: Sequence, series: dict[str, dict],
           fixed: dict | None = None, seed: int = experiments.DEFAULT_SEED) -> dict[str, Sweep]:
    """One sweep per labelled set of overrides (e.g. ``"FICON 10K"``).

    Parameters
    ----------
    series : dict
        Label → parameters that distinguish the curve, merged over ``fixed``.
    """
    return {label: sweep(experiment, param, values, {**(fixed or {}), **over}, seed)
            for label, over in series.items()}


#: The paper's curve families: protocol × back-end device.
PROTOCOL_DEVICE_SERIES = {
    f"{proto} {dev}": {"protocol": proto, "device": dev}
    for proto in ("FICON", "zHPF") for dev in ("HDD10K", "HDD15K", "SSD")
}
