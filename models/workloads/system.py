"""Run every general workload drawn, on one engine, and gather what it did.

:func:`run_system` builds the I/O system (:class:`models.io.system.IOSystem`)
and, when a CPU workload is drawn, the processor complex from the
configuration, starts each workload with its own values, runs for the
longest run length and returns a :class:`SystemRun` with the figures per
component, the RMF-style tables and the stations of the analytic
estimate (:mod:`models.core.analytic`).
"""
from __future__ import annotations

import traceback
from dataclasses import dataclass, field, replace

from models.core import analytic

from models.drawing import components
from models.cpu import ProcessorComplex
from models.engine import Engine
from models.engine.gcpause import gc_paused
from models.io import backend as be
from models.io import channel as ch
from models.io.cache import FULL, PARTIAL
from models.io.system import IOSystem
from models.core.run import Cancelled, Table
from models.workloads.cpu import CPUWorkload
from models.io.trace_io import IOTrace
from models.workloads.io import PAGE, WARM_LIMIT_PAGES, IOWorkload, Layout, VolumeCounts
from models.workloads.params import BY_NAME

#: Progress reports per run.
PROGRESS_STEPS = 50


@dataclass
class SystemRun:
    """What :func:`run_system` gives back."""

    elapsed: float
    io: list = field(default_factory=list)         # IOWorkload
    cpu: list = field(default_factory=list)        # CPUWorkload
    system: IOSystem | None = None
    cpx: ProcessorComplex | None = None
    estimates: list = field(default_factory=list)  # analytic.Estimate
    warmup_s: float | None = None                  # seconds left out of the figures


def workload_values(config, params: dict) -> dict[str, dict]:
    """Each general workload's parameter values, by canvas label.

    A workload's own property wins, else the run's value. A run value that
    differs from the one the drawing gives (the first workload that sets
    it, else the default) was set for the run (``--set``, a sweep, a
    comparison) and applies to every workload that carries the parameter.
    """
    out = {}
    for w in config.workloads:
        carried = components.kind(w.kind).carries
        vals = {}
        for key in carried:
            drawn = next((x.properties[key] for x in config.workloads
                          if key in x.properties and key in components.kind(x.kind).carries),
                         BY_NAME[key].default)
            run_value = params.get(key, drawn)
            if run_value != drawn:
                vals[key] = run_value
            else:
                vals[key] = w.properties.get(key, BY_NAME[key].default)
        out[w.name] = vals
    return out


def run_system(config, params: dict, seed: int, trace=None, progress=None,
               warmup_s: float = 0.0, phase=None, early=None,
               early_after_s: float = 0.0) -> SystemRun:
    """Simulate every general workload of ``config`` (see module docstring).

    ``warmup_s``: the figures leave out the first seconds (capped below the
    run's length): at that time every counter restarts, as an RMF interval
    does, and ``run.warmup_s`` says how much was removed. ``phase(text)`` is
    told as the set-up, the cache warm-up and the simulation start.
    ``early(run)``: called once, at the first progress step at or after
    ``early_after_s`` simulated seconds (and after the warm-up's end), with
    the run so far (:func:`so_far`); the run then goes on unchanged.
    """
    say = phase or (lambda _text: None)
    eng = Engine(seed=seed)
    values = workload_values(config, params)
    loads = [(w, components.kind(w.kind).general) for w in config.workloads]
    io_loads = [w for w, g in loads if g == "io"]
    cpu_loads = [w for w, g in loads if g == "cpu"]
    run = SystemRun(elapsed=max((values[w.name]["duration_s"] for w, _ in loads), default=0.0))
    if io_loads:
        say(f"setting up {len(config.volumes):,} volume{'s' if len(config.volumes) != 1 else ''}")
        needs: dict[str, int] = {}
        for w in io_loads:
            for ds, pages in IOWorkload.pages_needed(w, values[w.name]).items():
                needs[ds] = max(needs.get(ds, 0), pages)
        layout = Layout(config, needs)
        run.system = IOSystem(eng, config, trace=trace)
        run.io = [IOWorkload(eng, run.system, w, values[w.name], layout) for w in io_loads]
        say("warming the caches")
        _warm(run)
    if cpu_loads:
        names = {p for w in cpu_loads for p in w.processors}
        engines = [p for p in config.processors if p.name in names]
        run.cpx = ProcessorComplex(eng, engines=engines, trace=trace)
        run.cpu = [CPUWorkload(eng, run.cpx, w, values[w.name]) for w in cpu_loads]
    for wl in (*run.io, *run.cpu):
        wl.start()
    end = run.elapsed
    say(f"simulating {end:g} s")
    cut = min(max(0.0, warmup_s), 0.9 * end)
    tail = _TraceTail(run, trace) if trace is not None and trace.limit is not None else None
    resume = None
    with gc_paused():
        for i in range(1, PROGRESS_STEPS + 1):
            t = end * i / PROGRESS_STEPS
            # the warm-up's end and the trace's restart, in time order, before t
            for when, what in sorted(p for p in ((cut if cut and run.warmup_s is None else None,
                                                  "cut"), (resume, "trace")) if p[0] is not None):
                if when >= t:
                    continue
                eng.run(until=when)
                if what == "cut":
                    _reset(run)
                    run.warmup_s = cut
                else:
                    tail.resume(when)
                    resume = None
            eng.run(until=t)
            if tail is not None and i == 1:
                resume = tail.plan(t, end)
            if early is not None and t >= early_after_s and t > cut and i < PROGRESS_STEPS:
                _give_early(early, run, t)
                early = None
            if progress is not None:
                progress(i / PROGRESS_STEPS)
    if run.warmup_s:
        run.elapsed = end - run.warmup_s
    if run.cpx is not None:
        run.cpx.close()
    run.estimates = [analytic.estimate(s) for s in stations(run)]
    return run


