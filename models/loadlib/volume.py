"""Channel programs against one 3390 volume: cached (DS8000) or native.

Two back ends, chosen by the ``device`` parameter:

* **Cached** (HDD10K, HDD15K, SSD): an emulated 3390 behind a control-unit
  cache. A track not yet in cache is staged whole on first touch (a seek,
  rotational latency and the track's transfer off the drive: DISC time);
  later reads hit. CONN time counts the channel program's steps with the
  I/O model's protocol costs (``models/io/channel.py``: PEND start, Locate
  Record domains, CCW exchanges, 4 KB slots, link rate; zHPF TCW and
  addresses), so program fetch and DB2 pay the same for the same step. A
  Search Key High or Equal loop re-executes the Search CCW for every
  directory block that passes: the channel and device stay busy for each.
* **Native 3390** (``3390``): no cache. Every channel program waits for its
  first record to come round (the disk keeps turning while the CPU works),
  then records pass under the head at the rotation speed, so a directory
  search costs real revolutions.

The library is assumed to fit in the control unit's cache (gigabytes against
a few megabytes), so nothing is evicted. Timing constants: :mod:`costs`;
drive timing: :mod:`models.io.devices`; protocol steps: :mod:`models.io.channel`
(neither copied here). The I/O model's own ``IOSubsystem`` reads fixed 4 KB
records and has no search commands, so the keyed, variable-length PDS
records are timed here with its constants.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from models.engine import Engine, Resource, Trace
from models.io.channel import (ADDRESS_S, CCW_S, LR_DOMAIN_S, SLOT_S, START_S, TCW_S)
from models.io.channel import LINK_BYTES_S as _LINKS
from models.io.devices import profile
from models.io.geometry import (CELLS_PER_TRACK, MODELS, PAGE_BYTES, TRACK_CAPACITY,
                                TRACKS_PER_CYLINDER, record_cells)
from models.engine import trace_vocab as V
from models.loadlib import costs as C
from models.loadlib.layout import Record

#: FICON Express8S link rate (models/io/channel.py), bytes per second.
LINK_BYTES_S = _LINKS["FEx8S"]
#: The volume the library sits on (a 3390-9) and where the data set starts.
VOLUME_CYLINDERS = MODELS["3390-9"]
LIBRARY_START_CYL = 1000


@dataclass
class IoStats:
    """RMF-style sums for one volume: I/O count and response components (s)."""

    ios: int = 0
    pend: float = 0.0
    disc: float = 0.0
    conn: float = 0.0
    hits: int = 0
    misses: int = 0
    bytes: int = 0
    records_searched: int = 0
    extra: dict = field(default_factory=dict)

    def as_tuple(self) -> tuple:
        """The summed quantities, in a fixed order (for snapshots)."""
        return (self.ios, self.pend, self.disc, self.conn, self.hits, self.misses,
                self.bytes, self.records_searched)

    def add_scaled(self, delta: tuple, k: float) -> None:
        """Add ``k`` times a difference of two :meth:`as_tuple` snapshots."""
        self.ios += delta[0] * k
        self.pend += delta[1] * k
        self.disc += delta[2] * k
        self.conn += delta[3] * k
        self.hits += delta[4] * k
        self.misses += delta[5] * k
        self.bytes += delta[6] * k
        self.records_searched += delta[7] * k


class Volume:
    """One 3390 volume holding the library, with its channel path.

    Parameters
    ----------
    engine : Engine
    device : str
        HDD10K, HDD15K, SSD (cached) or 3390 (native).
    trace : Trace or None
    base_track : int
        Absolute track where the data set starts.
    """

    def __init__(self, engine: Engine, device: str, trace: Trace | None = None,
                 base_track: int = LIBRARY_START_CYL * TRACKS_PER_CYLINDER, name: str = "VOL0",
                 channel: Resource | None = None, control_unit: str = "CU"):
        self.engine = engine
        self.name = name
        self.drive = profile(device)
        self.native = device == "3390"
        self.base = base_track
        #: The channel path (shared by the volumes drawn on the same CHPID).
        self.channel = channel if channel is not None else Resource(engine, 1, "CHP0")
        self.cached: set[int] = set()
        self.arm_cyl = 0
        self.rng = engine.stream(f"{name}/rotation")
        self.stats = IoStats()
        self.io_id = 0
        self.trace = trace
        if trace is not None:
            self._vol = trace.component(name, V.VOL)
            self._drv = trace.component(f"{name} drive", V.DRV)
            self._cu = trace.component(control_unit, V.CU)
            self._k = {k: trace.kind(k) for k in (V.IO_START, V.IO_END, V.IO_PHASE, V.SEEK,
                                                 V.TRACK_READ, V.CACHE_HIT, V.CACHE_MISS,
                                                 V.STAGE)}
            trace.meta.setdefault("records_per_track", 45)

    # -- public channel programs ----------------------------------------------------------
    def search_and_read(self, records: list[Record], key_len: int):
        """Search Key High or Equal over ``records``, then read the last one.

        A generator for an engine process; the channel and device stay busy
        for every record passed. Returns nothing; statistics accumulate.
        """
        yield from self._io(records, searched=len(records) - 1, key_len=key_len,
                            zhpf=False, read=records[-1:])

    def read(self, records: list[Record], zhpf: bool = False, interlocks: int = 0):
        """Read ``records`` (consecutive, possibly over several tracks) in one I/O.

        ``interlocks`` counts CCWs whose count an earlier read in the same
        channel program fills in (program fetch's control records): the
        channel cannot prefetch past them, so for each the control unit
        ends the chained domain and orients again (one more Locate Record
        domain and CCW exchange).
        """
        yield from self._io(records, searched=0, key_len=0, zhpf=zhpf, read=records,
                            interlocks=interlocks)

    # -- one I/O ---------------------------------------------------------------------------------
    def _io(self, records: list[Record], searched: int, key_len: int, zhpf: bool,
            read: list[Record], interlocks: int = 0):
        eng = self.engine
        yield self.channel
        self.io_id += 1
        t0 = eng.now
        nbytes = sum(r.length + key_len for r in read)
        pend = START_S
        if self.native:
            disc, conn, rows = self._native_time(records, t0 + pend)
        else:
            disc, conn, rows = self._cached_time(records, searched, len(read), nbytes, zhpf,
                                                 interlocks)
        if self.trace is not None:
            self._trace_io(t0, pend, disc, conn, records, rows)
        st = self.stats
        st.ios += 1
        st.pend += pend
        st.disc += disc
        st.conn += conn
        st.bytes += nbytes
        st.records_searched += searched
        yield pend + disc + conn
        self.channel.release()
        yield C.REDISPATCH_S

    def _cached_time(self, records: list[Record], searched: int, nread: int, nbytes: int,
                     zhpf: bool, interlocks: int) -> tuple[float, float, list]:
        """DISC for staging missed tracks; CONN from the channel program's steps.

        Command mode (models/io/channel.py costs): a Locate Record domain per
        track, plus one per interlocked CCW (the control unit orients again
        for a read whose count it had to wait for); a CCW exchange per read,
        per orientation and per block a search passes (the Search CCW is
        re-executed for each); a 4 KB slot moved per 4 KB of data. zHPF: one
        TCW, one address per track run, the slots.
        """
        disc = 0.0
        rows: list = []
        tracks = sorted({r.track for r in records})
        for tr in tracks:
            if tr in self.cached:
                self.stats.hits += 1
                continue
            self.stats.misses += 1
            disc += self._stage(tr, rows, disc)
            self.cached.add(tr)
        slots = sum(-(-(r.length + r.key_len) // PAGE_BYTES) for r in records[-nread:])
        if zhpf:
            conn = TCW_S + ADDRESS_S * len(tracks)
        else:
            domains = len(tracks) + interlocks
            conn = LR_DOMAIN_S * domains + CCW_S * (domains + nread + searched)
        conn += SLOT_S * slots + nbytes / LINK_BYTES_S
        return disc, conn, rows

    def _stage(self, track: int, rows: list, at: float) -> float:
        """Seconds to stage ``track`` from the drive into cache."""
        d = self.drive
        cyl = (self.base + track) // TRACKS_PER_CYLINDER
        seek = d.seek_ms(abs(cyl - self.arm_cyl) / VOLUME_CYLINDERS)
        rows.append((V.SEEK, at, self.arm_cyl, cyl))
        self.arm_cyl = cyl
        latency = self.rng.random() * d.rotation_ms
        ms = d.access_ms + seek + latency + d.transfer_ms(TRACK_CAPACITY)
        rows.append((V.STAGE, at + ms / 1e3, self.base + track, 2))
        return ms / 1e3

    def _native_time(self, records: list[Record], t_start: float) -> tuple[float, float, list]:
        """Native 3390: seek, wait for the first record, records pass at rotation speed."""
        d = self.drive
        rot = d.rotation_ms / 1e3
        cell_s = rot / CELLS_PER_TRACK
        rows: list = []
        first = records[0]
        cyl = (self.base + first.track) // TRACKS_PER_CYLINDER
        seek = d.seek_ms(abs(cyl - self.arm_cyl) / VOLUME_CYLINDERS) / 1e3
        if cyl != self.arm_cyl:
            rows.append((V.SEEK, t_start, self.arm_cyl, cyl))
        self.arm_cyl = cyl
        t = t_start + seek
        angle = (t / rot) % 1.0
        wait = ((first.cell / CELLS_PER_TRACK - angle) % 1.0) * rot
        disc = seek + wait
        # From the first record's start to the last record's end, crossing
        # track boundaries at the index point (head switch within a cylinder).
        last = records[-1]
        span = (last.track - first.track) * CELLS_PER_TRACK + last.cell - first.cell
        end_cells = span + _cells_of(last)
        conn = end_cells * cell_s + LR_DOMAIN_S + CCW_S * len(records)
        return disc, conn, rows

    # -- trace ----------------------------------------------------------------------------------------
    def _trace_io(self, t0: float, pend: float, disc: float, conn: float,
                  records: list[Record], rows: list) -> None:
        tr, k = self.trace, self._k
        rec = tr.record
        rec(t0, self._vol, k[V.IO_START], self.io_id, len(records))
        rec(t0, self._vol, k[V.IO_PHASE], self.io_id, V.PEND)
        t_disc = t0 + pend
        if disc > 0:
            rec(t_disc, self._vol, k[V.IO_PHASE], self.io_id, V.DISC)
        for kind, t, a, b in rows:
            if kind == V.SEEK:
                rec(t_disc + (0 if self.native else t), self._drv, k[V.SEEK], a, b)
            else:
                rec(t_disc + t, self._cu, k[V.STAGE], a, b)
        t_conn = t_disc + disc
        rec(t_conn, self._vol, k[V.IO_PHASE], self.io_id, V.CONN)
        hit = k[V.CACHE_HIT] if not rows else k[V.CACHE_MISS]
        if not self.native:
            rec(t_conn, self._cu, hit, self.base + records[0].track, records[0].number)
        step = conn / max(1, len(records))
        for i, r in enumerate(records):
            rec(t_conn + i * step, self._drv, k[V.TRACK_READ], self.base + r.track, r.number)
        rec(t_conn + conn, self._vol, k[V.IO_END], self.io_id, 0)


def _cells_of(rec: Record) -> int:
    return record_cells(rec.length, rec.key_len)
