"""Fitting one storage group's I/O workload to what RMF measured.

From the reports: the group's I/O rate (Device Activity), its read share
and read hit ratio (the Cache report's volumes), the sequential share and
the bytes per read request (its control unit's cache block). The I/O
workload's own parameters follow directly (``io_rate``, ``read_pct``,
``seq_pct``, ``pages_per_io`` = bytes per request / 4 KB); the hit ratio is
never an input of the model, so the working set and the skew are chosen
so that the model's cache gives the measured read hit ratio:

* the sequential reads hit as the model's own detection and staging let
  them (:mod:`models.rmf.seqfit`, from the sequential and read shares, the
  bytes per request, the volumes and whether the unit has the LPO), not as
  RMF counted them; the random reads' working set is fitted to the hits
  that remain;
* the skew stays at the workload's default (0.8) unless given, and the
  working set is found by bisection on the model's hit ratio in closed
  form (:func:`models.rmf.cachefit.predict`): a larger working set gives
  fewer hits;
* when no working set between 1 MB and the model's 200,000 MB reaches the
  measured ratio at that skew, the working set stays at the bound and the
  skew moves instead (0 to 3); when nothing reaches it, :class:`FitError`
  says why;
* :func:`models.rmf.fitcheck.check` runs the model itself on the fit, and
  :func:`models.rmf.fitcheck.refine` moves the working set on the model's
  own runs when a run is long enough for the closed form to drift.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from models.io.staging import SEQ_TRIGGER_TRACKS
from models.io.volume import SEQ_STREAMS
from models.rmf import cachefit, seqfit
from models.rmf.records import Assumption, CacheUnit, Interval, RmfError, Source
from models.workloads.params import BY_NAME

PAGE = 4096
WS_MIN_MB = BY_NAME["working_set_mb"].min
WS_MAX_MB = BY_NAME["working_set_mb"].max
SKEW_DEFAULT = BY_NAME["skew"].default
SKEW_MAX = BY_NAME["skew"].max
TOLERANCE = 0.002
#: Volumes drawn for a group the reports name no volumes of (an excerpt), and
#: the fit's default: one sequential stream on each (models.rmf.seqfit).
EXCERPT_VOLUMES = 4
#: The lowest I/O rate a workload runs at (its ``io_rate``'s minimum): a storage
#: group below it was idle in the interval and is drawn without a workload.
MIN_IO_RATE = float(BY_NAME["io_rate"].min)
#: The highest: a group above it cannot be drawn as one workload (its file
#: would be one ``run`` refuses), so the import is refused, saying so.
MAX_IO_RATE = float(BY_NAME["io_rate"].max)


def idle(io_rate: float) -> bool:
    """Whether a group's measured I/O rate is too low for a workload of its own
    (below the least a workload runs at, as the card keeps it: to 3 decimals)."""
    return round(io_rate, 3) < MIN_IO_RATE


class FitError(ValueError):
    """The measurements cannot be reproduced by the model's workload."""


@dataclass
class GroupMeasure:
    """What RMF measured for one storage group (or one control unit's volumes)."""

    name: str
    io_rate: float
    read_share: float            # 0–1
    seq_share: float             # 0–1
    bytes_per_read: float
    read_hit_ratio: float
    volumes: list[str] = field(default_factory=list)
    assumptions: list[Assumption] = field(default_factory=list)
    #: (file, line) of the cache report's figures, for what the fit states.
    source: tuple[str, int | None] = ("?", None)


@dataclass
class WorkloadFit:
    """The I/O workload's parameters for a group and how well its cache fits."""

    group: str
    io_rate: float
    read_pct: float
    seq_pct: float
    pages_per_io: int
    working_set_mb: float
    skew: float
    cache_mb: float
    measured_hit_ratio: float
    predicted_hit_ratio: float
    varied: str                  # "working set" or "skew"
    turnover_s: float = 0.0      # cache fills once with staged tracks in this time
    warm_pages: int = 0          # pages the model's warm start gives the workload
    volumes: int = EXCERPT_VOLUMES   # the dataset's volumes (a sequential stream on each)
    lpo: bool = True             # zHPF with the List Prefetch Optimizer (else FICON)
    seq_hit_ratio: float = 1.0   # what the fit expects of the model's sequential reads
    run_s: float = seqfit.RUN_S  # seconds the workload will run
    assumptions: list[Assumption] = field(default_factory=list)

    def values(self) -> dict:
        """The ``wl_io`` parameter values (models/workloads/params.py)."""
        return {"arrival": "counted", "io_rate": round(self.io_rate, 3),
                "read_pct": round(self.read_pct, 2), "seq_pct": round(self.seq_pct, 2),
                "pages_per_io": self.pages_per_io,
                "working_set_mb": round(self.working_set_mb, 1), "skew": round(self.skew, 4)}

    @property
    def load(self) -> cachefit.Load:
        return cachefit.Load(self.io_rate, self.read_pct / 100, self.seq_pct / 100,
                             self.pages_per_io, seqfit.Stream(self.volumes, self.lpo,
                                           run_s=self.run_s))


