"""Back end of the control unit: RAID ranks of drives, and the native 3390.

A :class:`Backend` answers one question, fast: "stage these bytes of this
logical track, asked for at time t: when are they in cache?" Each drive is
a timeline (``free_at``), an arm position (physical cylinder) and a
spinning platter (angle = time / rotation + phase), so a stage costs

    queue (wait for the drive) + access overhead + seek(distance)
    + rotational delay to the first byte + transfer at the media rate.

Requests reach a drive in the order they are issued (FIFO), and the answer
is computed at issue time: no engine event per drive access, which keeps a
250,000-I/O run in seconds. Concurrent requests to different drives overlap;
to the same drive they queue. That is where RAID parallelism comes from.

Layout (DS8000 style, documented assumptions, set once here):

* CKD on fixed-block drives: a record occupies whole 512-byte sectors,
  its 8-byte count field included (IBM DS8000 architecture redbooks: CKD
  records are mapped onto fixed-block sectors). A 4 KB page thus takes 9
  sectors = 4,608 bytes on disk, a 12-page track 55,296 bytes.
* RAID-5 strips of 256 KB per drive (DS8000 array stripe unit); a strip holds
  as many whole logical tracks as fit (4 tracks of 4 KB pages). Strips go
  round the drives left-symmetrically with rotating parity; 6+P+S leaves
  the spare idle.
* Volumes are carved from 1113-cylinder extents (the DS8000 CKD extent, one
  3390-1) which go round the ranks of a pool (storage pool striping).
* A drive's bytes form one spiral passing the head at the media rate, over
  ``DRIVE_CYLINDERS`` cylinders; seek time follows
  :meth:`models.io.devices.DiskProfile.seek_ms`.
"""
from __future__ import annotations

import math
import operator
from typing import Any

from models.io import geometry
from models.io.devices import DiskProfile

try:
    import cython
except ImportError:  # interpreted, Cython not installed: nothing is compiled
    from types import SimpleNamespace as _Namespace
    # (an assignment, not a class statement: backend.pxd cimports ``cython``)
    cython = _Namespace(compiled=False)  # type: ignore[assignment]

if not cython.compiled:
    # Declared in backend.pxd for the compiled DrivePool only (its C arrays).
    free: Any = None
    _doubles: Any = None
    _longs: Any = None
    # Compiled, libc's sqrt (backend.pxd): what math.sqrt computes.
    _sqrt = math.sqrt

SECTOR_BYTES = 512
COUNT_FIELD_BYTES = 8
STRIP_BYTES = 256 * 1024
EXTENT_TRACKS = 1113 * geometry.TRACKS_PER_CYLINDER
#: The same, a C integer compiled (backend.pxd): the layout's arithmetic
#: stays in C.
_EXTENT = EXTENT_TRACKS
#: Read look-ahead of an idle drive: after a read it keeps reading the next
#: sectors into a cache segment until a command comes or the segment is full
#: (the SCSI caching mode page's default). 2.5-inch enterprise drives of 2012
#: had 16–64 MB of cache in segments of a few hundred KB; 128 KB, the low
#: end, is taken: it covers the next two logical tracks, so a unit staging
#: track after track finds the next one already read, but not the strip of
#: the next RAID row (221 KB on). An assumption; with 256 KB, FICON skip 65
#: on 10K reads 2.45 MB/s instead of 2.13. The same window holds for a
#: queued command (issue 16): a read queued behind another that starts at
#: most this far past its end is read on to, the gap passing under the head
#: at the media rate, with no new positioning (the drive is already
#: reading those sectors). So the LPO's records of one list that lie a
#: track or two apart on a drive (sparse RUNSTATS lists, 2-10 % sampling)
#: cost the gap's passage, not a seek and half a turn each; records a RAID
#: row apart (221 KB: skip 65, E6) still need a positioning each.
READ_AHEAD_BYTES = 128 * 1024
#: Device adapter (DA) between the cache and a rank, DS8800 generation
#: (IBM SG24-8886, DS8800 Architecture and Implementation: DA cards with
#: four 8 Gbit/s Fibre Channel ports to the drive enclosures; a rank is
#: reached through one loop of its DA pair). Every stage costs the adapter
#: a fixed work per operation (command, RAID mapping, cache slot set-up)
#: plus its bytes at the loop's rate, so a whole-track stage costs it more
#: than a record. One FIFO server per rank (see :meth:`Backend._adapter`).
#: ``DA_OP_S``: ~50,000 operations/s per adapter, the small-block rate a
#: DS8800 DA is usually quoted at (assumption: not found in a citable
#: page). ``DA_BYTES_S``: 8 Gbit/s FC = 800 MB/s.
DA_OP_S = 20e-6
DA_BYTES_S = 800e6
#: An SSD rank's own throughput limit on a DS8800 (the RAID array of SSDs
#: behind its adapter, not each drive's port). No citable DS8800 figure was
#: found (IBM's "DS8000 with SSDs" performance white paper, LaFrese et al.
#: 2009, and SG24-8886 describe the SSD ranks but their MB/s tables could not
#: be retrieved). Estimate: ~350 MB/s, below a 15K HDD rank's ~400 MB/s
#: stream, which is what the paper measured: its RUNSTATS at 99 % on SSD
#: read 32.8 GB in ~100 s (~330 MB/s) while 15K drives were at least as fast,
#: and it names the DS8800 back end as what held SSD back (REDP-4862; the
#: DS8870 "improves the performance of solid-state drives", REDP-4862 via
#: DOMAIN.md). The same figure sets the SSD index scan's partial-track
#: stages (E9); tests/models/test_db2_lpo_shapes.py and bench/sensitivity.py
#: show what moves with it.
SSD_RANK_BYTES_S = 350e6
#: Physical cylinders (tracks per surface) of a 2.5-inch enterprise drive of
#: 2012: on the order of 10^5 (drive data sheets quote ~200k tracks/inch).
DRIVE_CYLINDERS = 100_000
#: Tracks of a 3390 cylinder, a C integer compiled (backend.pxd).
_TPC = geometry.TRACKS_PER_CYLINDER

