"""RMF-style report tables of the I/O model.

For one volume (:class:`~models.io.volume.VolumeIO`, e.g. an
``IOSubsystem``): :func:`cache_table`, :func:`device_table`. For a whole
:class:`~models.io.system.IOSystem`, by canvas label
(:func:`system_tables`): Device Activity per volume, Channel Path Activity
per CHPID, Cache Subsystem Activity per control unit (with a row per
volume) and rank activity.
"""
from __future__ import annotations

import math

from models.io.cache import MODE_NAMES
from models.core.run import Table


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
        ("track writes joining a queued destage", st.coalesced_writes),
    )
    return Table("Cache activity", ("counter", "value"), rows,
                 note=f"{sub.device} behind a DS8000-style unit, "
                      f"{'LPO' if sub.lpo else 'no LPO'}")


def device_table(sub, elapsed: float) -> Table:
    """RMF Device Activity: mean response-time components per request."""
    tot = sub.totals
    n = max(1, sub.requests)
    ms = 1e3 / n
    be = sub.backend
    rows = ((sub.volume.name or "VOL0", sub.requests, tot.ios,
             round(tot.total * ms, 3), round(tot.iosq * ms, 3), round(tot.pend * ms, 3),
             round(tot.disc * ms, 3), round(tot.conn * ms, 3),
             round(100 * be.busy_s() / max(elapsed, 1e-12) / be.n_drives, 1)),)
    return Table("Device activity",
                 ("volume", "requests", "channel I/Os", "resp ms", "IOSQ ms", "PEND ms",
                  "DISC ms", "CONN ms", "rank drives % busy"), rows,
                 note=f"{sub.protocol} on {sub.channel}")


def system_tables(system, elapsed: float) -> tuple[Table, ...]:
    """Device, channel path, cache subsystem and rank activity of a system,
    and storage group activity where the drawing has storage groups."""
    tables: tuple[Table, ...] = (device_activity(system, elapsed), channel_activity(system, elapsed),
              cache_activity(system), rank_activity(system, elapsed))
    if any(v.group for v in system.config.volumes):
        tables += storage_group_activity(system.config, system.component_figures(elapsed))
    return tables


# ---- group cards ------------------------------------------------------------------
#: Busiest volumes of each storage group listed in its report.
TOP_N = 5
_TIMES = ("resp_ms", "iosq_ms", "pend_ms", "disc_ms", "conn_ms")


def group_totals(members: dict[str, dict[str, float]]) -> dict[str, float]:
    """A group card's figures from its members': the number of members,
    summed I/O rates, rate-weighted mean times, mean and busiest busy (or
    utilisation) %."""
    out: dict[str, float] = {"members": float(len(members))}
    figs = list(members.values())
    if figs and "io_rate" in figs[0]:
        rate = sum(f["io_rate"] for f in figs)
        out["io_rate"] = rate
        for k in _TIMES:
            out[k] = sum(f[k] * f["io_rate"] for f in figs) / rate if rate else 0.0
    for k in ("busy_pct", "utilization_pct"):
        if figs and k in figs[0]:
            out[k] = sum(f[k] for f in figs) / len(figs)
            out["max_" + k] = max(f[k] for f in figs)
    if figs and "total_utilization_pct" in figs[0]:
        out["total_utilization_pct"] = sum(f["total_utilization_pct"] for f in figs) / len(figs)
    return out


def split_groups(config, figures: dict[str, dict[str, float]]) -> tuple[dict, dict]:
    """(figures as drawn, members by group) from every simulated component's
    figures: a group's members leave the first and appear in the second
    under the group's label; the group's totals (:func:`group_totals`)
    take their place under that label."""
    groups: dict[str, list[str]] = {}
    ranks: dict[str, list[str]] = {}
    for item in (*config.volumes, *config.channels):
        if item.group:
            groups.setdefault(item.group, []).append(item.name)
    for r in config.ranks:
        if r.group:
            ranks.setdefault(r.group, []).append(r.name)
    if not groups:
        return figures, {}
    members = {g: {n: figures[n] for n in (*names, *ranks.get(g, ())) if n in figures}
               for g, names in groups.items()}
    inside = {n for ms in members.values() for n in ms}
    drawn = {k: v for k, v in figures.items() if k not in inside}
    for g, names in groups.items():
        drawn[g] = group_totals({n: figures[n] for n in names if n in figures})
        own = [figures[r]["busy_pct"] for r in ranks.get(g, ()) if r in figures]
        if own:
            drawn[g]["rank_busy_pct"] = sum(own) / len(own)
            drawn[g]["max_rank_busy_pct"] = max(own)
    return drawn, members