# ---- measurement -----------------------------------------------------------------------
def measure_unit(unit: CacheUnit, name: str | None = None) -> GroupMeasure:
    """A control unit's cache block as one group (an excerpt has nothing else)."""
    a = unit.activity
    if a is None or not a.read_rate:
        raise FitError(f"control unit {unit.ssid or '?'} has no read requests to fit")
    writes = (a.write_normal.rate or 0.0) + (a.write_seq.rate or 0.0)
    io = a.read_rate + writes
    _runnable(f"control unit {unit.ssid or '?'}", io, a.source)
    seq = (a.read_seq.rate or 0.0) + (a.write_seq.rate or 0.0)
    src = a.source
    return GroupMeasure(name=name or f"SSID {unit.ssid or '?'}", io_rate=io,
                        read_share=a.read_rate / io, seq_share=seq / io,
                        bytes_per_read=a.host_read.bytes_per_req or PAGE,
                        read_hit_ratio=a.read_hit_ratio or 0.0,
                        source=(src.file, src.line) if src else ("?", None),
                        assumptions=[] if a.host_read.bytes_per_req else [Assumption(
                            f"bytes per read of {name or unit.ssid}", PAGE,
                            "no HOST ADAPTER ACTIVITY line", src.file if src else "?",
                            src.line if src else None)])


def measure_group(iv: Interval, group: str) -> GroupMeasure:
    """A storage group of the device report, with its volumes' cache figures.

    The I/O rate is the device report's; read share and read hits come from
    the Cache Subsystem Device Overview of its volumes; the sequential share
    and bytes per read are those of the control unit(s) the volumes are on
    (the overview does not split them by volume): an assumption, stated.
    """
    vols = [v for v in iv.volumes.values() if (v.storage_group or "") == group]
    if not vols:
        raise FitError(f"storage group '{group}' has no volumes in {iv.label}")
    io = sum(v.rate for v in vols)
    _runnable(f"storage group '{group}' in {iv.label}", io, vols[0].source)
    reads = hits = 0.0
    units: dict[str, CacheUnit] = {}
    missing = []
    for v in vols:
        unit = next((u for u in iv.cache_units.values() if v.volser in u.volumes), None)
        if unit is None:
            missing.append(v.volser)
            continue
        units[unit.ssid or "?"] = unit
        vc = unit.volumes[v.volser]
        r = vc.io_rate * (vc.pct_read or 0.0) / 100
        reads += r
        rate = vc.read_hit_rate
        if rate is None or rate > r:
            # The hit rate is printed to 0.1/s: on a quiet volume 0.3 hits/s
            # over 0.249 reads/s is rounding; the ratio has three decimals.
            rate = r * vc.read_hit_ratio if vc.read_hit_ratio is not None else min(r, rate or 0)
        hits += rate
    if not reads:
        raise FitError(f"storage group '{group}' has no cache read requests in {iv.label}")
    unit_m = [measure_unit(u) for u in units.values()]
    weight = sum(m.io_rate for m in unit_m) or 1.0
    seq = sum(m.seq_share * m.io_rate for m in unit_m) / weight
    nbytes = sum(m.bytes_per_read * m.io_rate for m in unit_m) / weight
    src = vols[0].source
    said = [Assumption(f"sequential share and bytes per read of {group}",
                       f"{seq:.3f}, {nbytes:,.0f} B", "the cache report gives them per control "
                       "unit, not per volume: the group's units' figures",
                       src.file if src else "?", src.line if src else None)]
    if missing:
        said.append(Assumption(f"cache figures of {', '.join(missing)}", "left out",
                               "no Cache report row for these volumes",
                               src.file if src else "?", None))
    share = device_read_share(iv, vols)
    return GroupMeasure(name=group, io_rate=io, read_share=share if share is not None else 0.0,
                        seq_share=seq, bytes_per_read=nbytes, read_hit_ratio=hits / reads,
                        volumes=[v.volser for v in vols], assumptions=said,
                        source=unit_m[0].source)


