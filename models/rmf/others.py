"""Other systems' I/O on a shared control unit, drawn beside this system's.

The Cache Subsystem Activity report counts every system's I/O to a control
unit; the Direct Access Device Activity report only this system's. Where
the unit's cache overview (``*ALL``) shows more I/O than this system's
drawn volumes on it do, the difference is other systems' work on the same
cache and ranks. The drawing gets it as cards of its own (what is drawn
is what runs): a storage group "Other systems on SSID x" behind the unit,
with a workload at the difference's rate and the unit's mix (read share,
sequential share, bytes per read and read hit ratio of the cache report,
every system's), fitted like any imported workload. It shares the unit's
cache (its warm share, its misses' stages on its own ranks) and shows in
the unit's cache figures; no device figure of this system counts it.

It reaches the unit over the drawn channel groups, which every group
shares (the drawing links every channel group to every unit): other
systems' channels are not drawn, so their I/O adds a little to this LPAR's
channel busy (at 30 I/O a second, 0.03 % on four FEx8S CHPIDs). Qt-free;
docs/rmf-drawing.md.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from models.rmf.fit import FitError, GroupMeasure, idle, measure_unit
from models.rmf.records import CacheUnit

#: Other systems' I/O below this share of the unit's is rounding of the two
#: reports (RMF prints the overview's rate to 0.1 /s), not another system.
MIN_SHARE = 0.05


@dataclass(frozen=True)
class Others:
    """Other systems' I/O on one unit: the group to draw and why."""

    label: str
    unit: str                   # the unit's key in the drawing's units
    measure: GroupMeasure
    why: str


def find(units: dict[str, CacheUnit | None], own: dict[str, tuple[float, float, float]]) -> tuple[
        list[Others], list[str]]:
    """Other systems' reads and writes on each unit, and why a unit shows none
    it might.

    Parameters
    ----------
    units : dict
        Unit key -> its cache report (None: no cache report).
    own : dict
        Unit key -> this system's (I/O, reads, sequential reads) per second to
        the volumes drawn behind it.

    Returns
    -------
    list of Others, list of str
        Up to two groups a unit (its reads, its writes: one workload's
        sequential share would mix the sequential writes of a log with the
        random reads of a database), and the units left out, with why.
    """
    out: list[Others] = []
    said: list[str] = []
    for key, u in units.items():
        if u is None or u.overview is None or not u.overview.io_rate or u.activity is None:
            continue
        total = float(u.overview.io_rate)
        mine, my_reads, my_seq = own.get(key, (0.0, 0.0, 0.0))
        other = total - mine
        if other < MIN_SHARE * total or idle(other):
            continue
        a = u.activity
        reads = a.read_rate - my_reads
        seq_reads = max(0.0, (a.read_seq.rate or 0.0) - my_seq)
        writes = other - max(0.0, reads)
        seq_writes = (a.write_seq.rate or 0.0)
        ssid = u.ssid or key
        src = (a.source.file, a.source.line) if a.source else ("?", None)
        head = (f"the cache report's {total:g} I/O per second to SSID {ssid} (every system) "
                f"less this system's {mine:.3f} to the volumes drawn behind it (device "
                f"report): {other:.3f} I/O per second of other systems")
        if reads >= MIN_SHARE * other and not idle(reads):
            label = f"Other systems' reads on SSID {ssid}"
            try:
                m = measure_unit(u, label)
            except FitError as exc:
                said.append(f"{label}: {reads:.3g} per second not drawn ({exc})")
            else:
                m = dataclasses.replace(m, io_rate=round(reads, 3), read_share=1.0,
                                        seq_share=min(1.0, seq_reads / reads))
                out.append(Others(label, key, m, (
                    f"{head}; of them {reads:.3f} reads (the unit's {a.read_rate:g} less "
                    f"this system's {my_reads:.3f}), sequential {100 * m.seq_share:.0f} % "
                    f"(the unit's sequential reads less this system's), the unit's read hit ratio "
                    f"{m.read_hit_ratio:.3f} and bytes per read")))
        if writes >= MIN_SHARE * other and not idle(writes):
            label = f"Other systems' writes on SSID {ssid}"
            m = GroupMeasure(name=label, io_rate=round(writes, 3), read_share=0.0,
                             seq_share=min(1.0, seq_writes / writes),
                             bytes_per_read=a.host_write.bytes_per_req or 4096.0,
                             read_hit_ratio=1.0, source=src)
            out.append(Others(label, key, m, (
                f"{head}; of them {writes:.3f} writes, sequential {100 * m.seq_share:.0f} % "
                f"(the unit's sequential writes, {seq_writes:g} per second)")))
    return out, said
