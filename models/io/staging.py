"""Staging ahead of the host: the List Prefetch Optimizer and sequential prestage.

A mixin of :class:`models.io.volume.VolumeIO` (split off to keep modules
small): the LPO's per-list drive schedule and reconnect runs, and the
sequential detection's adaptive prestage (AMP). Both work on the volume's
own tracks; cache keys carry the volume's base (``self.kb``) because the
control unit's directory is shared by all its volumes.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from models.io.cache import FULL, PARTIAL, RECORD
from models.io.request import IOResult

try:
    import cython
except ImportError:  # interpreted, Cython not installed: nothing is compiled
    class cython:  # type: ignore[no-redef]
        compiled = False

if not cython.compiled:
    # Compiled, staging.pxd cimports them (the volume's back end is a typed
    # field; the cache directory a typed local).
    from models.io.backend import Backend
    from models.io.cache import CacheDirectory

if TYPE_CHECKING:
    from models.io.cache import CacheStats
    from models.io.trace_io import IOTrace

#: Adaptive prestage (AMP, Gill & Bathen, FAST 2007, the DS8000's sequential
#: prefetching): a stream's prestage depth starts at one stripe and grows by a
#: stripe each time the host has to wait for a track the stream's prestage is
#: still bringing in, up to this many stripes (a bound on the cache one
#: stream may hold ahead: 16 stripes of a 7+P rank are ~25 MB).
AMP_MAX_STRIPES = 16

#: Sequential detection (DS8000, IBM *DS6000 Series: Concepts and
#: Architecture*, "SARC", p. 28: "counters are maintained with every track to
#: record whether a track has been accessed together with its predecessor.
#: Sequential prefetching becomes active only when these counters suggest a
#: sequential access pattern"; Gill & Modha, SARC, USENIX 2005, the counter
#: and its threshold): a track read together with its predecessor counts
#: one more than it, any other track 0; the unit prestages once a track's
#: count reaches this many. The DS8000's threshold is not published: an
#: assumption, swept in bench/sensitivity.py.
SEQ_TRIGGER_TRACKS = 3
# The staging modes, C numbers compiled (staging.pxd).
_RECORD, _PARTIAL, _FULL = RECORD, PARTIAL, FULL
#: How far ahead an active stream prestages follows how much of its recent
#: tracks the host read (US patent 4,882,642, "Sequentially processing data
#: in a cached data storage system", abstract: "Sequential access is first
#: detected by monitoring and examining the quantity of data accessed per
#: unit of data storage (track) across a set of contiguously addressable
#: tracks … A promotion factor is calculated by combining the access extents
#: monitored in the individual data storage areas and is expressed in a
#: number of tracks units to be promoted"): the share of records read per
#: track, averaged over about this many tracks (an exponential average),
#: times the stream's full depth. The window is not published: an
#: assumption, swept.
SEQ_DENSITY_TRACKS = 8


#: What a track in the LPO's set of tracks staged from costs, in bytes
#: (CPython: its slot in the set's table, the table at most 60 % full, and
#: its int object): past a bit a track up to the highest, bits instead.
_SET_BYTES_A_TRACK = 64
#: Up to this many tracks the set stays a set (4 KB or so), whatever the
#: highest track: a first track staged low would otherwise start the bits
#: at once.
_SET_TRACKS = 64


class Staging:
    """LPO scheduling and sequential prestage (mixed into ``VolumeIO``)."""

    # What VolumeIO, which this is mixed into, sets in its __init__ and
    # defines: declared here for the type checker only.
    backend: Backend
    kb: int
    rpt: int
    full_mask: int
    _tcw: float
    _slot: float
    _address: float
    _seq_alpha: float
    _seq_trigger: int
    _seq_streams: int
    seq_detect: bool
    zhpf: bool
    record_bytes: int
    link_s_per_record: float
    conn_extra: float
    start_s: float
    write_disc: float
    exposures: float
    reserved: float
    stats: CacheStats
    _cache: CacheDirectory
    tr: IOTrace | None
    amp_waits: int
    _lpo_staged: set[int] | None
    _lpo_bits: bytearray | None
    _lpo_top: int
    _streams: dict[int, tuple[int, int, float]]
    _sf: float
    _s_was: int
    _list_run: tuple[int, int, float]
    _seq_staged_to: int
    _stripe_tracks: int
    _prestage_tracks: int
    _destaging: dict[int, tuple[float, float, int, int, int]]
    _destaging_limit: int
    _open_rows: dict[int, list]
    _write_next: int

    if TYPE_CHECKING:
        # Compiled only (staging.pxd): the streams' C arrays.
        _st_track: list[int]
        _st_count: list[int]
        _st_last: list[bool]
        _st_dens: list[float]
        _st_stamp: list[int]
        _st_n: int
        _st_clock: int

        @property
        def cache(self) -> CacheDirectory: ...

    def _stage(self, t: float, track, mask, mode, res: IOResult) -> float:
        """Read ``mask``'s span of ``track`` from the drives into cache
        (:meth:`models.io.volume.VolumeIO._stage`); the LPO calls it."""
        raise NotImplementedError

    # -- List Prefetch Optimizer --------------------------------------------
    def _lpo_schedule(self, t: float, groups, res: IOResult, list_prefetch: bool = False) -> list:
        """Issue every missing record of the list to the drives at once.

        Per track: one needed record is staged alone (record caching); two or
        more are staged as one partial-track read spanning them (the drive
        passes them in the same turn anyway). The LPO moves a track to track
        staging by the unit's own history of the data set: once a list comes
        back to a track it has staged from (a revisit), that track is staged
        in track mode. One rule on every device, no cost comparison (issue
        32; until then the switch came when the revisit share reached the
        back end's cost of a record's transfer against an operation's, so
        on SSD it barely came). As more of an index is read more lists come
        back to tracks staged before, so the share of track-mode stages
        grows with the share read, on SSD as on spinning drives (DOMAIN.md:
        the switch "follows how much of the data set has been read, on SSD
        as on spinning drives"); on SSD the extra data raises the I/O time
        to a mid-scan peak (2.1 ms at 5 % of the index, 3.0 ms at 20 %,
        2.1 ms at 100 %: tests/models/test_io_lpo_switch.py). Each stage is
        costed by the back end as it happens: on SSD a lane's access and the
        bytes at the drive's rate, on HDD seek, rotation and the transfer of
        the span, all queued FIFO on the drive (:class:`Backend`).

        In track mode a miss is a DS8000 partial-track stage: one drive read
        from the first needed record to the end of the track, records of that
        span already in cache included (read again, they stay valid); from
        record 0 it is a full-track stage. A track already in cache is never
        staged. A track is thus staged again only when a list wants a record
        below every one staged so far: over a whole disorganized index scan
        the partial-track stages add up to a little over twice the tracks of
        the index (REDP-4862; ~2.1 here, plus about one full-track stage per
        track), and the stages keep coming, fewer and fewer, to the end of
        the scan; those late stages keep the LPO's I/O time on SSD up (E9).

        Returns, per group, ``(drive, ready time)`` of the read it issued,
        or None when the group needed none.
        """
        cache: CacheDirectory = self._cache
        kb: cython.longlong = self.kb
        track: cython.longlong
        mask: cython.ulonglong
        need: cython.ulonglong
        rest: cython.ulonglong
        full: cython.ulonglong
        done: float
        be: Backend = self.backend
        batch: list[tuple[int, float] | None] = [None] * len(groups)
        full = self.full_mask
        if list_prefetch and self.seq_detect:
            self._list_detect(t, groups)
        for i, (track, mask) in enumerate(groups):
            full_mode = self._lpo_revisit(track)    # a revisit: track staging
            need = mask & ~cache.held(kb + track)
            if not need:
                continue
            if full_mode:
                # A DS8000 partial-track stage: from the first needed record
                # to the end of the track, in one drive read, records already
                # in cache in that span included (read again, not re-staged:
                # they stay valid); from record 0 it is a full-track stage.
                rest = full & ~((need & -need) - 1)
                done = self._stage(t, track, rest, _FULL if rest == full else _PARTIAL, res)
            elif need & (need - 1):
                done = self._stage(t, track, need, _PARTIAL, res)
            else:
                done = self._stage(t, track, need, _RECORD, res)
            self._lpo_mark(track)
            batch[i] = (be.last_drive, done)
        return batch

    def _lpo_revisit(self, track) -> bool:
        """Whether the LPO staged from ``track`` before (a list that comes
        back to it is a revisit)."""
        bits: bytearray = self._lpo_bits
        if bits is None:
            return track in self._lpo_staged
        byte: cython.Py_ssize_t = track >> 3
        return byte < len(bits) and (bits[byte] >> (track & 7)) & 1 == 1

    def _lpo_mark(self, track) -> int:
        """Remember that the LPO staged from ``track``. A set of the tracks
        while it is smaller than a bit a track up to the highest of them
        would be, then those bits: a set of every track staged grew without
        end (about 20,000 tracks a simulated second in the Large shop, some
        60 bytes each); the bits stop at the volume's highest track staged
        from (a 3390-9: 19 KB), and a short run's few tracks stay a small
        set. Returns 0."""
        byte: cython.Py_ssize_t = track >> 3
        bits: bytearray = self._lpo_bits
        if bits is None:
            staged: set = self._lpo_staged
            staged.add(track)
            if track > self._lpo_top:
                self._lpo_top = track
            if (len(staged) <= _SET_TRACKS
                    or len(staged) * _SET_BYTES_A_TRACK <= (self._lpo_top >> 3) + 1):
                return 0
            bits = self._lpo_bits = bytearray((self._lpo_top >> 3) + 1)
            for t in staged:
                bits[t >> 3] |= 1 << (t & 7)
            self._lpo_staged = None
            return 0
        if byte >= len(bits):
            bits.extend(bytes(byte + 1 - len(bits)))    # bytearray over-allocates
        bits[byte] |= 1 << (track & 7)
        return 0

    def _seq_count_top(self) -> int:
        """Where a track's predecessor count stops growing: at the trigger
        (a small saturating counter; a stream that has been sequential for
        long is not trusted more than one that just qualified: how deep it
        prestages is the density's business, :meth:`_degree_depth`)."""
        return self._seq_trigger

    def _stream_behind(self, track) -> tuple[int, float]:
        """Interpreted only (compiled, ``_stream_read`` searches its C arrays
        and ``_streams`` stays empty). The predecessor count and density of ``track`` when no stream read
        the track before it: those of the nearest stream at most a stripe
        behind, the count one down for each track in between and one for
        ``track`` itself (the tracks it skipped were not read together with
        their predecessors); (0, 0) if there is none. Two prefetch I/Os of
        one scan reach the unit interleaved, the second's first tracks before
        the first's last: the second goes on from the first's count. The
        stream behind goes on too.
        """
        best = -1
        streams = self._streams
        lo = track - self._stripe_tracks
        for k in streams:
            if lo <= k < track and k > best:
                best = k
        if best < 0:
            return 0, 0.0
        c, _, f = streams[best]
        c -= track - best
        return (c if c > 0 else 0), f

    def _stream_read(self, track, first_in, last_in, x: float, top, alpha: float, limit):
        """Sequential detection's step for one track a channel program reads.

        ``first_in``/``last_in``: whether the track's first/last record was
        read; ``x`` the share of its records read. The stream the track
        continues (the one whose last track is this one, a split list, or
        the one before it), or the nearest one behind it
        (:meth:`_stream_behind`), gives its predecessor count; the track
        becomes that stream's last, the newest of at most ``limit``
        (the oldest is forgotten). Returns the count; ``self._sf`` is the
        stream's density and ``self._s_was`` the count of the stream it
        continued (-1: none).

        Interpreted, the streams are a dict {last track: (count, last record
        read, density)} in age order; compiled, C arrays with an age stamp
        (the same streams, found and forgotten in the same order).
        """
        c: cython.long
        f: cython.double
        if cython.compiled:
            i: cython.int = -1
            j: cython.int
            n: cython.int = self._st_n
            for j in range(n):
                if self._st_track[j] == track:
                    i = j
                    break
            if i >= 0:              # the same track again (a split list)
                c = self._st_count[i]
                self._s_was = c
                f = self._st_dens[i] + x * alpha
                self._st_forget(i)
            else:
                for j in range(n):
                    if self._st_track[j] == track - 1:
                        i = j
                        break
                if i >= 0:
                    c = self._st_count[i]
                    self._s_was = c
                    f = self._st_dens[i]
                    if self._st_last[i] and first_in:
                        if c < top:
                            c += 1
                    elif c:
                        c -= 1
                    self._st_forget(i)
                else:
                    self._s_was = -1
                    best: cython.longlong = -1
                    lo: cython.longlong = track - self._stripe_tracks
                    for j in range(n):
                        if lo <= self._st_track[j] < track and self._st_track[j] > best:
                            best = self._st_track[j]
                            i = j
                    if best < 0:
                        c, f = 0, 0.0
                    else:
                        c = self._st_count[i] - (track - best)
                        if c < 0:
                            c = 0
                        f = self._st_dens[i]
                f += (x - f) * alpha
            n = self._st_n
            if n >= 64:
                raise ValueError("sequential detection follows at most 63 streams a volume")
            self._st_track[n] = track
            self._st_count[n] = c
            self._st_last[n] = last_in
            self._st_dens[n] = f
            self._st_stamp[n] = self._st_clock
            self._st_clock += 1
            self._st_n = n + 1
            if self._st_n > limit:
                i = 0
                for j in range(1, self._st_n):
                    if self._st_stamp[j] < self._st_stamp[i]:
                        i = j
                self._st_forget(i)      # the oldest
            self._sf = f
            return c
        streams = self._streams
        s = streams.pop(track, None)
        if s is None:
            s = streams.pop(track - 1, None)
            if s is None:
                self._s_was = -1
                c, f = self._stream_behind(track)
            else:
                self._s_was = s[0]
                c, f = s[0], s[2]
                if s[1] and first_in:
                    if c < top:
                        c += 1
                elif c:
                    c -= 1
            f += (x - f) * alpha
        else:
            self._s_was = s[0]
            c, f = s[0], s[2] + x * alpha     # the same track again (a split list)
        streams[track] = (c, last_in, f)
        if len(streams) > limit:
            del streams[next(iter(streams))]      # the oldest
        self._sf = f
        return c

    def _st_forget(self, i) -> None:
        """Compiled: drop stream ``i`` (the last takes its place; ages keep the order)."""
        if cython.compiled:
            n: cython.int = self._st_n - 1
            self._st_n = n
            if i != n:
                self._st_track[i] = self._st_track[n]
                self._st_count[i] = self._st_count[n]
                self._st_last[i] = self._st_last[n]
                self._st_dens[i] = self._st_dens[n]
                self._st_stamp[i] = self._st_stamp[n]

    def _degree_depth(self, density: float) -> int:
        """Tracks to prestage ahead of an active stream (predecessor count at
        least ``SEQ_TRIGGER_TRACKS``) whose recent tracks had the share
        ``density`` of their records read: that share of the stream's full
        depth, at least one track. The full depth is a stripe (every drive of the rank(s)
        busy) and more once AMP deepens it while the host waits on the
        stream (:meth:`_amp_wait`; Gill & Bathen, FAST 2007), back to a
        stripe when a stream stops (its count falls below the trigger).
        How far ahead
        a unit stages grows with how much of the recent tracks was read
        (US 4,882,642): prestaging starts and stops by degree, the count
        deciding whether, the density how deep.
        """
        d = int(density * self._prestage_tracks)
        return d if d > 1 else 1

    def _list_detect(self, t: float, groups) -> None:
        """Sequential detection over a list prefetch the LPO sees whole.

        The same per-track count as the channel program's
        (:meth:`models.io.volume.IORequest._advance`), where "together
        with its predecessor" means the list (or the list before it) also
        reads the track before: the LPO has the whole list, so it sees the
        tracks a list spans and which of them it skips. Each track of the
        span is a step: one up for a track read after its predecessor, one
        down for a track skipped and for one read after a skip. A list that
        reads track after track (RUNSTATS at mid-range sampling) builds the
        count up and is prestaged ahead, deeper by degree; a list that skips
        tracks (skip-17 reads 12 tracks in 17: 7 up, 10 down) keeps the
        count near 0 and is record-cached. No share of a list is a cut-off.
        """
        last, c, f = self._list_run
        top = self._seq_count_top()
        trigger = SEQ_TRIGGER_TRACKS
        alpha = 1.0 / SEQ_DENSITY_TRACKS
        was_on = c >= trigger
        rpt = self.rpt
        for track, mask in groups:
            x = mask.bit_count() / rpt
            if track == last + 1:
                if c < top:
                    c += 1
                f += (x - f) * alpha
            elif track > last:
                # The list skips ``gap - 1`` tracks (none of their records
                # read), and this one is not read together with its
                # predecessor: the count one down for each.
                gap = track - last
                c = c - gap if c > gap else 0
                f = f * (1.0 - alpha) ** min(gap, 64) + x * alpha
            elif track < last:
                c, f = 0, x * alpha   # a list back before the last: a new stream
            else:
                f += x * alpha        # the same track as the list before
            on = c >= trigger
            last = track
            if on:
                d = self._degree_depth(f)
                ahead = self._seq_staged_to - track
                if ahead < (d + 1) // 2 or ahead > self._prestage_tracks:
                    self._prestage(t, track, d)
            elif was_on:
                self._prestage_tracks = self._stripe_tracks    # the stream stops
            was_on = on
        self._list_run = (last, c, f)

    def _lpo_stages(self, groups) -> bool:
        """Whether the LPO will issue drive reads for a list that is no list
        prefetch: some record is neither in cache nor on its way.

        If not, the I/O goes on without an LPO schedule or a sync point
        (and, staging nothing, revisits nothing).
        """
        cache: CacheDirectory = self._cache
        kb: cython.longlong = self.kb
        track: cython.longlong
        mask: cython.ulonglong
        for track, mask in groups:
            if mask & ~cache.held(kb + track):
                return True
        return False

    def _in_stream(self, track) -> bool:
        """Whether ``track`` lies in the window of the active sequential stream.

        The stream runs at most one prestage depth behind what is staged
        ahead of it; two interleaved prefetch I/Os of one scan keep within
        two depths.
        """
        to = self._seq_staged_to
        return to >= 0 and to - 2 * self._prestage_tracks <= track <= to

    def _amp_wait(self) -> None:
        """The host waited for a track its stream's prestage is still reading:
        prestage one stripe deeper (AMP), up to ``AMP_MAX_STRIPES``."""
        self.amp_waits += 1
        if self._prestage_tracks < AMP_MAX_STRIPES * self._stripe_tracks:
            self._prestage_tracks += self._stripe_tracks

    # -- sequential detection -----------------------------------------------
    # A stream qualifies once a track's predecessor count reaches
    # SEQ_TRIGGER_TRACKS (counted in IORequest._advance and _list_detect); the unit
    # then tops its prestage up whenever less than half of the depth by
    # degree is left ahead of it.
    def _prestage(self, t: float, track, depth) -> None:
        """Stage ``depth`` whole tracks after ``track`` ahead of a sequential stream.

        Tracks that lie together on one drive (a RAID strip, a 3390
        cylinder) are read in one disk access.
        """
        be: Backend = self.backend
        cache: CacheDirectory = self._cache
        kb: cython.longlong = self.kb
        full: cython.ulonglong = self.full_mask
        st: CacheStats = self.stats
        end: cython.longlong = track + 1 + depth
        staged_to: cython.longlong = self._seq_staged_to
        tk: cython.longlong = staged_to + 1 if track < staged_to < end else track + 1
        n: cython.longlong
        present: cython.bint
        done: float
        nbytes: cython.longlong
        if cython.compiled:
            # Memory hint, no effect on any figure: the run's places in the
            # directory all at once, not one wait for memory per track below.
            k: cython.longlong
            for k in range(tk, min(end, tk + 64)):
                cache.prefetch(kb + k)
        while tk < end:
            if cache.held(kb + tk) == full:
                tk += 1
                continue
            present = cache.contains(kb + tk)
            n = be.run_tracks(tk, end - tk)
            # Stop the run at a track already (partly) in cache.
            for k in range(1, n):
                if cache.contains(kb + tk + k):
                    n = k
                    break
            done, nbytes = be.stage_tracks(t, tk, n)
            st.seq_tracks_staged += n
            st.disk_requests += 1
            st.disk_bytes += nbytes
            if not present:
                cache.add_tracks(kb + tk, n, full, done)
            else:
                cache.add(kb + tk, full, done)
                cache.add_tracks(kb + tk + 1, n - 1, full, done)
            if self.tr is not None:
                per = nbytes / n / be.rate
                for k in range(n):
                    self.tr.stage(t, done - (n - 1 - k) * per, tk + k, 0, self.rpt, FULL)
            tk += n
        self._seq_staged_to = end - 1


def _run_ready(batch, i) -> float:
    """How long a disconnect for group ``i`` lasts under the LPO.

    The unit knows which drive each record of the list is coming from.
    When it has to disconnect for a record, the records right behind it
    in the list that the same drive is reading for this I/O arrive
    moments later, one after another (the drive passes them in order):
    the unit reconnects once for that run of the list rather than once
    per record. Returns the time the run's last record is in cache (0
    when the LPO issued no read for group ``i``).
    """
    ready: float
    b = batch[i]
    if b is None:
        return 0.0
    drive, ready = b
    for j in range(i + 1, len(batch)):
        b = batch[j]
        if b is None:
            continue        # already in cache or being staged: not this drive's run
        if b[0] != drive:
            break
        if b[1] > ready:
            ready = b[1]
    return ready
