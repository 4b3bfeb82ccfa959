"""The write path: DASD fast write into cache and NVS, destage to the drives.

A write I/O moves its records over the channel into cache slots and a copy
into the control unit's non-volatile storage (NVS); the unit ends the I/O as
soon as both copies are in (a **fast write**: no drive in the response time).
It then destages the modified records to the drives in the background — on a
RAID-5 rank a small write reads the old data and parity and writes the new
(:meth:`models.io.backend.Backend.destage`) — and frees their NVS space when
that is done. If NVS is full, the write waits (disconnected) until a destage
frees room: the "NVS full" delay RMF reports, and how a write burst larger
than NVS falls to drive speed.

**Write hits join a queued destage.** A destage is booked on its drives
when its write ends, behind whatever those drives already have queued
(FIFO). Until the first of its drive operations starts, the track's
modified records are still only in cache and NVS; a write of the same
records in that time is a write hit on modified data and is carried by that
destage (it writes the records as they are when it runs): no new drive
operation. So there is one destage per track per stay in NVS, the temporal
locality a write cache exists to exploit (Gill & Modha, "WOW: Wise Ordering
for Writes", USENIX FAST 2005: writes are destaged asynchronously from NVS,
and a write hit on a write group already there only sets its recency bit;
it is destaged once, https://www.usenix.org/legacy/events/fast05/tech/
full_papers/gill/gill_html/node12.html). The rule
has no constant: under a light load a destage starts at once and nothing
joins it; under a backlog rewrites of hot tracks coalesce, and the more
the backlog, the more they do. Choices (documented in docs/model-io.md):

* a write joins only if its records lie within the span the destage was
  booked for (its first to its last record: the RAID-5 small write writes
  that whole span); a record outside it gets a destage of its own, because
  the booked one's drive time cannot grow after it was booked;
* a joining write's records that the destage did not hold yet are held in
  NVS until it is done; records it holds already take no more NVS;
* the NVS room check before a write is unchanged (room for all of its
  records), so a write that will join can still wait for a full NVS.

The unit destages in the order writes end, with no deliberate delay and no
NVS thresholds (WOW's CSCAN order and high/low marks are not modelled).

Source of the one constant: DS8000 NVS is sized at 1/32 of the installed
cache (IBM DS8800 Architecture and Implementation, SG24-8886, "NVS").
"""
from __future__ import annotations

from heapq import heappop, heappush
from typing import Any

from models.io import channel as ch
from models.io.backend import EXTENT_TRACKS

try:
    import cython
except ImportError:  # interpreted, Cython not installed: nothing is compiled
    class cython:  # type: ignore[no-redef]
        compiled = False

if not cython.compiled:
    # Compiled, writes.pxd cimports them (typed locals of book_write, C
    # calls of the bit operations).
    from models.io.backend import Backend
    from models.io.cache import CacheStats
    from models.io.channel import bits, lowest, top
    # Declared in writes.pxd for the compiled NVS only (libc's allocator).
    free: Any = None
    realloc: Any = None

#: The extent's tracks, a C integer compiled (writes.pxd).
_EXTENT = EXTENT_TRACKS
#: NVS as a fraction of the cache (DS8000: 1/32 of installed memory).
NVS_FRACTION = 1.0 / 32.0
#: Stripe rows of sequential writes a volume keeps open at once: one per
#: sequential stream the unit follows (``models.io.volume.SEQ_STREAMS``,
#: not imported: volume imports this module; a test checks they agree).
OPEN_ROWS = 8


