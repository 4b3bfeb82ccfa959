"""Trace rows of the I/O model (docs/trace.md vocabulary).

Only built when a run asks for a trace, so the hot path pays one ``is not
None`` test per step otherwise.
"""
from __future__ import annotations

from models.engine import trace_vocab as V
from models.io.cache import MODE_NAMES
from models.engine.trace_vocab import CONN, DISC, IOSQ, PEND  # noqa: F401  (phase numbers)


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
        self.vol = trace.component(volume, V.VOL)
        self.cu = trace.component(cu, V.CU)
        drives = backend.drives()
        self.drives = {d: trace.component(drive_names(d) if drive_names else f"DRV{i}", V.DRV)
                       for i, d in enumerate(drives)}
        k = trace.kind
        self.k = {name: k(name) for name in (
            V.IO_START, V.IO_END, V.IO_PHASE, V.SEEK, V.TRACK_READ, V.CACHE_HIT,
            V.CACHE_MISS, V.CACHE_WAIT, V.STAGE, V.EVICT, V.CHANNEL_BUSY)}
        self._cyl = {d: backend.cyl[d] for d in drives}
        trace.meta.setdefault("records_per_track", backend.records_per_track)
        trace.meta.setdefault("staging_modes", list(MODE_NAMES))

    def io_start(self, t: float, rid: int, pages: int) -> None:
        self.t.record(t, self.vol, self.k[V.IO_START], rid, pages)
        self.t.record(t, self.vol, self.k[V.IO_PHASE], rid, IOSQ)

    def io_end(self, t: float, rid: int) -> None:
        self.t.record(t, self.vol, self.k[V.IO_END], rid, 0)

    def phase(self, t: float, rid: int, phase: int) -> None:
        self.t.record(t, self.vol, self.k[V.IO_PHASE], rid, phase)

    def wait(self, t: float, rid: int, track: int, need: int, ready: float,
             records: int = 0) -> None:
        """The channel asks for records that are not in cache: DISC until ready.

        Counted as the statistics count a read (RMF: one miss per
        disconnect): the first record the I/O waits for is the miss, the
        others it waits for are ``cache_wait`` rows (hits when they transfer
        on the reconnect) and the rest of ``records``, already in cache, hits.
        """
        rec = self.t.record
        first = (need & -need).bit_length() - 1          # -1: waits on a held stage
        rec(t, self.cu, self.k[V.CACHE_MISS], track, first + 1)
        r, rest = 0, need & ~(1 << first) if first >= 0 else 0
        while rest:
            if rest & 1:
                rec(t, self.cu, self.k[V.CACHE_WAIT], track, r + 1)
            rest >>= 1
            r += 1
        self.hits(t, track, records & ~need)
        rec(t, self.vol, self.k[V.IO_PHASE], rid, DISC)
        if ready <= t:
            rec(t, self.vol, self.k[V.IO_PHASE], rid, CONN)   # else at the reconnect

    def hits(self, t: float, track: int, mask: int) -> None:
        r = 0
        while mask:
            if mask & 1:
                self.t.record(t, self.cu, self.k[V.CACHE_HIT], track, r + 1)
            mask >>= 1
            r += 1

    def stage(self, t: float, done: float, track: int, first: int, count: int, mode: int) -> None:
        """A stage: seek row, one track_read row per record, then the stage row."""
        be = self.backend
        drive, _off = be.locate(track)
        comp = self.drives[drive]
        cyl = be.drive_cylinder(track)
        if cyl != self._cyl[drive]:
            self.t.record(t, comp, self.k[V.SEEK], self._cyl[drive], cyl)
            self._cyl[drive] = cyl
        per = be.record_transfer_s()
        for i in range(count):
            self.t.record(done - (count - i - 1) * per, comp, self.k[V.TRACK_READ],
                          track, first + i + 1)
        self.t.record(done, self.cu, self.k[V.STAGE], track, mode)

    def evict(self, track: int, slots: int) -> None:
        self.t.record(self.engine.now, self.cu, self.k[V.EVICT], track, slots)

    def connected(self, path, since: float, t: float, rid: int) -> None:
        """The I/O was connected to ``path`` from ``since`` to ``t``
        (``channel_busy``: a = I/O id, b = microseconds)."""
        if path.comp < 0:
            path.comp = self.t.component(path.name, V.CHP)
        self.t.record(since, path.comp, self.k[V.CHANNEL_BUSY], rid,
                      self.t.whole(path.comp, (t - since) * 1e6))
