"""The general I/O workload: any application's I/O on the datasets it is linked to.

An :class:`IOWorkload` drives volumes of a :class:`models.io.system.IOSystem`
on the shared engine. Its data is a **working set** of ``working_set_mb``
divided into blocks of ``pages_per_io`` 4 KB pages (one I/O moves one
block). The blocks are split evenly over the workload's datasets, and a
dataset's blocks go round its volumes (block ``j`` on volume ``j % n``), so
a dataset drawn over four volumes spreads its I/O over four.

Each I/O is either **sequential** (``seq_pct``: the next block of a pass
through the working set, so every volume sees contiguous pages and the
control unit's sequential detection prestages ahead) or **random**: block
rank ``k`` (0 the hottest) drawn with probability ∝ ``1/(k+1)^skew``
(Zipf, from the bounded continuous inverse CDF, O(1) per draw) and
scattered over the working set by a multiplicative hash, so hot blocks
lie all over the volumes. A read is ``read_range``; a write
``write_pages`` (DASD fast write into cache and NVS; the destage follows
in the background). Whether a read hits is decided by the control unit's
cache as the run goes: the hit ratio is never an input.

The cache starts **warm**: before the run the hottest blocks are made
resident, as many as fit in the unit's cache (its share for each
workload), coldest first so that the hottest are the most recently used.
That is the state a long-running workload leaves an LRU cache in; the run
then moves it (an assumption stated in docs/model-workloads.md).

Arrivals are open (Poisson at ``io_rate``) or closed (``users`` each with
one I/O outstanding and an exponential think time).
"""
from __future__ import annotations

import math

import numpy as np

from models.io import channel as ch
from models.io import geometry
from models.io.cache import warm_all
from models.io.request import range_to_groups

PAGE = geometry.PAGE_BYTES
RPT = geometry.records_per_track(PAGE)
#: Most pages made cache resident before a run (all workloads): warming
#: costs ~0.13 µs a page (0.74 before it was worked out in chunks), so a
#: very large cache is warmed only this far.
WARM_LIMIT_PAGES = 2_000_000
#: Knuth's multiplicative constant: scatters block ranks over the working set.
_SCATTER = 2654435761


