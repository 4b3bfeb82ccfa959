"""Control-unit cache directory: 4 KB slots, LRU, staging in flight, statistics.

The directory maps a logical track (its key) to three things: ``valid``,
the mask of its records in cache (bit r is record r of the track, one 4 KB
slot each); ``pending``, the records being staged, valid at ``ready``. LRU
order is kept per track (the DS8000 keeps its LRU lists per track too;
slots of a track age together); the capacity is counted in slots.

Interpreted, the directory is an ``OrderedDict`` of ``[valid, pending,
ready]`` lists. Compiled (Cython in pure-Python mode, ``cache.pxd``; the
branches ``if cython.compiled:``), it is a C array of track entries that
is itself an open-addressing hash table, kept in LRU order by a log of
touches (see ``_find``'s comment): no Python object per cached track, so a
look-up in a directory of millions of tracks touches one cache line or
two, and the garbage collector has nothing to walk. Both keep the same
order (new and touched tracks at the newest end, evictions from the
oldest), so both evict the same tracks at the same moments
(``tests/models/test_cache_directory.py`` runs them side by side). Masks
are at most 64 bits in both (a track of more than 64 records is refused
when its volume is built).

:class:`CacheStats` holds what an RMF Cache Activity report shows.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any

try:
    import cython
except ImportError:  # interpreted, Cython not installed: nothing is compiled
    class cython:  # type: ignore[no-redef]
        compiled = False

if not cython.compiled:
    # Declared in cache.pxd for the compiled branches only (the entry struct,
    # libc's allocator, the bit count); never used interpreted.
    _Track: Any = None
    memmove: Any = None
    _popcount: Any = None
    _home: Any = None
    __builtin_prefetch: Any = None
    _grow: Any = None
    _release: Any = None

SLOT_BYTES = 4096
MODE_NAMES = ("record", "partial track", "full track")
RECORD, PARTIAL, FULL = 0, 1, 2
#: The most records a track may have: the directory's masks are 64-bit words.
MAX_RECORDS_PER_TRACK = 64
#: The most slots a directory holds (it has at most one entry per slot).
MAX_SLOTS = 2**31 - 2


class CacheStats:
    """Counters of an RMF Cache Activity report (read side) for one volume.

    Compiled, an extension type with C integer fields (cache.pxd): the
    channel program counts into them on every I/O.
    """

    #: The counters, in report order (``stages`` is a list by mode beside them).
    FIELDS = ("read_requests", "hits", "misses", "seq_tracks_staged", "disk_requests",
              "disk_bytes", "host_bytes", "evicted_slots", "write_requests", "fast_writes",
              "nvs_waits", "destages", "destage_ops", "destage_bytes", "coalesced_writes")

    def __init__(self):
        self.read_requests = 0
        self.hits = 0
        self.misses = 0
        self.stages: list = [0, 0, 0]  # by mode
        self.seq_tracks_staged = 0      # prestaged by sequential detection
        self.disk_requests = 0
        self.disk_bytes = 0
        self.host_bytes = 0
        self.evicted_slots = 0
        self.write_requests = 0         # records written (DASD fast write)
        self.fast_writes = 0            # of which ended once in cache + NVS
        self.nvs_waits = 0              # write groups delayed by a full NVS
        self.destages = 0               # destages booked (one per track write that joins none)
        self.destage_ops = 0            # drive reads + writes they took
        self.destage_bytes = 0
        self.coalesced_writes = 0       # track writes that joined a destage not yet started

    def add(self, other) -> None:
        """Add ``other``'s counters to these (a unit's sum over its volumes;
        compiled, C additions: a report sums a thousand volumes' counters)."""
        if cython.compiled:
            o: CacheStats = other
            self.read_requests += o.read_requests
            self.hits += o.hits
            self.misses += o.misses
            self.seq_tracks_staged += o.seq_tracks_staged
            self.disk_requests += o.disk_requests
            self.disk_bytes += o.disk_bytes
            self.host_bytes += o.host_bytes
            self.evicted_slots += o.evicted_slots
            self.write_requests += o.write_requests
            self.fast_writes += o.fast_writes
            self.nvs_waits += o.nvs_waits
            self.destages += o.destages
            self.destage_ops += o.destage_ops
            self.destage_bytes += o.destage_bytes
            self.coalesced_writes += o.coalesced_writes
        else:
            for f in CacheStats.FIELDS:
                setattr(self, f, getattr(self, f) + getattr(other, f))
        self.stages = [a + b for a, b in zip(self.stages, other.stages)]

    def __repr__(self) -> str:
        return "CacheStats(" + ", ".join(f"{f}={getattr(self, f)}" for f in self.FIELDS) + \
            f", stages={self.stages})"

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
        if slots > MAX_SLOTS:
            raise ValueError(f"a cache of {slots:,} slots is more than the directory holds "
                             f"({MAX_SLOTS:,}: 8 TB)")
        self.capacity = slots
        self.used = 0
        self.on_evict = on_evict
        self.evicted = 0
        if cython.compiled:
            # The table of entries (``_t``) and the LRU log start empty:
            # the first insert grows them.
            self._count = 0
            self._hcap = self._hbits = 0
            self._lh = self._ln = self._lcap = 0
            self._lbase = 0
        else:
            self.tracks: OrderedDict[int, list] = OrderedDict()

    def __dealloc__(self):
        if cython.compiled:
            _release(self._t, self._hcap * cython.sizeof(_Track))
            _release(self._log, self._lcap * cython.sizeof(cython.longlong))

    def __len__(self) -> int:
        if cython.compiled:
            return self._count
        return len(self.tracks)

    @property
    def log_capacity(self) -> int:
        """Records the compiled directory's LRU log has room for, 8 bytes
        each: at most about eight a track held at its fullest, however long
        the run (see ``_log_room``); the interpreted directory keeps no log: 0."""
        if cython.compiled:
            return self._lcap
        return 0

    # -- the compiled directory -------------------------------------------------
    # The entries are the hash table (open addressing, linear probing; key
    # -1 an empty slot): a look-up of a random track among millions waits
    # for main memory once, for the entry itself, not for a slot holding
    # its number and then for the entry.
    #
    # The LRU order is a log of touches (``_log``, the tracks' keys, oldest
    # first from ``_lh``): a touch appends the track's key and writes the
    # record's place into the entry, which the look-up has just loaded (a
    # place counted from the log's first record ever, ``_lbase`` being the
    # place of ``_log[0]``: places only grow). A record is the track's
    # place in the order while the entry holds its place; an older one is
    # stale, skipped at the head and dropped when the log is compacted.
    # The order is that of a list whose touched track moves to the newest
    # end (the interpreted OrderedDict's), but a touch writes no other
    # track's entry: a doubly linked list's two neighbours, random among
    # millions, were a fifth of a run of hits.
    def _find(self, key):
        """Compiled: the entry of ``key``, or -1."""
        if cython.compiled:
            t = self._t
            if self._hcap == 0:
                return -1
            m: cython.Py_ssize_t = self._hcap - 1
            i: cython.Py_ssize_t = _home(key, self._hbits)
            k: cython.longlong
            while True:
                k = t[i].key
                if k == key:
                    return i
                if k < 0:
                    return -1
                i = (i + 1) & m
        return -1

    def _grow_hash(self):
        """Compiled: double the table (kept at most 70 % full)."""
        if cython.compiled:
            bits: cython.int = self._hbits + 1 if self._hbits else 10
            cap: cython.Py_ssize_t = cython.cast(cython.Py_ssize_t, 1) << bits
            t = _grow(cython.NULL, 0, cap * cython.sizeof(_Track))
            if t == cython.NULL:
                raise MemoryError()
            new = cython.cast(cython.pointer(_Track), t)
            old = self._t
            ocap: cython.Py_ssize_t = self._hcap
            i: cython.Py_ssize_t
            for i in range(cap):
                new[i].key = -1
            # Every entry placed again, in the old table's order (read in
            # sequence), each new place loaded ahead (a memory hint; where
            # an entry lands in its probe run changes no look-up, so no
            # figure). The log holds keys: a moved entry keeps its place in
            # the order.
            m: cython.Py_ssize_t = cap - 1
            e: cython.Py_ssize_t
            a: cython.Py_ssize_t
            j: cython.Py_ssize_t
            for e in range(ocap):
                a = e + 16
                if a < ocap and old[a].key >= 0:
                    __builtin_prefetch(cython.address(new[_home(old[a].key, bits)]))
                if old[e].key >= 0:
                    j = _home(old[e].key, bits)
                    while new[j].key >= 0:
                        j = (j + 1) & m
                    new[j] = old[e]
            _release(old, ocap * cython.sizeof(_Track))
            self._t = new
            self._hcap = cap
            self._hbits = bits

    def _new(self, key, valid, pend, ready):
        """Compiled: a new entry for ``key`` (not in the table) at the newest
        end; returns it."""
        if cython.compiled:
            # At most 70 % full. At half, a shop's warmed millions of tracks
            # doubled the table early in the run that followed: a rebuild
            # of every entry on fresh memory, a tenth of a 2 s run of the
            # 1,000-volume bench. A look-up of a track not in cache probes
            # further (about six entries at 70 %, against two and a half at
            # 50 %, in sequence in memory); one of a track in cache, the
            # common case, about as far.
            if 10 * (self._count + 1) > 7 * self._hcap:
                self._grow_hash()
            m: cython.Py_ssize_t = self._hcap - 1
            e: cython.Py_ssize_t = _home(key, self._hbits)
            while self._t[e].key >= 0:
                e = (e + 1) & m
            p = cython.address(self._t[e])
            p.key = key
            p.valid = valid
            p.pend = pend
            p.ready = ready
            p.stamp = -1
            self._count += 1
            self._touch(e)
            return e
        return -1

    def _to_end(self, e):
        """Compiled: make entry ``e`` the newest (``move_to_end``)."""
        if cython.compiled:
            # Not if it is the newest already (the log's last record).
            if self._ln == 0 or self._t[e].stamp != self._lbase + self._ln - 1:
                self._touch(e)
        return 0

    def _touch(self, e):
        """Compiled: append entry ``e``'s track to the log, the newest."""
        if cython.compiled:
            if self._ln == self._lcap:
                self._log_room()
            self._log[self._ln] = self._t[e].key
            self._t[e].stamp = self._lbase + self._ln
            self._ln += 1
        return 0

    def _log_room(self):
        """Compiled: room for a record at the log's end. When at least half
        the records from the head on are stale, the live ones are moved to
        the log's start (a compaction, paid for by the touches that made
        them stale); else when the head has passed half the log, the
        records from the head on are moved there; else the log grows to
        twice its length. It grows only while the records from the head on
        fill more than half of it and are fewer than two a track: so it has
        room for at most about eight records a track at the directory's
        fullest."""
        if cython.compiled:
            log = self._log
            n: cython.Py_ssize_t = self._ln
            i: cython.Py_ssize_t
            if self._lh and 2 * self._lh >= self._lcap and n - self._lh < 2 * self._count + 2:
                memmove(log, cython.address(log[self._lh]),
                        (n - self._lh) * cython.sizeof(cython.longlong))
                self._lbase += self._lh         # every record keeps its place
                self._ln = n - self._lh
                self._lh = 0
                return 0
            if n - self._lh >= 2 * self._count + 2:
                # The live records get places after every old one (so no
                # stale record's place is an entry's again).
                base: cython.longlong = self._lbase + n
                j: cython.Py_ssize_t = 0
                a: cython.Py_ssize_t
                e: cython.Py_ssize_t
                for i in range(self._lh, n):
                    # The entry 16 records on starts loading now (a memory
                    # hint): the checks' waits for memory overlap.
                    a = i + 16
                    if a < n and self._hcap:
                        __builtin_prefetch(
                            cython.address(self._t[_home(log[a], self._hbits)]))
                    e = self._find(log[i])
                    if e >= 0 and self._t[e].stamp == self._lbase + i:
                        log[j] = log[i]
                        self._t[e].stamp = base + j
                        j += 1
                self._lbase = base
                self._lh = 0
                self._ln = j
                if j < self._lcap:      # always: at most half the records were live
                    return 0
            cap: cython.Py_ssize_t = 2 * self._lcap if self._lcap else 1024
            g = _grow(self._log, self._lcap * cython.sizeof(cython.longlong),
                      cap * cython.sizeof(cython.longlong))
            if g == cython.NULL:
                raise MemoryError()
            self._log = cython.cast(cython.pointer(cython.longlong), g)
            self._lcap = cap
        return 0

    def _oldest(self):
        """Compiled: the entry of the log's oldest live record (stale ones
        before it dropped), or -1 if the directory is empty."""
        if cython.compiled:
            e: cython.Py_ssize_t
            while self._lh < self._ln:
                e = self._find(self._log[self._lh])
                if e >= 0 and self._t[e].stamp == self._lbase + self._lh:
                    return e
                self._lh += 1
        return -1

    def _remove(self, e):
        """Compiled: take entry ``e`` out of the table (its records in the
        log become stale: no entry of theirs is found)."""
        if cython.compiled:
            t = self._t
            # Linear probing's deletion: shift later entries of the probe
            # run back over the hole, so no look-up stops short of them.
            m: cython.Py_ssize_t = self._hcap - 1
            i: cython.Py_ssize_t = e
            j: cython.Py_ssize_t = e
            k: cython.Py_ssize_t
            while True:
                j = (j + 1) & m
                if t[j].key < 0:
                    break
                k = _home(t[j].key, self._hbits)
                if (i < k <= j) if i <= j else (i < k or k <= j):
                    continue
                t[i] = t[j]
                i = j
            t[i].key = -1
            self._count -= 1

    # -- memory hints (compiled only; no effect on any figure) -----------------
    # A look-up of a random track among millions waits for main memory: for
    # the track's place in the table (its entry, or the probe run that says
    # it is not there). An I/O knows its tracks before it needs them; this
    # starts those loads early so that the CPU goes on meanwhile.
    def prefetch(self, track):
        """Compiled: start loading the entry at ``track``'s place in the
        table into the CPU cache (both cache lines it may span)."""
        if cython.compiled:
            if self._hcap:
                p = cython.address(self._t[_home(track, self._hbits)])
                __builtin_prefetch(p)
                __builtin_prefetch(cython.cast(cython.p_char, p) + cython.sizeof(_Track) - 1)

    # -- look-ups -------------------------------------------------------------
    def valid(self, track, now: float) -> int:
        """Mask of the track's records in cache at ``now`` (touches LRU); 0 if none."""
        if cython.compiled:
            e: cython.Py_ssize_t = self._find(track)
            if e < 0:
                return 0
            self._to_end(e)
            p = cython.address(self._t[e])
            if p.pend and p.ready <= now:
                p.valid |= p.pend
                p.pend = 0
            return p.valid
        x = self.tracks.get(track)
        if x is None:
            return 0
        self.tracks.move_to_end(track)
        if x[1] and x[2] <= now:
            x[0] |= x[1]
            x[1] = 0
        return x[0]

    def pending(self, track) -> tuple[int, float]:
        """(mask, ready time) of records of the track being staged."""
        if cython.compiled:
            e: cython.Py_ssize_t = self._find(track)
            if e < 0 or not self._t[e].pend:
                return 0, 0.0
            return self._t[e].pend, self._t[e].ready
        x = self.tracks.get(track)
        if x is None or not x[1]:
            return 0, 0.0
        return x[1], x[2]

    def pending_mask(self, track) -> int:
        """The records of the track being staged (0 if none)."""
        if cython.compiled:
            e: cython.Py_ssize_t = self._find(track)
            return self._t[e].pend if e >= 0 else 0
        x = self.tracks.get(track)
        return 0 if x is None else x[1]

    def held(self, track) -> int:
        """The track's records in cache or on their way (0 if none); LRU untouched."""
        if cython.compiled:
            e: cython.Py_ssize_t = self._find(track)
            return self._t[e].valid | self._t[e].pend if e >= 0 else 0
        x = self.tracks.get(track)
        return 0 if x is None else x[0] | x[1]

    def contains(self, track) -> bool:
        """Whether the directory has an entry for the track."""
        if cython.compiled:
            return self._find(track) >= 0
        return track in self.tracks

    # -- changes --------------------------------------------------------------
    def add(self, track, mask, ready: float) -> None:
        """Record that ``mask`` of ``track`` will be in cache at ``ready``."""
        if cython.compiled:
            e: cython.Py_ssize_t = self._find(track)
            if e < 0:
                self._new(track, 0, mask, ready)
                self.used += _popcount(mask)
            else:
                self._to_end(e)
                p = cython.address(self._t[e])
                self.used += _popcount(mask & ~(p.valid | p.pend))
                p.pend |= mask & ~p.valid
                if ready > p.ready:
                    p.ready = ready
        else:
            x = self.tracks.get(track)
            if x is None:
                self.tracks[track] = [0, mask, ready]
                self.used += mask.bit_count()
            else:
                self.tracks.move_to_end(track)
                self.used += (mask & ~(x[0] | x[1])).bit_count()
                x[1] |= mask & ~x[0]
                if ready > x[2]:
                    x[2] = ready
        if self.used > self.capacity:
            self._evict(track)

    def add_tracks(self, first, count, mask, ready: float) -> None:
        """``add(track, mask, ready)`` for ``count`` tracks from ``first`` that
        are not in the directory (a prestaged run)."""
        if cython.compiled:
            k: cython.longlong
            e: cython.Py_ssize_t
            for k in range(first, first + count):
                e = self._find(k)
                if e < 0:
                    self._new(k, 0, mask, ready)
                else:       # as the dict's assignment: new values, same place
                    self.used -= _popcount(self._t[e].valid | self._t[e].pend)
                    self._t[e].valid = 0
                    self._t[e].pend = mask
                    self._t[e].ready = ready
            self.used += count * _popcount(mask)
        else:
            tracks = self.tracks
            r = ready           # one float object for the run
            for track in range(first, first + count):
                old = tracks.get(track)
                if old is not None:     # replaced in place: its slots given back
                    self.used -= (old[0] | old[1]).bit_count()
                tracks[track] = [0, mask, r]
            self.used += count * mask.bit_count()
        if self.used > self.capacity:
            self._evict(first + count - 1)

    def _evict(self, keep) -> None:
        """Drop the oldest tracks (never ``keep``) until the slots fit."""
        n: cython.longlong
        if cython.compiled:
            e: cython.Py_ssize_t
            key: cython.longlong
            while self.used > self.capacity and self._count > 1:
                e = self._oldest()
                if e < 0:               # never: every entry has a live record
                    break
                key = self._t[e].key
                self._lh += 1           # its record: the track leaves the head
                if key == keep:
                    self._touch(e)      # to the newest end
                    continue
                n = _popcount(self._t[e].valid | self._t[e].pend)
                self._remove(e)
                self.used -= n
                self.evicted += n
                if self.on_evict is not None:
                    self.on_evict(key, n)
            return
        tracks = self.tracks
        while self.used > self.capacity and len(tracks) > 1:
            track, x = tracks.popitem(last=False)
            if track == keep:
                tracks[track] = x
                continue
            n = (x[0] | x[1]).bit_count()
            self.used -= n
            self.evicted += n
            if self.on_evict is not None:
                self.on_evict(track, n)

    def warm(self, track, mask) -> None:
        """Make records resident now (a cache-resident set-up before a run):
        ``add(track, mask, 0.0)`` then ``valid(track, 0.0)``; interpreted,
        inlined: a workload warms hundreds of thousands of tracks before its
        run starts. (After ``_evict(track)`` the track is the newest entry
        already, so ``valid``'s move to the end is not repeated.)
        """
        if cython.compiled:
            self.add(track, mask, 0.0)
            self.valid(track, 0.0)
            return
        tracks = self.tracks
        x = tracks.get(track)
        if x is None:
            x = tracks[track] = [0, mask, 0.0]
            self.used += mask.bit_count()
        else:
            tracks.move_to_end(track)
            self.used += (mask & ~(x[0] | x[1])).bit_count()
            x[1] |= mask & ~x[0]
        if self.used > self.capacity:
            self._evict(track)
        if x[1] and x[2] <= 0.0:
            x[0] |= x[1]
            x[1] = 0

    def drop(self, lo, hi) -> None:
        """Remove the tracks whose keys are ``lo`` … ``hi - 1`` (one volume's)."""
        if cython.compiled:
            # In the table's order: a removal shifts a later entry into the
            # place just read, so that place is read again.
            e: cython.Py_ssize_t = 0
            while e < self._hcap:
                if lo <= self._t[e].key < hi:
                    self.used -= _popcount(self._t[e].valid | self._t[e].pend)
                    self._remove(e)
                else:
                    e += 1
            return
        for key in [k for k in self.tracks if lo <= k < hi]:
            x = self.tracks.pop(key)
            self.used -= (x[0] | x[1]).bit_count()

    def clear(self) -> None:
        """Remove every track (statistics are kept)."""
        if cython.compiled:
            _release(self._t, self._hcap * cython.sizeof(_Track))
            _release(self._log, self._lcap * cython.sizeof(cython.longlong))
            self._t = cython.NULL
            self._log = cython.NULL
            self._count = 0
            self._hcap = self._hbits = 0
            self._lh = self._ln = self._lcap = 0
            self._lbase = 0
        else:
            self.tracks.clear()
        self.used = 0


