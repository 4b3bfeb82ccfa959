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

import models.io
from models.io import geometry
from models.io.cache import warm_all
from models.io.driver import PAGE, RPT, Driver, VolumeCounts, block_groups

__all__ = ["PAGE", "RPT", "WARM_LIMIT_PAGES", "IOWorkload", "Layout", "VolumeCounts",
           "block_scatter"]

#: Most pages made cache resident before a run (all workloads): warming
#: costs ~0.13 µs a page (0.74 before it was worked out in chunks), so a
#: very large cache is warmed only this far.
WARM_LIMIT_PAGES = 2_000_000
#: Knuth's multiplicative constant: scatters block ranks over the working set.
_SCATTER = 2654435761


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


class IOWorkload(Driver):
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
        # Its draw, looked up once (each I/O calls it).
        self._random = self.rng.random
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
        self._work: dict = {}             # channel work by first record, s (driver.py)
        # The counts and channel work by volume number (driver.py: io_done).
        self._vv: list = []
        self._vc: list = []
        self._vw: list = []

    @staticmethod
    def pages_needed(workload, values: dict) -> dict[str, int]:
        """``{dataset: pages}`` this workload's working set needs on each dataset."""
        n_pages = int(values["pages_per_io"])
        blocks = max(1, int(values["working_set_mb"] * 2**20 // PAGE) // n_pages)
        per_ds = -(-blocks // len(workload.datasets))
        return {ds: per_ds * n_pages for ds in workload.datasets}

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
        :func:`models.io.cache.warm_all`; compiled, a chunk's arrays are
        written over by the next (use each before asking for the next).

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
        if models.io.COMPILED:
            # The same tracks, worked out by C loops (block_groups) into
            # arrays kept for every chunk: no numpy temporaries.
            span = int(((rpt_a - 1 + n - 1) // rpt_a).max()) + 1 if len(table) else 1
            room = min(blocks, self.WARM_CHUNK) * span
            which_a = np.empty(room, dtype=np.int32)
            keys_a = np.empty(room, dtype=np.int64)
            masks_a = np.empty(room, dtype=np.uint64)
            first_a = np.ascontiguousarray(first_of)
            for hi in range(blocks, 0, -self.WARM_CHUNK):
                k = block_groups(hi, max(0, hi - self.WARM_CHUNK), scatter, self.n_blocks,
                                 self.per_ds, n, first_a, start_a, count_a, base_a, rpt_a,
                                 kb_a, dir_of, which_a, keys_a, masks_a)
                yield dirs, which_a[:k], keys_a[:k], masks_a[:k]
            return
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
