"""The experiment registry: named built-in scenarios and how to run them.

Each module listed in ``_MODULES`` defines ``EXPERIMENTS``, a list of
:class:`Experiment`. The command line, the validator and the GUI all look
experiments up here and run them with :func:`run_experiment`.
"""
from __future__ import annotations

import dataclasses
import importlib
import threading
from dataclasses import dataclass
from typing import Any, Callable

from models.engine import Trace
from models.core.params import Metric, ParamError, Schema
from models.core.run import NotImplementedYet, RunContext, RunResult
from models.drawing import catalog, documents, hardware
from models.drawing.config import from_scenario
from models.drawing.scenario import Scenario, ScenarioError

#: Run seed used when the user gives none.
DEFAULT_SEED = 1

_MODULES = (
    "models.experiments.program_fetch",
    "models.experiments.spool",
    "models.experiments.natural_ziip",
    "models.experiments.db2_io",
    "models.experiments.db2_access",
    "models.experiments.vsam_rls",
    "models.experiments.custom",
)


@dataclass(frozen=True)
class Experiment:
    """A built-in scenario with its parameters, metrics and model.

    ``run(params, ctx)`` gets fully resolved parameters and returns a
    :class:`~models.core.run.RunResult`; ``None`` means the model is not built yet.
    ``does_io``: the run moves data over channels (its drawing needs the
    whole path dataset → volume → control unit → channel → processor);
    ``False`` for a layout computation that only needs the dataset on its
    volume. ``draws_groups``: the model simulates every volume and channel
    of the drawing, so group cards (storage groups, channel groups) may be
    drawn.
    """

    name: str
    title: str
    description: str
    schema: Schema
    metrics: tuple[Metric, ...]
    run: Callable[[dict, RunContext], RunResult] | None = None
    does_io: bool = True
    draws_groups: bool = False

    def resolve(self, overrides: dict | None) -> dict:
        return self.schema.resolve(overrides, self.name)


_registry: dict[str, Experiment] | None = None
_lock = threading.Lock()


def registry() -> dict[str, Experiment]:
    """All experiments by name, in a stable order."""
    global _registry
    with _lock:
        if _registry is None:
            reg: dict[str, Experiment] = {}
            for mod_name in _MODULES:
                mod = importlib.import_module(mod_name)
                for exp in mod.EXPERIMENTS:
                    if exp.name in reg:
                        raise RuntimeError(f"experiment {exp.name!r} declared twice")
                    reg[exp.name] = exp
            _registry = reg
        return _registry


def get(name: str) -> Experiment:
    """The experiment called ``name``; :class:`ParamError` if there is none."""
    reg = registry()
    if name not in reg:
        raise ParamError(f"unknown experiment '{name}'; known: {', '.join(reg)}")
    return reg[name]