def device_read_share(iv: Interval, vols) -> float | None:
    """This system's share of reads in the volumes' I/O: each volume's device
    rate at the read share its Cache Device Overview row gives (which counts
    every system's I/O to it), as "Measured vs model" counts the group's
    reads (models.rmf.measured). None: no volume has a cache row."""
    caches = {vs: vc for u in iv.cache_units.values() for vs, vc in u.volumes.items()}
    got = [(v.rate, caches[v.volser].pct_read) for v in vols
           if v.volser in caches and caches[v.volser].pct_read is not None]
    rate = sum(r for r, _ in got)
    if not got:
        return None
    if not rate:
        return sum(p for _, p in got) / len(got) / 100
    return min(1.0, sum(r * p for r, p in got) / rate / 100)


def _runnable(what: str, io: float, src: Source | None) -> None:
    """RmfError when ``io`` is more than one workload of the model runs."""
    if io > MAX_IO_RATE:
        raise RmfError(src.file if src else "input", src.line if src else None,
                       f"{what}: {io:,.1f} I/O per second, more than one workload of the "
                       f"model runs ({MAX_IO_RATE:,.0f}): import a quieter interval "
                       "(--interval N)")


# ---- the fit ---------------------------------------------------------------------------
def fit_workload(m: GroupMeasure, cache_mb: float, skew: float | None = None,
                 working_set_mb: float | None = None, warm_pages: int | None = None,
                 volumes: int | None = None, lpo: bool = True,
                 run_s: float | None = None) -> WorkloadFit:
    """The ``wl_io`` values whose cache model gives ``m.read_hit_ratio``.

    Parameters
    ----------
    m : GroupMeasure
    cache_mb : float
        The cache the group's I/O competes for (its control unit's, or its share).
    skew, working_set_mb : float or None
        Give one to fit the other; neither: skew 0.8 and the working set fitted.
    warm_pages : int or None
        Pages the model's warm start gives this workload (:func:`fit_unit`
        works them out for several on one unit); None: alone on ``cache_mb``.
    volumes : int or None
        Volumes the group's dataset is drawn over (one sequential stream
        each); None: ``m.volumes``, or ``EXCERPT_VOLUMES`` when it names none.
    lpo : bool
        Whether the volumes run zHPF with the List Prefetch Optimizer (the
        first path to their unit is zHPF), which record-caches a first miss;
        else a miss stages the whole track.
    run_s : float or None
        Seconds the workload will run (AMP deepens a stream's prestage as the
        run goes); None: the workload's default run length.
    """
    pages = max(1, min(32, round(m.bytes_per_read / PAGE)))
    fit = WorkloadFit(group=m.name, io_rate=m.io_rate, read_pct=100 * m.read_share,
                      seq_pct=100 * m.seq_share, pages_per_io=pages, working_set_mb=0.0,
                      skew=SKEW_DEFAULT if skew is None else skew, cache_mb=cache_mb,
                      measured_hit_ratio=m.read_hit_ratio, predicted_hit_ratio=0.0,
                      varied="working set", assumptions=list(m.assumptions),
                      volumes=volumes or len(m.volumes) or EXCERPT_VOLUMES, lpo=lpo,
                      run_s=seqfit.RUN_S if run_s is None else run_s)
    slots = cache_mb * 2**20 / PAGE
    budget = cachefit.warm_budget(slots) if warm_pages is None else warm_pages
    fit.warm_pages = budget

    def predict(ws: float, sk: float) -> float:
        return cachefit.predict(fit.load, ws, sk, slots, budget)
    target = m.read_hit_ratio
    if target > 1 - 1e-6:
        raise FitError(_unreachable(m, cache_mb, "every read hit"))
    if working_set_mb is not None:
        fit.working_set_mb, fit.varied = working_set_mb, "skew"
        fit.skew = _bisect(lambda s: predict(working_set_mb, s),
                           target, 0.0, SKEW_MAX, increasing=True, log=False, what=(m, cache_mb))
    else:
        def by_ws(ws):
            return predict(ws, fit.skew)
        lo_h, hi_h = by_ws(WS_MIN_MB), by_ws(WS_MAX_MB)
        if hi_h <= target <= lo_h:
            fit.working_set_mb = _bisect(by_ws, target, WS_MIN_MB, WS_MAX_MB, increasing=False,
                                         log=True, what=(m, cache_mb))
        else:
            ws = WS_MIN_MB if target > lo_h else WS_MAX_MB
            fit.working_set_mb, fit.varied = ws, "skew"
            fit.skew = _bisect(lambda s: predict(ws, s), target,
                               0.0, SKEW_MAX, increasing=True, log=False, what=(m, cache_mb))
    fit.predicted_hit_ratio = predict(fit.working_set_mb, fit.skew)
    fit.turnover_s = cachefit.turnover_s(fit.load, fit.predicted_hit_ratio, slots)
    if m.seq_share > 0:
        n = cachefit.blocks(fit.working_set_mb, pages)
        b = cachefit.warm_blocks(budget, pages, n)
        fit.seq_hit_ratio = seqfit.seq_hit_ratio(fit.load, n, b,
                                                 cachefit.zipf_cdf(b, n, fit.skew))
        fit.assumptions.append(_seq_said(fit, m.source))
    return fit