#: Rows a bounded trace records, as a multiple of its limit, when it is
#: recorded only at the end of a run (:class:`_TraceTail`): the rate of the
#: first step may be below the rest's.
TRACE_TAIL_MARGIN = 2.0


class _TraceTail:
    """Record a bounded trace only over the end of the run whose rows it keeps.

    A trace with a ``limit`` keeps the newest rows only; every row recorded
    before them costs time (a third of a traced run) and is thrown away.
    After the first progress step, :meth:`plan` measures the rows recorded
    per simulated second and, when the run is long enough for the ring to
    drop rows, turns the trace off (its rows so far forgotten) until the
    last ``TRACE_TAIL_MARGIN * limit / rate`` seconds; :meth:`resume` turns
    it back on then. :meth:`Trace.kept` says from when it was recorded.
    """

    def __init__(self, run: SystemRun, trace) -> None:
        self.run, self.trace = run, trace
        self.rows0 = len(trace) + trace.dropped
        self.hooks: list[tuple[object, str, object]] = []

    def plan(self, now: float, end: float) -> float | None:
        """When to restart the trace (``None``: keep it on, it keeps every row)."""
        rate = (len(self.trace) + self.trace.dropped - self.rows0) / now if now > 0 else 0.0
        if rate <= 0 or self.run.cpx is not None:    # (a CPU complex picks its path by it)
            return None
        start = end - TRACE_TAIL_MARGIN * self.trace.limit / rate
        if start <= now:
            return None
        self.hooks = _trace_hooks(self.run)
        for obj, attr, value in self.hooks:
            if isinstance(value, IOTrace):
                # Switched off, not removed: an I/O under way holds its tracer,
                # which keeps the arms' cylinders and the channel totals.
                value.on = False
            else:
                setattr(obj, attr, None)
        return start

    def resume(self, t: float) -> None:
        for obj, attr, value in self.hooks:
            if isinstance(value, IOTrace):
                value.on = True
            else:
                setattr(obj, attr, value)
        self.trace.restart(t)


def _trace_hooks(run: SystemRun) -> list[tuple[object, str, object]]:
    """(object, attribute, value) of every trace recorder of ``run``."""
    out: list[tuple[object, str, object]] = []
    if run.system is not None:
        out += [(v, "tr", v.tr) for v in run.system.volumes() if v.tr is not None]
        out += [(cu.cache, "on_evict", cu.cache.on_evict)
                for cu in run.system.control_units.values() if cu.cache.on_evict is not None]
    if run.cpx is not None and run.cpx.trace is not None:
        out.append((run.cpx, "trace", run.cpx.trace))
    return out


def _give_early(early, run: SystemRun, t: float) -> None:
    """``early(so_far(run, t))``. The figures so far are a preview: if working
    them out fails, the traceback goes to stderr and the run goes on to its
    own figures (a cancel still stops it)."""
    try:
        early(so_far(run, t))
    except Cancelled:
        raise
    except Exception:
        traceback.print_exc()


def so_far(run: SystemRun, t: float) -> SystemRun:
    """The run as it stands at simulated time ``t`` (mid-run): the same
    workloads and system, their figures over the time simulated so far
    (less the warm-up left out), with the analytic estimate beside them.
    Reading them changes nothing in the run."""
    now = replace(run, elapsed=t - (run.warmup_s or 0.0))
    now.estimates = [analytic.estimate(s) for s in stations(now)]
    return now


