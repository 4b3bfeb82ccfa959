"""Replications: one run repeated over a list of seeds, with each metric's mean
and 95 % confidence interval.

A simulation's figure is one sample; the same drawing under another seed
gives another. :func:`replicate` runs the drawing once per seed of
:func:`seed_list` — ``seed, seed + 1, …, seed + N - 1``, so the same
``--seed`` and ``N`` always give the same seeds and the same numbers, and
replication 1 is the single run of that seed — and :func:`summarize` turns
the runs into an :class:`Estimate` per metric and per component figure: the
mean and the Student-t 95 % interval ``mean ± t(0.975, N-1) · s / √N``
(:func:`t_quantile`; computed here, no scipy). The half-width shrinks as
``1/√N``.

Warm-up removal: a model with open arrivals can leave the first
``RunContext.warmup_s`` simulated seconds out of its figures with
:func:`after_warmup`; :class:`Replicated` reports what was removed, or that
the model removed nothing (the built-in case studies each run a fixed piece
of work to its end, so every request counts).
"""
from __future__ import annotations

import functools
import math
import threading
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from models.core.params import ParamError
from models.core.run import COMPONENT_FIGURES, RunContext, RunResult, Table

#: Most replications of one run or sweep point.
MAX_REPLICATIONS = 1000
#: Seeds are whole numbers 0 to 2**63 - 1; the list wraps past the top.
SEED_LIMIT = 2 ** 63


def seed_list(seed: int, n: int) -> list[int]:
    """The seeds of ``n`` replications starting at ``seed``: ``seed, seed+1, …``
    (modulo 2**63)."""
    return [(int(seed) + i) % SEED_LIMIT for i in range(n)]


def check_replications(n: Any) -> int:
    """``n`` as a replication count (2–:data:`MAX_REPLICATIONS`), or :class:`ParamError`."""
    if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= MAX_REPLICATIONS:
        raise ParamError(f"replications must be a whole number 2–{MAX_REPLICATIONS} (a "
                         "confidence interval needs at least two runs); got "
                         f"{str(n)[:40]}")
    return n


