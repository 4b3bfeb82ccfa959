"""The per-I/O part of the general I/O workload, compiled with the I/O model.

:class:`models.workloads.io.IOWorkload` lays a workload's blocks out on its
volumes and warms the cache; this module is what it does for every I/O:
draw the block (sequential or Zipf), find its volume and first page, start
the request on the volume, and count what it saw when it ends. It runs
compiled beside ``models/io`` (Cython in pure-Python mode, the types in
``driver.pxd``), interpreted otherwise; the two give the same figures to
the last bit (``tests/models/test_engine_compiled.py``).

An open or counted arrival starts the volume's request itself
(:meth:`models.io.volume.VolumeIO.start`: the request is its own state
machine on the engine's heap, no process and no generator), and the
volume calls :meth:`Driver.io_done` at the request's end, at the instant
a process wrapped round it used to count it: the same events in the same
order.
"""
from __future__ import annotations

import math
from typing import Any

from models.io import channel as ch
from models.io import geometry
from models.io.request import IOOwner, range_to_groups
from models.io.volume import KEY_BITS

try:
    import cython
except ImportError:  # interpreted, Cython not installed: nothing is compiled
    class cython:  # type: ignore[no-redef]
        compiled = False

if not cython.compiled:
    # Compiled, driver.pxd cimports the engine (C calls to its heap) and the
    # volume (C access to its fields).
    from models.engine import Engine
    from models.io.volume import VolumeIO
    _pow: Any = None
    _log: Any = None

PAGE = geometry.PAGE_BYTES
RPT = geometry.records_per_track(PAGE)
#: The engine's priority of an ordinary event (models.engine.core.NORMAL).
_NORMAL = 1
#: RPT, a C integer compiled (driver.pxd).
_RPT = RPT
#: A 64-record track's mask (all bits of the directory's word).
_ALL_RECORDS = (1 << 64) - 1
#: The same, a C integer compiled (driver.pxd).
_ALL_ONES = _ALL_RECORDS
#: A volume's number in its system is its key base over this (VolumeIO.kb).
_KEY_BITS = KEY_BITS


