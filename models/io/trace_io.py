"""Trace rows of the I/O model (docs/trace.md vocabulary).

Only built when a run asks for a trace, so the hot path pays one ``is not
None`` test per step otherwise.

Compiled with the I/O model (``trace_io.pxd``), a row goes straight into
the five columns of the :class:`models.engine.Trace` (its ``array.array``
objects, grown in place), with the kind ids as C ints: a traced Large shop
records about ten rows an I/O, and a Python call to ``Trace.record`` with
a dictionary look-up for its kind was most of the traced run's extra time.
Interpreted, each row is one ``Trace.record`` call. The rows are the same.

A tracer can be switched off (:attr:`IOTrace.on`, for a run that records
only its end: models/workloads/system.py): it then records nothing but
keeps what the next rows depend on, the cylinder each drive's arm was
last sent to (a seek row says from where) and the exact channel-busy
totals rows are rounded from (:meth:`Trace.whole`).
"""
from __future__ import annotations

from typing import Any

from models.engine import trace_vocab as V
from models.io.cache import MODE_NAMES
from models.engine.trace_vocab import CONN, DISC, IOSQ, PEND  # noqa: F401  (phase numbers)

try:
    import cython
except ImportError:  # interpreted, Cython not installed: nothing is compiled
    class cython:  # type: ignore[no-redef]
        compiled = False

if not cython.compiled:
    # Compiled only (trace_io.pxd): appends to the trace's C columns.
    _append_d: Any = None
    _append_i: Any = None
    _append_q: Any = None


class IOTrace:
    """Records io_start/io_phase/io_end, seek, track_read, cache_hit/miss,
    stage, evict and channel_busy rows for one volume.

    Parameters
    ----------
    trace : models.engine.Trace
    volume : str
        Volume component name (its canvas label, or ``VOL0``).
    backend : models.io.backend.Backend
        For drive numbers, cylinders and record timing.
    engine : models.engine.Engine
        For the time of evictions.
    cu : str
        Control unit component name (``CU`` by default).
    drive_names : callable or None
        ``drive_names(pool index)`` gives a drive's component name; default
        ``DRV<i>`` by the drive's place among the volume's drives.
    """

    def __init__(self, trace, volume: str, backend, engine, cu: str = "CU", drive_names=None):
        self.t = trace
        self.engine = engine
        self.backend = backend
        self.on = True
        self.vol = trace.component(volume, V.VOL)
        self.cu = trace.component(cu, V.CU)
        drives = backend.drives()
        self.drives = {d: trace.component(drive_names(d) if drive_names else f"DRV{i}", V.DRV)
                       for i, d in enumerate(drives)}
        k = trace.kind
        self.k = {name: k(name) for name in (
            V.IO_START, V.IO_END, V.IO_PHASE, V.SEEK, V.TRACK_READ, V.CACHE_HIT,
            V.CACHE_MISS, V.CACHE_WAIT, V.STAGE, V.EVICT, V.CHANNEL_BUSY)}
        self.k_start, self.k_end, self.k_phase = k(V.IO_START), k(V.IO_END), k(V.IO_PHASE)
        self.k_seek, self.k_read, self.k_hit = k(V.SEEK), k(V.TRACK_READ), k(V.CACHE_HIT)
        self.k_miss, self.k_wait, self.k_stage = k(V.CACHE_MISS), k(V.CACHE_WAIT), k(V.STAGE)
        self.k_evict, self.k_busy = k(V.EVICT), k(V.CHANNEL_BUSY)
        self._cyl = {d: backend.cyl[d] for d in drives}
        trace.meta.setdefault("records_per_track", backend.records_per_track)
        trace.meta.setdefault("staging_modes", list(MODE_NAMES))
        # The trace's columns and its ring's bound (compiled: appended to directly).
        self._tt, self._tc, self._tk = trace._t, trace._c, trace._k
        self._ta, self._tb = trace._a, trace._b
        self._limit = -1 if trace.limit is None else trace.limit

    def _rec(self, t: float, comp, kind, a, b) -> None:
        """One row, as ``Trace.record`` makes it."""
        if cython.compiled:
            _append_d(self._tt, t)
            _append_i(self._tc, comp)
            _append_i(self._tk, kind)
            _append_q(self._ta, a)
            _append_q(self._tb, b)
            if self._limit >= 0 and len(self._tt) >= 2 * self._limit:
                self.t._trim()
        else:
            self.t.record(t, comp, kind, a, b)

    def io_start(self, t: float, rid, pages) -> None:
        if self.on:
            self._rec(t, self.vol, self.k_start, rid, pages)
            self._rec(t, self.vol, self.k_phase, rid, IOSQ)

    def io_end(self, t: float, rid) -> None:
        if self.on:
            self._rec(t, self.vol, self.k_end, rid, 0)

    def phase(self, t: float, rid, phase) -> None:
        if self.on:
            self._rec(t, self.vol, self.k_phase, rid, phase)

    def wait(self, t: float, rid, track, need, ready: float,
             records = 0) -> None:
        """The channel asks for records that are not in cache: DISC until ready.

        Counted as the statistics count a read (RMF: one miss per
        disconnect): the first record the I/O waits for is the miss, the
        others it waits for are ``cache_wait`` rows (hits when they transfer
        on the reconnect) and the rest of ``records``, already in cache, hits.
        """
        if not self.on:
            return
        first = (need & -need).bit_length() - 1 if need else -1   # -1: waits on a held stage
        self._rec(t, self.cu, self.k_miss, track, first + 1)
        r: cython.int = 0
        rest = need & (need - 1) if need else 0     # the others: all but the lowest bit
        while rest:
            if rest & 1:
                self._rec(t, self.cu, self.k_wait, track, r + 1)
            rest >>= 1
            r += 1
        self.hits(t, track, records & ~need)
        self._rec(t, self.vol, self.k_phase, rid, DISC)
        if ready <= t:
            self._rec(t, self.vol, self.k_phase, rid, CONN)   # else at the reconnect

    def hits(self, t: float, track, mask) -> None:
        if not self.on:
            return
        r: cython.int = 0
        while mask:
            if mask & 1:
                self._rec(t, self.cu, self.k_hit, track, r + 1)
            mask >>= 1
            r += 1

    def stage(self, t: float, done: float, track, first, count, mode) -> None:
        """A stage: seek row, one track_read row per record, then the stage row."""
        be = self.backend
        drive, _off = be.locate(track)
        cyl = be.drive_cylinder(track)
        if not self.on:
            self._cyl[drive] = cyl
            return
        comp = self.drives[drive]
        if cyl != self._cyl[drive]:
            self._rec(t, comp, self.k_seek, self._cyl[drive], cyl)
            self._cyl[drive] = cyl
        per = be.record_transfer_s()
        for i in range(count):
            self._rec(done - (count - i - 1) * per, comp, self.k_read, track, first + i + 1)
        self._rec(done, self.cu, self.k_stage, track, mode)

    def evict(self, track, slots) -> None:
        if self.on:
            self._rec(self.engine.now, self.cu, self.k_evict, track, slots)

    def connected(self, path, since: float, t: float, rid) -> None:
        """The I/O was connected to ``path`` from ``since`` to ``t``
        (``channel_busy``: a = I/O id, b = microseconds)."""
        if path.comp < 0:
            path.comp = self.t.component(path.name, V.CHP)
        us = self.t.whole(path.comp, (t - since) * 1e6)
        if self.on:
            self._rec(since, path.comp, self.k_busy, rid, us)