def _two_sided(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with ``df`` degrees of freedom (exact finite
    sums, Abramowitz & Stegun 26.7.3 and 26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    c2, s = math.cos(theta) ** 2, math.sin(theta)
    if df % 2:                      # odd: 2/π (θ + sin θ cos θ (1 + 2/3 cos² θ + …))
        total, term = 0.0, math.cos(theta)
        for k in range(1, (df - 1) // 2 + 1):
            total += term
            term *= c2 * (2 * k) / (2 * k + 1)
        return 2.0 / math.pi * (theta + s * total)
    total, term = 0.0, 1.0          # even: sin θ (1 + 1/2 cos² θ + 1·3/2·4 cos⁴ θ + …)
    for k in range(1, df // 2 + 1):
        total += term
        term *= c2 * (2 * k - 1) / (2 * k)
    return s * total


#: The normal 97.5 % point, for the large-df expansion.
_Z975 = 1.959963984540054


@functools.lru_cache(maxsize=256)
def t_quantile(df: int, confidence: float = 0.95) -> float:
    """The two-sided Student-t critical value: ``t`` with P(|T| < t) = ``confidence``
    (12.706 for 1 degree of freedom, 2.262 for 9, 1.960 in the limit)."""
    if df < 1:
        raise ValueError("a t quantile needs at least one degree of freedom")
    if df > 1000 and confidence == 0.95:
        # Cornish-Fisher in 1/df: within 1e-6 here, and no long sums.
        z = _Z975
        return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)
    lo, hi = 0.0, 1.0
    while _two_sided(hi, df) < confidence:
        hi *= 2.0
    for _ in range(80):             # bisection to machine precision
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if _two_sided(mid, df) < confidence else (lo, mid)
    return 0.5 * (lo + hi)


@dataclass(frozen=True)
class Estimate:
    """A figure over ``n`` replications: its mean and 95 % interval ``lo``–``hi``
    (NaN when ``n`` < 2 or a run gave no finite value)."""

    mean: float
    lo: float
    hi: float
    n: int

    @property
    def half(self) -> float:
        """Half-width of the interval."""
        return 0.5 * (self.hi - self.lo)

    def text(self, fmt: Callable[[float], str], of: int, unit: str = "") -> str:
        """The estimate as a person reads it: ``2.1 ± 0.3 ms``; the mean
        alone where there is no interval; ``(5 of 8 seeds)`` when only some
        seeds measured the figure (a mean over those)."""
        out = fmt(self.mean) if math.isfinite(self.mean) else "not measured"
        if math.isfinite(self.half):
            out += f" ± {fmt(self.half)}"
        if unit and math.isfinite(self.mean):
            out += f" {unit}"
        if self.n < of:
            out += f" ({self.n} of {of} seeds)"
        return out

    def ci_json(self) -> list | None:
        """``[lo, hi]`` for JSON, or ``None`` where there is no interval."""
        if not (math.isfinite(self.lo) and math.isfinite(self.hi)):
            return None
        return [self.lo, self.hi]


def estimate(values: Sequence[float]) -> Estimate:
    """Mean and Student-t 95 % interval of ``values`` (one per replication)."""
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n == 0 or not np.isfinite(x).all():
        return Estimate(math.nan, math.nan, math.nan, n)
    mean = float(x.mean())
    if n < 2:
        return Estimate(mean, math.nan, math.nan, n)
    if (x == x[0]).all():           # no spread (a deterministic figure): no rounding noise
        return Estimate(float(x[0]), float(x[0]), float(x[0]), n)
    half = t_quantile(n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n)


def _json_number(v: float) -> float | None:
    return v if math.isfinite(v) else None


@dataclass(frozen=True)
class Replicated:
    """The outcome of one drawing run over several seeds.

    ``metrics`` and ``components`` hold an :class:`Estimate` where a single
    run holds a number. ``warmup_removed_s`` lists each run's removed warm-up
    (``None`` where its model removed none).
    """

    experiment: str
    params: Mapping[str, Any]
    seeds: tuple[int, ...]
    metrics: Mapping[str, Estimate]
    components: Mapping[str, Mapping[str, Estimate]] = field(default_factory=dict)
    warmup_s: float = 0.0
    warmup_removed_s: tuple = ()
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))
        object.__setattr__(self, "metrics", MappingProxyType(dict(self.metrics)))
        object.__setattr__(self, "components", MappingProxyType(
            {k: MappingProxyType(dict(v)) for k, v in dict(self.components).items()}))

    @property
    def n(self) -> int:
        return len(self.seeds)

    def warmup_line(self) -> str:
        """One line saying how much warm-up each run left out."""
        removed = [r for r in self.warmup_removed_s if r is not None]
        if not removed:
            asked = f" ({self.warmup_s:g} s asked)" if self.warmup_s > 0 else ""
            from models import experiments
            title = experiments.get(self.experiment).title
            return (f"Warm-up: none removed{asked}: '{title}' counts every request "
                    "from the start (it does not remove warm-up; the built-in case studies "
                    "are closed, each running a fixed piece of work to its end).")
        lo, hi = min(removed), max(removed)
        if hi == 0:
            return ("Warm-up: none removed (none asked; this model can leave the first "
                    "seconds of each run out).")
        span = f"{lo:g} s" if lo == hi else f"{lo:g}–{hi:g} s"
        return f"Warm-up: the first {span} of each run removed from the figures."

    def component_table(self) -> Table | None:
        """Per-component figures as mean and 95 % half-width (``None`` if none)."""
        if not self.components:
            return None
        order = {k: i for i, k in enumerate(COMPONENT_FIGURES)}
        def half(e: Estimate):
            if not math.isfinite(e.half):
                return "—"          # one seed measured it: no interval
            return round(e.half, 4) if e.n == self.n else f"{round(e.half, 4)} ({e.n} of {self.n})"
        rows = tuple((name, COMPONENT_FIGURES.get(k, k), round(e.mean, 4), half(e))
                     for name, figs in self.components.items()
                     for k, e in sorted(figs.items(), key=lambda kv: order.get(kv[0], 99)))
        return Table("Components as drawn", ("component", "figure", "mean", "± 95 % CI"), rows,
                     note=f"Mean of {self.n} replications (seeds {self.seeds[0]}–"
                          f"{self.seeds[-1]}) and the half-width of its 95 % interval.")

    def as_json(self) -> dict:
        """The ``run --replications N --json`` object: ``metrics`` and
        ``components`` hold means, ``ci95`` and ``components_ci95`` the
        ``[lo, hi]`` intervals beside them."""
        return {
            "experiment": self.experiment, "params": dict(self.params),
            "seed": self.seeds[0], "replications": self.n, "seeds": list(self.seeds),
            "metrics": {k: _json_number(e.mean) for k, e in self.metrics.items()},
            "ci95": {k: e.ci_json() for k, e in self.metrics.items()},
            "components": {c: {k: _json_number(e.mean) for k, e in v.items()}
                           for c, v in self.components.items()},
            "components_ci95": {c: {k: e.ci_json() for k, e in v.items()}
                                for c, v in self.components.items()},
            "warmup": {"requested_s": self.warmup_s,
                       "removed_s": list(self.warmup_removed_s),
                       "note": self.warmup_line()},
        }


def summarize(results: Sequence[RunResult], warmup_s: float = 0.0) -> Replicated:
    """Combine runs of one drawing under different seeds (in seed order)."""
    if not results:
        raise ValueError("no runs to summarize")
    first = results[0]
    names = list(dict.fromkeys(k for r in results for k in r.metrics))
    # In the experiment's declared order (a seed that measured less lists less).
    from models import experiments
    try:
        declared = {m.name: i for i, m in enumerate(experiments.get(first.experiment).metrics)}
    except ParamError:          # a model not in the registry (tests' toys): as found
        declared = {}
    names.sort(key=lambda k: declared.get(k, len(declared)))
    # A figure some seeds did not measure (a mean over no I/O, say) is the
    # mean over the seeds that did; its Estimate's n says how many.
    metrics = {k: estimate([r.metrics[k] for r in results if k in r.metrics]) for k in names}
    comps: dict[str, dict[str, Estimate]] = {}
    for label in dict.fromkeys(c for r in results for c in r.components):
        figs = dict.fromkeys(k for r in results for k in r.components.get(label, {}))
        comps[label] = {k: estimate([r.components[label][k] for r in results
                                     if k in r.components.get(label, {})]) for k in figs}
    notes = tuple(dict.fromkeys(n for r in results for n in r.notes
                                if not n.startswith("Warm-up:")))
    return Replicated(first.experiment, first.params, tuple(r.seed for r in results), metrics,
                      comps, warmup_s, tuple(r.warmup_removed_s for r in results), notes)


def replicate(name: str, overrides: dict | None, n: int, seed: int, scenario: Any = None,
              progress: Callable[[float], None] | None = None,
              cancel: threading.Event | None = None, warmup_s: float = 0.0,
              run: Callable[..., RunResult] | None = None) -> Replicated:
    """Run ``name`` on a drawing once per seed of ``seed_list(seed, n)``.

    Parameters
    ----------
    name, overrides, scenario
        As :func:`models.experiments.run_experiment`.
    n : int
        Replications, 2–:data:`MAX_REPLICATIONS`.
    seed : int
        The first seed.
    progress : callable or None
        Fraction 0–1 of all the runs.
    cancel : threading.Event or None
        Stops the run in progress (``Cancelled``) and the rest.
    warmup_s : float
        Warm-up to remove in each run (models with open arrivals).
    run : callable or None
        ``run_experiment`` (default) or a stand-in with its signature.

    Raises
    ------
    ParamError, NotImplementedYet, Cancelled
        As :func:`models.experiments.run_experiment`.
    """
    if run is None:
        from models.experiments import run_experiment as run
    check_replications(n)
    results = []
    warmup = {"warmup_s": warmup_s} if warmup_s else {}
    for i, s in enumerate(seed_list(seed, n)):
        part = None if progress is None else (lambda f, i=i: progress((i + f) / n))
        results.append(run(name, overrides, seed=s, scenario=scenario, progress=part,
                           cancel=cancel, **warmup))
    return summarize(results, warmup_s)


def after_warmup(ctx: RunContext, times: np.ndarray, values: np.ndarray,
                 end_s: float | None = None) -> np.ndarray:
    """The ``values`` observed at or after ``ctx.warmup_s`` (``times`` in
    simulated seconds), recording the removal on ``ctx``.

    A model with open arrivals calls this on its per-request observations
    (completion times and response times, say) before it averages them. The
    removal is capped at ``end_s`` (the run's length) when given.
    """
    times = np.asarray(times, dtype=float)
    values = np.asarray(values)
    cut = ctx.warmup_s if end_s is None else min(ctx.warmup_s, end_s)
    ctx.removed_warmup(cut)
    return values[times >= cut]