class NVS:
    """Non-volatile write cache: bytes held until their destage completes.

    The holds are a min-heap of ``(destage done, bytes)``: interpreted a
    ``heapq`` list of tuples, compiled two C arrays ordered the same way
    (by done, then bytes), so both free the same holds in the same order.

    Parameters
    ----------
    capacity : int
        Bytes.
    """

    def __init__(self, capacity: int):
        if capacity < 1:
            raise ValueError("NVS needs at least one byte")
        self.capacity = capacity
        self.used = 0
        #: Bytes of sequential writes waiting for their stripe row's destage
        #: (in ``used``, not yet in the holds: their destage is not booked).
        self.deferred = 0
        if cython.compiled:
            self._fn = self._fcap = 0
        else:
            self._frees: list = []        # heap of (destage done, bytes)

    def __dealloc__(self):
        if cython.compiled:
            free(self._fu)
            free(self._fb)

    def holds(self) -> list[tuple[float, int]]:
        """``(destage done, bytes)`` of what NVS holds, soonest first."""
        if cython.compiled:
            return sorted([(self._fu[i], self._fb[i]) for i in range(self._fn)])
        return sorted(self._frees)

    def room_at(self, t: float, nbytes) -> float:
        """Earliest time from ``t`` at which ``nbytes`` fit (frees what is done)."""
        if cython.compiled:
            while self._fn and self._fu[0] <= t:
                self.used -= self._pop()
        else:
            frees = self._frees
            while frees and frees[0][0] <= t:
                self.used -= heappop(frees)[1]
        if nbytes > self.capacity:
            raise ValueError(f"a {nbytes}-byte write exceeds NVS ({self.capacity} bytes)")
        while self.used + nbytes > self.capacity:
            if cython.compiled:
                if self._fn == 0:   # as heappop on an empty list: never reads past the heap
                    raise IndexError("NVS holds nothing to free")
                done = self._fu[0]
                self.used -= self._pop()
            else:
                done, b = heappop(frees)
                self.used -= b
            t = done
        return t

    def hold(self, nbytes, until: float) -> None:
        """Keep ``nbytes`` in NVS until their destage is done at ``until``."""
        if cython.compiled:
            self._push(until, nbytes)       # first: out of memory leaves ``used`` as it was
        else:
            heappush(self._frees, (until, nbytes))
        self.used += nbytes

    # -- the compiled heap (heapq's order: done, then bytes) ---------------------
    def _push(self, until, nbytes):
        if cython.compiled:
            if self._fn == self._fcap:
                cap: cython.Py_ssize_t = 2 * self._fcap if self._fcap else 64
                u = realloc(self._fu, cap * cython.sizeof(cython.double))
                if u == cython.NULL:
                    raise MemoryError()
                self._fu = cython.cast(cython.pointer(cython.double), u)
                b = realloc(self._fb, cap * cython.sizeof(cython.longlong))
                if b == cython.NULL:
                    raise MemoryError()
                self._fb = cython.cast(cython.pointer(cython.longlong), b)
                self._fcap = cap
            i: cython.Py_ssize_t = self._fn
            parent: cython.Py_ssize_t
            self._fn += 1
            while i > 0:
                parent = (i - 1) >> 1
                if until < self._fu[parent] or (until == self._fu[parent]
                                                and nbytes < self._fb[parent]):
                    self._fu[i] = self._fu[parent]
                    self._fb[i] = self._fb[parent]
                    i = parent
                else:
                    break
            self._fu[i] = until
            self._fb[i] = nbytes
        return 0

    def _pop(self):
        """Take the soonest hold off the heap; returns its bytes."""
        if cython.compiled:
            out: cython.longlong = self._fb[0]
            self._fn -= 1
            n: cython.Py_ssize_t = self._fn
            if n == 0:
                return out
            u: cython.double = self._fu[n]
            b: cython.longlong = self._fb[n]
            i: cython.Py_ssize_t = 0
            c: cython.Py_ssize_t
            while True:
                c = 2 * i + 1
                if c >= n:
                    break
                if c + 1 < n and (self._fu[c + 1] < self._fu[c] or (
                        self._fu[c + 1] == self._fu[c] and self._fb[c + 1] < self._fb[c])):
                    c += 1
                if self._fu[c] < u or (self._fu[c] == u and self._fb[c] < b):
                    self._fu[i] = self._fu[c]
                    self._fb[i] = self._fb[c]
                    i = c
                else:
                    break
            self._fu[i] = u
            self._fb[i] = b
            return out
        return 0


def _sweep(vol, t: float) -> None:
    """Forget destages that have started by ``t``: no later write can join
    them (writes book in time order: every write goes through
    ``VolumeIO._io``, which reaches the drives in time order, see
    models/io/volume.py). Keeps the record as small as the backlog; when it
    runs does not change any figure."""
    vol._destaging = {k: e for k, e in vol._destaging.items() if e[0] > t}
    vol._destaging_limit = 2 * len(vol._destaging) + 64