#: How many tracks ahead :func:`warm_all` starts loading a hash slot.
WARM_AHEAD = 32


def warm_all(dirs: list, which, keys, masks) -> None:
    """``dirs[which[i]].warm(keys[i], masks[i])`` for each ``i``, in order.

    A workload's warm-up makes millions of tracks resident before its run:
    compiled, this is one call for them all, not one Python call each.
    ``which`` is an int32 array, ``keys`` int64 and ``masks`` uint64 (numpy),
    all of one length; checked first, so nothing is read past them.
    """
    n = keys.shape[0]
    if which.shape[0] != n or masks.shape[0] != n:
        raise ValueError(f"warm_all: {n} keys, {which.shape[0]} directory numbers, "
                         f"{masks.shape[0]} masks")
    nd = len(dirs)
    if cython.compiled:
        i: cython.Py_ssize_t
        for i in range(n):
            if not 0 <= which[i] < nd:
                raise ValueError(f"warm_all: directory number {which[i]} outside 0-{nd - 1}")
        d: CacheDirectory
        # Memory hint, no effect on any figure: the hash slot of the track
        # WARM_AHEAD places on starts loading now, so the random look-ups'
        # waits for memory overlap (a slot moved by a growth since is only
        # a wasted hint).
        ahead: cython.Py_ssize_t = WARM_AHEAD
        for i in range(n):
            if i + ahead < n:
                d = dirs[which[i + ahead]]
                d.prefetch(keys[i + ahead])
            d = dirs[which[i]]
            d.warm(keys[i], masks[i])
        return
    if n and not 0 <= which.min() <= which.max() < nd:
        raise ValueError(f"warm_all: a directory number outside 0-{nd - 1}")
    for w, k, m in zip(which.tolist(), keys.tolist(), masks.tolist()):
        dirs[w].warm(k, m)
