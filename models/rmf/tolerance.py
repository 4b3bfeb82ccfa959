"""Is a modelled figure close enough to what RMF measured? Issue 41's tolerances.

The textbook test of a model built from RMF data (Lazowska, Zahorjan, Graham
and Sevcik, *Quantitative System Performance*, 1984, ch. 17) accepts
throughputs and utilisations within about 10 % and response times within
about 30 %. The calibrated baseline is held to:

* I/O and read rates: 5 %;
* busy and utilisation: 10 % or 1 point;
* response time and each of IOSQ, PEND, DISC and CONN: 30 % or 0.03 ms;
* read hit ratios: 0.03; staged tracks: 30 % or 1 track/s; bytes per
  request: 10 % or 512 B (25 % or 4 KB to disk), the bands "Measured vs
  model" always used for them.

A figure RMF prints with few digits carries its rounding: a rate printed
0.001 /s may be anything from 0.0005 to 0.0015, so no figure is held
closer than half the last digit RMF prints (3 decimals for rates and
times, 2 for percentages). :data:`TOLERANCES` is the one table the
"Measured vs model" bands, ``zperflab predict`` and the tests read.
Qt-free.
"""
from __future__ import annotations

from dataclasses import dataclass

#: figure -> (absolute, relative): within when |model − measured| <=
#: max(absolute, relative × |measured|).
TOLERANCES: dict[str, tuple[float, float]] = {
    "io_rate": (0.0005, 0.05), "read_rate": (0.0005, 0.05), "seq_read_rate": (0.0005, 0.05),
    "resp_ms": (0.03, 0.30), "iosq_ms": (0.03, 0.30), "pend_ms": (0.03, 0.30),
    "disc_ms": (0.03, 0.30), "conn_ms": (0.03, 0.30),
    "busy_pct": (1.0, 0.10), "max_busy_pct": (1.0, 0.10),
    "utilization_pct": (1.0, 0.10), "max_utilization_pct": (1.0, 0.10),
    "total_utilization_pct": (1.0, 0.10),
    "read_hit_ratio": (0.03, 0.0), "seq_read_hit_ratio": (0.03, 0.0),
    "staged_tracks_rate": (1.0, 0.3), "seq_staged_tracks_rate": (1.0, 0.3),
    "read_bytes_per_req": (512.0, 0.1), "disk_read_bytes_per_req": (4096.0, 0.25),
}
#: A figure not in the table: 10 % (said in the output as such).
DEFAULT = (0.0, 0.10)


def band(key: str) -> tuple[float, float]:
    """``(absolute, relative)`` tolerance of figure ``key``."""
    return TOLERANCES.get(key, DEFAULT)


def allowed(key: str, measured: float) -> float:
    """The largest difference still within the tolerance."""
    absolute, relative = band(key)
    return max(absolute, relative * abs(measured))


def within(key: str, measured: float, model: float) -> bool:
    """Whether ``model`` reproduces ``measured`` (figure ``key``)."""
    return abs(model - measured) <= allowed(key, measured) + 1e-12


def describe(key: str) -> str:
    """The tolerance in words: "5 %", "10 % or 1", "30 % or 0.03 ms"."""
    absolute, relative = band(key)
    unit = " ms" if key.endswith("_ms") else (" points" if key.endswith("_pct") else "")
    rel = f"{relative * 100:g} %" if relative else ""
    if key.endswith("_rate") and key in TOLERANCES and absolute < 0.001:
        return rel
    if not absolute:
        return rel
    ab = f"{absolute:g}{unit}"
    return f"{rel} or {ab}" if rel else ab


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
    out = []
    for label, figs in imported.get("measured", {}).items():
        for key, m in figs.items():
            if key == "members" or key in READ_ONLY or not isinstance(m, (int, float)):
                continue
            got = comps.get(label, {}).get(MODEL_NAME.get(key, key))
            ok = got is not None and within(key, float(m), float(got))
            out.append(Check(label, key, figure_title(key, kinds.get(label, "")), float(m),
                             None if got is None else float(got), ok))
    return out


def summary(found: list[Check]) -> str:
    """"31 of 43 figures within tolerance (72 %)"."""
    n = len(found)
    ok = sum(c.ok for c in found)
    return f"{ok} of {n} figures within tolerance ({100 * ok / n:.0f} %)" if n else \
        "no measured figure to check"
