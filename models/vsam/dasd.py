"""The 3390 volume a VSAM file lives on, as CICS sees it.

Reads go through the shared I/O subsystem (:class:`models.io.subsystem.
IOSubsystem`: IOSQ on the volume and its HyperPAV aliases, PEND, zHPF channel
program, control-unit cache, back-end drive on a miss), and so do CI writes
(DASD fast write into cache and NVS, destaged to the drives in the
background). Data CI ``i`` is 4 KB record ``i`` of the volume (12 per 3390 track);
index CIs follow the data component. The control-unit cache starts warm
(production steady state).

I/Os are processes' sub-generators: ``hit = yield from volume.read(ci)``.

With a drawn configuration the file lives on the first volume of the
drawing's VSAM data set, behind its control unit, channel paths and rank
(:class:`models.io.system.IOSystem`, ``volume.system``); without one, on a
volume made from :mod:`models.vsam.costs` (``VOL0``, one channel path).
"""
from __future__ import annotations

from models.engine import Engine
from models.io.subsystem import simple_config
from models.io.system import IOSystem
from models.vsam import costs

#: Channel paths to the control unit without a drawing (the case study's one).
PATHS = 1


class Volume:
    """One volume with its control-unit cache.

    Parameters
    ----------
    engine : Engine
    cisize : int
        Bytes per CI (4096: one CKD record per CI).
    data_cis : int
        CIs in the data component; they and the index start cache resident
        up to the cache size.
    index_cis : int
        CIs in the index component.
    trace : Trace or None
        The subsystem records ``io_start``/``io_end`` (and cache rows) on
        the volume (``VOL0`` without a drawing) when given.
    config : models.drawing.config.Configuration or None
        The drawing: the file is on the first volume of its VSAM data set.
    """

    def __init__(self, engine: Engine, cisize: int, data_cis: int, index_cis: int = 0,
                 trace=None, config=None):
        self.engine = engine
        opts: dict = dict(staging="record", seq_detect=False, record_bytes=cisize)
        if config is None:
            config = simple_config(("VOL0",), device=costs.BACKEND_DEVICE, protocol="zHPF",
                                   channel="FEx8S", cache_gb=costs.CU_CACHE_GB,
                                   aliases=costs.VOLUME_EXPOSURES - 1, paths=PATHS)
            self.system = IOSystem(engine, config, trace, trace_names="legacy", **opts)
            name = "VOL0"
        else:
            self.system = IOSystem(engine, config, trace, **opts)
            name = vsam_volume(config)
        self.sub = self.system.volume(name)
        self.index_base = data_cis
        per_track = self.sub.rpt
        warm = min(data_cis + index_cis, self.sub.cache.capacity)
        self.sub.warm_tracks(0, -(-warm // per_track))
        self.reads = self.writes = self.read_misses = 0
        self.io_time = 0.0

    def page(self, ci: int) -> int:
        """Volume record number of a data CI (≥ 0) or an index CI (< 0)."""
        return ci if ci >= 0 else self.index_base - 1 - ci

    def read(self, ci: int):
        """Read one CI (a sub-generator); returns True on a cache hit."""
        t0 = self.engine.now
        self.reads += 1
        res = yield from self.sub.read_pages((self.page(ci),))
        self.io_time += self.engine.now - t0
        if res.misses:
            self.read_misses += 1
            return False
        return True

    def write(self, ci: int, count: int = 1):
        """Write ``count`` CIs in one channel program: a DASD fast write
        through the I/O subsystem (cache and NVS now, destage to the drives
        later). The CIs of a split follow ``ci`` in its control area."""
        self.writes += count
        t0 = self.engine.now
        first = self.page(ci)
        yield from self.sub.write_pages(range(first, first + count))
        self.io_time += self.engine.now - t0


def vsam_volume(config) -> str:
    """The volume a drawn VSAM file lives on: the first of the first KSDS data set
    a workload uses (or of any KSDS drawn)."""
    used = [d for w in config.workloads for d in w.datasets]
    ksds = [d.name for d in config.datasets if d.kind == "ds_vsam_ksds"]
    names = [d for d in used if d in ksds] or ksds
    if not names:
        raise ValueError("the drawing has no VSAM data set")
    vols = config.dataset(names[0]).volumes
    if not vols:
        raise ValueError(f"data set {names[0]!r} is on no volume")
    return vols[0]
