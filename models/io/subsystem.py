"""One 3390 volume behind a DS8000-style control unit, reached over FICON or zHPF.

:class:`IOSubsystem` is the public entry point (see docs/model-io.md). An
I/O is a list of ``(track, mask)`` groups in channel-program order (bit r of
``mask`` = record r of the track), built from 4 KB page numbers with
:func:`pages_to_groups` or from a contiguous range. Inside a process::

    res = yield from sub.read_pages([17, 34, 51])    # IOSQ + PEND + DISC + CONN
    res.total, res.pend, res.disc, res.conn, res.hits, res.misses

Each I/O costs at most two engine events (a volume grant when it must
queue, and one timeout); everything in between — protocol steps, cache
look-ups, staging on the drives — is computed in a tight loop at issue time.
"""
from __future__ import annotations

from models.engine import Engine, Resource
from models.io import channel as ch
from models.io import geometry
from models.io.backend import Backend
from models.io.cache import FULL, PARTIAL, RECORD, CacheDirectory, CacheStats
from models.io.devices import profile
from models.io.trace_io import IOTrace
from models.io.writes import NVS, NVS_FRACTION, write_program

#: Sequential detection: contiguous records read in a row before the unit
#: prestages (two tracks' worth of records, DS8000 sequential detection).
SEQ_TRIGGER_TRACKS = 2
#: Sequential streams the unit follows at once per volume (enough for the
#: interleaved prefetch I/Os of a scan and a synchronous reader).
SEQ_STREAMS = 8
#: Adaptive prestage (AMP, Gill & Bathen, FAST 2007, the DS8000's sequential
#: prefetching): a stream's prestage depth starts at one stripe and grows by a
#: stripe each time the host has to wait for a track the stream's prestage is
#: still bringing in, up to this many stripes (a bound on the cache one
#: stream may hold ahead: 16 stripes of a 7+P rank are ~25 MB).
AMP_MAX_STRIPES = 16
STAGING_MODES = {"record": RECORD, "partial": PARTIAL, "full": FULL}


class IOResult:
    """Response-time parts (seconds) and cache outcome of one I/O request."""

    __slots__ = ("id", "iosq", "pend", "disc", "conn", "pages", "hits", "misses",
                 "ios", "stages", "disk_bytes")

    def __init__(self, rid: int = 0) -> None:
        self.id = rid
        self.iosq = self.pend = self.disc = self.conn = 0.0
        self.pages = self.hits = self.misses = self.ios = self.stages = self.disk_bytes = 0

    @property
    def total(self) -> float:
        """IOSQ + PEND + DISC + CONN, seconds."""
        return self.iosq + self.pend + self.disc + self.conn

    def as_ms(self) -> dict:
        return {"io_ms": self.total * 1e3, "iosq_ms": self.iosq * 1e3,
                "pend_ms": self.pend * 1e3, "disc_ms": self.disc * 1e3,
                "conn_ms": self.conn * 1e3}


def pages_to_groups(pages, per_track: int = 12) -> list[tuple[int, int]]:
    """Group page (record) numbers into ``(track, mask)`` in the given order.

    Consecutive pages on the same track share a group; the order of the list
    is kept (the channel program reads in list order).
    """
    groups: list = []
    append = groups.append
    last = -1
    mask = 0
    base = -per_track          # first page of track ``last``
    for p in pages:
        r = p - base
        if r >= per_track or r < 0:
            if mask:
                append((last, mask))
            last = p // per_track
            base = last * per_track
            mask = 1 << (p - base)
        else:
            mask |= 1 << r
    if mask:
        append((last, mask))
    return groups


def range_to_groups(first: int, count: int, per_track: int = 12) -> list[tuple[int, int]]:
    """``(track, mask)`` groups of ``count`` contiguous records from ``first``."""
    groups = []
    end = first + count
    p = first
    while p < end:
        t, r = divmod(p, per_track)
        n = min(per_track - r, end - p)
        groups.append((t, ((1 << n) - 1) << r))
        p += n
    return groups