def book_write(vol, nvs, t: float, track, mask, seq) -> None:
    """A write's records ``mask`` of ``track`` are in cache and NVS at ``t``:
    destage them. In the open stripe row of a sequential stream
    (:func:`_to_stride`, ``seq``: the write is part of one); else joining
    the track's destage booked and not yet started when it covers them;
    else in a destage of their own, booked now on the drives. The unit's
    side of each track of a write's channel program
    (:class:`models.io.volume.IORequest` runs the program: the channel,
    the NVS room and the cache slots, then this at the track's sync point).
    """
    # Typed for the compiled build (writes.pxd); no effect interpreted.
    st: CacheStats = vol.stats
    pending: dict
    ent: tuple
    first: cython.long
    last: cython.long
    count: cython.long
    held: cython.ulonglong
    fresh: cython.ulonglong
    rec: cython.longlong = vol.record_bytes
    done: float
    start: float
    ops: cython.long
    if _to_stride(vol, nvs, t, track, mask, seq):
        return
    first = lowest(mask)
    last = top(mask)
    pending = vol._destaging
    ent = pending.get(track)
    if ent is not None and t < ent[0] and first >= ent[2] and last <= ent[3]:
        # A write hit on modified data: the track's destage is booked but
        # no drive has started it, and it covers these records, so it
        # writes them as they are now. No new drive operations; records
        # it did not hold yet stay in NVS until it is done.
        held = ent[4]
        fresh = mask & ~held
        if fresh:
            nvs.hold(bits(fresh) * rec, ent[1])
            pending[track] = (ent[0], ent[1], ent[2], ent[3], held | mask)
        st.coalesced_writes += 1
        return
    count = last - first
    done, ops, start = vol.backend.destage(t, track, first, count)
    nvs.hold(bits(mask) * rec, done)
    pending[track] = (start, done, first, last, mask)
    if len(pending) > vol._destaging_limit:
        _sweep(vol, t)
    st.destages += 1
    st.destage_ops += ops
    st.destage_bytes += count * vol.backend.rec_bytes


# -- sequential writes: destaged a stripe row at a time ---------------------------

def _sequential(vol, groups):
    """Whether the unit sees this write as part of a sequential stream: it
    starts at the record after the volume's previous write ends, or in the
    window of the stream sequential detection follows
    (:meth:`Staging._in_stream`). Native 3390s have no stripes; with
    sequential detection off the unit sees no stream."""
    if vol.backend.native or not vol.seq_detect:
        return False
    track: cython.longlong
    mask: cython.ulonglong
    track, mask = groups[0]
    return _sequential_one(vol, track, mask)


def _sequential_one(vol, track, mask):
    """:func:`_sequential` of a write whose first group is ``(track, mask)``."""
    if vol.backend.native or not vol.seq_detect:
        return False
    return track * vol.rpt + lowest(mask) == vol._write_next or vol._in_stream(track)


def _row_of(be, track):
    """(key, first track, one past the last track) of a track's stripe row."""
    rt: cython.longlong = be.strip_tracks * be.data_per_row
    extent: cython.longlong = track // _EXTENT
    row: cython.longlong = track % _EXTENT // rt
    lo: cython.longlong = extent * _EXTENT + row * rt
    hi: cython.longlong = min(lo + rt, (extent + 1) * _EXTENT)
    return extent * be.extent_rows + row, lo, hi


def _to_stride(vol, nvs, t: float, track, mask, seq):
    """Put a track write of a sequential stream into its stripe row's
    deferred destage; False when it takes the small-write path instead.

    A row is opened by a sequential write and gathers every later write of
    its tracks (write hits on modified data). It is destaged as one strip
    write when all its records are written, when the stream opens the row
    after it (it has moved on), or when the volume has ``OPEN_ROWS`` rows
    open (the oldest goes). A row opens only while the deferred bytes of
    the unit's NVS stay within half of it, so a write always finds room.
    """
    held: cython.ulonglong
    fresh: cython.ulonglong
    key: cython.longlong
    lo: cython.longlong
    hi: cython.longlong
    rec: cython.longlong
    nbytes: cython.longlong
    be: Backend = vol.backend
    if be.native:
        return False            # a native 3390 has no stripe rows
    rows: dict = vol._open_rows
    if not seq and not rows:
        return False            # no row open to join, none to open (as below)
    key, lo, hi = _row_of(be, track)
    row = rows.get(key)
    rec = vol.record_bytes
    if row is None:
        if not seq or nvs.deferred + (hi - lo) * vol.rpt * rec > nvs.capacity // 2:
            return False
        if key - 1 in rows:
            _destage_row(vol, nvs, t, key - 1)
        if len(rows) >= OPEN_ROWS:
            _destage_row(vol, nvs, t, next(iter(rows)))
        row = rows[key] = [0, lo, hi, {}]
    tracks = row[3]
    held = tracks.get(track, 0)
    if held:
        vol.stats.coalesced_writes += 1
    fresh = mask & ~held
    tracks[track] = held | mask
    nbytes = bits(fresh) * rec
    row[0] += nbytes
    nvs.used += nbytes
    nvs.deferred += nbytes
    if len(tracks) == hi - lo:
        full = vol.full_mask
        for m in tracks.values():
            if m != full:
                return True
        _destage_row(vol, nvs, t, key)
    return True


