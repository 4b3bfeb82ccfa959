"""Does a run reproduce what RMF measured? Every figure against issue 41's
tolerances (:mod:`models.rmf.bands`, the one table "Measured vs model",
``zperflab predict`` and the tests read). Qt-free.
"""
from __future__ import annotations

from dataclasses import dataclass

from models.rmf.bands import (DEFAULT, PER_REQUEST, TOLERANCES, allowed, band,  # noqa: F401
                              describe, within)

@dataclass(frozen=True)
class Check:
    """One measured figure against the model's."""

    label: str          # the card (canvas label)
    key: str            # figure name (RunResult.components)
    title: str          # how the table names it
    measured: float
    model: float | None  # None: the run gives no figure (no request reached it)
    ok: bool

    @property
    def error(self) -> float | None:
        """Model − measured."""
        return None if self.model is None else self.model - self.measured


def checks(imported: dict, result) -> list[Check]:
    """Every figure RMF measured of a card (not of its members) against the run.

    A figure the model gives none of (no request reached the card in the run)
    counts as not reproduced. Read-only figures (configuration, counts, the
    delays inside PEND) are left out, as in "Measured vs model".
    """
    from models.rmf.measured import MODEL_NAME, READ_ONLY, figure_title, model_figures

    comps, _ = model_figures(result)
    kinds = imported.get("kinds", {})
    seconds = (imported.get("interval") or {}).get("length_s")
    out = []
    for label, figs in imported.get("measured", {}).items():
        for key, m in figs.items():
            if key == "members" or key in READ_ONLY or not isinstance(m, (int, float)):
                continue
            model = comps.get(label, {})
            got = model.get(MODEL_NAME.get(key, key))
            ok = got is not None and within(key, float(m), float(got), kinds.get(label, ""))
            if got is None and key.endswith("_rate") and model.get("io_rate") is not None:
                got = 0.0                     # the card ran and made none of these
                ok = within(key, float(m), 0.0, kinds.get(label, ""))
            if not ok and _none_either_side(key, figs, model, float(m), got, seconds):
                ok, got = True, None
            out.append(Check(label, key, figure_title(key, kinds.get(label, "")), float(m),
                             None if got is None else float(got), ok))
    return out


def _none_either_side(key: str, figs: dict, model: dict, measured: float, got,
                      seconds: float | None) -> bool:
    """RMF counted no request of the kind the figure is about, and neither did
    the run (or RMF's rate is 0 and the run made none). A rate that makes
    under half a request in the interval (4.2e-05/s over 1,800 s: a read
    share printed to 0.1 % of a quiet volume's rate) is none."""
    none = 0.5 / seconds if seconds else 0.0

    def zero(rate) -> bool:
        return rate <= none
    if key.endswith("_rate") and key not in PER_REQUEST:
        return zero(measured) and not got
    rates = PER_REQUEST.get(key)
    if not rates or not all(r in figs for r in rates):
        return False
    return all(zero(figs[r]) for r in rates) and not any(model.get(r) for r in rates)


def summary(found: list[Check]) -> str:
    """"31 of 43 figures within tolerance (72 %)"."""
    n = len(found)
    ok = sum(c.ok for c in found)
    return f"{ok} of {n} figures within tolerance ({100 * ok / n:.0f} %)" if n else \
        "no measured figure to check"