def _seq_said(fit: WorkloadFit, source: tuple[str, int | None]) -> Assumption:
    """The hit ratio the fit expects of the model's sequential reads, stated."""
    staging = ("the LPO record-caches a first miss and stages the rest of the track on the "
               "second" if fit.lpo else "a miss stages the whole track")
    return Assumption(
        f"sequential reads of {fit.group}", f"a request hit ratio of {fit.seq_hit_ratio:.3f} in "
        "the model", "the fit takes the model's own detection, not RMF's sequential hits: on "
        f"each of its {fit.volumes} volumes a stream prestages only once "
        f"{SEQ_TRIGGER_TRACKS} tracks in a row were read after their predecessors, and "
        f"the volume follows {SEQ_STREAMS} streams, the random reads among them; before "
        f"that only warm blocks hit and {staging}. The working set is fitted to the hits that "
        "remain (docs/rmf-import.md)", *source)


def _bisect(f, target: float, lo: float, hi: float, increasing: bool, log: bool, what):
    f_lo, f_hi = f(lo), f(hi)
    if not (min(f_lo, f_hi) - TOLERANCE <= target <= max(f_lo, f_hi) + TOLERANCE):
        m, cache_mb = what
        raise FitError(_unreachable(m, cache_mb, f"the model gives {min(f_lo, f_hi):.3f} to "
                                    f"{max(f_lo, f_hi):.3f} over its range"))
    for _ in range(40):
        mid = math.sqrt(lo * hi) if log else (lo + hi) / 2
        h = f(mid)
        if abs(h - target) <= TOLERANCE / 4:
            return mid
        if (h < target) == increasing:
            lo = mid
        else:
            hi = mid
    # A step, not a slope, at the end: the sequential reads' hits change with
    # how the workload's hash lays warm blocks along a stream, which is not
    # smooth in the working set. Take the nearer side.
    return min((lo, hi), key=lambda x: abs(f(x) - target))


def _unreachable(m: GroupMeasure, cache_mb: float, why: str) -> str:
    return (f"{m.name}: no working set (1 to 200,000 MB) and skew (0 to 3) give the measured "
            f"request hit ratio {m.read_hit_ratio:.3f} with {cache_mb:,.0f} MB of cache ({why}). "
            "A ratio this far from steady state (a cold cache, a one-off scan) is not a "
            "workload the model can settle into; give the working set or the skew by hand")


def fit_unit(measures: list[GroupMeasure], cache_mb: float, limit_pages: int | None = None,
             **kw) -> list[WorkloadFit]:
    """Fit several groups whose workloads will share one control unit.

    The model's warm start gives each workload on a unit an equal share of
    its cache (90 % of it warmed) and of the unit's part of
    ``WARM_LIMIT_PAGES`` (``limit_pages``; default: the whole limit, the
    unit alone in the drawing), whatever their canvas order
    (:func:`models.workloads.system.warm_share`).
    """
    from models.workloads.system import WARM_LIMIT_PAGES, warm_share
    slots = int(cache_mb * 2**20 / PAGE)
    limit = WARM_LIMIT_PAGES if limit_pages is None else limit_pages
    budget = warm_share(slots, limit, len(measures))
    share = cache_mb / len(measures)
    return [fit_workload(m, share, warm_pages=budget, **kw) for m in measures]
