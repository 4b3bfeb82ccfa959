"""Figures a lesson names: placeholders bound to its runs, and its claims (no Qt).

A caption, question or answer never types a figure the model computes; it
names one in braces and the lesson fills it in from the run, formatted as
the results table formats it (:func:`app.names.format_number`, then the
metric's unit):

``{elapsed_s}``
    metric ``elapsed_s`` of the run on screen at that step;
``{3:elapsed_s}``
    the same metric of step 3's run (steps count from 1);
``{3:Cache activity|hit ratio (H/R)|value}``
    a cell of a report table of step 3's run: title, the row's first cell,
    the column heading;
``{3:Measured vs model|SGDB2|DISC ms|model}``
    the same where rows share a first cell: the row's first two cells;
``{2:elapsed_s / 3:elapsed_s}``
    the ratio of two figures, written with two significant figures (7.7);
``{2:io_ms - 4:io_ms}``
    their difference, written as the first figure is;
``{2:rmf_within_tolerance}``, ``{2:rmf_figures}``
    of a drawing imported from RMF: how many of the figures RMF measured of
    its cards the run reproduces within tolerance, and how many there are
    (:data:`DERIVED`; ``"3:rmf_within_tolerance - 2:rmf_within_tolerance"``
    above 0 claims more after than before, whatever the counts become).

Each step that runs states its claims as data, each a figure and a bound::

    "claims": [{"figure": "cache_hit_ratio", "below": 0.05},
               {"figure": "2:elapsed_s / 3:elapsed_s", "at_least": 3,
                "says": "zHPF at least 3× faster than FICON"}]

The bounds are ``below``, ``above``, ``at_least``, ``at_most`` and
``between`` ([low, high]). :func:`check` tests every claim against the
runs; ``zperflab lessons --check`` prints the outcome.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Mapping

from app.names import format_number

#: A placeholder in a caption: ``{...}`` with no braces inside.
FIELD = re.compile(r"\{([^{}]*)\}")
#: Operators between two figures (spaces around them: names may hold '-').
OPERATORS = {" / ": "ratio", " - ": "difference"}
#: A claim's bounds and the test each makes.
BOUNDS = {
    "below": lambda v, b: v < b,
    "above": lambda v, b: v > b,
    "at_least": lambda v, b: v >= b,
    "at_most": lambda v, b: v <= b,
    "between": lambda v, b: b[0] <= v <= b[1],
}
#: Shown while a figure's run is not there yet.
PENDING = "…"


class FigureError(ValueError):
    """A placeholder or claim that names nothing (one line, no file: the
    caller adds the lesson and step)."""


def _checks(result, step: int) -> list:
    """The run's card figures against what RMF measured (issue 41's tolerances)."""
    from models.rmf import tolerance

    if not getattr(result, "measured", None):
        raise FigureError(f"the run of step {step + 1} carries no RMF measurements: its "
                          "drawing was not imported from RMF")
    return tolerance.checks(result.measured, result)


#: Figures of a run that no metric holds, named as metrics are: how many of
#: the figures RMF measured of the cards the model reproduces within
#: tolerance (models.rmf.tolerance), and how many there are. A claim
#: compares them between runs ("more within tolerance after calibration"),
#: so no count is typed into a lesson.
DERIVED = {
    "rmf_within_tolerance": lambda result, step: float(sum(c.ok for c in _checks(result, step))),
    "rmf_figures": lambda result, step: float(len(_checks(result, step))),
}


@dataclass(frozen=True)
class Ref:
    """One figure of one run: ``step`` is the 0-based index of the run step."""

    step: int
    metric: str = ""
    #: (title, row, column) or (title, row, second cell, column).
    report: tuple[str, ...] | None = None

    def value(self, result) -> float:
        """The figure in ``result``; :class:`FigureError` if the run has none."""
        if self.report is None:
            if self.metric in DERIVED:
                return DERIVED[self.metric](result, self.step)
            if self.metric not in result.metrics:
                raise FigureError(f"the run of step {self.step + 1} has no metric "
                                  f"{self.metric!r}; it has {', '.join(result.metrics)}")
            return float(result.metrics[self.metric])
        title, row_key, column = self.report[0], self.report[1], self.report[-1]
        second = self.report[2] if len(self.report) == 4 else None
        table = next((t for t in result.reports if t.title == title), None)
        if table is None:
            raise FigureError(f"the run of step {self.step + 1} has no report {title!r}; "
                              f"reports: {', '.join(t.title for t in result.reports)}")
        if column not in table.columns:
            raise FigureError(f"report {title!r} has no column {column!r}; columns: "
                              f"{', '.join(map(str, table.columns))}")
        col = table.columns.index(column)
        for row in table.rows:
            if second is not None and (len(row) < 2 or str(row[1]) != second):
                continue
            if row_key in (str(row[0]), format_number(row[0])):
                try:
                    return float(row[col])
                except (TypeError, ValueError):
                    raise FigureError(f"report {title!r}, row {row_key!r}, column "
                                      f"{column!r} is {row[col]!r}, not a number") from None
        if second is not None:
            raise FigureError(f"report {title!r} has no row {row_key!r} / {second!r}; rows: "
                              f"{', '.join(str(r[0]) + ' / ' + str(r[1]) for r in table.rows)}")
        raise FigureError(f"report {title!r} has no row {row_key!r}; rows: "
                          f"{', '.join(str(r[0]) for r in table.rows)}")


@dataclass(frozen=True)
class Figure:
    """A placeholder's or a claim's figure: one reference, or two and an operator."""

    text: str
    left: Ref
    op: str | None = None
    right: Ref | None = None

    @property
    def steps(self) -> tuple[int, ...]:
        """The run steps the figure reads."""
        return (self.left.step,) if self.right is None else (self.left.step, self.right.step)

    def value(self, results: Mapping[int, Any]) -> float:
        a = self.left.value(results[self.left.step])
        if self.right is None:
            return a
        b = self.right.value(results[self.right.step])
        if self.op == "difference":
            return a - b
        return a / b if b else math.inf

    def format(self, results: Mapping[int, Any], units: Mapping[int, Mapping[str, str]]) -> str:
        """The figure as the class reads it (``units``: each run step's metric units)."""
        v = self.value(results)
        if self.op == "ratio":
            return format_ratio(v)
        unit = "" if self.left.report else units.get(self.left.step, {}).get(self.left.metric, "")
        return format_number(v) + (f" {unit}" if unit else "")


def format_ratio(v: float) -> str:
    """A ratio with two significant figures: 0.52, 7.7, 12, 130."""
    if not math.isfinite(v):
        return "∞"
    if v == 0 or abs(v) >= 10:
        return f"{v:,.0f}"
    digits = max(1 - math.floor(math.log10(abs(v))), 0)
    return f"{v:.{digits}f}"


@dataclass(frozen=True)
class Claim:
    """A statement a step makes about its run, as data."""

    step: int
    figure: Figure
    bound: str
    limit: Any
    says: str = ""

    @property
    def text(self) -> str:
        if self.says:
            return self.says
        limit = (f"{self.limit[0]:g} and {self.limit[1]:g}" if self.bound == "between"
                 else f"{self.limit:g}")
        return f"{self.figure.text} {self.bound.replace('_', ' ')} {limit}"

    def holds(self, value: float) -> bool:
        return bool(BOUNDS[self.bound](value, self.limit))


def parse_figure(text: str, here: int | None, run_steps: set[int]) -> Figure:
    """A placeholder's text as a :class:`Figure`.

    ``here`` is the run step a bare metric name reads (``None``: the step
    shows no run, so each name needs its step); ``run_steps`` the 0-based
    indices of the steps that run and that the text may read.
    """
    text = text.strip()
    for token, op in OPERATORS.items():
        if token in text:
            a, _, b = text.partition(token)
            return Figure(text, _ref(a, here, run_steps), op, _ref(b, here, run_steps))
    return Figure(text, _ref(text, here, run_steps))


def _ref(text: str, here: int | None, run_steps: set[int]) -> Ref:
    text = text.strip()
    head, sep, rest = text.partition(":")
    if sep and head.strip().isdigit():
        step, text = int(head) - 1, rest.strip()
        if step not in run_steps:
            runs = ", ".join(str(s + 1) for s in sorted(run_steps)) or "none"
            raise FigureError(f"{{{text}}} reads step {step + 1}, which has no run here "
                              f"(steps that run up to this one: {runs})")
    elif here is None:
        raise FigureError(f"{{{text}}} names a figure with no run on screen: write the step, "
                          f"as in {{N:{text}}}")
    else:
        step = here
    if not text:
        raise FigureError("an empty {} names no figure")
    if "|" in text:
        parts = [p.strip() for p in text.split("|")]
        if len(parts) not in (3, 4) or not all(parts):
            raise FigureError(f"{{{text}}}: a report figure is 'report title|row|column', or "
                              "'report title|row|second cell|column' where rows share a first "
                              "cell")
        return Ref(step, report=tuple(parts))
    if not re.fullmatch(r"[a-z][a-z0-9_]*", text):
        raise FigureError(f"{{{text}}} is no metric name (snake_case, as in zperflab run --json)")
    return Ref(step, metric=text)


def fields(text: str) -> list[str]:
    """The placeholders of ``text``, without braces."""
    return FIELD.findall(text)


def fill(text: str, figures: Mapping[str, Figure], results: Mapping[int, Any],
         units: Mapping[int, Mapping[str, str]]) -> str:
    """``text`` with each placeholder replaced by its figure (:data:`PENDING`
    while its run is missing)."""
    def one(match: re.Match) -> str:
        fig = figures[match.group(1)]
        if any(s not in results or results[s] is None for s in fig.steps):
            return PENDING
        try:
            return fig.format(results, units)
        except FigureError:
            return "?"
    return FIELD.sub(one, text)


def parse_claim(raw: dict, step: int, run_steps: set[int]) -> Claim:
    """One entry of a step's ``claims`` as a :class:`Claim`."""
    bounds = [b for b in BOUNDS if b in raw]
    if len(bounds) != 1:
        raise FigureError(f"a claim has one bound of {', '.join(BOUNDS)}, not "
                          f"{', '.join(bounds) or 'none'}")
    bound = bounds[0]
    limit = raw[bound]
    if bound == "between":
        limit = (float(limit[0]), float(limit[1]))
    figure = parse_figure(raw["figure"], step, run_steps)
    return Claim(step, figure, bound, limit, raw.get("says", ""))


# ---- runs, checks and the handout --------------------------------------------
#: Headless runs by (drawing, seed): ``--check``, ``--text`` and the player
#: share them when the same drawing runs again in one process.
_RUNS: dict[tuple, Any] = {}
_RUNS_KEPT = 64


def run_step(lesson, index: int, seed: int | None = None):
    """The headless run of step ``index``'s drawing (the path ``zperflab run``
    and the GUI share), kept for later calls in this process."""
    import json

    from models import experiments
    from models.engine import Trace

    seed = experiments.DEFAULT_SEED if seed is None else seed
    doc = lesson.document_at(index)
    key = (json.dumps(doc, sort_keys=True, default=str), seed)
    if key not in _RUNS:
        sc = lesson.scenario_at(index)
        if len(_RUNS) >= _RUNS_KEPT:
            _RUNS.pop(next(iter(_RUNS)))
        _RUNS[key] = experiments.run_experiment(sc.experiment, {}, seed=seed,
                                                trace=Trace(limit=200_000), scenario=sc)
    return _RUNS[key]


def units(lesson) -> dict[int, dict[str, str]]:
    """Each run step's metric units, by metric name."""
    from models import experiments

    out = {}
    for i in lesson.run_steps():
        exp = experiments.get(lesson.experiment_at(i))
        out[i] = {m.name: m.unit or "" for m in exp.metrics}
    return out


def step_text(lesson, index: int, results: Mapping[int, Any]) -> str:
    """Step ``index``'s caption with its figures filled in from ``results``."""
    return fill(lesson.steps[index].caption, lesson.figures[index], results, units(lesson))


def check(lesson, results: Mapping[int, Any]) -> list[dict]:
    """Every claim of ``lesson`` tested against ``results`` (step index → run):
    one ``{"lesson", "step", "claim", "holds", "value"}`` each (``step`` from 1)."""
    out = []
    for claim in lesson.claims:
        try:
            value = claim.figure.value(results)
            holds = claim.holds(value)
        except (FigureError, KeyError) as exc:
            value, holds = None, False
            claim_text = f"{claim.text} (cannot read the figure: {exc})"
        else:
            claim_text = claim.text
        out.append({"lesson": lesson.name, "step": claim.step + 1, "claim": claim_text,
                    "holds": holds, "value": value})
    return out


def unclaimed(lesson) -> list[int]:
    """The run steps (0-based) that state no claim."""
    claimed = {c.step for c in lesson.claims}
    return [i for i in lesson.run_steps() if i not in claimed]


def handout(lesson, results: Mapping[int, Any]) -> str:
    """The lesson as plain text for a class, every figure filled in."""
    lines = [lesson.title, "=" * len(lesson.title), "", lesson.teaches, ""]
    number = 0
    for i, step in enumerate(lesson.steps):
        text = step_text(lesson, i, results)
        if step.kind == "question":
            lines += ["Question: " + text, ""]
        elif step.kind == "answer":
            lines += ["Answer: " + text, ""]
        else:
            number += 1
            lines += [f"{number}. {text}", ""]
    return "\n".join(lines).rstrip() + "\n"
