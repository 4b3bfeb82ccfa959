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

Source of the one constant: DS8000 NVS is sized at 1/32 of the installed
cache (IBM DS8800 Architecture and Implementation, SG24-8886, "NVS").
"""
from __future__ import annotations

from heapq import heappop, heappush

from models.io import channel as ch

try:
    import cython
except ImportError:  # interpreted, Cython not installed: nothing is compiled
    class cython:  # type: ignore[no-redef]
        compiled = False

if not cython.compiled:
    # Compiled, writes.pxd cimports them (typed locals of write_program).
    from models.io.cache import CacheDirectory
    from models.io.request import IOResult
    from models.io.staging import Staging

#: NVS as a fraction of the cache (DS8000: 1/32 of installed memory).
NVS_FRACTION = 1.0 / 32.0


class NVS:
    """Non-volatile write cache: bytes held until their destage completes.

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
        self._frees: list = []        # heap of (destage done, bytes)

    def room_at(self, t: float, nbytes) -> float:
        """Earliest time from ``t`` at which ``nbytes`` fit (frees what is done)."""
        frees = self._frees
        while frees and frees[0][0] <= t:
            self.used -= heappop(frees)[1]
        if nbytes > self.capacity:
            raise ValueError(f"a {nbytes}-byte write exceeds NVS ({self.capacity} bytes)")
        while self.used + nbytes > self.capacity:
            done, b = heappop(frees)
            self.used -= b
            t = done
        return t

    def hold(self, nbytes, until: float) -> None:
        """Keep ``nbytes`` in NVS until their destage is done at ``until``."""
        self.used += nbytes
        heappush(self._frees, (until, nbytes))


def write_program(sub, t: float, groups, res):
    """Generator: the channel program of one write I/O from ``t``; returns its end.

    Yields the times at which the unit is about to issue destages or
    reconnect (so concurrent I/Os reach drives and paths in time order,
    as for reads).

    Parameters
    ----------
    sub : models.io.volume.VolumeIO
    t : float
    groups : list of (track, mask)
    res : IOResult
        Filled in: pend, disc (NVS full), conn, pages, hits (fast writes).
    """
    # Typed for the compiled build (writes.pxd); no effect interpreted. The
    # volume's state is read through ``vol`` (its C fields), its methods
    # called through ``sub``.
    vol: Staging = sub
    r: IOResult = res
    nvs: NVS
    n: cython.long
    ius: cython.long
    total: cython.long
    first: cython.long
    count: cython.long
    t0: float = t
    work_end: float
    since: float
    xfer: float
    step: float
    room: float
    done: float
    st = vol.stats
    rec = vol.record_bytes
    ius, total = ch.program_ius(groups, vol.zhpf, False, vol.rpt)
    path, t, work = sub._connect(t, res, ius, total * rec)
    work_end = t + work
    since = t
    t = sub._start(t, res, t0)
    kb = vol.kb
    cache: CacheDirectory = sub.cache
    nvs = sub.nvs
    xfer = ch.SLOT_S + vol.link_s_per_record
    prev = (-2, -2)
    for track, mask in groups:
        n = mask.bit_count()
        step = ch.ADDRESS_S * ch.runs(mask) if vol.zhpf else \
            ch.command_mode_cost(prev, track, mask, vol.rpt)
        prev = (track, mask.bit_length() - 1)
        t += step + n * xfer
        r.conn += step + n * xfer
        room = nvs.room_at(t, n * rec)
        if room > t:
            # NVS full: the unit disconnects until a destage frees room.
            st.nvs_waits += 1
            r.disc += room - t
            left = (total - r.pages) / total
            path, t, work_end = yield from sub._reconnect(path, since, t, room, res,
                                                          ius * left, total * rec * left)
            since = t
        cache.add(kb + track, mask, t)
        cache.valid(kb + track, t)
        yield t
        first = ch.lowest(mask)
        count = mask.bit_length() - first
        done, ops = vol.backend.destage(t, track, first, count)
        nvs.hold(n * rec, done)
        st.destages += 1
        st.destage_ops += ops
        st.destage_bytes += count * vol.backend.rec_bytes
        r.hits += n
        r.pages += n
    if work_end > t:
        r.conn += work_end - t
        t = work_end
    sub._release(path, since, t, res)
    st.write_requests += r.pages
    st.fast_writes += r.pages
    return t
