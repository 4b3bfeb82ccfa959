"""Predicting one interval from another's calibration (issue 41, part 4).

Calibration (:mod:`models.rmf.calibrate`) fits its quantities on the very
figures the calibrated baseline is then checked against, so a baseline
within tolerance shows the fit, not the model. The honest test is to
calibrate on one interval of a system and predict another: the drawing of
the other interval is built from that interval's own workload (its rates
and mix, :func:`models.rmf.drawing.build`), the quantities calibrated on
the first are carried onto its cards by label, nothing is fitted to it,
and its measured figures are checked against the run with issue 41's
tolerances (:mod:`models.rmf.tolerance`).

A carried quantity keeps its value; its ``"from"`` says which interval it
was calibrated on and, after that, what set it there. Qt-free.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from models.rmf import read_reports
from models.rmf.calibrate import QUANTITIES, CalibrationError, calibrate, entries, title
from models.rmf.drawing import build
from models.rmf.records import Interval, RmfError
from models.rmf.tolerance import Check, checks


#: Figures each interval's own import sets its drawing to (the workload's rates and
#: hit ratios, the CPU work from the engines' busy): within tolerance by
#: construction, so said apart from the figures the model predicts.
INPUTS = frozenset(("io_rate", "read_rate", "seq_read_rate", "read_hit_ratio",
                    "seq_read_hit_ratio"))
INPUTS_OF = {"engine": frozenset(("busy_pct",))}


def is_input(check: Check, kinds: dict[str, str]) -> bool:
    """Whether ``check``'s figure is one the interval's import fits (:data:`INPUTS`)."""
    return check.key in INPUTS or check.key in INPUTS_OF.get(kinds.get(check.label, ""), ())


class PredictError(ValueError):
    """The recording or the intervals asked for allow no prediction."""


@dataclass
class Outcome:
    """One interval run: fitted (calibrated on itself) or predicted (from another)."""

    number: int
    label: str                  # "interval 2 (2026-11-25 09:15:00)"
    system: str
    checks: list[Check] = field(default_factory=list)
    calibrated: list[dict] = field(default_factory=list)   # as set on its cards
    not_carried: list[str] = field(default_factory=list)   # A's quantities left out, why
    error: str = ""             # why it could not be run ("" when it was)
    inputs: frozenset = frozenset()   # (label, key) of the figures its import fits

    @property
    def within(self) -> int:
        return sum(c.ok for c in self.checks)

    def modelled(self) -> list[Check]:
        """The checks of figures the model gives, not the import (:data:`INPUTS`)."""
        return [c for c in self.checks if (c.label, c.key) not in self.inputs]


def targets(ivs: list[Interval], source: int, wanted: Sequence[int] | None) -> list[int]:
    """The intervals to predict: those asked for, checked, or every other
    interval of the same system that has a report the source has.

    Raises
    ------
    PredictError
        One interval only, an interval not there, the source itself, another
        system's interval, or one that shares no report with the source (its
        figures would be the import's fit, not a prediction).
    """
    src = ivs[source - 1]
    listed = "; ".join(f"{i.label} with {_reports(i)}" for i in ivs)
    if len(ivs) < 2:
        raise PredictError(f"the recording holds one interval, {src.label}: a prediction "
                           "needs another interval of the same system")
    if not wanted:
        same = [i.number for i in ivs if i.number != source and not _unlike(src, i)]
        if not same:
            others = [i.number for i in ivs if any(
                j is not i and not _unlike(i, j) for j in ivs)]
            hint = (f"calibrate on interval {others[0]} instead (--calibrate-on {others[0]})"
                    if others else "no two of its intervals have a report in common, and a "
                    "prediction needs one")
            raise PredictError(f"nothing to predict: no other interval of "
                               f"{src.system or 'this system'} has a report that {src.label} "
                               f"has ({_reports(src)}). The recording holds {listed}: {hint}")
        return same
    for n in wanted:
        if not 1 <= n <= len(ivs):
            raise PredictError(f"there is no interval {n}: the recording holds {len(ivs)} "
                               f"({listed})")
        if n == source:
            raise PredictError(f"interval {n} is the one calibrated on: predicting it would "
                               "check the fit, not a prediction; name another")
        why = _unlike(src, ivs[n - 1])
        if why:
            raise PredictError(f"{ivs[n - 1].label}: {why}")
    return list(dict.fromkeys(wanted))


def _reports(iv: Interval) -> str:
    return ", ".join(sorted(iv.reports)) or "no report"


def _unlike(src: Interval, iv: Interval) -> str:
    """Why ``iv`` cannot be predicted from ``src``'s calibration, after its label
    ("" when it can)."""
    if iv.system != src.system:
        return (f"it is of system {iv.system or '?'}, {src.label} of "
                f"{src.system or '?'}: a calibration is carried only within one system")
    if not iv.reports & src.reports:
        return (f"it has no report {src.label} has ({_reports(iv)} against "
                f"{_reports(src)}): nothing calibrated there would be tested")
    return ""


def carry(sc_a, sc_b, source: str) -> tuple[list[dict], list[str]]:
    """Set ``sc_a``'s accepted calibrated quantities on ``sc_b``'s cards of the
    same label, and list them as ``sc_b.imported["calibrated"]``.

    Parameters
    ----------
    sc_a, sc_b : Scenario
        The calibrated drawing and the one to predict (edited in place).
    source : str
        The interval calibrated on, as the ``"from"`` of each carried entry names it.

    Returns
    -------
    (carried, not_carried)
        The entries set on ``sc_b``, and one line for each of ``sc_a``'s
        quantities left out (refused there, or its card not drawn here).
    """
    kinds_a = {n.label: n.kind for n in sc_a.nodes.values()}
    cards = {n.label: n for n in sc_b.nodes.values()}
    carried, left, refused = [], [], []
    for e in entries(sc_a.imported):
        name = f"{title(e)} of {e['component']}"
        n = cards.get(e["component"])
        if e.get("refused"):
            refused.append(name)
        elif n is None:
            left.append(f"{name}: {e['component']} is not drawn in this interval")
        elif n.kind != kinds_a.get(e["component"]):
            left.append(f"{name}: {e['component']} is another kind of card here")
        else:
            n.properties[QUANTITIES[e["quantity"]][1]] = e["value"]
            carried.append({**e, "from": f"calibrated on {source}: {e['from']}"})
    if refused:
        left.append(f"not used on {source} either (refused there): {'; '.join(refused)}")
    sc_b.imported["calibrated"] = carried
    return carried, left


def predict(paths: Sequence[str], source: int, wanted: Sequence[int] | None,
            run: Callable[..., Any], seed: int = 1) -> tuple[Outcome, list[Outcome]]:
    """Calibrate interval ``source`` of a recording and predict the others.

    Parameters
    ----------
    paths : sequence of str
        The recording's report files (read together, as ``import-rmf`` does).
    source : int
        The interval to calibrate on, numbered 1… in time order.
    wanted : sequence of int or None
        The intervals to predict; None: every other interval of the system.
    run : callable
        :func:`models.experiments.run_experiment` (passed in: the RMF package
        sits below the experiments).
    seed : int
        Seed of every run checked (the calibration's own run keeps its seed,
        :data:`models.rmf.calibrate.SEED`, as ``import-rmf --calibrate``).

    Returns
    -------
    (fitted, predicted)
        The calibrated interval checked against its own figures, and each
        other interval in time order: predicted, or ``error`` saying why not
        (its drawing could not run; by default, another system's interval).

    Raises
    ------
    RmfError, PredictError
        Bad input; intervals that allow no prediction or the interval to
        calibrate on nothing to calibrate to.
    """
    system_a = read_reports(paths, interval=source)     # RmfError: no such interval
    ivs = list(system_a.intervals)
    todo = targets(ivs, source, wanted)
    sc_a = build(system_a)
    try:
        calibrate(sc_a, run)
    except CalibrationError as exc:
        raise PredictError(f"{system_a.interval.label} cannot be calibrated on: {exc}") from None
    fitted = _outcome(system_a.interval, sc_a, run, seed)
    fitted.calibrated = entries(sc_a.imported)
    src = ivs[source - 1]
    out = [] if wanted else [Outcome(i.number, i.label, i.system or "", error=_unlike(src, i))
                             for i in ivs if i.number != source and i.number not in todo]
    for n in todo:
        try:
            system_b = read_reports(paths, interval=n)
            sc_b = build(system_b)
        except RmfError as exc:        # an idle interval, one without volumes
            iv = ivs[n - 1]
            out.append(Outcome(n, iv.label, iv.system or "", error=str(exc)))
            continue
        carried, left = carry(sc_a, sc_b, system_a.interval.label)
        o = _outcome(system_b.interval, sc_b, run, seed)
        o.calibrated, o.not_carried = carried, left
        out.append(o)
    return fitted, sorted(out, key=lambda o: o.number)


def _outcome(iv: Interval, sc, run: Callable[..., Any], seed: int) -> Outcome:
    o = Outcome(iv.number, iv.label, iv.system or "")
    try:
        result = run(sc.experiment, {}, seed=seed, scenario=sc)
    except ValueError as exc:       # ParamError: a drawing that cannot run (no workload)
        o.error = f"its drawing does not run: {exc}"
        return o
    o.checks = checks(sc.imported, result)
    kinds = sc.imported.get("kinds", {})
    o.inputs = frozenset((c.label, c.key) for c in o.checks if is_input(c, kinds))
    return o