def block_groups(hi, lo, scatter, n_blocks, per_ds, n_pages, first_of, start, count,
                 base, rpt, kb, dir_of, which, keys, masks):
    """The tracks of the blocks ranked ``hi - 1`` down to ``lo`` (coldest
    first), each block's in track order, as ``(which, keys, masks)``: one
    chunk of :meth:`models.workloads.io.IOWorkload.warm_order`, written into
    the arrays given; returns how many. :meth:`Driver.place` and
    ``range_to_groups`` for each block, on the volume table ``warm_order``
    makes (by volume: ``start``/``count`` of each dataset's volumes,
    ``base`` first page, ``rpt``, ``kb`` first key, ``dir_of`` cache
    directory). Compiled, C loops: the arrays' work in numpy took a third
    of the Large shop's warm-up. Interpreted, ``warm_order`` does it with
    numpy and does not call this.
    """
    out: cython.Py_ssize_t = 0
    room: cython.Py_ssize_t = keys.shape[0]
    last_ds: cython.longlong = first_of.shape[0] - 1
    rank: cython.longlong
    block: cython.longlong
    d: cython.longlong
    j: cython.longlong
    nv: cython.longlong
    gv: cython.longlong
    first: cython.longlong
    end: cython.longlong
    r: cython.longlong
    tr: cython.longlong
    seg_lo: cython.longlong
    seg_hi: cython.longlong
    width: cython.longlong
    one: cython.ulonglong = 1
    if which.shape[0] < room or masks.shape[0] < room:
        raise ValueError("block_groups: the output arrays differ in length")
    for rank in range(hi - 1, lo - 1, -1):
        block = (rank * scatter) % n_blocks
        d = block // per_ds
        if d > last_ds:
            d = last_ds
        d = first_of[d]
        j = block - d * per_ds
        nv = count[d]
        gv = start[d] + j % nv
        first = base[gv] + (j // nv) * n_pages
        end = first + n_pages
        r = rpt[gv]
        tr = first // r
        while tr * r < end:
            if out == room:
                raise ValueError(f"block_groups: more than {room} tracks")
            seg_lo = first if first > tr * r else tr * r
            seg_hi = end if end < (tr + 1) * r else (tr + 1) * r
            width = seg_hi - seg_lo
            keys[out] = kb[gv] + tr
            if width >= 64:
                masks[out] = _ALL_RECORDS
            else:
                masks[out] = ((one << width) - one) << (seg_lo - tr * r)
            which[out] = dir_of[gv]
            out += 1
            tr += 1
    return out


class VolumeCounts:
    """What one workload's I/Os saw on one volume (for the analytic estimate)."""

    FIELDS = ("ios", "service", "service2", "busy", "resp", "channel_work", "reads", "hits",
              "misses", "clean_reads", "seq_reads", "seq_clean_reads")

    def __init__(self) -> None:
        self.ios = 0
        self.service = 0.0       # sum of PEND + DISC + CONN, s
        self.service2 = 0.0      # sum of squares
        self.busy = 0.0          # sum of DISC + CONN (RMF's device busy)
        self.resp = 0.0          # sum of IOSQ + PEND + DISC + CONN
        self.channel_work = 0.0  # channel work the I/Os' programs need (channel.py costs)
        self.reads = self.hits = self.misses = 0
        # Read requests (not records): those that found every record in cache,
        # as RMF counts a hit, and the sequential ones among them.
        self.clean_reads = self.seq_reads = self.seq_clean_reads = 0

    def add(self, other) -> None:
        for f in self.FIELDS:
            setattr(self, f, getattr(self, f) + getattr(other, f))


class Driver(IOOwner):
    """Draws, places, starts and counts a workload's I/Os (see the module docstring).

    The subclass (:class:`models.workloads.io.IOWorkload`) sets the fields
    in its ``__init__``.
    """

    # What IOWorkload sets in its __init__: declared here for the type
    # checker only (compiled, driver.pxd makes them C fields).
    engine: Engine
    system: Any
    name: str
    v: dict
    rng: Any
    _random: Any
    _counted: bool
    n_pages: int
    n_blocks: int
    per_ds: int
    scatter: int
    cursor: int
    _ds_first: list[int]
    _ds_vols: list[list[VolumeIO]]
    _ds_base: list[list[int]]
    _first: int
    _a: float
    _span: float
    _seq: bool
    _seq_pct: float
    _read_pct: float
    end: float
    _rate: float
    _left: int
    _left_reads: int
    _t_last: float
    counts: dict[str, VolumeCounts]
    reads: int
    writes: int
    hits: int
    misses: int
    resp: float
    completed: int
    _work: dict[object, list[float | None]]   # volume, or (protocol, channel)
    _vv: list[VolumeIO | None]                # by volume number (io_done)
    _vc: list[VolumeCounts | None]
    _vw: list[list[float | None] | None]

    # -- where an I/O goes -------------------------------------------------------
    def zipf_rank(self) -> int:
        """A block rank, 0 the hottest, with P(k) ∝ 1/(k+1)^skew."""
        u: float = self._random()
        x: float
        if abs(self._a) > 1e-9:
            if cython.compiled:
                x = _pow(1.0 + u * self._span, 1.0 / self._a)
            else:
                x = (1.0 + u * self._span) ** (1.0 / self._a)
        else:
            x = math.exp(u * self._span)
        return min(self.n_blocks - 1, int(x) - 1)

    def block_of_rank(self, rank):
        return (rank * self.scatter) % self.n_blocks

    def place(self, block):
        """The volume of a block of the working set, its first page left in
        ``_first`` (no tuple per I/O): the dataset by block number, then
        round its volumes."""
        d: cython.Py_ssize_t = min(block // self.per_ds, len(self._ds_vols) - 1)
        first_block: cython.longlong = self._ds_first[d]
        j: cython.longlong = block - first_block
        vols: list = self._ds_vols[d]
        nv: cython.longlong = len(vols)
        k: cython.longlong = j % nv
        base: cython.longlong = self._ds_base[d][k]
        self._first = base + (j // nv) * self.n_pages
        return vols[k]

    def next_block(self) -> int:
        u: float = self._random()
        rnd: float = u * 100.0
        self._seq = rnd < self._seq_pct
        if self._seq:
            self.cursor = (self.cursor + 1) % self.n_blocks
            return self.cursor
        return self.block_of_rank(self.zipf_rank())

    def reset_statistics(self) -> None:
        """Forget what completed so far (warm-up removal)."""
        self.counts = {}
        self._vv = []
        self._vc = []
        self._vw = []
        self.reads = self.writes = self.hits = self.misses = 0
        self.resp = 0.0
        self.completed = 0

    # -- arrivals ------------------------------------------------------------------
    def start(self) -> None:
        """Start the arrivals on the engine."""
        eng: Engine = self.engine
        arrival = self.v["arrival"]
        if arrival == "open":
            self._rate = float(self.v["io_rate"])
            self._counted = False
            eng.schedule(self.rng.expovariate(self._rate), self)
        elif arrival == "counted":
            # Open arrivals given their count: round(rate x run) I/Os, each at an
            # independent uniform time of the run (a Poisson stream's times given
            # how many there were), exactly the read share of them reads in a
            # random order. Drawn one at a time, in time order (no list of a
            # run's times: 200,000 I/O/s for an hour would not fit in memory).
            n = round(float(self.v["io_rate"]) * (self.end - eng.now))
            self._left = n
            self._left_reads = round(n * float(self._read_pct) / 100.0)
            self._t_last = eng.now
            self._counted = True
            if n:
                eng.schedule(self._next_counted() - eng.now, self)
        else:
            think = float(self.v["think_ms"]) / 1000.0
            for u in range(int(self.v["users"])):
                eng.process(self._user(think), f"{self.name}/user{u}")

    def fire(self, _arg) -> None:
        """The engine calls the workload (a :class:`~models.engine.core.Step`,
        through C compiled) when its next arrival comes."""
        if self._counted:
            self._arrive_counted()
        else:
            self._arrive()

    def _arrive(self) -> None:
        """Open arrivals (Poisson): one I/O now, the next arrival on the heap first.

        The next arrival is put on the heap before the I/O starts: an I/O
        that did not see it coming could book a reconnect on a channel path
        ahead of it (models/io books a reconnect at once when no other event
        is due first), making the next I/O wait in PEND for work that is not
        there yet. One engine event per arrival, no arrival process.
        """
        eng: Engine = self.engine
        if eng.now >= self.end:
            return
        # random.Random.expovariate inlined (the same draw and arithmetic;
        # compiled, C's log, which math.log calls for a positive number).
        u: float = 1.0 - self._random()
        delay: float
        if cython.compiled:
            delay = -_log(u) / self._rate
        else:
            delay = -math.log(u) / self._rate
        if cython.compiled:
            eng._push(eng.now + delay, _NORMAL, self, None)
        else:
            eng.schedule(delay, self)
        self._issue(False, True)

    def _next_counted(self) -> float:
        """When the next of the counted arrivals comes: the earliest of the
        ``_left`` uniform times still to come, on (last, end]."""
        t: float = self._t_last
        u: float = 1.0 - self._random()
        if cython.compiled:
            return t + (self.end - t) * (1.0 - _pow(u, 1.0 / self._left))
        return t + (self.end - t) * (1.0 - u ** (1.0 / self._left))

    def _arrive_counted(self) -> None:
        """Counted arrivals: one I/O now (a read with the chance reads have among
        the arrivals left, so exactly the count of reads comes), the next one's
        event on the heap first (as :meth:`_arrive`)."""
        eng: Engine = self.engine
        u: float = self._random()
        read: cython.bint = u * self._left < self._left_reads
        self._left_reads -= read
        self._left -= 1
        self._t_last = eng.now
        if self._left:
            # The delay from now, then now plus it (as ``schedule`` does): the
            # event's time to the last bit as it always was.
            delay: float = self._next_counted() - eng.now
            if cython.compiled:
                eng._push(eng.now + delay, _NORMAL, self, None)
            else:
                eng.schedule(delay, self)
        self._issue(not read, False)

    def _issue(self, write: cython.bint, draw_write: cython.bint) -> None:
        """Start one I/O now: the volume's request (:meth:`VolumeIO.start`, no
        process), which calls :meth:`io_done` at its end. ``draw_write``: whether it
        writes is drawn after its block (open arrivals); otherwise ``write``."""
        vol: VolumeIO
        first: cython.longlong
        r: cython.longlong
        vol = self.place(self.next_block())
        first = self._first
        u: float
        if draw_write:
            u = self._random()
            write = u * 100.0 >= self._read_pct
        r = first % vol.rpt
        if r + self.n_pages <= vol.rpt:
            # One track: its mask as range_to_groups makes it, no list.
            vol.start_track(first // vol.rpt, (_ALL_ONES >> (64 - self.n_pages)) << r, write,
                            self, first * 2 + self._seq)
        else:
            vol.start(range_to_groups(first, self.n_pages, vol.rpt), write, False,
                      self, first * 2 + self._seq)

    def _user(self, think: float):
        eng: Engine = self.engine
        expo = self.rng.expovariate
        if think > 0:
            yield expo(1.0 / think)
        while eng.now < self.end:
            vol = self.place(self.next_block())
            first = self._first
            write = self._random() * 100.0 >= self._read_pct
            yield from vol._io(range_to_groups(first, self.n_pages, vol.rpt), write, False,
                               self, first * 2 + self._seq)
            if think > 0:
                yield expo(1.0 / think)

    # -- counting ------------------------------------------------------------------
    def io_done(self, vol, res, write, tag) -> None:
        """Count an I/O that ended (called by the volume at its end): ``tag`` is
        its first page times two, plus one when it was sequential."""
        v: VolumeIO = vol
        c: VolumeCounts
        works: list
        # The volume's counts and channel work by its number in the system
        # (lists: two dictionary look-ups an I/O, by name and by volume, were
        # 4 % of the Large shop's run); a volume not seen yet, or another
        # one of the same number, goes through the dictionaries.
        i: cython.Py_ssize_t = v.kb >> _KEY_BITS
        if i < len(self._vv) and self._vv[i] is v:
            c = self._vc[i]
            works = self._vw[i]
        else:
            c = self.counts.get(v.name)
            if c is None:
                c = self.counts[v.name] = VolumeCounts()
            works = self._works_of(v)
            if i >= len(self._vv):
                grow = [None] * (i + 1 - len(self._vv))
                self._vv.extend(grow)
                self._vc.extend(grow)
                self._vw.extend(grow)
            self._vv[i] = v
            self._vc[i] = c
            self._vw[i] = works
        pend: float = res.pend
        disc: float = res.disc
        conn: float = res.conn
        iosq: float = res.iosq
        s: float = pend + disc + conn
        c.ios += 1
        c.service += s
        c.service2 += s * s
        c.busy += disc + conn
        c.resp += s + iosq
        c.channel_work += self._channel_work(works, v, (tag >> 1) % _RPT)
        self.completed += 1
        self.resp += s + iosq
        if write:
            self.writes += 1
            return
        misses: cython.longlong = res.misses
        hits: cython.longlong = res.hits
        self.reads += 1
        c.reads += 1
        c.hits += hits
        c.misses += misses
        self.hits += hits
        self.misses += misses
        clean: cython.bint = misses == 0
        c.clean_reads += clean
        if tag & 1:
            c.seq_reads += 1
            c.seq_clean_reads += clean

    def _works_of(self, vol) -> list:
        """The volume's channel work by first record (None: not known yet)."""
        works: list = self._work.get(vol)
        if works is None:
            # One list for every volume on the same kind of path: its few
            # floats stay in the processor's cache (a list per volume made a
            # thousand volumes' floats miss it, measured with perf).
            key = (vol.protocol, vol.channel)
            works = self._work.get(key)
            if works is None:
                works = self._work[key] = [None] * RPT
            self._work[vol] = works
        return works

    def _channel_work(self, works, vol, offset: cython.Py_ssize_t) -> float:
        """Channel work of one I/O's program from the published per-IU costs
        (models/io/channel.py), independent of what the paths booked;
        ``works``: the volume's (:meth:`_works_of`)."""
        work = works[offset]
        if work is None:
            groups = range_to_groups(offset, self.n_pages, RPT)
            ius, records = ch.program_ius(groups, vol.zhpf, False, RPT)
            if vol.zhpf and vol.max_addresses is not None:
                # FEx8 splits a long list: one more start and response per part.
                parts = len(ch.split_addresses(groups, vol.max_addresses))
                ius += ch.START_IUS * (parts - 1)
            work = ius * ch.IU_S[vol.protocol, vol.channel] + \
                records * PAGE / ch.LINK_BYTES_S[vol.channel]
            works[offset] = work
        return work