def _reset(run: SystemRun) -> None:
    """Restart every counter now: the end of the warm-up."""
    if run.system is not None:
        run.system.reset_statistics()
    if run.cpx is not None:
        run.cpx.reset_statistics()
    for wl in (*run.io, *run.cpu):
        wl.reset_statistics()


def warm_limits(capacities: dict[str, int],
                needs: dict[str, int] | None = None) -> dict[str, int]:
    """Pages each control unit may warm before a run: :data:`WARM_LIMIT_PAGES`
    shared among the units in use in proportion to their cache, so that a
    second unit does not start cold because the first one took it all.

    ``needs`` (pages each unit's workloads could warm at most, their working
    sets): a unit that needs less than its part keeps only that and leaves
    the rest to the others, in proportion to their cache. Units that all
    need at least their part get exactly the proportional split."""
    out: dict[str, int] = {}
    left = dict(capacities)
    budget = WARM_LIMIT_PAGES
    while left:
        total = sum(left.values())
        part = {cu: int(budget * cap / total) if total else 0 for cu, cap in left.items()}
        small = {cu: needs[cu] for cu in left if needs is not None and cu in needs
                 and needs[cu] < part[cu]}
        if not small:
            out.update(part)
            break
        for cu, pages in small.items():
            out[cu] = pages
            budget -= pages
            del left[cu]
    return {cu: out[cu] for cu in capacities}


