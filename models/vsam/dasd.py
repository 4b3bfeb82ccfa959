"""The 3390 volume a VSAM file lives on, as CICS sees it: a DS8000 volume with
a few concurrent exposures (HyperPAV), a control-unit cache of CIs, cache-hit
reads, DASD fast writes, and seek plus rotation on a read miss.

Timing comes from :mod:`models.vsam.costs` (hit and fast-write response) and
:mod:`models.io.devices` (the back-end drive on a miss). I/Os are processes'
sub-generators: ``hit = yield from volume.read(ci)``.
"""
from __future__ import annotations

from models.engine import Engine, Resource
from models.io.devices import profile
from models.vsam import costs
from models.vsam.buffers import BufferPool


class Volume:
    """One volume with its control-unit cache.

    Parameters
    ----------
    engine : Engine
    cisize : int
        Bytes moved per CI (transfer time on a miss).
    data_cis : int
        CIs in the file; the cache starts holding as many as fit (warm).
    trace : Trace or None
        Records ``io_start``/``io_end`` on ``VOL0`` when given.
    """

    def __init__(self, engine: Engine, cisize: int, data_cis: int, trace=None):
        self.engine = engine
        self.exposures = Resource(engine, costs.VOLUME_EXPOSURES, "VOL0")
        self.cache = BufferPool(costs.CU_CACHE_CIS, "CU cache")
        self.cache.warm(range(min(data_cis, costs.CU_CACHE_CIS)))
        self.drive = profile(costs.BACKEND_DEVICE)
        self._rng = engine.stream("vsam.dasd")
        self.cisize = cisize
        self.reads = self.writes = self.read_misses = 0
        self.io_time = 0.0
        self._io_id = 0
        self.trace = trace
        if trace is not None:
            self._vol = trace.component("VOL0")
            self._k_start = trace.kind("io_start")
            self._k_end = trace.kind("io_end")

    def _miss_s(self) -> float:
        """Seek, rotational delay and transfer for one CI on the back-end drive."""
        d, rng = self.drive, self._rng
        ms = d.access_ms + d.transfer_ms(self.cisize)
        if not d.is_ssd:
            ms += d.seek_ms(abs(rng.random() - rng.random())) + rng.random() * d.rotation_ms
        return ms / 1000.0

    def read(self, ci: int):
        """Read one CI (a sub-generator); returns True on a cache hit."""
        self.reads += 1
        hit = self.cache.lookup(ci)
        if hit:
            t = costs.DASD_READ_HIT_MS / 1000.0
        else:
            self.read_misses += 1
            self.cache.load(ci)
            t = costs.DASD_READ_HIT_MS / 1000.0 + self._miss_s()
        yield from self._io(t)
        return hit

    def write(self, ci: int, count: int = 1):
        """Write ``count`` CIs in one channel program (DASD fast write)."""
        self.writes += count
        if ci >= 0:
            self.cache.load(ci)
        yield from self._io(costs.DASD_FAST_WRITE_MS / 1000.0 * count)

    def _io(self, t: float):
        eng = self.engine
        t0 = eng.now
        tr = self.trace
        self._io_id += 1
        io_id = self._io_id
        if tr is not None:
            tr.record(t0, self._vol, self._k_start, io_id, 1)
        yield self.exposures
        yield t
        self.exposures.release()
        self.io_time += eng.now - t0
        if tr is not None:
            tr.record(eng.now, self._vol, self._k_end, io_id, 0)
