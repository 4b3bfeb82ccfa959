"""What an import read, in words: one line per report of the chosen interval.

:func:`read_lines` is what ``import-rmf --json`` lists under ``"read"`` and
the import's summary in the app shows under *Read*, beside what was
assumed: the counts, the busiest figures and what was read but not drawn
(LCU totals, offline devices, idle or offline CHPIDs, other channel types),
each with the file and line of its report.
"""
from __future__ import annotations

import os

from models.rmf.join import donors
from models.rmf.records import Interval, RmfSystem

#: What each report is counted in, in the order the counts are said.
COUNTED = (("DEVICE", "volumes"), ("CACHE", "cache_units"), ("CHAN", "channels"),
           ("CPU", "engines"), ("ESS", "ranks"))


def read_lines(system: RmfSystem) -> list[str]:
    """One line per report of the chosen interval (and of each report joined)."""
    iv = system.interval
    out = []
    for kind, line in (("DEVICE", _device), ("CACHE", _cache), ("CHAN", _chan),
                       ("CPU", _cpu), ("ESS", _ess)):
        if kind in iv.reports:
            out.append(f"{kind} ({_where(iv, kind)}): {line(iv)}")
    return out


def counts_line(system: RmfSystem) -> str:
    """What the chosen interval holds ("97 volumes, 4 cache units, 0 ranks"),
    then the reports read in other intervals and not used: counted as 0
    beside the rest, the channel and CPU answers of the real z/OS 2.5 files
    looked as if nothing had been read from them."""
    others = donors(system)
    counts = system.summary()["counts"]
    said = [f"{counts[key]} {key.replace('_', ' ')}" for kind, key in COUNTED
            if kind not in others]
    unused = [f"{_count(other, kind)}the {kind} report of {other.label}"
              for kind, other in others.items()]
    return ", ".join(said) + ("; read and not used (of other intervals): " + ", ".join(unused)
                              if unused else "")


def _count(iv: Interval, kind: str) -> str:
    """The count before a report's name ("14 channels of "); nothing when a
    large file kept only that interval's activity."""
    key = dict(COUNTED)[kind]
    n = len(getattr(iv, key))
    return f"{n} {key.replace('_', ' ')} of " if n else ""


def not_used(system: RmfSystem, others: dict | None = None) -> list[str]:
    """One line per report read in another interval and left out of the drawing
    (``import-rmf --json``'s ``read_not_used``)."""
    others = donors(system) if others is None else others
    out = []
    for kind, other in others.items():
        out.append(f"{_count(other, kind)}the {kind} report of {other.label}, "
                   f"at {_where(other, kind)}: it does not meet {system.interval.label}, "
                   "and reports are joined only when asked")
    return out


#: How many units, CHPIDs or engines a line names before "and N more".
NAMED = 6


def _first(items: list[str], sep: str = "; ", n: int = NAMED) -> str:
    if len(items) <= n + 1:
        return sep.join(items)
    return sep.join(items[:n]) + f"{sep}and {len(items) - n} more"


def _where(iv: Interval, kind: str) -> str:
    src = iv.sources.get(kind)
    if src is None:
        return "?"
    name = os.path.basename(src.file)
    return f"{name}:{src.line}" if src.line else name


def _device(iv: Interval) -> str:
    vols = sorted(iv.volumes.values(), key=lambda v: -v.rate)
    groups = {v.storage_group for v in vols if v.storage_group}
    loose = sum(1 for v in vols if not v.storage_group)
    text = f"{len(vols)} volumes, {sum(v.rate for v in vols):,.3f} I/O/s"
    if vols:
        b = vols[0]
        text += f" (busiest {b.volser} {b.rate:g}/s at {b.resp_ms:g} ms)"
    text += f"; {len(vols) - loose} in {len(groups)} storage groups, {loose} in none"
    if iv.lcus:
        text += "; LCU totals " + _first([f"{k} {t.rate:g}/s" for k, t in
                                          sorted(iv.lcus.items())], ", ", 3 * NAMED)
    if iv.offline:
        text += "; offline, not drawn: " + _first([d for d, _, _ in iv.offline], ", ", 3 * NAMED)
    return text


def _cache(iv: Interval) -> str:
    parts = []
    for key, u in sorted(iv.cache_units.items()):
        bits = [f"CU-ID {u.cu_id}" if u.cu_id else "", u.type_model or "",
                f"{u.cache_mb:g} MB cache" if u.cache_mb is not None else "no cache size",
                f"{u.nvs_mb:g} MB NVS" if u.nvs_mb is not None else ""]
        a = u.activity
        if u.overview is not None:
            bits.append(f"{u.overview.io_rate:g} I/O/s")
        if a is not None and a.read_normal.hit_ratio is not None:
            bits.append(f"normal read H/R {a.read_normal.hit_ratio:g}")
        bits.append(f"{len(u.volumes)} volumes")
        # a report without its header gives no SSID: the drawing's "Control unit"
        name = f"SSID {key}" if key != "?" else "the control unit, no SSID given"
        parts.append(f"{name} (" + ", ".join(b for b in bits if b) + ")")
    n = len(iv.cache_units)
    return f"{n} control unit{'s' if n != 1 else ''}: " + _first(parts)


def _chan(iv: Interval) -> str:
    by_type: dict[str, list[str]] = {}
    for c in iv.channels.values():
        by_type.setdefault(c.type or "?", []).append(c.chpid)
    busy = [c for c in iv.channels.values() if (c.busy_pct or 0) > 0 and
            (c.ficon_rate is not None or c.zhpf_rate is not None)]
    text = f"{len(iv.channels)} CHPIDs (" + "; ".join(
        f"{t} {_first(ids, ', ', 3 * NAMED)}" for t, ids in sorted(by_type.items())) + ")"
    if busy:
        busy.sort(key=lambda c: -(c.busy_pct or 0))
        text += "; busy: " + _first([
            f"{c.chpid} ({c.busy_pct:g} % total, {c.part_busy_pct or 0:g} % LPAR, "
            f"{c.ficon_rate or 0:g} FICON + {c.zhpf_rate or 0:g} zHPF ops/s)" for c in busy])
    off = [c.chpid for c in iv.channels.values() if (c.status or "").upper() == "OFFLINE"]
    if off:
        text += "; offline: " + ", ".join(off)
    return text


def _cpu(iv: Interval) -> str:
    return f"{len(iv.engines)} engines: " + _first([
        f"{e.type} {e.number} {e.busy_pct if e.busy_pct is not None else '?'} % LPAR busy"
        + (f" (MVS {e.mvs_busy_pct:g} %)" if e.mvs_busy_pct is not None else "")
        for e in iv.engines], ", ")


def _ess(iv: Interval) -> str:
    return f"{len(iv.ranks)} ranks"
