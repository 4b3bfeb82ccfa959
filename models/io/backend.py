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

from models.io import geometry
from models.io.devices import DiskProfile

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

RAID_LAYOUTS = {"6+P+S": (6, 7), "7+P": (7, 8)}   # (data strips per row, active drives)


def record_footprint(data_len: int, key_len: int = 0) -> int:
    """Bytes one CKD record takes on a fixed-block drive (whole sectors)."""
    raw = COUNT_FIELD_BYTES + key_len + data_len
    return -(-raw // SECTOR_BYTES) * SECTOR_BYTES


class DrivePool:
    """The state of every drive of a configuration, in flat per-drive lists.

    Ranks own slices of it (:class:`Rank`); every volume's :class:`Backend`
    indexes the same lists, so volumes on one rank queue for the same drives
    and find each other's arm positions. Flat lists keep the hot path to one
    indexing step, as when each volume had its own drives.
    """

    def __init__(self) -> None:
        self.free_at: list[float] = []
        # Byte offset just past each drive's last read: a read queued right
        # behind it that starts there streams on without a new positioning.
        self.end_off: list[int] = []
        self.busy: list[float] = []
        self.accesses: list[int] = []
        self.phase: list[float] = []
        self.cyl: list[int] = []
        self.lanes: list = []          # per SSD drive its lanes' free times; None for a disk
        self.rng: list = []            # per drive the stream of its rank

    def __len__(self) -> int:
        return len(self.free_at)

    def add(self, n: int, rng, arm_span_cyls: int, lanes: int = 0) -> int:
        """Append ``n`` drives; returns the index of the first.

        Platter phases, then arm positions (over the first ``arm_span_cyls``
        cylinders: the workload has been using that area) are drawn from
        ``rng``, which also serves their rotational delays.
        """
        base = len(self.free_at)
        self.free_at += [0.0] * n
        self.end_off += [-1] * n
        self.busy += [0.0] * n
        self.accesses += [0] * n
        self.phase += [rng.random() for _ in range(n)]
        self.cyl += [int(rng.random() * arm_span_cyls) for _ in range(n)]
        self.lanes += [[0.0] * lanes if lanes else None for _ in range(n)]
        self.rng += [rng] * n
        return base


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
        # Its device adapter path: free at, busy s, operations; the SSD
        # array's own bandwidth: free at.
        self.adapter = [0.0, 0.0, 0, 0.0]

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
        self.free_at = pool.free_at
        self.end_off = pool.end_off
        self.busy = pool.busy
        self.accesses = pool.accesses
        self.phase = pool.phase
        self.cyl = pool.cyl
        self.rngs = pool.rng
        self.lanes = pool.lanes if disk.is_ssd else None
        self.last_drive = self.rank_base[0]      # drive of the latest stage (for the LPO)
        self._loc_off = 0                        # _locate's byte offset
        self.adapters = [r.adapter for r in on]
        self._last_rank = 0

    def drives(self) -> list[int]:
        """Pool indices of the drives the volume's tracks live on."""
        if self.native:
            return [self.rank_base[0]]
        return [b + i for b in self.rank_base for i in range(self.active)]

    def busy_s(self) -> float:
        """Busy seconds of the volume's drives (shared ones include others' work)."""
        busy = self.busy
        return sum(busy[d] for d in self.drives())

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
        slot = self.slot_base[rank] + extent // self.ranks     # extents before it on this rank
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
        return self.rank_base[rank] + drive

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
        if self.lanes is not None:
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
        if self.lanes is not None:
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
        da = self.adapters[self._last_rank]
        start = t if t > da[0] else da[0]
        end = start + DA_OP_S + nbytes / DA_BYTES_S
        da[0] = end
        da[1] += end - start
        da[2] += 1
        if self.lanes is not None:
            # An SSD array's own bandwidth (SSD_RANK_BYTES_S), booked the same way.
            start = t if t > da[3] else da[3]
            da[3] = start + nbytes / SSD_RANK_BYTES_S
            if da[3] > end:
                end = da[3]
        return end if end > done else done

    def _hdd(self, t: float, d, offset, nbytes) -> float:
        free = self.free_at[d]
        ahead = offset - self.end_off[d]
        if t > free and self.end_off[d] >= 0 and 0 <= ahead and ahead + nbytes <= READ_AHEAD_BYTES:
            # The drive went idle after its last read and has been reading on
            # into its buffer since (read look-ahead): the data is there as
            # soon as the head has passed it, with no new positioning.
            done = free + (ahead + nbytes) / self.rate
            if done < t:
                done = t
            self.end_off[d] = offset + nbytes
            self.cyl[d] = int(self.end_off[d] * self.cyl_per_byte)
            self.free_at[d] = done
            self.busy[d] += (ahead + nbytes) / self.rate
            self.accesses[d] += 1
            return done
        if t <= free and 0 <= ahead <= READ_AHEAD_BYTES and self.end_off[d] >= 0:
            # Queued right behind a read that ends where this one starts, or a
            # short way before it: the drive reads on (command queuing,
            # read-ahead), passing the gap at the media rate, no repositioning.
            done = free + (ahead + nbytes) / self.rate
            self.end_off[d] = offset + nbytes
            self.cyl[d] = int(self.end_off[d] * self.cyl_per_byte)
            self._book(d, free, done)
            return done
        start = t if t > free else free
        cyl = int(offset * self.cyl_per_byte)
        dc = cyl - self.cyl[d]
        seek = 0.0 if dc == 0 else self.settle + self.seek_span * math.sqrt(abs(dc) / self.ncyl)
        t1 = start + self.access + seek
        rot = self.rot
        angle = (t1 / rot + self.phase[d]) % 1.0
        if offset == self.end_off[d]:
            # Continues the drive's last read after a pause: the start is
            # where the head was when that read ended.
            target = (free / rot + self.phase[d]) % 1.0
        else:
            # Anywhere else the angle is not known: zoned recording, track
            # skew, head switches and slipped sectors put a block's angle out
            # of reach of the unit's layout arithmetic, so a new positioning
            # waits a uniformly distributed part of a turn (mean: the
            # published average latency, half a turn).
            target = self.rngs[d].random()
        done = t1 + ((target - angle) % 1.0) * rot + nbytes / self.rate
        self.cyl[d] = cyl
        self.end_off[d] = offset + nbytes
        self._book(d, start, done)
        return done

    def _ssd(self, t: float, d, nbytes) -> float:
        """An SSD read: flash access on one of the drive's lanes, in parallel
        with the other lanes, then the data through the drive's one port.

        The lanes overlap the access latency; the media rate is the drive's,
        shared by its lanes (one SAS port, one controller), so big stages
        queue for bandwidth while small record stages mostly do not.
        """
        lanes = self.lanes[d]
        i = lanes.index(min(lanes))
        start = t if t > lanes[i] else lanes[i]
        ready = start + self.access
        port = self.free_at[d]
        done = (ready if ready > port else port) + nbytes / self.rate
        lanes[i] = done
        self.free_at[d] = done
        self.accesses[d] += 1
        self.busy[d] += nbytes / self.rate
        return done

    def _native(self, t: float, track, first, count) -> float:
        d = self.rank_base[0]
        start = t if t > self.free_at[d] else self.free_at[d]
        cyl = track // geometry.TRACKS_PER_CYLINDER
        dc = cyl - self.cyl[d]
        seek = 0.0 if dc == 0 else self.settle + self.seek_span * math.sqrt(min(1.0, abs(dc) / self.ncyl))
        t1 = start + seek
        rot = self.rot
        angle = (t1 / rot + self.phase[d]) % 1.0
        target = first * self.rec_frac
        done = t1 + ((target - angle) % 1.0) * rot + count * self.rec_frac * rot
        self.cyl[d] = cyl
        self._book(d, start, done)
        return done

    def parity_drive(self, track) -> int:
        """Drive holding the RAID-5 parity of the stripe row a track is in."""
        extent = track // _EXTENT
        t_in = track % _EXTENT
        row = t_in // self.strip_tracks // self.data_per_row
        return self.rank_base[extent % self.ranks] + self.active - 1 - row % self.active

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
        if self.native:
            d = self.rank_base[0]
            start = t if t > self.free_at[d] else self.free_at[d]
            return self._native(t, track, first, count), 1, start
        drive = self._locate(track)
        base = self._loc_off
        off = base + first * self.rec_bytes
        nbytes = count * self.rec_bytes
        done = 0.0
        start = -1.0
        for d in (drive, self.parity_drive(track)):
            # Requests reach a drive in FIFO order: this one starts when the
            # drive (an SSD: its first free lane) is free.
            free = min(self.lanes[d]) if self.lanes is not None else self.free_at[d]
            if free < t:
                free = t
            if start < 0.0 or free < start:
                start = free
            if self.lanes is not None:
                end = self._ssd(self._ssd(t, d, nbytes), d, nbytes)
            else:
                end = self._hdd(t, d, off, nbytes) + self.rot     # same sectors, next turn
                self.free_at[d] = end
                self.busy[d] += self.rot
                self.end_off[d] = -1
            if end > done:
                done = end
        return done, 4, start

    def _book(self, d, start: float, done: float) -> None:
        self.free_at[d] = done
        self.busy[d] += done - start
        self.accesses[d] += 1

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
        ssd = self.rec_bytes / SSD_RANK_BYTES_S if self.lanes is not None else 0.0
        return self.rec_bytes / self.rate + self.rec_bytes / DA_BYTES_S + ssd


class _Slice:
    """One rank's worth of a standalone multi-rank :class:`Backend`'s drives."""

    def __init__(self, rank: Rank, offset: int):
        self.__dict__.update(rank.__dict__)
        self.base = rank.base + offset
