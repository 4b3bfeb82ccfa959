"""Compare the model with published figures (``targets.json``).

Each target names an experiment, parameters, a metric and an expectation;
with ``baseline`` the compared quantity is the ratio of the metric at
``params`` to the metric at ``params`` updated by ``baseline``. Runs are
cached by (experiment, parameters), so targets sharing a run cost one run.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from models import experiments

from models.drawing import documents
from models.core.params import ParamError, shorten
from models.core.resources import TARGETS
from models.core.run import NotImplementedYet


class TargetsError(ValueError):
    """The targets file cannot be read or does not follow the schema."""


class ModelError(RuntimeError):
    """A model raised an unexpected error while a target was evaluated."""


@dataclass(frozen=True)
class Verdict:
    id: str
    model: float | None
    expected: dict
    ok: bool
    error: str | None

    def as_json(self) -> dict:
        return {"id": self.id, "model": self.model, "expected": self.expected,
                "ok": self.ok, "error": self.error}


def load_targets(path: str | Path | None = None) -> list[dict]:
    """Read and check a targets file (the bundled one by default).

    The file must be a regular file of sane size, strict JSON and match
    ``resources/schema/targets.schema.json``; :class:`TargetsError` (one
    line) otherwise.
    """
    path = Path(path) if path else TARGETS
    shown = shorten(str(path))
    try:
        data = documents.read_json_file(path, "targets file")
    except OSError as exc:
        raise TargetsError(f"cannot read targets file {shown}: {exc.strerror or exc}") from None
    except documents.InputError as exc:
        text = str(exc)
        raise TargetsError(text if text.startswith(shown) else
                           f"targets file {shown} {text}") from None
    try:
        documents.check_schema(data, "targets", f"targets file {shown}")
    except documents.InputError as exc:
        raise TargetsError(str(exc)) from None
    return data["targets"]


def check(value: float, expect: dict) -> bool:
    """Does ``value`` meet ``expect`` (value+rel_tol, value+abs_tol, min/max)?"""
    if value is None or not math.isfinite(value):
        return False
    if "min" in expect or "max" in expect:
        return expect.get("min", -math.inf) <= value <= expect.get("max", math.inf)
    target = expect["value"]
    if "rel_tol" in expect:
        if target == 0:
            return value == 0
        return abs(value / target - 1) <= expect["rel_tol"] + 1e-12
    return abs(value - target) <= expect["abs_tol"] + 1e-12


class Evaluator:
    """Runs targets with a cache of (experiment, params) → metrics."""

    def __init__(self, seed: int = experiments.DEFAULT_SEED):
        self.seed = seed
        self._cache: dict[str, Any] = {}

    def metrics(self, experiment: str, params: dict) -> dict:
        key = json.dumps([experiment, params], sort_keys=True)
        hit = self._cache.get(key)
        if hit is None:
            try:
                hit = dict(experiments.run_experiment(experiment, params, seed=self.seed).metrics)
            except (NotImplementedYet, ParamError) as exc:
                hit = exc
            except Exception as exc:  # noqa: BLE001 - reported, never hidden
                # A model that crashes fails its targets with the error shown;
                # the other targets are still evaluated.
                hit = ModelError(f"model crashed: {type(exc).__name__}: {exc}")
            self._cache[key] = hit
        if isinstance(hit, Exception):
            raise hit
        return hit

    def evaluate(self, target: dict) -> Verdict:
        tid, metric, expect = target["id"], target["metric"], target["expect"]
        try:
            value = self.metrics(target["experiment"], target["params"])[metric]
            if target.get("baseline"):
                base_params = {**target["params"], **target["baseline"]}
                base = self.metrics(target["experiment"], base_params)[metric]
                value = value / base if base else math.inf
        except NotImplementedYet as exc:
            return Verdict(tid, None, expect, False, str(exc))
        except (ParamError, ModelError) as exc:
            return Verdict(tid, None, expect, False, str(exc))
        except KeyError:
            return Verdict(tid, None, expect, False, f"experiment does not report metric '{metric}'")
        value = float(value)
        return Verdict(tid, value, expect, check(value, expect), None)


def validate(targets: list[dict], seed: int = experiments.DEFAULT_SEED,
             progress: Callable[[int, int], None] | None = None) -> list[Verdict]:
    """Evaluate every target; never raises for a model that is missing."""
    ev = Evaluator(seed)
    out = []
    for i, t in enumerate(targets):
        out.append(ev.evaluate(t))
        if progress:
            progress(i + 1, len(targets))
    return out
