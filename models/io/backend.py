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
#: Read look-ahead of an idle drive: after a read it keeps reading the next
#: sectors into a cache segment until a command comes or the segment is full
#: (the SCSI caching mode page's default). 2.5-inch enterprise drives of 2012
#: had 16–64 MB of cache in segments of a few hundred KB; 128 KB, the low
#: end, is taken: it covers the next two logical tracks, so a unit staging
#: track after track finds the next one already read, but not the strip of
#: the next RAID row (221 KB on). An assumption; with 256 KB, FICON skip 65
#: on 10K reads 2.45 MB/s instead of 2.13. Queued commands (the LPO's
#: lists) do not benefit: the drive is not idle.
READ_AHEAD_BYTES = 128 * 1024
#: Physical cylinders (tracks per surface) of a 2.5-inch enterprise drive of
#: 2012: on the order of 10^5 (drive data sheets quote ~200k tracks/inch).
DRIVE_CYLINDERS = 100_000

RAID_LAYOUTS = {"6+P+S": (6, 7), "7+P": (7, 8)}   # (data strips per row, active drives)


def record_footprint(data_len: int, key_len: int = 0) -> int:
    """Bytes one CKD record takes on a fixed-block drive (whole sectors)."""
    raw = COUNT_FIELD_BYTES + key_len + data_len
    return -(-raw // SECTOR_BYTES) * SECTOR_BYTES


class Backend:
    """Drives behind one volume's tracks: RAID ranks or one native 3390.

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
    """

    def __init__(self, disk: DiskProfile, record_bytes: int, ranks: int, raid: str, rng):
        if raid not in RAID_LAYOUTS:
            raise ValueError(f"unknown RAID layout {raid!r}; known: {', '.join(RAID_LAYOUTS)}")
        if ranks < 1:
            raise ValueError("a volume needs at least one rank")
        self.disk = disk
        self.native = disk.name == "3390"
        self.records_per_track = geometry.records_per_track(record_bytes)
        self.data_per_row, self.active = RAID_LAYOUTS[raid]
        self.ranks = 1 if self.native else ranks
        self.n_drives = 1 if self.native else self.ranks * self.active
        self.rot = disk.rotation_ms / 1000.0
        self.rate = disk.media_mb_s * 1e6            # bytes per second
        self.access = disk.access_ms / 1000.0
        self.settle = disk.settle_ms / 1000.0
        self.seek_span = (disk.full_seek_ms - disk.settle_ms) / 1000.0
        self._init_layout(record_bytes)
        self.free_at = [0.0] * self.n_drives
        # Byte offset just past each drive's last read: a read queued right
        # behind it that starts there streams on without a new positioning.
        self.end_off = [-1] * self.n_drives
        self.last_drive = 0          # drive of the latest stage (for the LPO)
        self.busy = [0.0] * self.n_drives
        self.accesses = [0] * self.n_drives
        self.rng = rng
        self.phase = [rng.random() for _ in range(self.n_drives)]
        # Arms start over the volume's area: the workload has been using it.
        self.cyl = [int(rng.random() * self._volume_cyls) for _ in range(self.n_drives)]
        self.lanes = [[0.0] * disk.parallelism for _ in range(self.n_drives)] if disk.is_ssd else None

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

    # -- layout -------------------------------------------------------------
    def locate(self, track: int) -> tuple[int, int]:
        """(drive index, byte offset on that drive) of a logical track's start."""
        if self.native:
            return 0, track
        extent, t_in = divmod(track, EXTENT_TRACKS)
        rank = extent % self.ranks
        slot = extent // self.ranks                  # extents before it on this rank
        strip, t_in_strip = divmod(t_in, self.strip_tracks)
        row, col = divmod(strip, self.data_per_row)
        parity = self.active - 1 - row % self.active
        drive = (parity + 1 + col) % self.active
        row_abs = slot * self.extent_rows + row
        # The strip's tracks lie packed on the drive, one strip row after
        # the other: a drive streams from one row's strip into the next.
        offset = row_abs * self.strip_bytes + t_in_strip * self.track_bytes
        return rank * self.active + drive, offset

    # -- timing -------------------------------------------------------------
    def stage(self, t: float, track: int, first: int, count: int) -> tuple[float, int]:
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
        drive, base = self.locate(track)
        self.last_drive = drive
        nbytes = count * self.rec_bytes
        if self.native:
            return self._native(t, track, first, count), nbytes
        if self.lanes is not None:
            return self._ssd(t, drive, nbytes), nbytes
        return self._hdd(t, drive, base + first * self.rec_bytes, nbytes), nbytes

    def run_tracks(self, track: int, limit: int) -> int:
        """How many of the ``limit`` tracks from ``track`` lie contiguously on one drive.

        A run ends at a strip boundary (RAID) or a cylinder boundary (native
        3390), so :meth:`stage_tracks` can read it as one disk access.
        """
        if self.native:
            left = geometry.TRACKS_PER_CYLINDER - track % geometry.TRACKS_PER_CYLINDER
        else:
            left = self.strip_tracks - (track % EXTENT_TRACKS) % self.strip_tracks
        return left if left < limit else limit

    def stage_tracks(self, t: float, track: int, ntracks: int) -> tuple[float, int]:
        """Read ``ntracks`` whole tracks from ``track`` as one disk access.

        The tracks must form one run (:meth:`run_tracks`). Returns the time the
        last is in cache and the bytes read.
        """
        if self.native:
            rpt = self.records_per_track
            done = self._native(t, track, 0, rpt)
            # Further tracks of the cylinder follow one turn each (head switch).
            return done + (ntracks - 1) * self.rot, ntracks * rpt * self.rec_bytes
        drive, base = self.locate(track)
        self.last_drive = drive
        nbytes = ntracks * self.track_bytes
        if self.lanes is not None:
            return self._ssd(t, drive, nbytes), nbytes
        return self._hdd(t, drive, base, nbytes), nbytes

    def _hdd(self, t: float, d: int, offset: int, nbytes: int) -> float:
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
        if offset == self.end_off[d] and t <= free:
            # Queued right behind a read that ends where this one starts: the
            # drive streams on (command queuing, read-ahead), no repositioning.
            done = free + nbytes / self.rate
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
            target = self.rng.random()
        done = t1 + ((target - angle) % 1.0) * rot + nbytes / self.rate
        self.cyl[d] = cyl
        self.end_off[d] = offset + nbytes
        self._book(d, start, done)
        return done

    def _ssd(self, t: float, d: int, nbytes: int) -> float:
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

    def _native(self, t: float, track: int, first: int, count: int) -> float:
        start = t if t > self.free_at[0] else self.free_at[0]
        cyl = track // geometry.TRACKS_PER_CYLINDER
        dc = cyl - self.cyl[0]
        seek = 0.0 if dc == 0 else self.settle + self.seek_span * math.sqrt(min(1.0, abs(dc) / self.ncyl))
        t1 = start + seek
        rot = self.rot
        angle = (t1 / rot + self.phase[0]) % 1.0
        target = first * self.rec_frac
        done = t1 + ((target - angle) % 1.0) * rot + count * self.rec_frac * rot
        self.cyl[0] = cyl
        self._book(0, start, done)
        return done

    def parity_drive(self, track: int) -> int:
        """Drive holding the RAID-5 parity of the stripe row a track is in."""
        extent, t_in = divmod(track, EXTENT_TRACKS)
        row = t_in // self.strip_tracks // self.data_per_row
        return extent % self.ranks * self.active + self.active - 1 - row % self.active

    def destage(self, t: float, track: int, first: int, count: int) -> tuple[float, int]:
        """Write ``count`` modified records of ``track`` from cache to the drives.

        RAID-5 small write: on the data drive and on the row's parity drive,
        read the old sectors, then write the new ones when they come round
        again (one turn later on a disk; a second access on SSD). Native
        3390: update in place, one pass. Returns (time both writes are done,
        drive operations).
        """
        if self.native:
            return self._native(t, track, first, count), 1
        drive, base = self.locate(track)
        off = base + first * self.rec_bytes
        nbytes = count * self.rec_bytes
        done = 0.0
        for d in (drive, self.parity_drive(track)):
            if self.lanes is not None:
                end = self._ssd(self._ssd(t, d, nbytes), d, nbytes)
            else:
                end = self._hdd(t, d, off, nbytes) + self.rot     # same sectors, next turn
                self.free_at[d] = end
                self.busy[d] += self.rot
                self.end_off[d] = -1
            if end > done:
                done = end
        return done, 4

    def _book(self, d: int, start: float, done: float) -> None:
        self.free_at[d] = done
        self.busy[d] += done - start
        self.accesses[d] += 1

    def drive_cylinder(self, track: int) -> int:
        """Physical cylinder a logical track starts on (for the trace)."""
        drive, offset = self.locate(track)
        if self.native:
            return track // geometry.TRACKS_PER_CYLINDER
        return int(offset * self.cyl_per_byte)

    def positioning_s(self) -> float:
        """Typical cost of reaching a record: access + short seek + half a turn.

        The List Prefetch Optimizer weighs it against the extra transfer of
        staging a whole track.
        """
        if self.lanes is not None:
            return self.access
        return self.access + self.settle + self.rot / 2.0

    def record_transfer_s(self) -> float:
        """Media time of one record."""
        if self.native:
            return self.rec_frac * self.rot
        return self.rec_bytes / self.rate
