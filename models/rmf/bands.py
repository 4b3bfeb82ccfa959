"""Is a modelled figure close enough to what RMF measured? Issue 41's tolerances.

The table and the test of one figure; :mod:`models.rmf.tolerance` checks a
whole run with them.

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
#: Figures that are means over requests, by the rate of those requests: where
#: RMF counted none (a rate of 0) and neither did the run, the model agrees
#: (there is nothing to average on either side; RMF prints a hit ratio of
#: 1.000 or a byte count of a request too rare to show as a rate).
PER_REQUEST = {"read_hit_ratio": ("read_rate",), "seq_read_hit_ratio": ("seq_read_rate",),
               "read_bytes_per_req": ("read_rate", "seq_read_rate"),
               "disk_read_bytes_per_req": ("staged_tracks_rate", "seq_staged_tracks_rate"),
               "resp_ms": ("io_rate",), "iosq_ms": ("io_rate",), "pend_ms": ("io_rate",),
               "disc_ms": ("io_rate",), "conn_ms": ("io_rate",)}


def band(key: str) -> tuple[float, float]:
    """``(absolute, relative)`` tolerance of figure ``key``."""
    return TOLERANCES.get(key, DEFAULT)


def allowed(key: str, measured: float) -> float:
    """The largest difference still within the tolerance."""
    absolute, relative = band(key)
    return max(absolute, relative * abs(measured))


#: The cache report prints a control unit's request rates to 0.1 per second
#: (NORMAL 570.0): such a rate is held no closer than half of that.
PRINTED = {("control unit", "read_rate"): 0.05, ("control unit", "seq_read_rate"): 0.05}


def within(key: str, measured: float, model: float, kind: str = "") -> bool:
    """Whether ``model`` reproduces ``measured`` (figure ``key`` of a ``kind``
    of component: its printed resolution, :data:`PRINTED`)."""
    room = max(allowed(key, measured), PRINTED.get((kind, key), 0.0))
    return abs(model - measured) <= room + 1e-12


def describe(key: str) -> str:
    """The tolerance in words: "5 %", "10 % or 1", "30 % or 0.03 ms"."""
    absolute, relative = band(key)
    unit = " ms" if key.endswith("_ms") else (" point" if key.endswith("_pct") else "")
    rel = f"{relative * 100:g} %" if relative else ""
    if key.endswith("_rate") and key in TOLERANCES and absolute < 0.001:
        return rel
    if not absolute:
        return rel
    ab = f"{absolute:g}{unit}"
    return f"{rel} or {ab}" if rel else ab