def _destage_row(vol, nvs, t: float, key) -> None:
    """Book the destage of open row ``key`` at ``t`` and hold its bytes in
    NVS until it is done.

    The unit needs the row's unmodified records for the new parity: those
    in cache cost nothing, the others a read each (a reconstruct write).
    When that takes more reads than the small writes of the modified tracks
    (old data of each and the old parity), it does those instead, as a
    RAID-5 controller picks the write with fewer reads.
    """
    nbytes, lo, hi, tracks = vol._open_rows.pop(key)
    be = vol.backend
    cache = vol._cache
    kb = vol.kb
    full = vol.full_mask
    writes = []
    reads = []
    for track in range(lo, hi):
        m = tracks.get(track, 0)
        if m:
            first = ch.lowest(m)
            writes.append((track, first, m.bit_length() - first))
        need = full & ~m & ~cache.held(kb + track)
        if need:
            first = ch.lowest(need)
            reads.append((track, first, need.bit_length() - first))
    st = vol.stats
    nvs.used -= nbytes
    nvs.deferred -= nbytes
    if len(reads) <= len(writes) + 1:
        done, ops, _ = strip_write(be, t, writes, reads)
        nvs.hold(nbytes, done)
        st.destages += 1
        st.destage_ops += ops
        for w in writes:
            st.destage_bytes += w[2] * be.rec_bytes
        return
    for track, first, count in writes:
        done, ops, _ = be.destage(t, track, first, count)
        nvs.hold(tracks[track].bit_count() * vol.record_bytes, done)
        st.destages += 1
        st.destage_ops += ops
        st.destage_bytes += count * be.rec_bytes


def strip_write(be, t: float, writes, reads) -> tuple[float, int, float]:
    """Destage the modified records of one RAID-5 stripe row at once.

    A strip (full-stride) write: the unit computes the row's new parity
    from cache, so it reads no old data or parity. ``reads`` are the
    row's records that are neither modified nor in cache, which the
    parity needs (none for a wholly written row): each a read on its
    data drive first. Then each ``(track, first, count)`` of ``writes``
    (in track order) is written once on its data drive, consecutive
    tracks of a strip streaming on, and the parity of the span they
    cover once on the row's parity drive. No second turn, as a small
    write's read-then-write needs. Returns (time all writes are done,
    drive operations, time the first of them starts).
    """
    rec = be.rec_bytes
    ssd = be.ssd
    ready = t
    start = -1.0
    ops = 0
    for track, first, count in reads:
        d, base = be.locate(track)
        start = _first_free(be, t, d, start)
        if ssd:
            end = be._ssd(t, d, count * rec)
        else:
            end = be._hdd(t, d, base + first * rec, count * rec)
        ops += 1
        if end > ready:
            ready = end
    done = ready
    lo = hi = -1
    row_base = 0
    touched: list = []
    for track, first, count in writes:
        d, base = be.locate(track)
        start = _first_free(be, ready, d, start)
        in_strip = base % be.strip_bytes + first * rec
        row_base = base - base % be.strip_bytes
        if lo < 0 or in_strip < lo:
            lo = in_strip
        if in_strip + count * rec > hi:
            hi = in_strip + count * rec
        end = _write(be, ready, d, base + first * rec, count * rec, touched)
        ops += 1
        if end > done:
            done = end
    if lo >= 0:
        p = be.parity_drive(writes[0][0])
        start = _first_free(be, ready, p, start)
        end = _write(be, ready, p, row_base + lo, hi - lo, touched)
        ops += 1
        if end > done:
            done = end
    if not ssd:
        for d in touched:
            be.no_lookahead(d)    # a write leaves no read look-ahead behind
    return done, ops, start

def _first_free(be, t: float, d, start: float) -> float:
    """The earlier of ``start`` (-1: none yet) and when drive ``d`` can begin."""
    free = be.drive_free(d)
    if free < t:
        free = t
    return free if start < 0.0 or free < start else start

def _write(be, t: float, d, offset, nbytes, touched: list) -> float:
    """One write on drive ``d``, queued FIFO. The first of a destage on a
    disk positions anew (no read look-ahead applies to a write); further
    ones continue from where it ended, as queued reads do."""
    if be.ssd:
        return be._ssd(t, d, nbytes)
    if d not in touched:
        touched.append(d)
        be.no_lookahead(d)
    return be._hdd(t, d, offset, nbytes)