RAID_LAYOUTS = {"6+P+S": (6, 7), "7+P": (7, 8)}   # (data strips per row, active drives)


def record_footprint(data_len: int, key_len: int = 0) -> int:
    """Bytes one CKD record takes on a fixed-block drive (whole sectors)."""
    raw = COUNT_FIELD_BYTES + key_len + data_len
    return -(-raw // SECTOR_BYTES) * SECTOR_BYTES


class DrivePool:
    """The state of every drive of a configuration, in flat per-drive arrays.

    Ranks own slices of it (:class:`Rank`); every volume's :class:`Backend`
    indexes the same arrays, so volumes on one rank queue for the same
    drives and find each other's arm positions. Compiled (``backend.pxd``),
    the arrays are C arrays of doubles and integers: the drive timing reads
    and books them with no Python float or int made per access.
    Interpreted, they are lists. Either way Python code reads and writes
    them through ``free_at``, ``end_off``, ``busy``, ``accesses``, ``phase``
    and ``cyl`` (compiled, a :class:`DriveValues` view of each).

    Per drive: when it is free; the byte offset just past its last read (a
    read queued right behind it that starts there streams on without a new
    positioning; -1: none); busy seconds; operations; platter phase; arm
    cylinder. An SSD drive's lanes (when each is free) lie in ``_lanes``
    from ``_lane0[d]``, ``_nlanes[d]`` of them (0 for a disk). Per rank, its
    device adapter (:meth:`add_adapter`): free at, busy seconds, operations
    and, for SSD, the array's own bandwidth free at.
    """

    def __init__(self) -> None:
        self.rng: list = []            # per drive the stream of its rank
        if cython.compiled:
            self._n = self._cap = self._nl = self._lcap = self._na = self._acap = 0
        else:
            self._free_at: list[float] = []
            self._end_off: list[int] = []
            self._busy: list[float] = []
            self._accesses: list[int] = []
            self._phase: list[float] = []
            self._cyl: list[int] = []
            self._lane0: list[int] = []
            self._nlanes: list[int] = []
            self._lanes: list[float] = []
            self._da_free: list[float] = []
            self._da_busy: list[float] = []
            self._da_ops: list[int] = []
            self._da_ssd: list[float] = []

    def __dealloc__(self):
        if cython.compiled:
            free(self._free_at)
            free(self._busy)
            free(self._phase)
            free(self._lanes)
            free(self._da_free)
            free(self._da_busy)
            free(self._da_ssd)
            free(self._end_off)
            free(self._cyl)
            free(self._accesses)
            free(self._lane0)
            free(self._nlanes)
            free(self._da_ops)

    def __len__(self) -> int:
        if cython.compiled:
            return self._n
        return len(self._free_at)

    def add(self, n: int, rng, arm_span_cyls: int, lanes: int = 0) -> int:
        """Append ``n`` drives; returns the index of the first.

        Platter phases, then arm positions (over the first ``arm_span_cyls``
        cylinders: the workload has been using that area) are drawn from
        ``rng``, which also serves their rotational delays. ``lanes``: an
        SSD's parallel lanes (0 for a disk).
        """
        base: cython.Py_ssize_t = len(self)
        phases = [rng.random() for _ in range(n)]
        cyls = [int(rng.random() * arm_span_cyls) for _ in range(n)]
        if cython.compiled:
            self._reserve(base + n, self._nl + n * lanes)
            i: cython.Py_ssize_t
            j: cython.Py_ssize_t
            d: cython.Py_ssize_t
            for i in range(n):
                d = base + i
                self._free_at[d] = 0.0
                self._end_off[d] = -1
                self._busy[d] = 0.0
                self._accesses[d] = 0
                self._phase[d] = phases[i]
                self._cyl[d] = cyls[i]
                self._lane0[d] = self._nl
                self._nlanes[d] = lanes
                for j in range(lanes):
                    self._lanes[self._nl + j] = 0.0
                self._nl += lanes
            self._n = base + n
        else:
            self._free_at += [0.0] * n
            self._end_off += [-1] * n
            self._busy += [0.0] * n
            self._accesses += [0] * n
            self._phase += phases
            self._cyl += cyls
            for _ in range(n):
                self._lane0.append(len(self._lanes))
                self._nlanes.append(lanes)
                self._lanes += [0.0] * lanes
        self.rng += [rng] * n
        return base

    def add_adapter(self) -> int:
        """A rank's device adapter, idle; returns its index."""
        if cython.compiled:
            if self._na == self._acap:
                self._acap = 2 * self._acap if self._acap else 16
                self._da_free = _doubles(self._da_free, self._acap)
                self._da_busy = _doubles(self._da_busy, self._acap)
                self._da_ssd = _doubles(self._da_ssd, self._acap)
                self._da_ops = _longs(self._da_ops, self._acap)
            a: cython.Py_ssize_t = self._na
            self._da_free[a] = self._da_busy[a] = self._da_ssd[a] = 0.0
            self._da_ops[a] = 0
            self._na += 1
            return a
        self._da_free.append(0.0)
        self._da_busy.append(0.0)
        self._da_ops.append(0)
        self._da_ssd.append(0.0)
        return len(self._da_free) - 1

    def _reserve(self, drives, lanes) -> None:
        """Compiled: room for ``drives`` drives and ``lanes`` lanes."""
        if cython.compiled:
            if drives > self._cap:
                cap = max(drives, 2 * self._cap, 64)
                self._free_at = _doubles(self._free_at, cap)
                self._busy = _doubles(self._busy, cap)
                self._phase = _doubles(self._phase, cap)
                self._end_off = _longs(self._end_off, cap)
                self._cyl = _longs(self._cyl, cap)
                self._accesses = _longs(self._accesses, cap)
                self._lane0 = _longs(self._lane0, cap)
                self._nlanes = _longs(self._nlanes, cap)
                self._cap = cap
            if lanes > self._lcap:
                cap = max(lanes, 2 * self._lcap, 64)
                self._lanes = _doubles(self._lanes, cap)
                self._lcap = cap

    def lane_min(self, d) -> float:
        """When the first of SSD drive ``d``'s lanes is free."""
        self._check(d)
        if not self._nlanes[d]:
            raise ValueError(f"drive {d} is a disk: it has no lanes")
        i = self._lane0[d]
        last = i + self._nlanes[d]
        best = self._lanes[i]
        i += 1
        while i < last:
            if self._lanes[i] < best:
                best = self._lanes[i]
            i += 1
        return best

    # -- Python's view of the arrays -------------------------------------------------
    @property
    def free_at(self):
        """When each drive is free (s)."""
        return DriveValues(self, 0) if cython.compiled else self._free_at

    @property
    def busy(self):
        """Each drive's busy seconds."""
        return DriveValues(self, 1) if cython.compiled else self._busy

    @property
    def phase(self):
        """Each drive's platter phase (turns at time 0)."""
        return DriveValues(self, 2) if cython.compiled else self._phase

    @property
    def end_off(self):
        """Each drive's byte offset just past its last read (-1: none)."""
        return DriveValues(self, 3) if cython.compiled else self._end_off

    @property
    def cyl(self):
        """Each drive's arm cylinder."""
        return DriveValues(self, 4) if cython.compiled else self._cyl

    @property
    def accesses(self):
        """Each drive's operations."""
        return DriveValues(self, 5) if cython.compiled else self._accesses

    @property
    def lanes(self) -> list:
        """Each drive's lanes' free times (a copy), None for a disk."""
        out: list = []
        d: cython.Py_ssize_t
        j: cython.Py_ssize_t
        for d in range(len(self)):
            if not self._nlanes[d]:
                out.append(None)
                continue
            row: list = []
            for j in range(self._nlanes[d]):
                row.append(self._lanes[self._lane0[d] + j])
            out.append(row)
        return out

    def _check(self, d) -> int:
        """Refuse a drive number outside the pool (compiled, the arrays'
        bounds: nothing is read or written past them)."""
        if not 0 <= d < len(self):
            raise IndexError(f"drive {d} out of range (0-{len(self) - 1})")
        return 0

    def _value(self, which, d):
        """Drive ``d``'s figure ``which`` (the order of :class:`DriveValues`)."""
        self._check(d)
        if which == 0:
            return self._free_at[d]
        if which == 1:
            return self._busy[d]
        if which == 2:
            return self._phase[d]
        if which == 3:
            return self._end_off[d]
        if which == 4:
            return self._cyl[d]
        return self._accesses[d]

    def _set_value(self, which, d, value) -> None:
        self._check(d)
        if which == 0:
            self._free_at[d] = value
        elif which == 1:
            self._busy[d] = value
        elif which == 2:
            self._phase[d] = value
        elif which == 3:
            self._end_off[d] = value
        elif which == 4:
            self._cyl[d] = value
        else:
            self._accesses[d] = value


class DriveValues:
    """One per-drive figure of a compiled :class:`DrivePool`, read and written
    in place: index (negative too), slice (a list), iterate, ``len``."""

    __slots__ = ("pool", "which")

    def __init__(self, pool: DrivePool, which: int):
        self.pool = pool
        self.which = which

    def __len__(self) -> int:
        return len(self.pool)

    def _index(self, i) -> int:
        n = len(self.pool)
        i = operator.index(i)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(f"drive {i} out of range (0-{n - 1})")
        return i

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self.pool._value(self.which, d) for d in range(*i.indices(len(self.pool)))]
        return self.pool._value(self.which, self._index(i))

    def __setitem__(self, i, value) -> None:
        self.pool._set_value(self.which, self._index(i), value)

    def __iter__(self):
        return iter(self[:])

    def __repr__(self) -> str:
        return repr(self[:])


