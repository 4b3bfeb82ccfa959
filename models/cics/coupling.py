"""The coupling facility as VSAM RLS uses it: a lock structure for record
locks, a cache structure for CIs with cross-invalidation of the local buffers
of every other SMSVSAM server, and the list structure the System Logger
writes to. Requests are synchronous: the caller spins its CPU for the
service time (:mod:`models.vsam.costs`), so this class only counts, traces and
returns that time.
"""
from __future__ import annotations

import math

from models.engine import trace_vocab as V
from models.cics.task import LockTable
from models.vsam import costs
from models.vsam.buffers import BufferPool

#: CF request types (also ``trace.meta["cf_requests"]``).
CF_REQUESTS = ("lock", "unlock", "cache_read", "cache_write", "log_write")
LOCK, UNLOCK, CACHE_READ, CACHE_WRITE, LOG_WRITE = range(5)
_SERVICE_US = (costs.CF_LOCK_US, costs.CF_UNLOCK_BATCH_US, costs.CF_CACHE_READ_US,
               costs.CF_CACHE_WRITE_US, costs.CF_LOG_WRITE_US)


class CouplingFacility:
    """Lock, cache and log structures with RMF-style counters.

    Parameters
    ----------
    engine : Engine
    cache_cis : int
        CIs the RLS cache structure holds (its size / 4 KB).
    trace : Trace or None
        Records ``cf_request`` and ``lock_wait`` rows on the facility.
    name : str
        The facility's canvas label (``CF01``).
    """

    def __init__(self, engine, cache_cis: int, trace=None, name: str = "CF"):
        self.engine = engine
        self.locks = LockTable(engine, "RLS lock structure")
        self.cache = BufferPool(cache_cis, "CF cache structure")
        self.servers: list[BufferPool] = []    # local buffer pools to cross-invalidate
        self.count = [0] * len(CF_REQUESTS)
        self.busy_us = [0.0] * len(CF_REQUESTS)
        self.xi = 0
        self.trace = trace
        if trace is not None:
            self._cf = trace.component(name, V.CF)
            self._k_req = trace.kind(V.CF_REQUEST)
            self._k_wait = trace.kind(V.LOCK_WAIT)
            trace.meta["cf_requests"] = list(CF_REQUESTS)

    @property
    def requests(self) -> int:
        """All CF requests so far."""
        return sum(self.count)

    def request(self, kind: int) -> float:
        """Count one synchronous request; return its service time in seconds."""
        us = _SERVICE_US[kind]
        self.count[kind] += 1
        self.busy_us[kind] += us
        if self.trace is not None:
            self.trace.record(self.engine.now, self._cf, self._k_req, kind, int(round(us)))
        return us * 1e-6

    def lock_waited(self, key: int, seconds: float) -> None:
        """Trace a record lock wait that has just ended (µs, rounded up: a
        wait shorter than a microsecond still shows as one)."""
        if self.trace is not None:
            self.trace.record(self.engine.now, self._cf, self._k_wait, key,
                              math.ceil(seconds * 1e6))

    def cache_read(self, ci: int) -> tuple[bool, float]:
        """Read ``ci`` from the cache structure: (hit, service seconds)."""
        return self.cache.lookup(ci), self.request(CACHE_READ)

    def cache_write(self, ci: int, writer: BufferPool | None) -> float:
        """Store ``ci`` and cross-invalidate every other server's copy.

        ``writer`` is the local pool of the server that wrote (kept valid);
        ``None`` when the CI was only read from DASD (no one else can hold a
        changed copy, so nothing is invalidated).
        """
        self.cache.load(ci)
        if writer is not None:
            for pool in self.servers:
                if pool is not writer and pool.discard(ci):
                    self.xi += 1
        return self.request(CACHE_WRITE)
