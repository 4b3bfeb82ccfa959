"""Experiment ``custom``: your own configuration with general workloads.

Whatever is drawn runs: every I/O workload (``wl_io``) drives the datasets
it is linked to through their volumes, control units and channel paths;
every CPU workload (``wl_cpu``) runs on the processors it is linked to
(models/workloads). Several workloads may share the configuration (a mixed
system); each carries its own values. The run reports RMF-style tables per
component and, beside them, the analytic estimate (models/core/analytic.py).
"""
from __future__ import annotations

from models.experiments import Experiment
from models.core.params import Metric, Schema
from models.core.run import RunContext, RunResult
from models.io.reports import rank_busy_pct, split_groups
from models.workloads import params as wp
from models.workloads.system import cpu_table, figures, run_system, workload_table
from models.core import analytic

SCHEMA = Schema(wp.ALL)

METRICS = (
    Metric("io_rate", "I/O/s", "I/O requests completed per second, all I/O workloads", label="I/O rate"),
    Metric("io_resp_ms", "ms", "Mean I/O response time (IOSQ + PEND + DISC + CONN)", label="I/O response time"),
    Metric("iosq_ms", "ms", "Mean IOSQ: time queued in z/OS for the volume (no free alias)", label="IOSQ time"),
    Metric("pend_ms", "ms", "Mean PEND: channel start, including waits for a busy channel", label="PEND time"),
    Metric("disc_ms", "ms", "Mean DISC: disconnected while the unit staged a miss or "
                            "waited for NVS", label="DISC time"),
    Metric("conn_ms", "ms", "Mean CONN: connected time, protocol steps and data transfer", label="CONN time"),
    Metric("read_hit_ratio", "", "4 KB records read that were in cache, out of all records read "
           "(per record; RMF's read hit ratio counts requests: 'request hit ratio')",
           label="Record hit ratio"),
    Metric("channel_util_pct", "%", "Utilisation of the busiest channel path", label="Busiest channel"),
    Metric("volume_busy_pct", "%", "Busy % of the busiest volume (DISC + CONN per exposure)", label="Busiest volume"),
    Metric("rank_busy_pct", "%", "Busy % of the busiest RAID rank (mean over its drives)", label="Busiest rank"),
    Metric("tran_rate", "/s", "CPU workload transactions completed per second", label="Transaction rate"),
    Metric("cpu_resp_ms", "ms", "Mean transaction response time of the CPU workloads", label="Transaction response time"),
    Metric("gcp_busy_pct", "%", "Mean busy % of the general CPs", label="General CPs busy"),
    Metric("ziip_busy_pct", "%", "Mean busy % of the zIIPs", label="zIIPs busy"),
    Metric("ziip_share", "", "Share of the CPU workloads' CPU time spent on zIIPs", label="zIIP share of CPU"),
)


def run(params: dict, ctx: RunContext) -> RunResult:
    """Run every general workload drawn in ``ctx.config`` (module docstring).

    A run asked for early figures (``ctx.early``) gives its figures so far
    once, after ``ctx.early_after_s`` simulated seconds, and goes on."""
    def early(so_far) -> None:
        ctx.early_result(_result(so_far, params, ctx, trace=None), so_far.elapsed)

    sysrun = run_system(ctx.config, params, ctx.seed, trace=ctx.trace, progress=ctx.progress,
                        warmup_s=ctx.warmup_s, phase=ctx.phase,
                        early=early if ctx.early is not None else None,
                        early_after_s=ctx.early_after_s)
    if sysrun.warmup_s:
        ctx.removed_warmup(sysrun.warmup_s)
    return _result(sysrun, params, ctx, trace=ctx.trace)


def _result(sysrun, params: dict, ctx: RunContext, trace) -> RunResult:
    """The run's figures, reports and components (of the whole run, or of
    the run so far for early figures)."""
    comps = figures(sysrun)
    # Only what the drawing measured: no I/O figures without I/O workloads,
    # no transaction figures without CPU workloads, no mean over nothing.
    found = {**_idle(ctx.config), **_io_metrics(sysrun, comps), **_cpu_metrics(sysrun)}
    metrics = {m.name: found[m.name] for m in METRICS if m.name in found}
    reports = [workload_table(sysrun)]
    if sysrun.system is not None:
        reports += list(sysrun.system.reports(sysrun.elapsed))
    if sysrun.cpx is not None:
        reports.append(cpu_table(sysrun))
    if sysrun.estimates:
        reports.append(analytic.table(sysrun.estimates))
    drawn, members = (split_groups(sysrun.system.config, comps) if sysrun.system is not None
                      else (comps, {}))
    notes = (NO_CPU_WORK,) if ctx.config.processors and sysrun.cpx is None else ()
    return RunResult("custom", params, ctx.seed, metrics, reports=tuple(reports),
                     trace=trace, components=drawn, members=members, notes=notes)