class IOSubsystem:
    """A volume, its control unit, cache, back-end drives and channel.

    Parameters
    ----------
    engine : Engine
    device : str
        ``HDD10K``, ``HDD15K``, ``SSD`` or ``3390`` (native).
    protocol : str
        ``FICON`` (command mode) or ``zHPF`` (transport mode).
    channel : str
        ``FEx8`` (zHPF lists limited to 22 addresses) or ``FEx8S``.
    ranks : int
        RAID ranks the volume's extents are spread over.
    raid : str
        ``7+P`` or ``6+P+S``.
    lpo : bool or None
        List Prefetch Optimizer; None means "on with zHPF".
    cache_gb : float
        Cache available to this volume, GB (2^30 bytes).
    staging : str
        What a miss stages without LPO: ``record``, ``partial``, ``full``.
    aliases : int
        HyperPAV aliases: I/Os beyond 1 + aliases queue in IOSQ.
    record_bytes : int
        Record (page) size; 4096 for DB2.
    seq_detect : bool
        Sequential detection and prestaging.
    trace : Trace or None
    name : str
        Volume component name in the trace.
    """

    def __init__(self, engine: Engine, device: str = "HDD15K", protocol: str = "zHPF",
                 channel: str = "FEx8S", ranks: int = 1, raid: str = "7+P",
                 lpo: bool | None = None, cache_gb: float = 64.0, staging: str = "full",
                 aliases: int = 0, record_bytes: int = geometry.PAGE_BYTES,
                 seq_detect: bool = True, trace=None, name: str = "VOL0"):
        if protocol not in ch.PROTOCOLS:
            raise ValueError(f"unknown protocol {protocol!r}; known: {', '.join(ch.PROTOCOLS)}")
        if channel not in ch.CHANNELS:
            raise ValueError(f"unknown channel {channel!r}; known: {', '.join(ch.CHANNELS)}")
        if staging not in STAGING_MODES:
            raise ValueError(f"unknown staging mode {staging!r}; known: {', '.join(STAGING_MODES)}")
        self.engine = engine
        self.device = device
        self.protocol = protocol
        self.zhpf = protocol == "zHPF"
        self.lpo = self.zhpf if lpo is None else bool(lpo)
        if self.lpo and not self.zhpf:
            raise ValueError("the List Prefetch Optimizer needs zHPF")
        self.channel = channel
        self.backend = Backend(profile(device), record_bytes, ranks, raid, engine.stream(f"{name}/drives"))
        self.rpt = self.backend.records_per_track
        self.full_mask = (1 << self.rpt) - 1
        self.record_bytes = record_bytes
        self.link_s_per_record = record_bytes / ch.LINK_BYTES_S[channel]
        self.max_addresses = ch.ZHPF_MAX_ADDRESSES[channel] if self.zhpf else None
        self.staging = STAGING_MODES[staging]
        self.seq_detect = seq_detect
        self.stats = CacheStats()
        self.tr = IOTrace(trace, name, self.backend, engine) if trace is not None else None
        on_evict = self.tr.evict if self.tr is not None else None
        self.cache = CacheDirectory(max(1, int(cache_gb * 2**30 // 4096)), on_evict)
        self.nvs = NVS(max(self.full_mask.bit_count() * record_bytes,
                           int(cache_gb * 2**30 * NVS_FRACTION)))
        self.volume = Resource(engine, 1 + aliases, name)
        self.totals = IOResult()
        self.requests = 0
        # LPO staging choice: whole track pays when the chance that another
        # record of the track is wanted later exceeds transfer / positioning.
        self._full_track_odds = self.backend.record_transfer_s() / self.backend.positioning_s()
        self._lpo_staged: set[int] = set()
        self._revisits = 0.0
        self._visits = 0.0
        # Sequential detection: the streams the unit follows, as
        # {next record expected (track * rpt + record): contiguous records so far}.
        self._streams: dict[int, int] = {}
        self._seq_staged_to = -1
        be = self.backend
        # Prestage one full stripe ahead, so every drive of the rank(s) works;
        # AMP deepens it while the host keeps catching up with it.
        self._stripe_tracks = geometry.TRACKS_PER_CYLINDER if be.native else \
            be.strip_tracks * be.data_per_row * be.ranks
        self._prestage_tracks = self._stripe_tracks
        self.amp_waits = 0

    # -- public API -----------------------------------------------------------
    def read_pages(self, pages, list_prefetch: bool = False):
        """Process step: read these page numbers in one request (``yield from``)."""
        return self.read(pages_to_groups(pages, self.rpt), list_prefetch)

    def read_range(self, first: int, count: int):
        """Process step: read ``count`` contiguous pages from ``first``."""
        return self.read(range_to_groups(first, count, self.rpt))

    def read(self, groups, list_prefetch: bool = False):
        """Process step: one read request of ``(track, mask)`` groups.

        Use as ``res = yield from sub.read(groups)``. ``list_prefetch``: the
        request is a DB2 list prefetch; in FICON command mode its channel
        program has a Locate Record domain per page
        (:func:`models.io.channel.command_mode_list_cost`). Queues for the volume
        (IOSQ), then runs the channel program(s) and returns an
        :class:`IOResult`. Whenever the control unit issues a drive read
        later than the present, the process first waits until then, so
        concurrent I/Os reach the drives in time order.
        """
        return self._io(groups, write=False, list_prefetch=list_prefetch)

    def write_pages(self, pages):
        """Process step: write these page numbers in one request (``yield from``)."""
        return self.write(pages_to_groups(pages, self.rpt))

    def write(self, groups):
        """Process step: one write request of ``(track, mask)`` groups.

        A DASD fast write (:mod:`models.io.writes`): the I/O ends once the
        records are in cache and NVS; the destage to the drives follows in
        the background. ``res.hits`` counts the fast-written records; DISC
        is time waiting for NVS space.
        """
        return self._io(groups, write=True, list_prefetch=False)

    def _io(self, groups, write: bool, list_prefetch: bool):
        """Process step shared by reads and writes: IOSQ, then the program."""
        vol = self.volume
        eng = self.engine
        t_q = eng.now
        self.requests += 1
        rid = self.requests
        if self.tr is not None:
            self.tr.io_start(t_q, rid, res_pages(groups))
        yield vol           # free volume: granted at once, no engine event
        res = IOResult(rid)
        res.iosq = eng.now - t_q
        if write:
            prog = write_program(self, eng.now, groups, res)
        elif self.max_addresses is None:
            prog = self._channel_io(eng.now, groups, res, list_prefetch)    # one channel I/O
        else:
            prog = self._programs(eng.now, groups, res, list_prefetch)
        try:
            t_sync = next(prog)
            while True:
                # Wait only if another event is due first: otherwise nothing
                # can reach the drives before t_sync and waiting changes nothing.
                if t_sync > eng.now and eng.peek() <= t_sync:
                    yield t_sync - eng.now
                t_sync = prog.send(None)
        except StopIteration as stop:
            t_end = stop.value
        if write or self.max_addresses is None:
            self._add_totals(res)
        if t_end > eng.now:
            yield t_end - eng.now
        vol.release()
        self.totals.iosq += res.iosq
        if self.tr is not None:
            self.tr.io_end(eng.now, rid)
        return res

    def plan(self, groups, t: float | None = None, list_prefetch: bool = False) -> IOResult:
        """Run the request's channel program(s) from ``t`` (default now), no IOSQ.

        No engine events: drive reads are booked at their (future) issue
        times at once, which is exact for one stream of I/Os. With several
        concurrent streams use :meth:`read`. The caller holds the volume
        for ``res.total`` itself.
        """
        t = self.engine.now if t is None else t
        self.requests += 1
        if self.tr is not None:
            self.tr.io_start(t, self.requests, res_pages(groups))
        res = IOResult(self.requests)
        for _ in self._programs(t, groups, res, list_prefetch):
            pass
        return res

    def _programs(self, t: float, groups, res: IOResult, list_prefetch: bool = False):
        """Generator: the channel I/Os of one request, in turn; returns the end time.

        Yields the times at which it is about to book drives.
        """
        for part in ch.split_addresses(groups, self.max_addresses):
            t = yield from self._channel_io(t, part, res, list_prefetch)
        self._add_totals(res)
        return t

    def _add_totals(self, res: IOResult) -> None:
        tot = self.totals
        tot.pend += res.pend
        tot.disc += res.disc
        tot.conn += res.conn
        tot.pages += res.pages
        tot.ios += res.ios

    def clear_cache(self) -> None:
        """Empty the cache (a cold-cache test set-up); statistics are kept."""
        self.cache = CacheDirectory(self.cache.capacity, self.cache.on_evict)

    def warm_pages(self, pages) -> None:
        """Make pages cache resident before the run."""
        for track, mask in pages_to_groups(sorted(pages), self.rpt):
            self.cache.warm(track, mask)

    def warm_tracks(self, first: int, count: int) -> None:
        """Make whole tracks cache resident before the run."""
        for track in range(first, first + count):
            self.cache.warm(track, self.full_mask)

    # -- the channel program --------------------------------------------------
    def _channel_io(self, t: float, groups, res: IOResult, list_prefetch: bool = False):
        """Generator: one channel I/O from ``t``; returns its end time.

        Yields the times at which the unit is about to issue drive reads.
        The loop is the hot path of every DB2 experiment, hence the inlined
        cache look-up (``CacheDirectory.valid``) and the counters kept in
        locals until the end.
        """
        t = self._start(t, res)
        batch = None
        if self.lpo:
            yield t
            batch = self._lpo_schedule(t, groups, res, list_prefetch)
        entries = self.cache.tracks
        zhpf, seq, rpt, tr = self.zhpf, self.seq_detect, self.rpt, self.tr
        xfer = ch.SLOT_S + self.link_s_per_record
        address_s = ch.ADDRESS_S
        trigger = SEQ_TRIGGER_TRACKS * rpt
        depth = self._prestage_tracks
        half = depth // 2
        prev = (-2, -2)
        conn = 0.0
        hits = pages = 0
        streams = self._streams
        for i, (track, mask) in enumerate(groups):
            n = mask.bit_count()
            pages += n
            starts = mask & ~(mask << 1)              # one bit per run of records
            if zhpf:
                step = address_s * starts.bit_count()
            elif list_prefetch:
                step = ch.command_mode_list_cost(prev[0], track, mask)
                prev = (track, 0)
            else:
                step = ch.command_mode_cost(prev, track, mask, rpt)
                prev = (track, mask.bit_length() - 1)
            t += step
            conn += step
            e = entries.get(track)
            if e is None:
                need = mask
            else:
                entries.move_to_end(track)
                if e[1] and e[2] <= t:
                    e[0] |= e[1]
                    e[1] = 0
                need = mask & ~e[0]
            if need:
                if e is None or need & ~e[1]:
                    yield t          # a drive read is issued now
                hold = self._run_ready(batch, i) if batch is not None else 0.0
                t = self._await(t, track, n, need, res, hold)
            elif batch is not None and batch[i] is not None and batch[i][1] > t:
                # In cache, but the LPO re-stages the track for this list.
                t = self._await(t, track, n, 0, res, self._run_ready(batch, i), mask)
            else:
                hits += n
                if tr is not None:
                    tr.hits(t, track, mask)
            if seq:
                # Sequential detection: contiguous records across tracks, per
                # stream (two prefetch I/Os of one scan reach the unit
                # interleaved; each continues its own stream).
                first = track * rpt + (mask & -mask).bit_length() - 1
                run = streams.pop(first, 0)
                if starts & (starts - 1):
                    run = 0                           # a gap inside the track
                else:
                    run += n
                    streams[track * rpt + mask.bit_length()] = run
                    if len(streams) > SEQ_STREAMS:
                        del streams[next(iter(streams))]      # the oldest
                if run >= trigger:
                    ahead = self._seq_staged_to - track
                    if ahead < half or ahead > depth:
                        yield t
                        self._prestage(t, track)
            x = n * xfer
            t += x
            conn += x
        res.conn += conn
        res.hits += hits
        res.pages += pages
        st = self.stats
        st.hits += hits
        st.read_requests += pages
        st.host_bytes += pages * self.record_bytes
        return t

    def _start(self, t: float, res: IOResult) -> float:
        """PEND (and the TCW decode in transport mode); returns the time after."""
        res.ios += 1
        res.pend += ch.START_S
        if self.tr is not None:
            self.tr.phase(t, res.id, 1)
            self.tr.phase(t + ch.START_S, res.id, 3)
        t += ch.START_S
        if self.zhpf:
            t += ch.TCW_S
            res.conn += ch.TCW_S
        return t

    def _await(self, t: float, track: int, n: int, need: int, res: IOResult,
               hold: float = 0.0, restaged: int = 0) -> float:
        """The channel wants ``need`` of ``track``, not in cache: stage or wait.

        ``hold`` is a later time the unit stays disconnected until (see
        :meth:`_run_ready`). One miss per disconnect; the other records
        transferred on the reconnect are hits. ``restaged``: records in cache
        that the LPO is reading again for this list (``need`` is 0); the
        trace shows them as the misses the channel waits for.
        """
        # A record neither in cache nor on its way is a read miss even when
        # the drive has it at once (read look-ahead): the unit had to stage it.
        demand = need & ~self.cache.pending(track)[0] if need else 0
        ready = self._ready(t, track, need, res) if need else 0.0
        if hold > ready:
            ready = hold
        st = self.stats
        if ready > t and self._in_stream(track):
            self._amp_wait()
        if ready > t or demand:
            if self.tr is not None:
                self.tr.wait(t, res.id, track, need or restaged, ready)
            if ready > t:
                res.disc += ready - t
                t = ready
            self.cache.valid(track, t)
            st.misses += 1
            res.misses += 1
            n -= 1
        st.hits += n
        res.hits += n
        return t

    def _ready(self, t: float, track: int, need: int, res: IOResult) -> float:
        """When the ``need`` records of ``track`` will be in cache (staging if needed)."""
        pmask, pready = self.cache.pending(track)
        ready = pready if need & pmask else 0.0
        missing = need & ~pmask
        if missing:
            if self.staging == FULL:
                mode, mask = FULL, self.full_mask
            elif self.staging == PARTIAL:
                mode, mask = PARTIAL, self.full_mask & ~((missing & -missing) - 1)
            else:
                mode, mask = RECORD, missing
            done = self._stage(t, track, mask, mode, res)
            if done > ready:
                ready = done
        return ready

    def _stage(self, t: float, track: int, mask: int, mode: int, res: IOResult) -> float:
        """Read ``mask``'s span of ``track`` from the drives into cache."""
        first = ch.lowest(mask)
        count = mask.bit_length() - first
        done, nbytes = self.backend.stage(t, track, first, count)
        self.cache.add(track, mask, done)
        st = self.stats
        st.stages[mode] += 1
        st.disk_requests += 1
        st.disk_bytes += nbytes
        res.stages += 1
        res.disk_bytes += nbytes
        if self.tr is not None:
            self.tr.stage(t, done, track, first, count, mode)
        return done

    # -- List Prefetch Optimizer --------------------------------------------
    def _lpo_schedule(self, t: float, groups, res: IOResult, list_prefetch: bool = False) -> list:
        """Issue every missing record of the list to the drives at once.

        Per track: one needed record is staged alone (record caching); two or
        more are staged as one partial-track read spanning them (the drive
        passes them in the same turn anyway); the whole track is staged
        when the LPO has seen enough lists come back to tracks it had already
        staged from that another record of the track is likely to be wanted
        (odds above record transfer time / positioning time).

        In full-track mode the LPO stages every track of a list prefetch
        (``list_prefetch``), also one already in cache: it plans the list on the
        drives from the list alone, ahead of the channel's cache look-ups
        (DOMAIN.md: "it can re-stage pages that are already cached"), and
        sends the list's records as its reads complete, so the channel
        waits for a re-staged track as for a miss. Lists inside an active
        sequential stream are left to sequential prestage
        (:meth:`_in_stream`): the unit classifies them as sequential.
        A single-page (synchronous) read is never re-staged.

        Returns, per group, ``(drive, ready time)`` of the read it issued,
        or None when the group needed none.
        """
        entries = self.cache.tracks
        staged = self._lpo_staged
        odds = self._full_track_odds
        be = self.backend
        revisits, visits = self._revisits, self._visits
        batch = [None] * len(groups)
        restage = list_prefetch and bool(groups) and not self._in_stream(groups[0][0])
        full = self.full_mask
        for i, (track, mask) in enumerate(groups):
            visits += 1.0
            if track in staged:
                revisits += 1.0
            full_mode = revisits and revisits >= odds * visits
            e = entries.get(track)
            if e is None:
                need, have = mask, 0
            else:
                have = e[0] | e[1]
                need = mask & ~have
                if not need and not (full_mode and restage and self._cached(e, t)):
                    continue
            if full_mode and restage and not need:
                # The LPO plans the list from the list alone: it reads the
                # track again and sends the list's records as its reads
                # complete, as for any other record of the list.
                done = self._stage(t, track, full, FULL, res)
            elif full_mode:
                done = self._stage(t, track, full & ~have, FULL, res)
            elif need & (need - 1):
                done = self._stage(t, track, need, PARTIAL, res)
            else:
                done = self._stage(t, track, need, RECORD, res)
            staged.add(track)
            batch[i] = (be.last_drive, done)
        self._revisits, self._visits = revisits, visits
        return batch

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
        full = self.full_mask
        st = self.stats
        end = track + 1 + self._prestage_tracks
        staged_to = self._seq_staged_to
        tk = staged_to + 1 if track < staged_to < end else track + 1
        while tk < end:
            e = entries.get(tk)
            if e is not None and (e[0] | e[1]) == full:
                tk += 1
                continue
            n = be.run_tracks(tk, end - tk)
            # Stop the run at a track already (partly) in cache.
            for k in range(1, n):
                if (tk + k) in entries:
                    n = k
                    break
            done, nbytes = be.stage_tracks(t, tk, n)
            st.seq_tracks_staged += n
            st.disk_requests += 1
            st.disk_bytes += nbytes
            if e is None:
                cache.add_tracks(tk, n, full, done)
            else:
                cache.add(tk, full, done)
                cache.add_tracks(tk + 1, n - 1, full, done)
            if self.tr is not None:
                per = nbytes / n / be.rate
                for k in range(n):
                    self.tr.stage(t, done - (n - 1 - k) * per, tk + k, 0, self.rpt, FULL)
            tk += n
        self._seq_staged_to = end - 1


def res_pages(groups) -> int:
    """Pages (records) in a list of groups."""
    return sum(m.bit_count() for _, m in groups)