def warm_share(capacity: int, limit: int, sharing: int) -> int:
    """Pages one of ``sharing`` workloads may warm on a unit of ``capacity``
    pages whose part of the page limit is ``limit``: an equal share of both
    (90 % of its share of the cache), whatever the workloads' canvas order."""
    return min(limit // sharing, int(0.9 * (capacity // sharing)))


def warm_shares(capacity: int, limit: int, needs: list[int]) -> list[int]:
    """Pages each of the workloads sharing a unit may warm: an equal share
    (:func:`warm_share`), except that a workload whose working set needs less
    than its share takes only what it needs and leaves the rest to the others
    (filled from the smallest need up). Workloads that all need at least an
    equal share get exactly :func:`warm_share`."""
    out = [0] * len(needs)
    left = list(range(len(needs)))
    k = len(needs)
    used = 0
    for i in sorted(left, key=lambda j: needs[j]):
        # an equal share of what the smaller ones left, of both the limit and the cache
        share = min((limit - used) // k, int(0.9 * ((capacity - used) // k)))
        if needs[i] >= share:
            for j in left:
                if out[j] == 0 and needs[j] >= share:
                    out[j] = share
            break
        out[i] = needs[i]
        used += needs[i]
        k -= 1
    return out


def _warm(run: SystemRun) -> None:
    """Each workload warms its hottest blocks into its fair share of each of
    its units: an equal part of the unit's cache and of its page limit, a
    workload that needs less leaving the rest to the others (:func:`warm_shares`)."""
    system = run.system
    sharing: dict[str, list[IOWorkload]] = {}
    for wl in run.io:
        for cu in _units_of(wl):
            sharing.setdefault(cu, []).append(wl)
    caps = {cu: int(system.control_units[cu].cache.capacity) for cu in sharing}
    limit = warm_limits(caps, {cu: sum(wl.n_blocks * wl.n_pages for wl in wls)
                               for cu, wls in sharing.items()})
    budget: dict[int, int] = {}
    for cu, wls in sharing.items():
        # a workload over several units needs its working set on each (as before)
        shares = warm_shares(caps[cu], limit[cu], [wl.n_blocks * wl.n_pages for wl in wls])
        for wl, pages in zip(wls, shares):
            budget[id(wl)] = budget.get(id(wl), 0) + pages
    for wl in run.io:
        wl.warm(budget.get(id(wl), 0))


def _units_of(wl: IOWorkload) -> set[str]:
    return {v.cu.name for vols in wl.vols.values() for v in vols}


# ---- figures ------------------------------------------------------------------------
def figures(run: SystemRun) -> dict[str, dict[str, float]]:
    """Per component figures under canvas labels (IOSystem's and the engines')."""
    out: dict[str, dict[str, float]] = {}
    el = run.elapsed
    if run.system is not None:
        out.update(run.system.component_figures(el))
        _request_figures(run, out)
    if run.cpx is not None:
        for pool in (run.cpx.gcp, run.cpx.ziip):
            for name, busy in zip(pool.names, pool.busy_us):
                out[name] = {"busy_pct": min(100.0, 100.0 * busy / (el * 1e6)) if el else 0.0}
    return out


def _request_figures(run: SystemRun, out: dict) -> None:
    """Read figures counted per request, as RMF's cache report counts them.

    A volume's ``read_rate`` (all reads /s) and ``req_read_hit_ratio`` (read
    requests that found every record in cache); a control unit's NORMAL
    reads (``read_rate``, ``req_read_hit_ratio``) and SEQUENTIAL ones
    (``seq_read_rate``, ``seq_read_hit_ratio``), tracks staged for each
    (``staged_tracks_rate``, ``seq_staged_tracks_rate``) and bytes per read
    request at the host adapter and at the disks.
    """
    el = run.elapsed
    if not el:
        return
    counts, _ = _per_volume(run)
    units: dict[str, VolumeCounts] = {}
    for name, c in counts.items():
        if not c.reads:
            continue
        out.setdefault(name, {}).update(read_rate=c.reads / el,
                                        req_read_hit_ratio=c.clean_reads / c.reads)
        units.setdefault(run.system.volume(name).cu.name, VolumeCounts()).add(c)
    for name, c in units.items():
        st = run.system.control_units[name].stats()
        normal = c.reads - c.seq_reads
        out.setdefault(name, {}).update(
            read_rate=normal / el, seq_read_rate=c.seq_reads / el,
            req_read_hit_ratio=(c.clean_reads - c.seq_clean_reads) / normal if normal else 0.0,
            seq_read_hit_ratio=c.seq_clean_reads / c.seq_reads if c.seq_reads else 0.0,
            staged_tracks_rate=(st.stages[PARTIAL] + st.stages[FULL]) / el,
            seq_staged_tracks_rate=st.seq_tracks_staged / el,
            read_bytes_per_req=(c.hits + c.misses) * PAGE / c.reads,
            disk_read_bytes_per_req=st.disk_bytes_per_request)


def workload_table(run: SystemRun) -> Table:
    """One row per workload: what it asked for and what it got."""
    rows = []
    el = run.elapsed or 1.0
    for wl in run.io:
        reads = wl.hits + wl.misses
        rows.append((wl.name, "I/O, another system" if wl.v.get("other_system") else "I/O",
                     round(wl.completed / el, 1),
                     round(1e3 * wl.resp / wl.completed, 4) if wl.completed else 0.0,
                     round(wl.hits / reads, 4) if reads else "—",
                     f"{wl.reads} reads, {wl.writes} writes"))
    for wl in run.cpu:
        rows.append((wl.name, "CPU", round(wl.completed / el, 1),
                     round(1e3 * wl.resp / wl.completed, 4) if wl.completed else 0.0, "—",
                     f"{wl.tran_us / 1000:g} ms CPU each, {wl.eligible_us / wl.tran_us:.0%} "
                     "zIIP eligible"))
    return Table("Workload activity", ("workload", "type", "rate /s", "resp ms",
                                       "record hit ratio", "requests"), tuple(rows),
                 note="Record hit ratio: 4 KB records found in cache when the channel asked "
                      "for them, out of all records read (it comes from the cache model; "
                      "RMF's read hit ratio, per request, is the request hit ratio).")


def cpu_table(run: SystemRun) -> Table:
    """Per engine busy (RMF CPU activity style)."""
    rows = []
    el = run.elapsed or 1.0
    for pool, kind in ((run.cpx.gcp, "CP"), (run.cpx.ziip, "zIIP")):
        for name, busy in zip(pool.names, pool.busy_us):
            # Busy % to two decimals, as RMF's CPU Activity report prints it.
            rows.append((name, kind, round(busy / 1000, 3), round(100 * busy / (el * 1e6), 2)))
    acc = run.cpx.account
    return Table("CPU activity", ("engine", "type", "busy ms", "busy %"), tuple(rows),
                 note=f"zIIP-eligible work run on general CPs: "
                      f"{acc.eligible_on_gcp_us / 1000:.1f} ms")


# ---- analytic stations -----------------------------------------------------------
def stations(run: SystemRun) -> list[analytic.Station]:
    """The run's channels, volumes, ranks and processors as analytic stations."""
    out: list[analytic.Station] = []
    if run.system is not None:
        out += _io_stations(run)
    if run.cpx is not None:
        out += _cpu_stations(run)
    return out


def _per_volume(run: SystemRun) -> tuple[dict[str, VolumeCounts], dict[str, set]]:
    counts: dict[str, VolumeCounts] = {}
    feeders: dict[str, set] = {}
    for wl in run.io:
        for v, c in wl.counts.items():
            counts.setdefault(v, VolumeCounts()).add(c)
            feeders.setdefault(v, set()).add(wl)
    return counts, feeders


def _io_stations(run: SystemRun) -> list[analytic.Station]:
    system, el = run.system, run.elapsed
    counts, feeders = _per_volume(run)
    closed = {v for v, ws in feeders.items() if any(w.v["arrival"] == "closed" for w in ws)}
    seq = {v for v, ws in feeders.items() if any(w.v["seq_pct"] > 0 for w in ws)}
    out = []
    # Channel paths: each control unit's channel work spread over its paths.
    demand: dict[str, list] = {name: [0.0, 0, 0.0, 0.0] for name in system.paths}
    for cu in system.control_units.values():
        if cu.paths is None:
            continue
        vols = [v for v in cu.volumes if v.name in counts]
        work = sum(counts[v.name].channel_work for v in vols)
        ios = sum(counts[v.name].ios for v in vols)
        pend = sum(v.totals.pend for v in vols)
        n = cu.paths.n
        for p in cu.paths.paths:
            d = demand[p.name]
            d[0] += work / n
            d[1] += ios / n
            d[2] += pend / n
            d[3] += ios * ch.START_S / n
    for name, p in system.paths.items():
        work, ios, pend, start = demand[name]
        if not ios:
            continue
        s = work / ios
        wait = max(0.0, (pend - start) / ios)
        out.append(analytic.Station(name, "channel", ios / el, s, 1, p.busy / el,
                                    s + wait, None, False, False))
    for name, vol in ((v.name, v) for v in system.volumes()):
        c = counts.get(name)
        if c is None or not c.ios:
            continue
        s = c.service / c.ios
        cv2 = max(0.0, c.service2 / c.ios / (s * s) - 1.0) if s > 0 else None
        busy = (vol.totals.disc + vol.totals.conn) / el / (1 + vol.aliases)
        out.append(analytic.Station(name, "volume", c.ios / el, s, 1 + vol.aliases,
                                    min(1.0, busy), c.resp / c.ios, cv2, name in closed,
                                    name in seq, util_service_s=c.busy / c.ios))
    for name, rank in system.ranks.items():
        drives = list(rank.drives())
        ops = sum(system.pool.accesses[d] for d in drives)
        if not ops:
            continue
        disk = rank.disk
        nominal = (disk.access_ms + disk.avg_seek_ms + disk.avg_latency_ms +
                   disk.transfer_ms(be.record_footprint(PAGE))) / 1e3
        servers = len(drives) * disk.parallelism
        out.append(analytic.Station(name, "rank", ops / el, nominal, servers,
                                    min(1.0, rank.busy_s() / el / len(drives)), None, None,
                                    False, True, measured_s=rank.busy_s() / ops))
    return out


def _cpu_stations(run: SystemRun) -> list[analytic.Station]:
    """One station per engine pool (the dispatcher shares work over its
    engines), then each CPU workload's transactions through both pools."""
    cpx, el = run.cpx, run.elapsed
    n = sum(wl.completed for wl in run.cpu)
    if not n:
        return []
    eligible = sum(wl.completed * wl.eligible_us for wl in run.cpu)
    general = sum(wl.completed * wl.general_us for wl in run.cpu)
    # Eligible work the dispatcher sent to a CP (no zIIP, or all busy with help on).
    moved = cpx.account.eligible_on_gcp_us
    out, resp = [], {}
    for pool in (cpx.gcp, cpx.ziip):
        if pool.count == 0:
            continue
        speed = sum(pool.speeds) / pool.count
        cpu_us = (general / speed + moved) if pool is cpx.gcp else \
            max(0.0, eligible / speed - moved)
        visits = n if pool is cpx.gcp or eligible else 0
        if not visits or cpu_us <= 0:
            continue
        s = cpu_us / visits * 1e-6
        busy = sum(pool.busy_us) / (el * 1e6) / pool.count
        # A transaction's CPU is the same every time: service CV² = 0.
        st = analytic.Station(", ".join(pool.names), "processor", visits / el, s, pool.count,
                              busy, cv2=0.0)
        resp[pool.kind] = analytic.mmc_response(visits / el, s, pool.count)
        out.append(st)
    for wl in run.cpu:
        if not wl.completed or any(r is None for r in resp.values()):
            continue
        # Both pools' M/M/c responses in turn (general part, then eligible part).
        est_s = sum(resp.values())
        out.append(analytic.Station(wl.name, "transaction", wl.completed / el, 0.0, 1, 0.0,
                                    wl.resp / wl.completed, cv2=0.0, path_resp_s=est_s))
    return out
