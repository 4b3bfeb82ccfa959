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

if TYPE_CHECKING:
    from models.io.backend import Backend
    from models.io.cache import CacheDirectory, CacheStats
    from models.io.trace_io import IOTrace

#: Adaptive prestage (AMP, Gill & Bathen, FAST 2007, the DS8000's sequential
#: prefetching): a stream's prestage depth starts at one stripe and grows by a
#: stripe each time the host has to wait for a track the stream's prestage is
#: still bringing in, up to this many stripes (a bound on the cache one
#: stream may hold ahead: 16 stripes of a 7+P rank are ~25 MB).
AMP_MAX_STRIPES = 16

#: A list prefetch is *dense* when it touches at least this share of the
#: tracks it spans (DOMAIN.md: "most of the tracks it spans"). Bounded by
#: REDP-4862's two observations: skip-17 lists (every 17th page: 71 % of
#: the tracks they span) are record-cached by the LPO (4.7 KB per disk
#: access, E7), and RUNSTATS at mid-range sampling (50 %: every track; 20 %:
#: 93 %) is mostly streamed. An assumption inside (0.71, 0.93).
DENSE_TRACK_SHARE = 0.85


class Staging:
    """LPO scheduling and sequential prestage (mixed into ``VolumeIO``)."""

    # What VolumeIO, which this is mixed into, sets in its __init__ and
    # defines: declared here for the type checker only.
    backend: Backend
    kb: int
    rpt: int
    full_mask: int
    seq_detect: bool
    stats: CacheStats
    tr: IOTrace | None
    amp_waits: int
    _full_track_odds: float
    _lpo_staged: set[int]
    _revisits: float
    _visits: float
    _seq_staged_to: int
    _stripe_tracks: int
    _prestage_tracks: int

    if TYPE_CHECKING:
        @property
        def cache(self) -> CacheDirectory: ...

        def _stage(self, t: float, track: int, mask: int, mode: int, res: IOResult) -> float: ...

    # -- List Prefetch Optimizer --------------------------------------------
    def _lpo_schedule(self, t: float, groups, res: IOResult, list_prefetch: bool = False) -> list:
        """Issue every missing record of the list to the drives at once.

        Per track: one needed record is staged alone (record caching); two or
        more are staged as one partial-track read spanning them (the drive
        passes them in the same turn anyway). The LPO moves the data set to
        track staging once lists come back to tracks it has staged from often
        enough to pay: when the revisit share reaches the cost of a record's
        transfer against the back end's throughput cost of one operation
        (:meth:`Backend.record_transfer_s` / :meth:`Backend.op_cost_s`: ~0.5
        on SSD, whose operations are cheap, so a short scan stays with record
        caching, REDP-4862's ~4.7 KB per disk access; ~0.01 on HDD, where the
        first revisits switch it).

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
        entries = self.cache.tracks
        kb = self.kb
        staged = self._lpo_staged
        odds = self._full_track_odds
        be = self.backend
        revisits, visits = self._revisits, self._visits
        batch: list[tuple[int, float] | None] = [None] * len(groups)
        full = self.full_mask
        if list_prefetch and self.seq_detect:
            # Dense lists stream; a running stream goes on through a sparser
            # list only while that costs the back end less than its records.
            if self._dense(groups):
                self._stream_list(t, groups)
            elif self._in_stream(groups[0][0]):
                if self._stream_pays(groups):
                    self._stream_list(t, groups)
                else:
                    self._prestage_tracks = self._stripe_tracks     # the stream ends
        for i, (track, mask) in enumerate(groups):
            visits += 1.0
            if track in staged:
                revisits += 1.0
            full_mode = revisits and revisits >= odds * visits
            e = entries.get(kb + track)
            if e is None:
                need, have = mask, 0
            else:
                have = e[0] | e[1]
                need = mask & ~have
                if not need:
                    continue
            if full_mode:
                # A DS8000 partial-track stage: from the first needed record
                # to the end of the track, in one drive read, records already
                # in cache in that span included (read again, not re-staged:
                # they stay valid); from record 0 it is a full-track stage.
                rest = full & ~((need & -need) - 1)
                done = self._stage(t, track, rest, FULL if rest == full else PARTIAL, res)
            elif need & (need - 1):
                done = self._stage(t, track, need, PARTIAL, res)
            else:
                done = self._stage(t, track, need, RECORD, res)
            staged.add(track)
            batch[i] = (be.last_drive, done)
        self._revisits, self._visits = revisits, visits
        return batch

    def _dense(self, groups) -> bool:
        """Whether a list touches most of the tracks it spans
        (``DENSE_TRACK_SHARE``): the unit then streams the span into cache
        as for a sequential stream (DOMAIN.md: "when a list is dense (it
        touches most of the tracks it spans), the unit streams those tracks
        into cache sequentially"). A structural test, not a cost one: on SSD
        streaming a list's span costs the back end several times what
        staging its records would, yet the paper's SSD curve stays flat
        (streaming) down to ~20 % sampling. Cost decides only whether a
        running stream goes on through a sparser list (:meth:`_stream_pays`).
        """
        first, last = groups[0][0], groups[-1][0]
        span = last - first + 1
        return span >= 2 and len(groups) >= DENSE_TRACK_SHARE * span

    def _stream_pays(self, groups) -> bool:
        """Whether streaming a list that is not dense costs the back end less
        than staging its records: the test that keeps a running stream going.

        A dense list starts (or extends) a stream whatever the device
        (:meth:`_dense`, REDP-4862). A sparser list inside the stream's
        window keeps it going only if passing its whole span (a track's
        transfer per track, one operation per drive strip) is cheaper than
        one operation per touched track plus its records' transfer, with the
        back end's own costs (:meth:`Backend.op_cost_s`,
        :meth:`Backend.record_transfer_s`), the same weighing as the LPO's
        switch to track staging. On HDD an operation is a repositioning
        (2.7 ms on 15K) and the stream goes on down to ~4 % sampling; on
        SSD it is ~60 µs and the stream stops at the first sparse list, so
        records are staged (the paper's SSD curve falls below 15K's by 10 %).
        Otherwise the stream ends: the next dense list starts a new one, one
        stripe deep (AMP).
        """
        be = self.backend
        rt, oc = be.record_transfer_s(), be.op_cost_s()
        first, last = groups[0][0], groups[-1][0]
        span = last - first + 1
        run = 15 if be.native else be.strip_tracks
        stream = span * self.rpt * rt + -(-span // run) * oc
        pages = sum(bin(m).count("1") for _, m in groups)
        records = len(groups) * oc + pages * rt
        return stream <= records

    def _stream_list(self, t: float, groups) -> None:
        """Stage a list's span as a sequential stream: prestage whole tracks
        from its first track, as for a sequential stream (AMP depth), unless
        the active stream already covers it. A new stream starts one stripe
        deep; AMP deepens it while the host waits on it."""
        first, last = groups[0][0], groups[-1][0]
        ahead = self._seq_staged_to - last
        if self._in_stream(first) and ahead >= self._prestage_tracks // 2:
            return
        if not self._in_stream(first):
            self._prestage_tracks = self._stripe_tracks      # a new stream: one stripe deep
        self._prestage(t, first - 1 if not self._in_stream(first) else last)

    def _lpo_stages(self, groups) -> bool:
        """Whether the LPO will issue drive reads for a list that is no list
        prefetch: some record is neither in cache nor on its way.

        If not, the list only counts in the LPO's visits (what
        :meth:`_lpo_schedule` would do with it), and the I/O goes on
        without an LPO schedule or a sync point.
        """
        entries = self.cache.tracks
        kb = self.kb
        for track, mask in groups:
            e = entries.get(kb + track)
            if e is None or mask & ~(e[0] | e[1]):
                return True
        staged = self._lpo_staged
        self._visits += len(groups)
        for track, _mask in groups:
            if track in staged:
                self._revisits += 1.0
        return False

    @staticmethod
    def _cached(e: list, t: float) -> bool:
        """Whether a directory entry's records are all in cache at ``t`` (no stage in flight)."""
        return not e[1] or e[2] <= t

    def _in_stream(self, track: int) -> bool:
        """Whether ``track`` lies in the window of the active sequential stream.

        The stream runs at most one prestage depth behind what is staged
        ahead of it; two interleaved prefetch I/Os of one scan keep within
        two depths.
        """
        to = self._seq_staged_to
        return to >= 0 and to - 2 * self._prestage_tracks <= track <= to

    @staticmethod
    def _run_ready(batch: list, i: int) -> float:
        """How long a disconnect for group ``i`` lasts under the LPO.

        The unit knows which drive each record of the list is coming from.
        When it has to disconnect for a record, the records right behind it
        in the list that the same drive is reading for this I/O arrive
        moments later, one after another (the drive passes them in order):
        the unit reconnects once for that run of the list rather than once
        per record. Returns the time the run's last record is in cache (0
        when the LPO issued no read for group ``i``).
        """
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

    def _amp_wait(self) -> None:
        """The host waited for a track its stream's prestage is still reading:
        prestage one stripe deeper (AMP), up to ``AMP_MAX_STRIPES``."""
        self.amp_waits += 1
        if self._prestage_tracks < AMP_MAX_STRIPES * self._stripe_tracks:
            self._prestage_tracks += self._stripe_tracks

    # -- sequential detection -----------------------------------------------
    # A stream qualifies after SEQ_TRIGGER_TRACKS tracks' worth of contiguous
    # records (tracked in _channel_io); the unit then tops its prestage up
    # whenever less than half of the prestage depth is left ahead of it.
    def _prestage(self, t: float, track: int) -> None:
        """Stage whole tracks ahead of a sequential stream, a stripe deep.

        Tracks that lie together on one drive (a RAID strip, a 3390
        cylinder) are read in one disk access.
        """
        be = self.backend
        cache = self.cache
        entries = cache.tracks
        kb = self.kb
        full = self.full_mask
        st = self.stats
        end = track + 1 + self._prestage_tracks
        staged_to = self._seq_staged_to
        tk = staged_to + 1 if track < staged_to < end else track + 1
        while tk < end:
            e = entries.get(kb + tk)
            if e is not None and (e[0] | e[1]) == full:
                tk += 1
                continue
            n = be.run_tracks(tk, end - tk)
            # Stop the run at a track already (partly) in cache.
            for k in range(1, n):
                if (kb + tk + k) in entries:
                    n = k
                    break
            done, nbytes = be.stage_tracks(t, tk, n)
            st.seq_tracks_staged += n
            st.disk_requests += 1
            st.disk_bytes += nbytes
            if e is None:
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
