"""Run functions of the DB2 access-path experiments (case study E).

Each builds the table space or index as a data set, the read plan DB2 would
use, and an :class:`~models.db2.bufmgr.BufferManager` reading through the
I/O model (:mod:`models.db2.iopath`), then turns the counters into the
experiment's metrics and RMF-style reports.

Scale. Published runs are large (RUNSTATS over 8 million pages). A scan of
a uniformly laid out object is stationary: after the first few I/Os every
stretch of the table costs the same per page. When a run would need more
than :data:`IO_BUDGET` I/Os, the scan is simulated I/O by I/O over a leading
stretch of the object holding about that many I/Os, and the extensive
counters (elapsed time, misses, tracks staged) are scaled to the whole;
ratios (hit ratio, I/O time, bytes per request) are those simulated.
tests/models/test_db2_scale.py checks the slice against the whole.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable

import numpy as np

from models.db2 import access
from models.db2.bufmgr import BufferManager, ScanStats
from models.db2.dataset import NONLEAF_FANOUT, PAGES_PER_TRACK, DataSet, index_layout
from models.db2.iopath import CacheCounts, IOPath
from models.io.system import IOSystem
from models.engine import Engine
from models.io.geometry import PAGE_BYTES
from models.core.params import ParamError
from models.core.run import RunContext, RunResult, Table

#: Most I/Os one run simulates; beyond it a leading slice is simulated and
#: scaled (see the module docstring). Sized so that ``zperflab validate``
#: stays well inside its shared 60 s budget.
IO_BUDGET = 8_000

#: Disorganization of the index in ``db2_index_scan`` unless set: the
#: published scans used a thoroughly disorganized index.
FULLY_DISORGANIZED = 100.0


@dataclass(frozen=True)
class Outcome:
    """A simulated scan and how much of the object it stands for."""

    stats: ScanStats
    cache: CacheCounts
    scale: float              # whole object / simulated slice
    volumes: str = "VOL0"     # the volumes the scan used, for the report rows
    components: dict = field(default_factory=dict)   # figures by canvas label
    io_reports: tuple = ()    # channel path, cache subsystem and rank activity


def _slice_pages(total_pages: int, pages_per_io: float) -> int:
    """Leading pages of the object to simulate to stay within IO_BUDGET."""
    expected_ios = total_pages * pages_per_io
    if expected_ios <= IO_BUDGET:
        return total_pages
    return max(1, int(total_pages * IO_BUDGET / expected_ios))


def simulate(ctx: RunContext, engine: Engine, dataset: DataSet, device: str, protocol: str,
             plans: Iterable[access.ReadPlan], expected_reads: int,
             warm: bool = False, scale: float = 1.0) -> Outcome:
    """Run ``plans`` on ``engine`` through a fresh I/O model; return the counts.

    Parameters
    ----------
    ctx : RunContext
    engine : Engine
        A new engine seeded with the run seed (its named streams may already
        have drawn the plans).
    dataset : DataSet
        The object the plans read.
    device, protocol : str
        Back-end drives and channel protocol (zHPF brings the List Prefetch
        Optimizer).
    plans : iterable of ReadPlan
    expected_reads : int
        For progress reporting.
    warm : bool
        Start with the object already in the control unit cache.
    scale : float
        Whole object / simulated slice.

    With a drawn configuration (``ctx.config``) the object lives on the
    volumes of the workload's first data set, behind their control units
    and channel paths as drawn; ``device`` and ``protocol`` are then the
    drawing's (the run's hardware parameters were applied to it).
    """
    io = io_path(ctx, engine, dataset, device, protocol, warm)
    bm = BufferManager(engine, io, trace=ctx.trace, index_leaf=dataset.name.startswith("IX"))
    total = max(1, expected_reads)
    bm.scan(plans, progress=lambda n: ctx.progress(min(0.99, n / total)))
    engine.run()
    ctx.progress(1.0)
    used = io.volume_names()
    names = used[0] if len(used) == 1 else f"{used[0]}–{used[-1]}" if used else "none"
    elapsed = engine.now
    return Outcome(bm.stats, io.counts(), scale, names, io.system.component_figures(elapsed),
                   io.system.reports(elapsed)[1:])


def drawn_dataset(cfg, dataset: DataSet) -> str:
    """The drawn data set a DB2 object lives in: of the DB2 workload's data
    sets, an index for an index (``IX…``), else a table space, else its first."""
    wls = [w for w in cfg.workloads if w.kind == "wl_db2"] or list(cfg.workloads)
    if not wls or not wls[0].datasets:
        raise ValueError("the drawing has no DB2 workload reading a data set")
    names = wls[0].datasets
    want = "ds_db2_ix" if dataset.name.startswith("IX") else "ds_db2_ts"
    return next((n for n in names if cfg.dataset(n).kind == want), names[0])


def io_path(ctx: RunContext, engine: Engine, dataset: DataSet, device: str, protocol: str,
            warm: bool = False) -> IOPath:
    """The DB2 object's I/O path: on the drawn configuration, else on volumes
    made from the parameters (:class:`~models.db2.iopath.IOPath`)."""
    cfg = ctx.config
    if cfg is None:
        return IOPath(engine, dataset, device, protocol, warm=warm, trace=ctx.trace)
    system = IOSystem(engine, cfg, ctx.trace)
    names = [v.name for v in cfg.volumes_of(drawn_dataset(cfg, dataset))]
    return IOPath(engine, dataset, warm=warm, system=system, volumes=names)


# -- metrics and reports ----------------------------------------------------------
def throughput_mb_s(st: ScanStats) -> float:
    """Pages the application got per second of elapsed time, MB/s (10^6 B)."""
    return st.getpages * PAGE_BYTES / st.elapsed_s / 1e6 if st.elapsed_s > 0 else 0.0


def common_metrics(out: Outcome) -> dict:
    """Every DB2 metric of a scan, extensive ones scaled to the whole object.

    Parameters
    ----------
    out : Outcome

    Returns
    -------
    dict
        Metric name → value; each experiment reports its own subset.
    """
    st, c, k = out.stats, out.cache, out.scale
    return {
        "elapsed_s": st.elapsed_s * k,
        "throughput_mb_s": throughput_mb_s(st),
        "cache_hit_ratio": c.hit_ratio,
        "cache_misses": float(c.misses) * k,
        "disk_bytes_per_req": c.disk_bytes_per_request,
        "tracks_staged": float(c.tracks_staged) * k,
        "seq_staged_track_pct": c.seq_staged_track_pct,
        "io_ms": st.prefetch_io_ms,
    }


def reports(out: Outcome, title: str) -> tuple[Table, ...]:
    """RMF/DB2 PM style tables: buffer pool, device response, cache activity."""
    st, c, k = out.stats, out.cache, out.scale
    note = "" if k == 1.0 else (f"Simulated 1/{k:.3g} of the scan I/O by I/O; counts below "
                                "are of that slice, metrics scale elapsed time and counts.")
    bp = Table(f"{title}: buffer pool activity", ("read type", "I/Os", "pages", "resp ms"),
               st.mode_rows() + (("getpages", st.getpages, st.getpages, ""),), note)
    dev = Table("Device activity (per I/O)", ("volume", "I/Os", "resp ms", "IOSQ ms",
                                               "PEND ms", "DISC ms", "CONN ms"),
                ((out.volumes, st.ios, st.io_ms, *(st.part_ms(i) for i in range(4))),))
    cache = Table("Cache activity (reads)", ("volume", "hits", "misses", "hit ratio",
                                             "tracks staged", "seq staged %", "disk requests",
                                             "bytes/request"),
                  ((out.volumes, c.hits, c.misses, c.hit_ratio, c.tracks_staged,
                    c.seq_staged_track_pct, c.disk_requests, c.disk_bytes_per_request),))
    cpu = Table("CPU", ("class 2 CPU s", "prefetch engine CPU s", "wait for prefetch s"),
                ((st.class2_cpu_s * k, st.prefetch_cpu_s * k, st.wait_s * k),))
    return (bp, dev, cache, cpu) + tuple(out.io_reports)


def _result(name: str, params: dict, ctx: RunContext, out: Outcome, metric_names, title) -> RunResult:
    allm = common_metrics(out)
    metrics = {m: float(allm[m]) for m in metric_names}
    comps = {**out.components, **processor_figures(ctx.config, out.stats)}
    return RunResult(experiment=name, params=params, seed=ctx.seed, metrics=metrics,
                     reports=reports(out, title), trace=ctx.trace, components=comps)


def processor_figures(cfg, st: ScanStats) -> dict:
    """Busy % of the drawn engines from the scan's CPU accounting.

    DB2's class 2 CPU (the application thread) runs on the general CPs; the
    prefetch engines' CPU runs on the zIIPs (zIIP-eligible since DB2 10),
    on the CPs when none is drawn. Shared evenly over the engines of a
    type: the CPU is accounted, not dispatched, so engine contention is not
    part of a DB2 run.
    """
    if cfg is None or st.elapsed_s <= 0:
        return {}
    cps = [p.name for p in cfg.processors if p.type == "CP"]
    ziips = [p.name for p in cfg.processors if p.type == "zIIP"]
    cp_s = st.class2_cpu_s + (0.0 if ziips else st.prefetch_cpu_s)
    out = {n: {"busy_pct": 100.0 * cp_s / len(cps) / st.elapsed_s} for n in cps}
    out.update({n: {"busy_pct": 100.0 * st.prefetch_cpu_s / len(ziips) / st.elapsed_s}
                for n in ziips})
    return out


# -- the three experiments ----------------------------------------------------
SKIP_METRICS = ("throughput_mb_s", "cache_hit_ratio", "cache_misses", "disk_bytes_per_req",
                "tracks_staged", "io_ms", "elapsed_s")
RUNSTATS_METRICS = ("elapsed_s", "throughput_mb_s", "seq_staged_track_pct", "cache_hit_ratio")
INDEX_METRICS = ("throughput_mb_s", "elapsed_s", "cache_hit_ratio", "io_ms", "tracks_staged")


def run_skip_sequential(params: dict, ctx: RunContext) -> RunResult:
    """``db2_skip_sequential``: list prefetch of every k-th page, cold cache."""
    n, k = params["table_pages"], params["skip"]
    if k >= n:
        raise ParamError(f"skip {k} must be smaller than table_pages {n}: "
                         "the scan would read a single page")
    ds = DataSet("TS1", n)
    stop = _slice_pages(n, 1.0 / (k * access.LIST_PREFETCH_MAX))
    plan = access.skip_sequential(n, k, 0, stop)
    out = simulate(ctx, Engine(seed=ctx.seed), ds, params["device"], params["protocol"],
                   [plan], plan.reads, scale=n / stop)
    return _result("db2_skip_sequential", params, ctx, out, SKIP_METRICS,
                   f"Skip-sequential, 1 page in {k}")


def run_runstats_sampling(params: dict, ctx: RunContext) -> RunResult:
    """``db2_runstats_sampling``: RUNSTATS TABLESAMPLE SYSTEM over a table space."""
    n, pct = params["table_pages"], params["sampling_pct"]
    ds = DataSet("TS1", n)
    per_io = (1.0 / access.PREFETCH_QUANTITY if pct >= 100
              else pct / 100.0 / access.LIST_PREFETCH_MAX)
    stop = _slice_pages(n, per_io)
    engine = Engine(seed=ctx.seed)
    plans = access.runstats_plans(n, pct, engine.np_stream("db2.tablesample"), 0, stop)
    out = simulate(ctx, engine, ds, params["device"], params["protocol"], plans,
                   int(stop * per_io) + 1, scale=n / stop)
    return _result("db2_runstats_sampling", params, ctx, out, RUNSTATS_METRICS,
                   f"RUNSTATS TABLESAMPLE SYSTEM {pct:g}")


def run_index_scan(params: dict, ctx: RunContext) -> RunResult:
    """``db2_index_scan``: scan ``pct_read`` % of a disorganized index.

    Unlike a table scan, an index scan is not stationary: with full-track
    staging the hit ratio climbs as more of the index has been staged. What
    it depends on is the share read, so a scan too long for the I/O budget
    is simulated on an index ``k`` times smaller read to the same share,
    and the elapsed time and counts are scaled by ``k``.
    """
    v9 = params["db2_version"] == 9
    tracks = params["index_tracks"]
    per_io = 1.0 if v9 else 1.0 / access.LIST_PREFETCH_MAX
    leaf_share = NONLEAF_FANOUT / (NONLEAF_FANOUT + 1.0)
    real_pages = tracks * PAGES_PER_TRACK * leaf_share * params["pct_read"] / 100.0
    k = max(1.0, real_pages * per_io / IO_BUDGET)
    sim_tracks = max(1, int(round(tracks / k)))
    engine = Engine(seed=ctx.seed)
    layout = index_layout(max(2, sim_tracks * PAGES_PER_TRACK),
                          params.get("disorganization", FULLY_DISORGANIZED) / 100.0,
                          engine.np_stream("db2.index_layout"))
    leaf = len(layout.leaves)
    wanted = max(1, int(round(leaf * params["pct_read"] / 100.0)))
    first = int(engine.np_stream("db2.key_range").integers(0, leaf - wanted + 1))
    keys = layout.leaves[first:first + wanted]
    pages = leaf + len(layout.nonleaf)
    if v9:
        plan = access.index_scan_v9(keys, pages)
    else:
        plan = access.index_scan_v10(keys, layout.group(np.arange(first, first + wanted)),
                                     layout.nonleaf)
    out = simulate(ctx, engine, DataSet("IX1", pages), params["device"], params["protocol"],
                   [plan], plan.reads, warm=params["cache"] == "warm",
                   scale=max(1.0, real_pages / wanted))
    return _result("db2_index_scan", params, ctx, out, INDEX_METRICS,
                   f"DB2 {params['db2_version']} index scan of {params['pct_read']:g} %")


def expected_pages(experiment: str, params: dict) -> float:
    """Pages an experiment's scan reads (for sweeps' and benches' rates)."""
    if experiment == "db2_skip_sequential":
        return math.ceil(params["table_pages"] / params["skip"])
    if experiment == "db2_runstats_sampling":
        return params["table_pages"] * params["sampling_pct"] / 100.0
    return params["index_tracks"] * PAGES_PER_TRACK * params["pct_read"] / 100.0


__all__ = ["run_skip_sequential", "run_runstats_sampling", "run_index_scan", "simulate",
           "Outcome", "IO_BUDGET"]
