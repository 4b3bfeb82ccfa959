"""Reports of different intervals: said not to meet, or joined when the user asks.

RMF reports meet when they are of the same system and the same interval
start. Files a user gathers often do not: the z/OS 2.5 DDS recordings in
``../shared/rmf/dds-zos25`` are a device and cache answer of 07/27, a
channel answer of 07/26 and a CPU answer of 04/06. The import never merges
them silently: the chosen interval lacks the others' reports and an
assumption says which interval holds each (:func:`not_joined`). Asked to
(``import-rmf --join``, or *Join the other intervals' reports* in the
import's summary), :func:`join` takes each missing report from the
interval nearest in time that has it, and an assumption says so.
"""
from __future__ import annotations

from datetime import datetime

from models.rmf.records import Assumption, Interval, RmfSystem

#: What each report fills in an interval.
FIELDS = {"DEVICE": ("volumes", "lcus", "offline"), "CACHE": ("cache_units",),
          "CHAN": ("channels",), "CPU": ("engines",), "ESS": ("ranks",)}


def donors(system: RmfSystem) -> dict[str, Interval]:
    """For each report the chosen interval lacks, the interval nearest in
    time (of the same system, if any) that has it."""
    iv = system.interval
    out = {}
    for kind in FIELDS:
        if kind in iv.reports:
            continue
        have = [o for o in system.intervals if o is not iv and kind in o.reports]
        if not have:
            continue
        same = [o for o in have if o.system == iv.system] or have
        out[kind] = min(same, key=lambda o: _apart(iv, o))
    return out


def _apart(a: Interval, b: Interval) -> float:
    try:
        return abs((datetime.fromisoformat(a.start or "") -
                    datetime.fromisoformat(b.start or "")).total_seconds())
    except ValueError:
        return float("inf")


def not_joined(kind: str, iv: Interval, other: Interval, file: str) -> Assumption:
    """The assumption that names a report of another interval, not used."""
    src = other.sources.get(kind)
    return Assumption(
        f"the {kind} report of {other.label}", "not used",
        f"it does not meet {iv.label} ({_gap(iv, other)}): reports are joined across "
        "intervals only when asked (import-rmf --join, or Join in the import's summary)",
        src.file if src else file, src.line if src else None)


def join(system: RmfSystem) -> list[str]:
    """Copy each report the chosen interval lacks from its donor (:func:`donors`)
    and state it; returns the kinds joined."""
    iv = system.interval
    joined = []
    pairs = donors(system)
    for kind, other in pairs.items():
        for name in FIELDS[kind]:
            setattr(iv, name, getattr(other, name))
        iv.reports.add(kind)
        src = other.sources.get(kind)
        if src is not None:
            iv.sources[kind] = src
        system.assumptions.append(Assumption(
            f"{kind} report", f"of {other.label}",
            f"joined to {iv.label} as asked: the reports do not meet, so its figures are "
            f"of another time ({_gap(iv, other)})",
            src.file if src else (system.files[0] if system.files else "input"),
            src.line if src else None))
        joined.append(kind)
    if joined:
        system.reason += "; joined with " + ", ".join(
            f"the {k} report of {pairs[k].label}" for k in joined)
    return joined


def _gap(a: Interval, b: Interval) -> str:
    s = _apart(a, b)
    if s == float("inf"):
        return "how far apart is not given"
    days, rest = divmod(round(s / 60) * 60, 86400)
    parts = [f"{days:.0f} day{'s' if days != 1 else ''}"] if days else []
    if rest or not days:
        parts.append(f"{rest / 3600:g} h")
    return " ".join(parts) + " apart"
