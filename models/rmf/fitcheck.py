"""Run the model itself on a fitted workload: its read hit ratio beside the measured one.

:func:`refine` moves the working set on such runs until the model gives the
measured ratio within a tolerance, for runs long enough that the closed
form of :mod:`models.rmf.cachefit` has drifted.

:func:`check` draws the smallest system that holds the fitted workload (a
FICON Express8S path, zHPF when the fit has the LPO, one control unit with the group's cache, the
group's volumes as 3390-54s, one dataset over them) and runs the general
I/O workload on it exactly as ``zperflab run`` does (the same Layout, warm
start and IOSystem), counting read *requests* that found all their records
in cache, as RMF's H/R does, beside the model's own per-record ratio.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from models.drawing.config import ChannelPath, Configuration, ControlUnit, Dataset, Volume, Workload
from models.engine import Engine
from models.io.system import IOSystem
from models.rmf import cachefit
from models.rmf.fit import WS_MAX_MB, WS_MIN_MB, WorkloadFit
from models.workloads.io import WARM_LIMIT_PAGES, IOWorkload, Layout
from models.workloads.params import BY_NAME


@dataclass(frozen=True)
class Check:
    """What a short run of the model gave for a fit."""

    request_hit_ratio: float     # read requests without a miss (RMF's H/R)
    record_hit_ratio: float      # 4 KB records found in cache (the model's figure)
    io_rate: float
    reads: int


def config_for(fit: WorkloadFit, volumes: int = 4) -> Configuration:
    """One path (zHPF if the fit has the LPO, else FICON), one unit with the
    fit's cache, ``volumes`` volumes, one dataset."""
    names = tuple(f"VOL{k:03d}" for k in range(1, volumes + 1))
    protocol = "zHPF" if fit.lpo else "FICON"
    return Configuration(
        channels=(ChannelPath("CHP 40", protocol, "FEx8S", control_units=("CU",)),),
        control_units=(ControlUnit("CU", cache_gb=fit.cache_mb / 1024),),
        volumes=tuple(Volume(n, "HDD15K", "CU", aliases=8, model="3390-54") for n in names),
        datasets=(Dataset("DATA", "ds_vsam_ksds", names),),
        workloads=(Workload(fit.group, "wl_io", ("DATA",)),))


def check(fit: WorkloadFit, seconds: float = 4.0, warmup_s: float = 1.0, seed: int = 1,
          volumes: int | None = None) -> Check:
    """Run the fitted workload for ``seconds`` (the first ``warmup_s`` left out)
    on ``volumes`` volumes (default: the fit's)."""
    # a 3390-54 holds ~45,000 MB: enough volumes for the working set
    volumes = max(volumes or fit.volumes, math.ceil(fit.working_set_mb * 1.05 / 40_000))
    config = config_for(fit, volumes)
    values = {p.name: p.default for p in BY_NAME.values() if p.name in {
        "arrival", "io_rate", "users", "think_ms", "read_pct", "pages_per_io", "seq_pct",
        "working_set_mb", "skew", "duration_s"}}
    values.update(fit.values(), duration_s=seconds)
    eng = Engine(seed=seed)
    wl_cfg = config.workloads[0]
    layout = Layout(config, IOWorkload.pages_needed(wl_cfg, values))
    system = IOSystem(eng, config)
    wl = IOWorkload(eng, system, wl_cfg, values, layout)
    # as models.workloads.system._warm: 90 % of the unit's cache, at most WARM_LIMIT_PAGES
    # (or what the fit was told the workload gets beside others on its unit)
    alone = min(WARM_LIMIT_PAGES, int(0.9 * system.control_units["CU"].cache.capacity))
    wl.warm(min(alone, fit.warm_pages) if fit.warm_pages else alone)
    wl.start()
    eng.run(until=warmup_s)
    wl.reset_statistics()
    eng.run(until=seconds)
    reads = wl.reads
    records = wl.hits + wl.misses
    clean = sum(c.clean_reads for c in wl.counts.values())
    return Check(request_hit_ratio=clean / reads if reads else 0.0,
                 record_hit_ratio=wl.hits / records if records else 0.0,
                 io_rate=wl.completed / (seconds - warmup_s), reads=reads)


def refine(fit: WorkloadFit, seconds: float, warmup_s: float = 0.0, seed: int = 1,
           tol: float = 0.01, runs: int = 5,
           volumes: int | None = None) -> tuple[WorkloadFit, Check]:
    """Move the working set until a run of ``seconds`` gives the measured
    ratio within ``tol`` (secant steps in log working set, the first along the
    closed form's slope). Returns the fit and the last run's figures."""
    slots = fit.cache_mb * 2**20 / 4096
    target = fit.measured_hit_ratio
    ws = fit.working_set_mb
    got = check(fit, seconds, warmup_s, seed, volumes)
    prev = None
    for _ in range(runs):
        h = got.request_hit_ratio
        if abs(h - target) <= tol:
            break
        if prev is None:
            d = math.log(1.05)
            budget = fit.warm_pages or None
            slope = (cachefit.predict(fit.load, ws * 1.05, fit.skew, slots, budget) -
                     cachefit.predict(fit.load, ws, fit.skew, slots, budget)) / d
        else:
            slope = (h - prev[1]) / (math.log(ws) - math.log(prev[0])) \
                if ws != prev[0] else 0.0
        if slope >= 0:
            break                                   # no sign of a usable slope
        prev = (ws, h)
        step = max(-2.0, min(2.0, (target - h) / slope))
        ws = min(WS_MAX_MB, max(WS_MIN_MB, ws * math.exp(step)))
        fit = dataclasses.replace(fit, working_set_mb=ws)
        got = check(fit, seconds, warmup_s, seed, volumes)
    return dataclasses.replace(fit, predicted_hit_ratio=got.request_hit_ratio), got
