"""RMF-style report tables for an :class:`~models.io.subsystem.IOSubsystem`."""
from __future__ import annotations

from models.io.cache import MODE_NAMES
from models.run import Table


def cache_table(sub) -> Table:
    """RMF Cache Activity (read side) for the volume."""
    st = sub.stats
    rows = (
        ("read requests", st.read_requests),
        ("read hits", st.hits),
        ("hit ratio (H/R)", round(st.hit_ratio, 4)),
        ("read misses", st.misses),
        *((f"stages: {MODE_NAMES[m]}", st.stages[m]) for m in range(3)),
        ("tracks prestaged (sequential)", st.seq_tracks_staged),
        ("tracks staged", st.tracks_staged),
        ("disk requests", st.disk_requests),
        ("disk bytes / request", round(st.disk_bytes_per_request)),
        ("host adapter bytes / request", round(st.host_bytes_per_request)),
        ("slots evicted (LRU)", sub.cache.evicted),
        ("write requests", st.write_requests),
        ("fast writes", st.fast_writes),
        ("NVS full delays", st.nvs_waits),
        ("destages", st.destages),
        ("destage drive operations", st.destage_ops),
    )
    return Table("Cache activity", ("counter", "value"), rows,
                 note=f"{sub.device} behind a DS8000-style unit, "
                      f"{'LPO' if sub.lpo else 'no LPO'}")


def device_table(sub, elapsed: float) -> Table:
    """RMF Device Activity: mean response-time components per request."""
    tot = sub.totals
    n = max(1, sub.requests)
    ms = 1e3 / n
    rows = ((sub.volume.name or "VOL0", sub.requests, tot.ios,
             round(tot.total * ms, 3), round(tot.iosq * ms, 3), round(tot.pend * ms, 3),
             round(tot.disc * ms, 3), round(tot.conn * ms, 3),
             round(100 * sum(sub.backend.busy) / max(elapsed, 1e-12) / sub.backend.n_drives, 1)),)
    return Table("Device activity",
                 ("volume", "requests", "channel I/Os", "resp ms", "IOSQ ms", "PEND ms",
                  "DISC ms", "CONN ms", "drive busy %"), rows,
                 note=f"{sub.protocol} on {sub.channel}")