class Rank:
    """A RAID-5 rank (or one native 3390 drive): its layout and its drives.

    Parameters
    ----------
    name : str
        Canvas label (drive components are named after it).
    disk : DiskProfile
    record_bytes : int
        Record size of the volumes on it (4096 for DB2 pages).
    raid : str
        ``7+P`` or ``6+P+S``.
    rng : random.Random
        The rank's stream: platter phases, arm positions, rotational delays.
    pool : DrivePool
        Where its drives' state lives.
    drives : int or None
        Drives to create; default the RAID layout's active drives (one for a
        native 3390). Several ranks' worth makes a standalone multi-rank
        :class:`Backend`.
    """

    def __init__(self, name: str, disk: DiskProfile, record_bytes: int, raid: str, rng,
                 pool: DrivePool, drives: int | None = None):
        if raid not in RAID_LAYOUTS:
            raise ValueError(f"unknown RAID layout {raid!r}; known: {', '.join(RAID_LAYOUTS)}")
        self.name = name
        self.disk = disk
        self.raid = raid
        self.native = disk.name == "3390"
        self.record_bytes = record_bytes
        self.records_per_track = geometry.records_per_track(record_bytes)
        self.data_per_row, self.active = RAID_LAYOUTS[raid]
        self.rot = disk.rotation_ms / 1000.0
        self.rate = disk.media_mb_s * 1e6            # bytes per second
        self._init_layout(record_bytes)
        self.n_drives = drives or (1 if self.native else self.active)
        self.pool = pool
        self.base = pool.add(self.n_drives, rng, self._volume_cyls,
                             disk.parallelism if disk.is_ssd else 0)
        self.extents_used = 0          # extents (slots) allocated to volumes so far
        # Its device adapter path (free at, busy s, operations; the SSD
        # array's own bandwidth: free at), in the pool: its index.
        self.adapter = pool.add_adapter()

    def _init_layout(self, record_bytes: int) -> None:
        if self.native:
            # Native 3390: one track is one revolution; records sit where
            # the cell arithmetic puts them.
            self.rec_bytes = record_bytes
            self.ncyl = geometry.MODELS["3390-9"]
            self._volume_cyls = self.ncyl
            self.rec_frac = geometry.record_cells(record_bytes) / geometry.CELLS_PER_TRACK
            return
        self.rec_bytes = record_footprint(record_bytes)
        self.track_bytes = self.rec_bytes * self.records_per_track
        self.strip_tracks = max(1, STRIP_BYTES // self.track_bytes)
        self.strip_bytes = self.strip_tracks * self.track_bytes
        self.ncyl = DRIVE_CYLINDERS
        cap = self.disk.capacity_gb * 1e9
        self.cyl_per_byte = DRIVE_CYLINDERS / cap
        self.bytes_per_rev = self.rate * self.rot if self.rot else 1.0
        # Rows of strips one extent occupies on each of its rank's drives.
        self.extent_rows = -(-EXTENT_TRACKS // (self.strip_tracks * self.data_per_row))
        self._volume_cyls = max(1, int(self.extent_rows * self.strip_bytes * self.cyl_per_byte))

    def allocate(self, extents: int) -> int:
        """Reserve ``extents`` extent slots for a volume; returns the first.

        Volumes on a rank get their extents one after the other (in canvas
        order), so each has its own region of every drive.
        """
        first = self.extents_used
        self.extents_used += extents
        return first

    def drives(self) -> range:
        """Indices of the rank's drives in the pool."""
        return range(self.base, self.base + self.n_drives)

    def busy_s(self) -> float:
        """Seconds the rank's drives were busy, summed over them."""
        return sum(self.pool.busy[self.base:self.base + self.n_drives])


class Backend:
    """Drives behind one volume's tracks: RAID ranks or one native 3390.

    Standalone (``Backend(disk, record_bytes, ranks, raid, rng)``) it makes
    its own drives; built by :class:`models.io.system.IOSystem` it is a
    volume's view of shared :class:`Rank` objects (``on``): the volume's
    extents go round those ranks (storage pool striping) starting at the
    extent slots ``slots`` allocated to it on each, and every drive's state
    lives in one :class:`DrivePool`.

    Parameters
    ----------
    disk : DiskProfile
        The drive type (``HDD10K``, ``HDD15K``, ``SSD`` or ``3390``).
    record_bytes : int
        Data length of the volume's records (4096 for DB2 pages).
    ranks : int
        Ranks the volume's extents are spread over (ignored for native 3390).
    raid : str
        ``7+P`` or ``6+P+S``.
    rng : random.Random
        Stream for the drives' starting arm positions and platter phases.
    on : sequence of Rank, optional
        Shared ranks (same drive type and RAID layout) instead of own drives.
    slots : sequence of int, optional
        First extent slot of the volume on each rank of ``on``.
    """

    # Layout figures copied from the first rank in __init__ (a native 3390
    # has only rec_bytes, ncyl, _volume_cyls and rec_frac): declared here
    # for the type checker, set by the setattr loop.
    rec_bytes: int
    ncyl: int
    _volume_cyls: int
    rec_frac: float
    track_bytes: int
    strip_tracks: int
    strip_bytes: int
    cyl_per_byte: float
    bytes_per_rev: float
    extent_rows: int

    def __init__(self, disk: DiskProfile, record_bytes: int, ranks: int = 1, raid: str = "7+P",
                 rng=None, on=None, slots=None):
        if on is None:
            if ranks < 1:
                raise ValueError("a volume needs at least one rank")
            first = Rank("", disk, record_bytes, raid, rng, DrivePool(),
                         drives=1 if disk.name == "3390" else ranks * RAID_LAYOUTS.get(raid, (0, 0))[1])
            n = 1 if first.native else ranks
            on = [_Slice(first, r * first.active) for r in range(n)]
            slots = [0] * n
        rk = on[0]
        for other in on[1:]:
            if (other.disk.name, other.raid) != (rk.disk.name, rk.raid):
                raise ValueError(f"ranks {rk.name!r} and {other.name!r} differ in drive type "
                                 "or RAID layout: a volume stripes only over like ranks")
        self.disk = disk = rk.disk
        self.native = rk.native
        self.records_per_track = rk.records_per_track
        self.data_per_row, self.active = rk.data_per_row, rk.active
        self.ranks = 1 if self.native else len(on)
        self.rank_objs = list(on)
        self.rank_base = [r.base for r in on]
        self.slot_base = list(slots or [0] * len(on))
        self.n_drives = 1 if self.native else self.ranks * self.active
        self.rot = rk.rot
        self.rate = rk.rate
        self.access = disk.access_ms / 1000.0
        self.settle = disk.settle_ms / 1000.0
        self.seek_span = (disk.full_seek_ms - disk.settle_ms) / 1000.0
        for k in ("rec_bytes", "ncyl", "_volume_cyls", "rec_frac", "track_bytes", "strip_tracks",
                  "strip_bytes", "cyl_per_byte", "bytes_per_rev", "extent_rows"):
            if hasattr(rk, k):
                setattr(self, k, getattr(rk, k))
        pool = rk.pool
        self.pool = pool
        self.rngs = pool.rng
        self.ssd = disk.is_ssd
        self.last_drive = self.rank_base[0]      # drive of the latest stage (for the LPO)
        # The timing's constants as the back end is built (C fields compiled:
        # its arithmetic stays in C). Read here, not at import, so a constant
        # set before a run holds in it (bench/sensitivity.py).
        self.read_ahead = READ_AHEAD_BYTES
        self.da_op_s = DA_OP_S
        self.da_bytes_s = DA_BYTES_S
        self.ssd_rank_bytes_s = SSD_RANK_BYTES_S
        self._loc_off = 0                        # _locate's byte offset
        self.adapters = [r.adapter for r in on]
        self._last_rank = 0

    # The drives' figures, as the pool shows them to Python (every volume on
    # a rank sees the same drives).
    @property
    def free_at(self):
        return self.pool.free_at

    @property
    def end_off(self):
        return self.pool.end_off

    @property
    def busy(self):
        return self.pool.busy

    @property
    def accesses(self):
        return self.pool.accesses

    @property
    def phase(self):
        return self.pool.phase

    @property
    def cyl(self):
        return self.pool.cyl

    @property
    def lanes(self):
        """Each drive's lanes' free times (a copy) on SSD, None on disks."""
        return self.pool.lanes if self.ssd else None

    def drive_free(self, d) -> float:
        """When drive ``d`` can begin an operation queued now (FIFO): a
        disk when it is free, an SSD when its first lane is."""
        pool: DrivePool = self.pool
        if self.ssd:
            return pool.lane_min(d)
        pool._check(d)
        return pool._free_at[d]

    def no_lookahead(self, d) -> None:
        """Drive ``d`` wrote last: no read look-ahead to stream on from."""
        pool: DrivePool = self.pool
        pool._check(d)
        pool._end_off[d] = -1

    def drives(self) -> list[int]:
        """Pool indices of the drives the volume's tracks live on."""
        if self.native:
            return [self.rank_base[0]]
        return [b + i for b in self.rank_base for i in range(self.active)]

    def busy_s(self) -> float:
        """Busy seconds of the volume's drives (shared ones include others' work)."""
        pool: DrivePool = self.pool
        return sum(pool._value(1, d) for d in self.drives())

    # -- layout -------------------------------------------------------------
    def locate(self, track) -> tuple[int, int]:
        """(drive index, byte offset on that drive) of a logical track's start."""
        drive = self._locate(track)
        return drive, self._loc_off

    def _locate(self, track) -> int:
        """:meth:`locate`'s drive; its offset is left in ``_loc_off`` (the
        timing's callers take both without a tuple)."""
        if self.native:
            self._loc_off = track
            return self.rank_base[0]
        extent = track // _EXTENT
        t_in = track % _EXTENT
        rank = extent % self.ranks
        self._last_rank = rank
        first_slot: cython.longlong = self.slot_base[rank]
        slot = first_slot + extent // self.ranks     # extents before it on this rank
        strip = t_in // self.strip_tracks
        t_in_strip = t_in % self.strip_tracks
        row = strip // self.data_per_row
        col = strip % self.data_per_row
        parity = self.active - 1 - row % self.active
        drive = (parity + 1 + col) % self.active
        row_abs = slot * self.extent_rows + row
        # The strip's tracks lie packed on the drive, one strip row after
        # the other: a drive streams from one row's strip into the next.
        self._loc_off = row_abs * self.strip_bytes + t_in_strip * self.track_bytes
        first_drive: cython.longlong = self.rank_base[rank]
        return first_drive + drive

    # -- timing -------------------------------------------------------------
    def stage(self, t: float, track, first, count) -> tuple[float, int]:
        """Read ``count`` records of ``track`` from record index ``first``.

        Parameters
        ----------
        t : float
            When the control unit issues the read (s).
        track, first, count : int
            Logical track, 0-based first record and number of records.

        Returns
        -------
        (float, int)
            Time the data is in cache, and bytes read from the drive.
        """
        drive = self._locate(track)
        base = self._loc_off
        self.last_drive = drive
        nbytes = count * self.rec_bytes
        if self.native:
            return self._native(t, track, first, count), nbytes
        if self.ssd:
            done = self._ssd(t, drive, nbytes)
        else:
            done = self._hdd(t, drive, base + first * self.rec_bytes, nbytes)
        return self._adapter(t, done, nbytes), nbytes

    def run_tracks(self, track, limit) -> int:
        """How many of the ``limit`` tracks from ``track`` lie contiguously on one drive.

        A run ends at a strip boundary (RAID) or a cylinder boundary (native
        3390), so :meth:`stage_tracks` can read it as one disk access.
        """
        if self.native:
            left = geometry.TRACKS_PER_CYLINDER - track % geometry.TRACKS_PER_CYLINDER
        else:
            left = self.strip_tracks - (track % _EXTENT) % self.strip_tracks
        return left if left < limit else limit

    def stage_tracks(self, t: float, track, ntracks) -> tuple[float, int]:
        """Read ``ntracks`` whole tracks from ``track`` as one disk access.

        The tracks must form one run (:meth:`run_tracks`). Returns the time the
        last is in cache and the bytes read.
        """
        if self.native:
            rpt = self.records_per_track
            done = self._native(t, track, 0, rpt)
            # Further tracks of the cylinder follow one turn each (head switch).
            return done + (ntracks - 1) * self.rot, ntracks * rpt * self.rec_bytes
        drive = self._locate(track)
        base = self._loc_off
        self.last_drive = drive
        nbytes = ntracks * self.track_bytes
        if self.ssd:
            done = self._ssd(t, drive, nbytes)
        else:
            done = self._hdd(t, drive, base, nbytes)
        return self._adapter(t, done, nbytes), nbytes

    def _adapter(self, t: float, done: float, nbytes) -> float:
        """The stage's work on the rank's device adapter; returns when the
        data is in cache.

        The adapter is a FIFO server booked when the unit issues the stage
        (issue times come in order, so bookings never jump the queue): its
        work is ``DA_OP_S`` plus the bytes at ``DA_BYTES_S``, overlapping
        the drive's read of the same data. The stage is in cache when both
        the drive and the adapter are done.
        """
        pool: DrivePool = self.pool
        a: cython.Py_ssize_t = self.adapters[self._last_rank]
        start = t if t > pool._da_free[a] else pool._da_free[a]
        end = start + self.da_op_s + nbytes / self.da_bytes_s
        pool._da_free[a] = end
        pool._da_busy[a] += end - start
        pool._da_ops[a] += 1
        if self.ssd:
            # An SSD array's own bandwidth (SSD_RANK_BYTES_S), booked the same way.
            start = t if t > pool._da_ssd[a] else pool._da_ssd[a]
            pool._da_ssd[a] = start + nbytes / self.ssd_rank_bytes_s
            if pool._da_ssd[a] > end:
                end = pool._da_ssd[a]
        return end if end > done else done

    def _hdd(self, t: float, d, offset, nbytes) -> float:
        pool: DrivePool = self.pool
        free = pool._free_at[d]
        ahead = offset - pool._end_off[d]
        if t > free and pool._end_off[d] >= 0 and 0 <= ahead and ahead + nbytes <= self.read_ahead:
            # The drive went idle after its last read and has been reading on
            # into its buffer since (read look-ahead): the data is there as
            # soon as the head has passed it, with no new positioning.
            done = free + (ahead + nbytes) / self.rate
            if done < t:
                done = t
            pool._end_off[d] = offset + nbytes
            pool._cyl[d] = int(pool._end_off[d] * self.cyl_per_byte)
            pool._free_at[d] = done
            pool._busy[d] += (ahead + nbytes) / self.rate
            pool._accesses[d] += 1
            return done
        if t <= free and 0 <= ahead <= self.read_ahead and pool._end_off[d] >= 0:
            # Queued right behind a read that ends where this one starts, or a
            # short way before it: the drive reads on (command queuing,
            # read-ahead), passing the gap at the media rate, no repositioning.
            done = free + (ahead + nbytes) / self.rate
            pool._end_off[d] = offset + nbytes
            pool._cyl[d] = int(pool._end_off[d] * self.cyl_per_byte)
            self._book(d, free, done)
            return done
        start = t if t > free else free
        cyl = int(offset * self.cyl_per_byte)
        dc = cyl - pool._cyl[d]
        seek = 0.0 if dc == 0 else self.settle + self.seek_span * _sqrt(abs(dc) / self.ncyl)
        t1 = start + self.access + seek
        rot = self.rot
        angle = (t1 / rot + pool._phase[d]) % 1.0
        if offset == pool._end_off[d]:
            # Continues the drive's last read after a pause: the start is
            # where the head was when that read ended.
            target = (free / rot + pool._phase[d]) % 1.0
        else:
            # Anywhere else the angle is not known: zoned recording, track
            # skew, head switches and slipped sectors put a block's angle out
            # of reach of the unit's layout arithmetic, so a new positioning
            # waits a uniformly distributed part of a turn (mean: the
            # published average latency, half a turn).
            target = self.rngs[d].random()
        done = t1 + ((target - angle) % 1.0) * rot + nbytes / self.rate
        pool._cyl[d] = cyl
        pool._end_off[d] = offset + nbytes
        self._book(d, start, done)
        return done

    def _ssd(self, t: float, d, nbytes) -> float:
        """An SSD read: flash access on one of the drive's lanes, in parallel
        with the other lanes, then the data through the drive's one port.

        The lanes overlap the access latency; the media rate is the drive's,
        shared by its lanes (one SAS port, one controller), so big stages
        queue for bandwidth while small record stages mostly do not.
        """
        pool: DrivePool = self.pool
        # The first of the lanes free soonest (as ``lanes.index(min(lanes))``).
        i = pool._lane0[d]
        j = i + 1
        last = i + pool._nlanes[d]
        while j < last:
            if pool._lanes[j] < pool._lanes[i]:
                i = j
            j += 1
        start = t if t > pool._lanes[i] else pool._lanes[i]
        ready = start + self.access
        port = pool._free_at[d]
        done = (ready if ready > port else port) + nbytes / self.rate
        pool._lanes[i] = done
        pool._free_at[d] = done
        pool._accesses[d] += 1
        pool._busy[d] += nbytes / self.rate
        return done

    def _native(self, t: float, track, first, count) -> float:
        pool: DrivePool = self.pool
        d: cython.longlong = self.rank_base[0]
        start = t if t > pool._free_at[d] else pool._free_at[d]
        cyl = track // _TPC
        dc = cyl - pool._cyl[d]
        seek = 0.0 if dc == 0 else self.settle + self.seek_span * _sqrt(min(1.0, abs(dc) / self.ncyl))
        t1 = start + seek
        rot = self.rot
        angle = (t1 / rot + pool._phase[d]) % 1.0
        target = first * self.rec_frac
        done = t1 + ((target - angle) % 1.0) * rot + count * self.rec_frac * rot
        pool._cyl[d] = cyl
        self._book(d, start, done)
        return done

    def parity_drive(self, track) -> int:
        """Drive holding the RAID-5 parity of the stripe row a track is in."""
        extent = track // _EXTENT
        t_in = track % _EXTENT
        row = t_in // self.strip_tracks // self.data_per_row
        first_drive: cython.longlong = self.rank_base[extent % self.ranks]
        return first_drive + self.active - 1 - row % self.active

    def destage(self, t: float, track, first, count) -> tuple[float, int, float]:
        """Write ``count`` modified records of ``track`` from cache to the drives.

        RAID-5 small write: on the data drive and on the row's parity drive,
        read the old sectors, then write the new ones when they come round
        again (one turn later on a disk; a second access on SSD). Native
        3390: update in place, one pass. Returns (time both writes are done,
        drive operations, time the first of them starts): until it starts
        no drive has read or written anything of it, so a later write of
        the same records can still join it (:mod:`models.io.writes`).
        """
        pool: DrivePool = self.pool
        if self.native:
            d = self.rank_base[0]
            start = t if t > pool._free_at[d] else pool._free_at[d]
            return self._native(t, track, first, count), 1, start
        drive = self._locate(track)
        base = self._loc_off
        off = base + first * self.rec_bytes
        nbytes = count * self.rec_bytes
        done = 0.0
        start = -1.0
        parity = self.parity_drive(track)
        for k in range(2):
            d = drive if k == 0 else parity
            # Requests reach a drive in FIFO order: this one starts when the
            # drive (an SSD: its first free lane) is free.
            free = pool.lane_min(d) if self.ssd else pool._free_at[d]
            if free < t:
                free = t
            if start < 0.0 or free < start:
                start = free
            if self.ssd:
                end = self._ssd(self._ssd(t, d, nbytes), d, nbytes)
            else:
                end = self._hdd(t, d, off, nbytes) + self.rot     # same sectors, next turn
                pool._free_at[d] = end
                pool._busy[d] += self.rot
                pool._end_off[d] = -1
            if end > done:
                done = end
        return done, 4, start

    def _book(self, d, start: float, done: float) -> None:
        pool: DrivePool = self.pool
        pool._free_at[d] = done
        pool._busy[d] += done - start
        pool._accesses[d] += 1

    def drive_cylinder(self, track: int) -> int:
        """Physical cylinder a logical track starts on (for the trace)."""
        drive, offset = self.locate(track)
        if self.native:
            return track // geometry.TRACKS_PER_CYLINDER
        return int(offset * self.cyl_per_byte)

    def record_transfer_s(self) -> float:
        """Back-end time of one more record: media, device adapter (and SSD array)."""
        if self.native:
            return self.rec_frac * self.rot
        ssd = self.rec_bytes / SSD_RANK_BYTES_S if self.ssd else 0.0
        return self.rec_bytes / self.rate + self.rec_bytes / DA_BYTES_S + ssd


class _Slice:
    """One rank's worth of a standalone multi-rank :class:`Backend`'s drives."""

    def __init__(self, rank: Rank, offset: int):
        self.__dict__.update(rank.__dict__)
        self.base = rank.base + offset