def storage_group_activity(config, figures: dict[str, dict[str, float]]) -> tuple[Table, Table]:
    """RMF's storage group line and the busiest volumes of each group."""
    drawn, members = split_groups(config, figures)
    sgs = [g for g in members if any(v.group == g for v in config.volumes)]
    rows, top = [], []
    for g in sgs:
        ms = {n: f for n, f in members[g].items() if "io_rate" in f}
        busy = sorted(f["busy_pct"] for f in ms.values())
        t = drawn[g]
        rows.append((g, len(ms), round(t["io_rate"], 1), round(t["resp_ms"], 3),
                     round(t["iosq_ms"], 3), round(t["pend_ms"], 3), round(t["disc_ms"], 3),
                     round(t["conn_ms"], 3), round(busy[0], 1), round(busy[len(busy) // 2], 1),
                     round(busy[-1], 1)))
        ranked = sorted(ms.items(), key=lambda kv: (-kv[1]["busy_pct"], kv[0]))[:TOP_N]
        for i, (name, f) in enumerate(ranked, 1):
            top.append((g, i, name, round(f["io_rate"], 1), round(f["resp_ms"], 3),
                        round(f["busy_pct"], 1)))
    return (Table("Storage group activity",
                  ("storage group", "volumes", "I/O rate /s", "resp ms", "IOSQ ms", "PEND ms",
                   "DISC ms", "CONN ms", "min % busy", "median % busy", "max % busy"),
                  tuple(rows), note="times are I/O-rate-weighted means over the group's volumes"),
            Table("Busiest volumes by storage group",
                  ("storage group", "rank", "volume", "I/O rate /s", "resp ms", "% busy"),
                  tuple(top), note=f"the {TOP_N} busiest volumes of each group"))


def device_activity(system, elapsed: float) -> Table:
    """RMF Device Activity, one row per volume used (canvas labels)."""
    rows = []
    for vol in system.volumes():
        f = volume_figures(vol, elapsed)
        rows.append((vol.name, vol.completed, round(f["io_rate"], 1), round(f["resp_ms"], 3),
                     round(f["iosq_ms"], 3), round(f["pend_ms"], 3), round(f["disc_ms"], 3),
                     round(f["conn_ms"], 3), round(f["busy_pct"], 1)))
    return Table("Device activity",
                 ("volume", "requests", "I/O rate /s", "resp ms", "IOSQ ms", "PEND ms",
                  "DISC ms", "CONN ms", "% busy"), tuple(rows),
                 note="means per I/O; % busy = (DISC + CONN) per exposure (1 + aliases)")


def channel_activity(system, elapsed: float) -> Table:
    """RMF Channel Path Activity: utilisation per CHPID."""
    rows = tuple((p.name, f"{p.protocol} {p.generation}",
                  round(min(100.0, 100.0 * p.busy / elapsed) if elapsed > 0 else 0.0, 1),
                  p.starts, p.reconnects)
                 for p in system.paths.values())
    return Table("Channel path activity", ("CHPID", "type", "% util", "I/O starts", "reconnects"),
                 rows, note="% util = the channel's own work (per I/O, per CCW or zHPF address, bytes at link rate) / elapsed; I/Os connected at once share the path")


def cache_activity(system) -> Table:
    """RMF Cache Subsystem Activity: per control unit, then its volumes."""
    rows = []
    for cu in system.control_units.values():
        for label, st in ((cu.name, cu.stats()),
                          *((f"  {v.name}", v.stats) for v in cu.volumes)):
            rows.append((label, st.read_requests, st.hits, round(st.hit_ratio, 4),
                         st.tracks_staged + st.stages[0], st.disk_requests, st.destages,
                         st.coalesced_writes))
    return Table("Cache subsystem activity",
                 ("control unit / volume", "records read", "hits", "record hit ratio", "staging",
                  "disk requests", "destages", "track writes joining a queued destage"), tuple(rows),
                 note="staging: record stages plus tracks staged (partial, full, sequential); "
                      "a track write joins its destage when that is queued and not yet started "
                      "on the drives (one destage carries all its rewrites)")


def rank_busy_pct(rank, elapsed: float) -> float:
    """% busy of a rank's drives over the interval (mean over them): at most
    100. Drive work booked past the interval's end (a saturated rank's queue,
    destages still to come) is not busy time within it."""
    if not elapsed > 0:
        return 0.0
    return min(100.0, 100.0 * rank.busy_s() / elapsed / rank.n_drives)


def rank_activity(system, elapsed: float) -> Table:
    """Busy share of each rank's drives (shared by the volumes on it)."""
    rows = tuple((name, r.disk.name, r.n_drives, round(rank_busy_pct(r, elapsed), 1))
                 for name, r in system.ranks.items())
    over = [name for name, r in system.ranks.items()
            if elapsed > 0 and r.busy_s() / elapsed / r.n_drives > 1.0]
    note = (f"saturated: {', '.join(over[:4])}{' …' if len(over) > 4 else ''} had more drive "
            "work than the interval holds (queued past its end)") if over else ""
    return Table("Rank activity", ("rank", "drive type", "drives", "% busy"), rows, note=note)


def volume_figures(vol, elapsed: float) -> dict[str, float]:
    """RMF Device Activity figures of one volume (zeros when unused)."""
    keys = ("io_rate", "resp_ms", "iosq_ms", "pend_ms", "disc_ms", "conn_ms", "busy_pct")
    if vol is None or not vol.completed:
        return dict.fromkeys(keys, 0.0)
    tot = vol.totals
    n = vol.completed
    ms = 1e3 / n
    # RMF's % DEV UTIL: DISC + CONN per exposure (the average in use when
    # calibrated, else base + drawn aliases), and the time the device was
    # reserved with no I/O active.
    busy = 100.0 * (tot.disc + tot.conn) / elapsed / (vol.exposures or 1 + vol.aliases)
    if vol.reserved > 0.0:
        busy += 100.0 * vol.reserved * (1.0 - min(1.0, busy / 100.0))
    return {"io_rate": n / elapsed if math.isfinite(elapsed) else 0.0,
            "resp_ms": tot.total * ms, "iosq_ms": tot.iosq * ms, "pend_ms": tot.pend * ms,
            "disc_ms": tot.disc * ms, "conn_ms": tot.conn * ms, "busy_pct": min(100.0, busy)}