def _idle(cfg) -> dict:
    """Rates and utilisations of drawn components that no workload uses:
    true zeros (the run builds no I/O system without an I/O workload, and no
    processor complex without a CPU workload). Means stay out."""
    out: dict = {}
    if cfg.volumes or cfg.channels:
        out["io_rate"] = 0.0
    for key, drawn in (("channel_util_pct", cfg.channels), ("volume_busy_pct", cfg.volumes),
                       ("rank_busy_pct", cfg.ranks)):
        if drawn:
            out[key] = 0.0
    types = {p.type for p in cfg.processors}
    if types:
        out["tran_rate"] = 0.0
    # A pool that is not drawn has no busy, not 0 % (the Large shop has no zIIP).
    out.update({key: 0.0 for key, type_ in (("gcp_busy_pct", "CP"), ("ziip_busy_pct", "zIIP"))
                if type_ in types})
    return out


#: Said under the metrics when processors are drawn and no CPU workload runs.
NO_CPU_WORK = ("No CPU workload is drawn: the processors only start the channels' I/O, "
               "and the model counts no CPU time for that (start subchannel, I/O "
               "interrupts), so their 0 % busy is not what RMF would show. Draw a CPU "
               "workload on them to model their busy.")


def _io_metrics(sysrun, comps: dict) -> dict:
    if sysrun.system is None:
        return {}
    el = sysrun.elapsed
    # This system's I/O: another system's drawn I/O (an import's shared
    # units) uses the units' cache and ranks, not the headline figures.
    mine = [w for w in sysrun.io if not w.v.get("other_system")]
    theirs = {v.name for w in sysrun.io if w.v.get("other_system")
              for vs in w.vols.values() for v in vs}
    done = sum(w.completed for w in mine)
    vols = [v for v in sysrun.system.volumes() if v.name not in theirs]
    n = sum(v.completed for v in vols) or 1
    tot = {k: sum(getattr(v.totals, k) for v in vols) for k in ("pend", "disc", "conn")}
    iosq = sum(v.totals.iosq for v in vols)
    hits = sum(w.hits for w in mine)
    misses = sum(w.misses for w in mine)
    cfg = sysrun.system.config

    def busiest(names, key):
        return max((comps[x][key] for x in names if key in comps.get(x, {})), default=0.0)
    out = {"io_rate": done / el if el else 0.0,
           "channel_util_pct": busiest(sysrun.system.paths, "utilization_pct"),
           "volume_busy_pct": busiest([v.name for v in cfg.volumes if v.name not in theirs],
                                      "busy_pct"),
           "rank_busy_pct": max((rank_busy_pct(r, el) for r in sysrun.system.ranks.values()),
                                default=0.0)}
    # Means over the I/Os: none when no I/O ended (a drawing with devices but
    # no I/O workload), where 0 ms would read as instant I/O.
    if done:
        out["io_resp_ms"] = 1e3 * sum(w.resp for w in mine) / done
    if sum(v.completed for v in vols):
        out.update(iosq_ms=1e3 * iosq / n, pend_ms=1e3 * tot["pend"] / n,
                   disc_ms=1e3 * tot["disc"] / n, conn_ms=1e3 * tot["conn"] / n)
    if hits + misses:
        out["read_hit_ratio"] = hits / (hits + misses)
    return out


def _cpu_metrics(sysrun) -> dict:
    cpx = sysrun.cpx
    if cpx is None:
        return {}
    el = sysrun.elapsed
    done = sum(w.completed for w in sysrun.cpu)
    acc = cpx.account
    total = acc.us()

    def mean_busy(pool):
        return 100.0 * sum(pool.busy_us) / (el * 1e6) / pool.count if pool.count and el else 0.0
    out = {"tran_rate": done / el if el else 0.0,
           "gcp_busy_pct": mean_busy(cpx.gcp), "ziip_busy_pct": mean_busy(cpx.ziip)}
    # Means over transactions and CPU time: none when there were none.
    if done:
        out["cpu_resp_ms"] = 1e3 * sum(w.resp for w in sysrun.cpu) / done
    if total:
        out["ziip_share"] = acc.us("ziip") / total
    return out


EXPERIMENTS = [
    Experiment(
        "custom", "Your own system",
        "Draw your own configuration (channels, control units, ranks, volumes, datasets, "
        "processors) and put general I/O and CPU workloads on it: RMF-style reports per "
        "component and an analytic estimate beside them.",
        SCHEMA, METRICS, run, draws_groups=True),
]