class VolumeCounts:
    """What one workload's I/Os saw on one volume (for the analytic estimate)."""

    __slots__ = ("ios", "service", "service2", "busy", "resp", "channel_work", "reads", "hits",
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

    def add(self, other: "VolumeCounts") -> None:
        for f in self.__slots__:
            setattr(self, f, getattr(self, f) + getattr(other, f))


class Layout:
    """Where every workload's blocks live: dataset regions on volumes.

    Parameters
    ----------
    config : models.drawing.config.Configuration
    needs : dict
        ``{dataset name: pages}`` the workloads using it need (the largest).

    A dataset has a region on each of its volumes, track-aligned, after the
    regions of the datasets before it on that volume (canvas order).
    """

    def __init__(self, config, needs: dict[str, int]):
        self.config = config
        self.region: dict[tuple[str, str], int] = {}     # (dataset, volume) -> first page
        used: dict[str, int] = {}
        for ds in config.datasets:
            if ds.name not in needs or not ds.volumes:
                continue
            per_volume = -(-needs[ds.name] // len(ds.volumes))
            per_volume = -(-per_volume // RPT) * RPT
            for v in ds.volumes:
                self.region[ds.name, v] = used.get(v, 0)
                used[v] = used.get(v, 0) + per_volume
        for v, pages in used.items():
            vol = config.volume(v)
            cap = geometry.MODELS[vol.model] * geometry.TRACKS_PER_CYLINDER * RPT
            if pages > cap:
                from models.core.params import ParamError
                raise ParamError(
                    f"the datasets on volume '{v}' need {pages * PAGE / 2**20:,.0f} MB and a "
                    f"{vol.model} holds {cap * PAGE / 2**20:,.0f} MB: shrink the working set or "
                    "link the dataset to more volumes")


class IOWorkload:
    """One ``wl_io`` component running on ``system`` (see the module docstring).

    Parameters
    ----------
    engine : Engine
    system : models.io.system.IOSystem
    workload : models.drawing.config.Workload
    values : dict
        Its parameter values (:data:`models.workloads.params.IO_PARAMS`).
    layout : Layout
    """

    def __init__(self, engine, system, workload, values: dict, layout: Layout):
        self.engine = engine
        self.system = system
        self.name = workload.name
        self.v = values
        self.n_pages = int(values["pages_per_io"])
        pages = max(1, int(values["working_set_mb"] * 2**20 // PAGE))
        self.n_blocks = max(1, pages // self.n_pages)
        self.datasets = list(workload.datasets)
        self.per_ds = -(-self.n_blocks // len(self.datasets))
        self.vols = {ds: [system.volume(v) for v in system.config.dataset(ds).volumes]
                     for ds in self.datasets}
        self.base = {(ds, vol.name): layout.region[ds, vol.name]
                     for ds in self.datasets for vol in self.vols[ds]}
        # place()'s look-ups by dataset position, worked out once (it runs per I/O).
        self._ds_first = [self.datasets.index(ds) * self.per_ds for ds in self.datasets]
        self._ds_vols = [self.vols[ds] for ds in self.datasets]
        self._ds_base = [[self.base[ds, v.name] for v in self.vols[ds]] for ds in self.datasets]
        self.rng = engine.stream(f"{self.name}/io")
        self.scatter = block_scatter(self.n_blocks)
        theta = float(values["skew"])
        self.theta = theta
        self._a = 1.0 - theta
        self._span = (self.n_blocks + 1.0) ** self._a - 1.0 if abs(self._a) > 1e-9 else \
            math.log(self.n_blocks + 1.0)
        self.cursor = self.rng.randrange(self.n_blocks)
        self._seq = False                 # whether the last block drawn was sequential
        self.end = float(values["duration_s"])
        self._seq_pct = values["seq_pct"]
        self._rate = 0.0                  # open arrivals' I/O rate (set by start)
        # Counted arrivals: how many are still to come, how many of them read,
        # and the time of the last one (they are drawn one at a time).
        self._left = self._left_reads = 0
        self._t_last = 0.0
        self._read_pct = values["read_pct"]
        self.counts: dict[str, VolumeCounts] = {}
        self.reads = self.writes = self.hits = self.misses = 0
        self.resp = 0.0
        self.completed = 0
        self._work: dict = {}             # (volume, pages, write) -> channel work, s

    @staticmethod
    def pages_needed(workload, values: dict) -> dict[str, int]:
        """``{dataset: pages}`` this workload's working set needs on each dataset."""
        n_pages = int(values["pages_per_io"])
        blocks = max(1, int(values["working_set_mb"] * 2**20 // PAGE) // n_pages)
        per_ds = -(-blocks // len(workload.datasets))
        return {ds: per_ds * n_pages for ds in workload.datasets}

    # -- where an I/O goes -------------------------------------------------------
    def zipf_rank(self) -> int:
        """A block rank, 0 the hottest, with P(k) ∝ 1/(k+1)^skew."""
        u = self.rng.random()
        if abs(self._a) > 1e-9:
            x = (1.0 + u * self._span) ** (1.0 / self._a)
        else:
            x = math.exp(u * self._span)
        return min(self.n_blocks - 1, int(x) - 1)

    def block_of_rank(self, rank: int) -> int:
        return (rank * self.scatter) % self.n_blocks

    def place(self, block: int):
        """``(volume, first page)`` of a block of the working set: the
        dataset by block number, then round its volumes."""
        d = min(block // self.per_ds, len(self._ds_vols) - 1)
        j = block - self._ds_first[d]
        vols = self._ds_vols[d]
        k = j % len(vols)
        return vols[k], self._ds_base[d][k] + (j // len(vols)) * self.n_pages

    def next_block(self) -> int:
        rnd = self.rng.random() * 100.0
        self._seq = rnd < self._seq_pct
        if self._seq:
            self.cursor = (self.cursor + 1) % self.n_blocks
            return self.cursor
        return self.block_of_rank(self.zipf_rank())

    # -- running -------------------------------------------------------------------
    def warm(self, budget_pages: int) -> int:
        """Make the hottest blocks cache resident (coldest first); pages warmed."""
        blocks = min(self.n_blocks, max(0, budget_pages // self.n_pages))
        for dirs, which, keys, masks in self.warm_order(blocks):
            warm_all(dirs, which, keys, masks)
        return blocks * self.n_pages

    #: Blocks worked out at once by :meth:`warm_order` (bounds its memory).
    WARM_CHUNK = 1 << 16

    def warm_order(self, blocks: int):
        """The tracks the ``blocks`` hottest blocks make resident, coldest
        block first, each block's tracks in order: what ``vol.warm_pages`` of
        :meth:`place` of each rank would warm, in the same order (so the same
        LRU order). Yields ``(directories, which, keys, masks)`` chunks for
        :func:`models.io.cache.warm_all`.

        Worked out with numpy, a chunk of blocks at a time (the rank-by-rank
        loop took ~2.5 µs a block: 3 s before the Large shop could start).
        """
        if self.n_blocks >= 2**31:
            # rank * scatter would overflow int64; the working set's bound
            # (200,000 MB: 51 million pages) keeps far below this.
            raise ValueError(f"{self.name}: {self.n_blocks:,} blocks are more than the "
                             "warm-up can place")
        n = self.n_pages
        names = self.datasets
        # place(), vectorised: the dataset by position (its first occurrence,
        # as ``list.index``), then the volume and first page within it.
        first_of = np.array([names.index(d) for d in names], dtype=np.int64)
        table: list = []
        start: list[int] = []
        count: list[int] = []
        base: list[int] = []
        for d in names:
            vols = self.vols[d]
            start.append(len(table))
            count.append(len(vols))
            table.extend(vols)
            base.extend(self.base[d, v.name] for v in vols)
        dirs = list({id(v.cu.cache): v.cu.cache for v in table}.values())
        dir_of = np.asarray([dirs.index(v.cu.cache) for v in table], dtype=np.int32)
        start_a, count_a = np.asarray(start, dtype=np.int64), np.asarray(count, dtype=np.int64)
        base_a = np.asarray(base, dtype=np.int64)
        rpt_a = np.asarray([v.rpt for v in table], dtype=np.int64)
        kb_a = np.asarray([v.kb for v in table], dtype=np.int64)
        scatter = self.scatter % self.n_blocks
        for hi in range(blocks, 0, -self.WARM_CHUNK):
            ranks = np.arange(hi - 1, max(0, hi - self.WARM_CHUNK) - 1, -1, dtype=np.int64)
            block = (ranks * scatter) % self.n_blocks
            d = first_of[np.minimum(block // self.per_ds, len(names) - 1)]
            j = block - d * self.per_ds
            nv = count_a[d]
            gv = start_a[d] + j % nv
            first = base_a[gv] + (j // nv) * n
            # Each block's pages as (track, mask) groups, as range_to_groups.
            rpt = rpt_a[gv]
            track = (first // rpt)[:, None] + np.arange(
                int(((first % rpt + n - 1) // rpt).max()) + 1, dtype=np.int64)[None, :]
            seg_lo = np.maximum(first[:, None], track * rpt[:, None])
            seg_hi = np.minimum((first + n)[:, None], (track + 1) * rpt[:, None])
            keep = (seg_lo < seg_hi).ravel()
            width = (seg_hi - seg_lo).ravel()[keep].astype(np.uint64)
            shift = (seg_lo % rpt[:, None]).ravel()[keep].astype(np.uint64)
            one = np.uint64(1)
            masks = np.where(width >= 64, ~np.uint64(0), ((one << width) - one) << shift)
            keys = (kb_a[gv][:, None] + track).ravel()[keep]
            which = np.broadcast_to(dir_of[gv][:, None], track.shape).ravel()[keep]
            yield dirs, np.ascontiguousarray(which), keys, masks

    def reset_statistics(self) -> None:
        """Forget what completed so far (warm-up removal)."""
        self.counts = {}
        self.reads = self.writes = self.hits = self.misses = 0
        self.resp = 0.0
        self.completed = 0

    def start(self) -> None:
        """Start the arrivals on the engine."""
        eng = self.engine
        if self.v["arrival"] == "open":
            self._rate = float(self.v["io_rate"])
            eng.schedule(self.rng.expovariate(self._rate), self._arrive)
        elif self.v["arrival"] == "counted":
            # Open arrivals given their count: round(rate x run) I/Os, each at an
            # independent uniform time of the run (a Poisson stream's times given
            # how many there were), exactly the read share of them reads in a
            # random order. Drawn one at a time, in time order (no list of a
            # run's times: 200,000 I/O/s for an hour would not fit in memory).
            n = round(float(self.v["io_rate"]) * (self.end - eng.now))
            self._left = n
            self._left_reads = round(n * float(self._read_pct) / 100.0)
            self._t_last = eng.now
            if n:
                eng.schedule(self._next_counted() - eng.now, self._arrive_counted)
        else:
            think = float(self.v["think_ms"]) / 1000.0
            for u in range(int(self.v["users"])):
                eng.process(self._user(think), f"{self.name}/user{u}")

    def _arrive(self, _arg) -> None:
        """Open arrivals (Poisson): one I/O now, the next arrival on the heap first.

        The next arrival is put on the heap before the I/O starts: an I/O
        that did not see it coming could book a reconnect on a channel path
        ahead of it (models/io books a reconnect at once when no other event
        is due first), making the next I/O wait in PEND for work that is not
        there yet. One engine event per arrival, no arrival process.
        """
        eng = self.engine
        if eng.now >= self.end:
            return
        eng.schedule(self.rng.expovariate(self._rate), self._arrive)
        eng.process(self._one())

    def _next_counted(self) -> float:
        """When the next of the counted arrivals comes: the earliest of the
        ``_left`` uniform times still to come, on (last, end]."""
        t = self._t_last
        return t + (self.end - t) * (1.0 - (1.0 - self.rng.random()) ** (1.0 / self._left))

    def _arrive_counted(self, _arg) -> None:
        """Counted arrivals: one I/O now (a read with the chance reads have among
        the arrivals left, so exactly the count of reads comes), the next one's
        event on the heap first (as :meth:`_arrive`)."""
        eng = self.engine
        read = self.rng.random() * self._left < self._left_reads
        self._left_reads -= read
        self._left -= 1
        self._t_last = eng.now
        if self._left:
            eng.schedule(self._next_counted() - eng.now, self._arrive_counted)
        eng.process(self._one(not read))

    def _user(self, think: float):
        eng = self.engine
        expo = self.rng.expovariate
        if think > 0:
            yield expo(1.0 / think)
        while eng.now < self.end:
            yield from self._one()
            if think > 0:
                yield expo(1.0 / think)

    def _one(self, write: bool | None = None):
        vol, first = self.place(self.next_block())
        seq = self._seq
        n = self.n_pages
        if write is None:
            write = self.rng.random() * 100.0 >= self._read_pct
        if write:
            res = yield from vol.write_pages(range(first, first + n))
        else:
            res = yield from vol.read_range(first, n)
        self._count(vol, res, write, first)
        if not write:
            c = self.counts[vol.name]
            clean = res.misses == 0
            c.clean_reads += clean
            if seq:
                c.seq_reads += 1
                c.seq_clean_reads += clean

    def _count(self, vol, res, write: bool, first: int) -> None:
        c = self.counts.get(vol.name)
        if c is None:
            c = self.counts[vol.name] = VolumeCounts()
        s = res.pend + res.disc + res.conn
        c.ios += 1
        c.service += s
        c.service2 += s * s
        c.busy += res.disc + res.conn
        c.resp += s + res.iosq
        c.channel_work += self._channel_work(vol, first % RPT)
        self.completed += 1
        self.resp += s + res.iosq
        if write:
            self.writes += 1
        else:
            self.reads += 1
            c.reads += 1
            c.hits += res.hits
            c.misses += res.misses
            self.hits += res.hits
            self.misses += res.misses

    def _channel_work(self, vol, offset: int) -> float:
        """Channel work of one I/O's program from the published per-IU costs
        (models/io/channel.py), independent of what the paths booked."""
        key = (vol.protocol, vol.channel, offset)
        work = self._work.get(key)
        if work is None:
            groups = range_to_groups(offset, self.n_pages, RPT)
            ius, records = ch.program_ius(groups, vol.zhpf, False, RPT)
            if vol.zhpf and vol.max_addresses is not None:
                # FEx8 splits a long list: one more start and response per part.
                parts = len(ch.split_addresses(groups, vol.max_addresses))
                ius += ch.START_IUS * (parts - 1)
            work = ius * ch.IU_S[vol.protocol, vol.channel] + \
                records * PAGE / ch.LINK_BYTES_S[vol.channel]
            self._work[key] = work
        return work


def block_scatter(n_blocks: int) -> int:
    """The multiplier that scatters block ranks over ``n_blocks`` blocks: rank
    ``k`` is block ``k * block_scatter(n) % n`` (a bijection; the RMF fit
    inverts it to find which blocks are warm)."""
    return _coprime(_SCATTER % n_blocks or 1, n_blocks)


def _coprime(a: int, n: int) -> int:
    """``a`` moved up until it shares no factor with ``n`` (a bijection mod n)."""
    a = max(1, a)
    while math.gcd(a, n) != 1:
        a += 1
    return a
