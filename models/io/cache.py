"""Control-unit cache directory: 4 KB slots, LRU, staging in flight, statistics.

The directory is one ``OrderedDict`` keyed by logical track. Each entry is a
small list ``[valid_mask, pending_mask, ready_time]``: bit r of a mask is
record r of the track (one 4 KB slot each). Bits in ``pending_mask`` are
being staged and become valid at ``ready_time``. LRU order is kept per track
(the DS8000 keeps its LRU lists per track too; slots of a track age
together); the capacity is counted in slots.

:class:`CacheStats` holds what an RMF Cache Activity report shows.
"""
from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

SLOT_BYTES = 4096
MODE_NAMES = ("record", "partial track", "full track")
RECORD, PARTIAL, FULL = 0, 1, 2


@dataclass
class CacheStats:
    """Counters of an RMF Cache Activity report (read side) for one volume."""

    read_requests: int = 0
    hits: int = 0
    misses: int = 0
    stages: list = field(default_factory=lambda: [0, 0, 0])   # by mode
    seq_tracks_staged: int = 0      # prestaged by sequential detection
    disk_requests: int = 0
    disk_bytes: int = 0
    host_bytes: int = 0
    evicted_slots: int = 0
    write_requests: int = 0         # records written (DASD fast write)
    fast_writes: int = 0            # of which ended once in cache + NVS
    nvs_waits: int = 0              # write groups delayed by a full NVS
    destages: int = 0               # destage operations (one per track written)
    destage_ops: int = 0            # drive reads + writes they took
    destage_bytes: int = 0

    @property
    def hit_ratio(self) -> float:
        return self.hits / self.read_requests if self.read_requests else 0.0

    @property
    def tracks_staged(self) -> int:
        """Stages of partial or full tracks (RMF 'tracks staged')."""
        return self.stages[PARTIAL] + self.stages[FULL] + self.seq_tracks_staged

    @property
    def disk_bytes_per_request(self) -> float:
        return self.disk_bytes / self.disk_requests if self.disk_requests else 0.0

    @property
    def host_bytes_per_request(self) -> float:
        return self.host_bytes / self.read_requests if self.read_requests else 0.0


class CacheDirectory:
    """Which records of which tracks are in cache, in LRU order.

    Parameters
    ----------
    slots : int
        Capacity in 4 KB slots.
    on_evict : callable or None
        ``on_evict(track, slots)`` for the trace.
    """

    def __init__(self, slots: int, on_evict=None):
        if slots < 1:
            raise ValueError("the cache needs at least one slot")
        self.capacity = slots
        self.used = 0
        self.tracks: OrderedDict[int, list] = OrderedDict()
        self.on_evict = on_evict
        self.evicted = 0

    def valid(self, track, now: float) -> int:
        """Mask of the track's records in cache at ``now`` (touches LRU)."""
        e = self.tracks.get(track)
        if e is None:
            return 0
        self.tracks.move_to_end(track)
        if e[1] and e[2] <= now:
            e[0] |= e[1]
            e[1] = 0
        return e[0]

    def pending(self, track) -> tuple[int, float]:
        """(mask, ready time) of records of the track being staged."""
        e = self.tracks.get(track)
        if e is None or not e[1]:
            return 0, 0.0
        return e[1], e[2]

    def add(self, track, mask, ready: float) -> None:
        """Record that ``mask`` of ``track`` will be in cache at ``ready``."""
        e = self.tracks.get(track)
        if e is None:
            self.tracks[track] = [0, mask, ready]
            new = mask.bit_count()
        else:
            self.tracks.move_to_end(track)
            new = (mask & ~(e[0] | e[1])).bit_count()
            e[1] |= mask & ~e[0]
            if ready > e[2]:
                e[2] = ready
        self.used += new
        if self.used > self.capacity:
            self._evict(track)

    def add_tracks(self, first, count, mask, ready: float) -> None:
        """``add(track, mask, ready)`` for ``count`` tracks from ``first`` that
        are not in the directory (a prestaged run)."""
        tracks = self.tracks
        r = ready           # one float object for the run, as interpreted
        for track in range(first, first + count):
            tracks[track] = [0, mask, r]
        self.used += count * mask.bit_count()
        if self.used > self.capacity:
            self._evict(first + count - 1)

    def _evict(self, keep) -> None:
        tracks = self.tracks
        while self.used > self.capacity and len(tracks) > 1:
            track, e = tracks.popitem(last=False)
            if track == keep:
                tracks[track] = e
                continue
            n = (e[0] | e[1]).bit_count()
            self.used -= n
            self.evicted += n
            if self.on_evict is not None:
                self.on_evict(track, n)

    def warm(self, track, mask) -> None:
        """Make records resident now (a cache-resident set-up before a run).

        ``add(track, mask, 0.0)`` then ``valid(track, 0.0)``, inlined: a
        workload warms hundreds of thousands of tracks before its run starts.
        (After ``_evict(track)`` the track is the newest entry already, so
        ``valid``'s move to the end is not repeated.)
        """
        tracks = self.tracks
        e = tracks.get(track)
        if e is None:
            e = tracks[track] = [0, mask, 0.0]
            self.used += mask.bit_count()
        else:
            tracks.move_to_end(track)
            self.used += (mask & ~(e[0] | e[1])).bit_count()
            e[1] |= mask & ~e[0]
        if self.used > self.capacity:
            self._evict(track)
        if e[1] and e[2] <= 0.0:
            e[0] |= e[1]
            e[1] = 0