def run_experiment(name: str, overrides: dict | None = None, seed: int = DEFAULT_SEED,
                   trace: bool | Trace = False,
                   progress: Callable[[float], None] | None = None,
                   cancel: threading.Event | None = None,
                   scenario: Any = None, warmup_s: float = 0.0,
                   phase: Callable[[str], None] | None = None,
                   early: Callable[[RunResult, float], None] | None = None,
                   early_after_s: float = 0.0) -> RunResult:
    """Run experiment ``name`` on a drawing, with ``overrides`` on top.

    The one path of every run (GUI, ``zperflab run``, ``sweep``,
    ``validate``): the drawing — ``scenario`` (a
    :class:`~models.drawing.scenario.Scenario` or its dict), else the experiment's
    built-in case study — is copied, the hardware parameters among
    ``overrides`` edit the copy (:func:`models.drawing.hardware.apply`), the copy
    must be runnable, and the run gets its configuration
    (:func:`models.drawing.config.from_scenario`) in ``ctx.config`` and its
    parameter values as drawn plus the other overrides. ``warmup_s`` asks
    the model to leave the first seconds out (``RunContext.warmup_s``); the
    result's ``warmup_removed_s`` says what it did, and a note says when it
    removed nothing. ``early(result, seconds)``: a model that can (a drawn
    shop's general workloads) gives its figures after ``early_after_s``
    simulated seconds once, finished as the whole run's are, while the run
    goes on (the window shows them first on a long run).

    Raises
    ------
    ParamError
        Unknown experiment or key, a bad value, or a drawing that cannot run
        (the message names the component).
    NotImplementedYet
        The experiment's model has not been built yet.
    Cancelled
        ``cancel`` was set during the run.
    """
    exp, sc, params = prepare(name, overrides, scenario)
    if exp.run is None:
        raise NotImplementedYet(f"experiment '{name}' is not implemented yet")
    if trace is True:
        trace = Trace()     # the newest DEFAULT_LIMIT (2 million) events
    # An empty Trace is falsy (it has a length): test the type, not truth.
    ctx = RunContext(seed=seed, trace=trace if isinstance(trace, Trace) else None,
                     progress=progress, cancel=cancel, config=from_scenario(sc),
                     warmup_s=warmup_s, phase=phase, early=early, early_after_s=early_after_s)
    ctx.finish = lambda result: _finished(result, sc)
    result = _finished(exp.run(params, ctx), sc)
    if ctx.warmup_removed_s is not None or warmup_s > 0:
        result = dataclasses.replace(result, warmup_removed_s=ctx.warmup_removed_s)
        if ctx.warmup_removed_s is None:
            result = dataclasses.replace(result, notes=(*result.notes, (
                f"Warm-up: none removed ({warmup_s:g} s asked): this model counts every "
                "request from the start of the run.")))
    if ctx.trace is not None and (ctx.trace.dropped or ctx.trace.since is not None):
        # Bounded replay (issue 29): say which part of the run the trace kept.
        kept = ctx.trace.kept()
        ctx.trace.meta["kept"] = kept
        result = dataclasses.replace(result, notes=(*result.notes, f"Replay: the trace holds {kept}."))
    if progress is not None:
        progress(1.0)
    return result


def _finished(result: RunResult, sc) -> RunResult:
    """A model's result with what every run adds: the component table and,
    for a drawing imported from RMF, what was measured beside it."""
    table = result.component_table()
    if table is not None:
        result = dataclasses.replace(result, reports=(*result.reports, table))
    if sc.imported and sc.imported.get("measured"):
        # A drawing imported from RMF carries what was measured: set it beside the run.
        from models.rmf import measured
        result = dataclasses.replace(
            result, reports=(*result.reports, measured.table(sc.imported, result)),
            measured={"measured": sc.imported["measured"],
                      "members": sc.imported.get("members", {}),
                      "kinds": sc.imported.get("kinds", {}),
                      "interval": sc.imported.get("interval", {})})
    return result


def prepare(name: str, overrides: dict | None = None, scenario: Any = None):
    """(experiment, edited drawing, resolved parameters) of a run, without
    running it: how a sweep checks its points before it starts.

    Raises
    ------
    ParamError
        As :func:`run_experiment`.
    """
    exp = get(name)
    sc = drawing(name, scenario)
    rest = hardware.apply(sc, dict(overrides or {}))
    try:
        drawn = sc.run_request()[1]
    except ScenarioError as exc:
        raise ParamError(f"the drawing cannot run: {exc}") from None
    return exp, sc, exp.resolve({**drawn, **rest})


def drawing(name: str, scenario: Any = None):
    """A private copy of the drawing an experiment runs on.

    ``scenario``: a Scenario, its dict, or ``None`` for the built-in case
    study of ``name``. A drawing set to another experiment (or to none) is
    run as ``name``.
    """
    if scenario is None:
        try:
            sc = documents.load_case(name)
        except documents.ScenarioFileError as exc:
            raise ParamError(str(exc)) from None
    elif isinstance(scenario, Scenario):
        sc = scenario.copy()
    else:
        try:
            sc = Scenario.from_dict(scenario)
        except (ScenarioError, KeyError) as exc:
            raise ParamError(f"the drawing cannot be read: {exc}") from None
    if sc.experiment != name:
        sc.set_experiment(name)
    return sc


def metric_names(name: str) -> list[str]:
    return [m.name for m in get(name).metrics]


def params_of(name: str) -> list[Any]:
    return list(get(name).schema.params)


# The drawing learns of the experiments from here (models.drawing.catalog).
catalog.install(get)
