"""One 3390 volume of an I/O configuration: its requests from IOSQ to the end.

A :class:`VolumeIO` is what a workload reads and writes through (built by
:class:`models.io.system.IOSystem`, or as a one-volume system by
:class:`models.io.subsystem.IOSubsystem`). Its I/Os queue on the volume
(IOSQ, ``1 + aliases`` exposures), take a channel path to the control
unit (a wait for one is PEND), run their channel program against the
control unit's cache, which all the unit's volumes share, disconnect while
a miss is staged from the rank's drives, which all the rank's volumes
share, and reconnect over any path of the unit (a wait for one is DISC).
A path is a multiplexed link (models/io/paths.py): each I/O queues only
its channel work on it, not its connected time.

Each I/O costs at most two engine events (a volume grant when it must
queue, and one timeout): protocol steps, cache look-ups, staging on the
drives and channel bookings are computed in a tight loop at issue time.
The loop pauses where the unit is about to book drives or a channel later
than the present, and the I/O waits only if another event is due first,
so concurrent I/Os reach drives and paths in time order.

A request is an :class:`IORequest`: a state machine that is its own
:class:`IOResult`, compiled with the rest of the I/O model. A model's
process runs one with ``yield from volume.read(...)`` (:meth:`VolumeIO._io`
yields its waits); a workload's arrival starts one without a process
(:meth:`VolumeIO.start`, the request itself on the engine's heap). Both
run the same steps and events, so they give the same figures.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from models.io import channel as ch
from models.io.channel import ADDRESS_S, SLOT_S, TCW_S
from models.io.cache import FULL, MAX_RECORDS_PER_TRACK, PARTIAL, RECORD, CacheStats
from models.io.request import IOOwner, IOResult, pages_to_groups, range_to_groups, res_pages
from models.io.staging import SEQ_DENSITY_TRACKS, SEQ_TRIGGER_TRACKS, Staging, _run_ready
from models.io.trace_io import CONN

try:
    import cython
except ImportError:  # interpreted, Cython not installed: nothing is compiled
    class cython:  # type: ignore[no-redef]
        compiled = False

if not cython.compiled:
    # Compiled, volume.pxd cimports these from the compiled engine (C access
    # to ``now``, ``peek`` and ``release``), channel.py and writes.py (C calls).
    from models.engine import Engine, Resource
    from models.io.cache import CacheDirectory
    from models.io.channel import (addresses, bits, lowest, program_ius, program_ius_into,
                                   program_ius_one, runs, top)
    from models.io.writes import NVS, _sequential, _sequential_one, book_write
    Py_REFCNT: Any = None

if TYPE_CHECKING:
    from models.io.paths import ChannelPath

#: Sequential streams the unit follows at once per volume (enough for the
#: interleaved prefetch I/Os of a scan and a synchronous reader).
SEQ_STREAMS = 8
STAGING_MODES = {"record": RECORD, "partial": PARTIAL, "full": FULL}
#: The engine's priority of an ordinary event (models.engine.core.NORMAL).
_NORMAL = 1
# The staging modes, C numbers compiled (volume.pxd).
_RECORD, _PARTIAL, _FULL = RECORD, PARTIAL, FULL
#: Requests started without a process that ended with nothing else holding
#: them, kept for the next request (compiled only; see IORequest.fire): no
#: allocation, zeroing and collector bookkeeping per I/O.
_SPARE: list = []
#: A volume's cache keys are ``kb + track`` with ``kb = index << KEY_BITS``:
#: one int key per track in the unit's shared directory (no tuples in the
#: hot loop). 2^32 tracks is far beyond any 3390 (an EAV has < 2^24).
KEY_BITS = 32


class VolumeIO(Staging):
    """A volume as its workloads see it: read, write, plan, warm, statistics.

    Parameters
    ----------
    engine : Engine
    name : str
        Canvas label (trace component, report rows).
    cu : models.io.system.ControlUnitIO
        Its control unit: shared cache, NVS, channel paths.
    backend : models.io.backend.Backend
        Its view of the rank(s) its tracks live on.
    protocol, channel : str
        ``FICON``/``zHPF`` and ``FEx8``/``FEx8S`` (of the paths to the unit).
    index : int
        The volume's number in the unit's cache directory.
    lpo, staging, aliases, record_bytes, seq_detect
        As for :class:`models.io.subsystem.IOSubsystem`.
    tracer : models.io.trace_io.IOTrace or None
    """

    def __init__(self, engine, name: str, cu, backend, protocol: str, channel: str, index: int = 0,
                 lpo: bool | None = None, staging: str = "full", aliases: int = 0,
                 record_bytes: int = 4096, seq_detect: bool = True, tracer=None):
        if protocol not in ch.PROTOCOLS:
            raise ValueError(f"unknown protocol {protocol!r}; known: {', '.join(ch.PROTOCOLS)}")
        if channel not in ch.CHANNELS:
            raise ValueError(f"unknown channel {channel!r}; known: {', '.join(ch.CHANNELS)}")
        if staging not in STAGING_MODES:
            raise ValueError(f"unknown staging mode {staging!r}; known: {', '.join(STAGING_MODES)}")
        if aliases < 0:
            raise ValueError(f"volume {name!r}: aliases cannot be negative")
        self.engine = engine
        self.name = name
        self.cu = cu
        self.device = backend.disk.name
        self.protocol = protocol
        self.zhpf = protocol == "zHPF"
        self.lpo = self.zhpf if lpo is None else bool(lpo)
        if self.lpo and not self.zhpf:
            raise ValueError("the List Prefetch Optimizer needs zHPF")
        self.channel = channel
        self.aliases = aliases
        self.backend = backend
        self.paths = cu.paths
        self._cache = cu.cache
        self.kb = index << KEY_BITS
        if not 0 < SEQ_STREAMS < 64:
            raise ValueError(f"sequential detection follows 1 to 63 streams a volume, not {SEQ_STREAMS}")
        self.rpt = backend.records_per_track
        if self.rpt > MAX_RECORDS_PER_TRACK:
            raise ValueError(f"volume {name!r}: {record_bytes}-byte records put {self.rpt} on a "
                             f"track; the cache model holds at most {MAX_RECORDS_PER_TRACK} a track "
                             "(records of 256 bytes or more)")
        # From the back end's Python int: compiled, ``self.rpt`` is a C long and
        # ``1 << self.rpt`` a C int shift (1 KB records put 33 on a track).
        self.full_mask = (1 << backend.records_per_track) - 1
        # The channel program's constants as the volume is built (C fields
        # compiled: its arithmetic on them stays in C). Read here, not at
        # import, so a constant set before a run holds in it
        # (bench/sensitivity.py).
        self._tcw = TCW_S
        self._slot = SLOT_S
        self._address = ADDRESS_S
        self._seq_trigger = SEQ_TRIGGER_TRACKS
        self._seq_alpha = 1.0 / SEQ_DENSITY_TRACKS
        self._seq_streams = SEQ_STREAMS
        self.record_bytes = record_bytes
        self.link_s_per_record = record_bytes / ch.LINK_BYTES_S[channel]
        # The unit's connect time per I/O beyond the channel program the model
        # draws (a calibrated quantity, models/rmf/calibrate.py): 0 adds nothing.
        self.conn_extra = 0.0
        # Calibrated quantities too (models/rmf/calibrate.py), each at its
        # uncalibrated value: the start of a channel I/O on a free path
        # (PEND, seconds), the remote copy of a write (DISC, seconds), the
        # exposures RMF's busy is per (0: ``1 + aliases``, the drawn ones)
        # and the share of time the device is reserved (RMF's % DEV RESV).
        self.start_s = ch.START_S
        self.write_disc = 0.0
        self.exposures = 0.0
        self.reserved = 0.0
        self.max_addresses = ch.ZHPF_MAX_ADDRESSES[channel] if self.zhpf else None
        self.staging = STAGING_MODES[staging]
        self.seq_detect = seq_detect
        self.stats = CacheStats()
        self.tr = tracer
        self.volume = Resource(engine, 1 + aliases, name)
        self.totals = IOResult()
        self.requests = 0
        self.completed = 0        # requests whose parts are in ``totals``
        self.path_waits = 0       # connects whose channel work had to queue
        # LPO: tracks it staged from (a list coming back to one is a
        # revisit: that track is then staged in track mode), a set while
        # small, then a bit a track (Staging._lpo_mark).
        self._lpo_staged: set[int] | None = set()
        self._lpo_bits: bytearray | None = None
        self._lpo_top = 0
        # Sequential detection: the streams the unit follows, as
        # {last track read: (its predecessor count, whether its last record
        # was read)} (see ``Staging._prestage``), and the LPO's list count
        # (last track of the last list prefetch, its predecessor count).
        self._streams: dict[int, tuple[int, int, float]] = {}
        self._sf = 0.0
        self._s_was = -1
        self._list_run = (-2, 0, 0.0)
        self._seq_staged_to = -1
        be = backend
        # Prestage one full stripe ahead, so every drive of the rank(s) works;
        # AMP deepens it while the host keeps catching up with it.
        self._stripe_tracks = 15 if be.native else be.strip_tracks * be.data_per_row * be.ranks
        self._prestage_tracks = self._stripe_tracks
        self.amp_waits = 0
        # Write coalescing (models/io/writes.py): {track: (start on the
        # drives, done, first record, one past the last, records held in
        # NVS)} of the track's latest destage. Entries that can no longer be
        # joined are swept once it outgrows ``_destaging_limit`` (memory
        # only: no figure depends on when).
        self._destaging: dict[int, tuple[float, float, int, int, int]] = {}
        self._destaging_limit = 64
        # Sequential writes wait in NVS for their stripe row's destage
        # (models/io/writes.py): {row: [bytes, first track, one past the
        # last, {track: records written}]}, oldest first.
        self._open_rows: dict[int, list] = {}
        self._write_next = -1

    @property
    def cache(self):
        """The control unit's cache directory (shared by its volumes)."""
        return self.cu.cache

    @property
    def nvs(self):
        """The control unit's NVS (shared by its volumes)."""
        return self.cu.nvs

    # -- public API -----------------------------------------------------------
    def read_pages(self, pages, list_prefetch: bool = False):
        """Process step: read these page numbers in one request (``yield from``)."""
        return self.read(pages_to_groups(pages, self.rpt), list_prefetch)

    def read_range(self, first: int, count: int):
        """Process step: read ``count`` contiguous pages from ``first``."""
        return self.read(range_to_groups(first, count, self.rpt))

    def read(self, groups, list_prefetch: bool = False):
        """Process step: one read request of ``(track, mask)`` groups.

        Use as ``res = yield from vol.read(groups)``. ``list_prefetch``: the
        request is a DB2 list prefetch; in FICON command mode its channel
        program has a Locate Record domain per page
        (:func:`models.io.channel.command_mode_list_cost`). Queues for the
        volume (IOSQ), takes a channel path (PEND), runs the channel
        program(s) and returns an :class:`IOResult`.
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

    def _io(self, groups, write: bool, list_prefetch: bool, owner=None, tag=0):
        """Process step shared by reads and writes: IOSQ, then the program.

        A generator that drives the request's :class:`IORequest` (``yield
        from`` it in a process): it yields what the request waits for and
        returns the request, which is its :class:`IOResult`. ``owner``: an
        object whose ``io_done(volume, result, write, tag)`` is called at the
        request's end (a workload counting it: see models/io/driver.py), at
        the instant the request returns."""
        rq: IORequest = self._request(groups, write, list_prefetch, owner, tag)
        if not self.volume.try_take():
            yield self.volume       # every exposure busy: IOSQ
        d = rq.begin()
        while d >= 0.0:
            yield d
            d = rq.step()
        return rq

    def start(self, groups, write: bool, list_prefetch: bool, owner=None, tag=0) -> None:
        """Start one request now, without a process: the same steps, events
        and figures as a process running :meth:`_io`, with the request
        itself on the engine's heap (see :class:`IORequest`). A request that
        must queue for the volume (IOSQ) runs as that process."""
        self._launch(self._request(groups, write, list_prefetch, owner, tag))

    def start_track(self, track, mask, write: bool, owner=None, tag=0) -> None:
        """:meth:`start` of a request of one track: ``mask``'s records of
        ``track`` (no list of groups: a one-page I/O's request makes no list
        and no tuple). The same steps, events and figures as ``start`` with
        ``[(track, mask)]``."""
        self._launch(self._request_one(track, mask, write, owner, tag))

    def _launch(self, request) -> None:
        """Take the volume and run ``request`` to its first wait, or queue it."""
        rq: IORequest = request
        vol: Resource = self.volume
        eng: Engine = self.engine
        if not vol._take():             # try_take as a C call
            eng.process(self._queued(rq))
            return
        d: float = rq.begin()
        if d >= 0.0:
            rq.wait(d)

    def _queued(self, request):
        """Process of a request that queues for the volume: :meth:`_io` from its IOSQ."""
        rq: IORequest = request
        yield self.volume
        d = rq.begin()
        while d >= 0.0:
            yield d
            d = rq.step()
        return rq

    def _request(self, groups, write: bool, list_prefetch: bool, owner, tag):
        """A new request of ``groups`` arriving now (not started)."""
        eng: Engine = self.engine
        self.requests += 1
        if self.tr is not None:
            self.tr.io_start(eng.now, self.requests, res_pages(groups))
        if cython.compiled:
            # Memory hints, no effect on any figure: the tracks' entries in
            # the cache directory (see CacheDirectory.prefetch).
            cd: CacheDirectory = self._cache
            kb: cython.longlong = self.kb
            trk: cython.longlong
            for g in groups:
                trk = g[0]
                cd.prefetch(kb + trk)
        rq: IORequest = _new_request()
        rq._setup(self, self.requests, groups, write, list_prefetch, owner, tag, eng.now)
        return rq

    def _request_one(self, track, mask, write: bool, owner, tag):
        """:meth:`_request` of one track (see :meth:`start_track`)."""
        eng: Engine = self.engine
        self.requests += 1
        if self.tr is not None:
            self.tr.io_start(eng.now, self.requests, bits(mask))
        if cython.compiled:
            cd: CacheDirectory = self._cache
            cd.prefetch(self.kb + track)     # a memory hint (see _request)
        rq: IORequest = _new_request()
        rq._setup(self, self.requests, None, write, False, owner, tag, eng.now)
        rq.one = True
        rq.one_track = track
        rq.one_mask = mask
        return rq

    def plan(self, groups, t: float | None = None, list_prefetch: bool = False) -> IOResult:
        """Run the request's channel program(s) from ``t`` (default now), no IOSQ.

        No engine events: drive reads and channel paths are booked at their
        (future) times at once, which is exact for one stream of I/Os. With
        several concurrent streams use :meth:`read`. The caller holds the
        volume for ``res.total`` itself.
        """
        t = self.engine.now if t is None else t
        self.requests += 1
        if self.tr is not None:
            self.tr.io_start(t, self.requests, res_pages(groups))
        rq: IORequest = IORequest.__new__(IORequest)
        rq._setup(self, self.requests, groups, False, list_prefetch, None, 0, t)
        rq._program_begin(t, False, True)
        while not rq.pdone:
            rq._advance()
        rq.state = _R_OVER              # a plan has no request steps to resume
        self.completed += 1
        return rq

    def _add_totals(self, res: IOResult) -> None:
        tot = self.totals
        tot.pend += res.pend
        tot.disc += res.disc
        tot.conn += res.conn
        tot.pages += res.pages
        tot.ios += res.ios

    def clear_cache(self) -> None:
        """Drop the volume's tracks from the cache (a cold-cache test set-up);
        statistics are kept."""
        self.cu.drop_volume(self.kb, 1 << KEY_BITS)

    def warm_pages(self, pages) -> None:
        """Make pages cache resident before the run."""
        kb = self.kb
        if isinstance(pages, range) and pages.step == 1:
            # A workload warms its blocks one by one, most within one track:
            # that is one group, without building a list for it.
            track, r = divmod(pages.start, self.rpt)
            n = len(pages)
            if 0 < n and r + n <= self.rpt:
                self.cu.cache.warm(kb + track, (self.full_mask >> (self.rpt - n)) << r)
                return
            groups = range_to_groups(pages.start, n, self.rpt)   # no sort needed
        else:
            groups = pages_to_groups(sorted(pages), self.rpt)
        warm = self.cu.cache.warm
        for track, mask in groups:
            warm(kb + track, mask)

    def warm_tracks(self, first: int, count: int) -> None:
        """Make whole tracks cache resident before the run."""
        kb, full = self.kb, self.full_mask
        warm = self.cu.cache.warm
        for track in range(first, first + count):
            warm(kb + track, full)

    # -- channel paths ------------------------------------------------------------
    def _connect(self, t: float, res: IOResult, ius: float, nbytes: float,
                 reconnect: bool = False):
        """Take a path at ``t`` and queue ``ius`` IUs and ``nbytes`` on it.

        Returns ``(path, start, work)``: the channel starts on the work at
        ``start`` (FIFO behind the work already queued); a start's wait is
        PEND, a reconnect's is DISC.
        """
        start: float
        work: float
        p = self.paths.pick(t)
        start, work = p.book(t, ius, nbytes)
        if start > t:
            self.path_waits += 1
        if reconnect:
            res.disc += start - t
            p.reconnects += 1
        else:
            res.pend += start - t
            p.starts += 1
        return p, start, work

    # -- the channel program --------------------------------------------------
    def _start(self, t: float, res: IOResult, t_request=None) -> float:
        """Channel start (PEND) and the TCW decode in transport mode, on a
        path taken at ``t`` (asked for at ``t_request``); returns the time after."""
        res.ios += 1
        res.pend += self.start_s
        if self.tr is not None:
            self.tr.phase(t if t_request is None else t_request, res.id, 1)
            self.tr.phase(t + self.start_s, res.id, CONN)
        t += self.start_s
        if self.zhpf:
            t += self._tcw
            res.conn += self._tcw
        if self.conn_extra > 0.0:
            t += self.conn_extra
            res.conn += self.conn_extra
        return t

    def _await(self, t: float, track, n, need, res: IOResult,
               hold: float = 0.0, restaged=0, records=0) -> float:
        """The channel wants ``need`` of ``track``, not in cache: stage or wait.

        Returns when the records are there (the caller disconnects until
        then). ``hold`` is a later time the unit stays disconnected until
        (see :func:`models.io.staging._run_ready`). One miss per disconnect; the other records
        transferred on the reconnect are hits. ``restaged``: records in cache
        that the LPO is reading again for this list (``need`` is 0); the
        trace shows them as the misses the channel waits for. ``records``:
        every record the channel asks for on this track, so the trace counts
        as the statistics do (one miss, the rest hits; docs/trace.md).
        """
        key: cython.longlong = self.kb + track
        cache: CacheDirectory = self._cache
        st: CacheStats = self.stats
        demand: cython.ulonglong
        ready: float
        # Counted with their hits and misses below, so that a run ending while
        # a multi-track I/O proceeds never has more hits than read requests.
        st.read_requests += n
        st.host_bytes += n * self.record_bytes
        # A record neither in cache nor on its way is a read miss even when
        # the drive has it at once (read look-ahead): the unit had to stage it.
        demand = need & ~cache.pending_mask(key) if need else 0
        ready = self._ready(t, track, need, res) if need else 0.0
        if hold > ready:
            ready = hold
        if ready > t and self._in_stream(track):
            self._amp_wait()
        if ready > t or demand:
            if self.tr is not None:
                self.tr.wait(t, res.id, track, need or restaged, ready, records)
            cache.valid(key, ready if ready > t else t)
            st.misses += 1
            res.misses += 1
            n -= 1
        elif self.tr is not None and records:
            self.tr.hits(t, track, records)     # arrived in time: all hits
        st.hits += n
        res.hits += n
        return ready

    def _ready(self, t: float, track, need, res: IOResult) -> float:
        """When the ``need`` records of ``track`` will be in cache (staging if needed)."""
        cache: CacheDirectory = self._cache
        pmask: cython.ulonglong
        missing: cython.ulonglong
        mask: cython.ulonglong
        mode: cython.long
        pready: float
        ready: float
        pmask, pready = cache.pending(self.kb + track)
        ready = pready if need & pmask else 0.0
        missing = need & ~pmask
        if missing:
            if self.staging == _FULL:
                mode, mask = _FULL, self.full_mask
            elif self.staging == _PARTIAL:
                mode, mask = _PARTIAL, self.full_mask & ~((missing & -missing) - 1)
            else:
                mode, mask = _RECORD, missing
            done = self._stage(t, track, mask, mode, res)
            if done > ready:
                ready = done
        return ready

    def _stage(self, t: float, track, mask, mode, res: IOResult) -> float:
        """Read ``mask``'s span of ``track`` from the drives into cache."""
        first: cython.long = lowest(mask)
        count: cython.long = top(mask) - first
        done: float
        nbytes: cython.longlong
        done, nbytes = self.backend.stage(t, track, first, count)
        cache: CacheDirectory = self._cache
        cache.add(self.kb + track, mask, done)
        st: CacheStats = self.stats
        st.stages[mode] += 1
        st.disk_requests += 1
        st.disk_bytes += nbytes
        res.stages += 1
        res.disk_bytes += nbytes
        if self.tr is not None:
            self.tr.stage(t, done, track, first, count, mode)
        return done


def _new_request():
    """An empty request: a spare one zeroed (compiled, see IORequest.fire)
    or a new one."""
    rq: IORequest
    if cython.compiled and _SPARE:
        rq = _SPARE.pop()
        rq._clear()
    else:
        rq = IORequest.__new__(IORequest)
    return rq


# What an IORequest does when next resumed (``state``) ...
_R_PROGRAM = 0      # run the channel program to its next sync point
_R_SETTLE = 1       # a sync point ahead: let the step that started it finish
_R_PEEK = 2         # wait for the sync point if another event is due first
_R_END = 3          # the program ended: wait for its end time
_R_DONE = 4         # release the volume, count, tell the owner
_R_OVER = 5
# ... and where its channel program resumes (``pstate``).
_P_START = 0        # take a path and start the channel I/O (of the next part)
_P_LPO = 1          # the LPO issues its drive reads
_P_GROUP = 2        # the next (track, mask) group
_P_AWAIT = 3        # the group's records are not all in cache: stage or wait
_P_RECONNECT = 4    # reconnect at ``ready``
_P_SEQ = 5          # sequential detection
_P_PRESTAGE = 6     # prestage ahead of the stream
_P_XFER = 7         # transfer the group's records
_P_WRITE = 8        # a write (DASD fast write): take a path and start
_P_WGROUP = 9       # a write's next group: over the channel into cache and NVS
_P_WNVS = 10        # NVS was full: reconnect now that a destage has freed room
_P_WBOOK = 11       # the group is in cache and NVS: destage it (models/io/writes.py)
# A new request's C fields are zero compiled: its first states must be 0.
assert _R_PROGRAM == 0 and _P_START == 0


class IORequest(IOResult):
    """One request of a volume, from its start to its end, as a state machine.

    The request is its own :class:`IOResult`. :meth:`step` runs it until it
    must wait and returns for how long (a negative number once it has
    ended); the engine resumes it either as a process (:meth:`VolumeIO._io`
    yields the waits) or directly from its heap (:meth:`VolumeIO.start`
    puts the request itself there): no generator, no Python frame, no
    result object per I/O beside the request.

    A read's channel program is :meth:`_advance`, resumable where the unit
    is about to issue drive reads, reconnect or prestage (its locals are the
    request's fields); a write's is :meth:`_write_advance`, resumable where
    the unit is about to book a track's destage or reconnect after a full
    NVS (the destage itself is :func:`models.io.writes.book_write`).
    """

    __slots__ = ("vol", "groups", "parts", "part", "lp", "write", "owner", "tag", "t_q",
                 "state", "pstate", "pdone", "settled", "t_sync", "t_end", "nvs", "wseq",
                 "t", "t_start", "path", "work_end", "since", "conn_", "hits_", "pages_",
                 "ius", "records", "nbytes", "i", "batch", "prev_track", "prev_last",
                 "xfer", "top", "alpha", "last_bit", "track", "mask", "n", "need",
                 "ready", "left", "depth", "one", "one_track", "one_mask")
    # For the type checker (compiled, volume.pxd makes them C fields).
    vol: VolumeIO
    groups: list
    parts: list | None
    batch: list | None
    nvs: NVS | None
    owner: Any
    path: Any

    def _setup(self, vol, rid, groups, write, list_prefetch, owner, tag, t_q) -> None:
        """Fill a new request (made by ``IORequest.__new__``, no ``__init__``)."""
        self.id = rid
        self.vol = vol
        self.groups = groups
        self.lp = list_prefetch
        self.write = write
        self.owner = owner
        self.tag = tag
        self.t_q = t_q
        if not cython.compiled:
            # Compiled, a new object's C fields are zero (_R_PROGRAM,
            # _P_START, False) and its object fields None already.
            self.iosq = self.pend = self.disc = self.conn = 0.0
            self.pages = self.hits = self.misses = self.ios = self.stages = self.disk_bytes = 0
            self.parts = None
            self.part = 0
            self.state = _R_PROGRAM
            self.pstate = _P_START
            self.pdone = False
            self.settled = False
            self.nvs = None
            self.batch = None
            self.one = False
            self.one_track = 0
            self.one_mask = 0

    # -- the request -------------------------------------------------------------
    def begin(self) -> float:
        """The volume is taken now (after IOSQ): start, run to the first wait."""
        vol: VolumeIO = self.vol
        eng: Engine = vol.engine
        self.iosq = eng.now - self.t_q
        self._program_begin(eng.now, self.write, False)
        return self.step()

    def step(self) -> float:
        """Run until the request must wait: how long, or -1.0 once it ended.

        The steps of a request: run the program to its next sync point (the
        time at which it is about to book drives or a channel); if that is
        later than now, first let the step that started this I/O finish (a
        request started inline runs to its first wait at once, before its
        starter has scheduled its next event), then wait for the sync point
        only if another event is due first (otherwise nothing can reach
        drives or paths before it: waiting changes nothing). Once the
        program ends, wait for its end, release the volume and count.
        """
        vol: VolumeIO = self.vol
        st: cython.int = self.state
        if st == _R_OVER or vol is None:
            raise RuntimeError("a request resumed after its end (or never started)")
        eng: Engine = vol.engine
        now: float = eng.now
        t_sync: float
        while True:
            if st == _R_PROGRAM:
                t_sync = self._advance()
                if self.pdone:
                    self.t_end = t_sync
                    st = _R_END
                    continue
                self.t_sync = t_sync
                st = _R_SETTLE
            if st == _R_SETTLE:
                if self.t_sync > now and not self.settled:
                    self.settled = True
                    self.state = _R_PEEK
                    return 0.0
                st = _R_PEEK
            if st == _R_PEEK:
                t_sync = self.t_sync
                if t_sync > now and eng.peek() <= t_sync:
                    self.state = _R_PROGRAM
                    return t_sync - now
                st = _R_PROGRAM
                continue
            if st == _R_END:
                if self.t_end > now:
                    self.state = _R_DONE
                    return self.t_end - now
                st = _R_DONE
            if st == _R_DONE:
                self.state = _R_OVER
                res: Resource = vol.volume
                res._give()                 # release() as a C call
                vol.totals.iosq += self.iosq
                vol.completed += 1
                if vol.tr is not None:
                    vol.tr.io_end(now, self.id)
                if self.owner is not None:
                    o: IOOwner = self.owner
                    o.io_done(vol, self, self.write, self.tag)
                return -1.0

    def wait(self, d: float) -> None:
        """Put the request on the engine's heap ``d`` seconds from now (as a
        process's timeout)."""
        eng: Engine = self.vol.engine
        if cython.compiled:
            eng._push(eng.now + d, _NORMAL, self, None)
        else:
            eng.schedule(d, self)

    def fire(self, _arg) -> None:
        """The engine resumes the request (see :meth:`VolumeIO.start`)."""
        d: float = self.step()
        if d >= 0.0:
            self.wait(d)
        elif cython.compiled and Py_REFCNT(self) == 1 and len(_SPARE) < 256:
            # It ended, and only the engine's run loop holds it (it cleared
            # the heap's reference before calling; ``self`` is borrowed): no
            # one can read it again. Keep it for the next request, its object
            # fields freed now as its deallocation would free them.
            self.vol = None
            self.groups = None
            self.owner = None
            self.parts = None
            self.batch = None
            self.path = None
            self.nvs = None
            _SPARE.append(self)

    def _clear(self) -> None:
        """Compiled: a spare request's C fields back to zero, as a new one's
        (its object fields are None already: see :meth:`fire`)."""
        if cython.compiled:
            self.id = self.pages = self.hits = self.misses = self.ios = 0
            self.stages = self.disk_bytes = 0
            self.iosq = self.pend = self.disc = self.conn = 0.0
            self.part = self.i = 0
            self.lp = self.write = self.pdone = self.settled = self.wseq = False
            self.tag = self.track = self.prev_track = self.prev_last = 0
            self.hits_ = self.pages_ = self.records = 0
            self.state = self.pstate = 0
            self.t_q = self.t_sync = self.t_end = 0.0
            self.t = self.work_end = self.since = self.conn_ = self.ius = self.nbytes = 0.0
            self.xfer = self.alpha = self.ready = self.left = 0.0
            self.n = self.last_bit = self.depth = self.top = 0
            self.mask = self.need = 0
            self.one = False
            self.one_track = 0
            self.one_mask = 0

    # -- its channel program(s) --------------------------------------------------
    def _program_begin(self, t: float, write, split) -> None:
        """Set the program up to start at ``t``: a write's, one channel I/O,
        or (zHPF's address limit) several in turn. ``split``:
        always split at the limit (``plan``: a list with no records is then
        no channel I/O at all); otherwise only a list over it is split."""
        vol: VolumeIO = self.vol
        self.t = t
        if write:
            self.pstate = _P_WRITE
            return
        self.pstate = _P_START
        if self.one:
            if not split and (vol.max_addresses is None or
                              runs(self.one_mask) <= vol.max_addresses):
                return
            self._as_list()
        if split or (vol.max_addresses is not None and
                     addresses(self.groups) > vol.max_addresses):
            self.parts = ch.split_addresses(self.groups, vol.max_addresses)
            if not self.parts:
                vol._add_totals(self)
                self.pdone = True
                return
            self.groups = self.parts[0]

    def _advance(self) -> float:
        """Run the program to its next sync point and return its time; at its
        end set ``pdone`` and return the end time.

        The channel program of a read is the hot path of every DB2
        experiment, hence the inlined cache look-up
        (``CacheDirectory.valid``) and the counters kept in fields until the
        end.
        """
        # Typed for the compiled build (volume.pxd); no effect interpreted.
        vol: VolumeIO = self.vol
        path: ChannelPath
        cache: CacheDirectory
        zhpf: cython.bint
        st: cython.int = self.pstate
        rpt: cython.long
        n: cython.long
        c: cython.long
        mask: cython.ulonglong
        need: cython.ulonglong
        starts: cython.ulonglong
        key: cython.longlong
        t: float
        t0: float
        work: float
        f: float
        start: float
        step: float
        x: float
        ready: float
        hold: float
        if st >= _P_WRITE:
            return self._write_advance()
        t = self.t
        zhpf, rpt = vol.zhpf, vol.rpt
        tr = vol.tr
        groups = self.groups
        if st == _P_START:
            # ``_connect`` and ``_start`` inlined (the same steps in the same
            # order): two calls less per channel I/O.
            t0 = t
            self._size_program(groups, self.lp)
            path = vol.paths.pick(t)
            work = self.ius * path.iu_s + self.nbytes * path.byte_s
            f = path.free_at
            start = f if f > t else t
            path.free_at = start + work
            path.busy += work
            if start > t:
                vol.path_waits += 1
            self.pend += start - t
            path.starts += 1
            t = start
            self.path = path
            self.work_end = t + work
            self.since = t
            self.ios += 1
            self.pend += vol.start_s
            if tr is not None:
                tr.phase(t0, self.id, 1)
                tr.phase(t + vol.start_s, self.id, CONN)
            t += vol.start_s
            if zhpf:
                t += vol._tcw
                self.conn += vol._tcw
            if vol.conn_extra > 0.0:
                t += vol.conn_extra
                self.conn += vol.conn_extra
            self.batch = None
            self.xfer = vol._slot + vol.link_s_per_record
            self.top = vol._seq_count_top()
            self.alpha = vol._seq_alpha
            self.last_bit = rpt - 1
            self.prev_track = -2
            self.prev_last = -2
            self.conn_ = 0.0
            self.hits_ = self.pages_ = 0
            self.i = 0
            st = _P_GROUP
            if vol.lpo:
                if self.one:
                    # ``_lpo_stages`` of the one track; the LPO's schedule
                    # reads a list of groups.
                    if self.one_mask & ~vol._cache.held(vol.kb + self.one_track):
                        self._as_list()
                        groups = self.groups
                if not self.one and (self.lp or vol._lpo_stages(groups)):
                    self.t = t
                    self.pstate = _P_LPO
                    return t          # the LPO is about to issue drive reads
        elif st == _P_LPO:
            self.batch = vol._lpo_schedule(t, groups, self, self.lp)
            st = _P_GROUP
        cache = vol._cache
        while True:
            if st == _P_GROUP:
                if self.one:
                    if self.i == 1:
                        return self._part_end(t)
                    track, mask = self.one_track, self.one_mask
                else:
                    if self.i == len(groups):
                        return self._part_end(t)
                    track, mask = groups[self.i]
                n = bits(mask)
                self.pages_ += n
                if zhpf:
                    starts = mask & ~(mask << 1)          # one bit per run of records
                    step = vol._address * bits(starts)
                elif self.lp:
                    step = ch.command_mode_list_cost(self.prev_track, track, mask)
                    self.prev_track, self.prev_last = track, 0
                else:
                    step = ch.command_mode_cost((self.prev_track, self.prev_last), track, mask,
                                                rpt)
                    self.prev_track, self.prev_last = track, top(mask) - 1
                t += step
                self.conn_ += step
                self.track, self.mask, self.n = track, mask, n
                key = vol.kb + self.track
                need = mask & ~cache.valid(key, t)
                self.need = need
                batch = self.batch
                if need or (batch is not None and batch[self.i] is not None and
                            batch[self.i][1] > t):
                    st = _P_AWAIT
                    if need and need & ~cache.pending_mask(key):
                        self.t = t
                        self.pstate = _P_AWAIT
                        return t          # a drive read is issued now
                else:
                    self.hits_ += n
                    if tr is not None:
                        tr.hits(t, track, mask)
                    st = _P_SEQ
            if st == _P_AWAIT:
                # ``need`` 0: in cache, but the LPO re-stages the track for this list.
                need = self.need
                mask = self.mask
                n = self.n
                hold = _run_ready(self.batch, self.i) if self.batch is not None else 0.0
                ready = vol._await(t, self.track, n, need, self, hold, 0 if need else mask, mask)
                if ready > t:
                    self.disc += ready - t
                    self._disconnect(t, (self.records - self.pages_ + n) / self.records, ready)
                    self.pstate = _P_RECONNECT
                    return ready
                st = _P_SEQ
            elif st == _P_RECONNECT:
                t = self._reconnect()
                st = _P_SEQ
            if st == _P_SEQ:
                if vol.seq_detect:
                    # Sequential detection, per stream (two prefetch I/Os of
                    # one scan reach the unit interleaved; each continues its
                    # own): a track read together with its predecessor (the
                    # run of records crosses the boundary: the predecessor's
                    # last record and this track's first were read) counts one
                    # more than it, a track of the stream that is not one less
                    # (by degree, not a reset), and so does each track a
                    # stream skips (:meth:`Staging._stream_behind`). The
                    # stream's density (the share of records read per track,
                    # averaged over its recent tracks) sets how deep it
                    # prestages.
                    mask = self.mask
                    n = self.n
                    c = vol._stream_read(self.track, mask & 1, (mask >> self.last_bit) & 1,
                                         n / rpt, self.top, self.alpha, vol._seq_streams)
                    f = vol._sf
                    if c >= vol._seq_trigger:
                        self.depth = vol._degree_depth(f)
                        ahead = vol._seq_staged_to - self.track
                        if ahead < (self.depth + 1) // 2 or ahead > vol._prestage_tracks:
                            self.t = t
                            self.pstate = _P_PRESTAGE
                            return t
                    elif vol._s_was >= vol._seq_trigger:
                        vol._prestage_tracks = vol._stripe_tracks    # the stream stops
                st = _P_XFER
            elif st == _P_PRESTAGE:
                vol._prestage(t, self.track, self.depth)
                st = _P_XFER
            if st == _P_XFER:
                x = self.n * self.xfer
                t += x
                self.conn_ += x
                self.i += 1
                st = _P_GROUP

    def _size_program(self, groups, list_prefetch) -> None:
        """A channel program's IUs, records and bytes for ``groups``
        (``ius``, ``records``, ``nbytes``)."""
        vol: VolumeIO = self.vol
        if cython.compiled:     # the records through a C pointer: no tuple
            records: cython.long = 0
            if self.one:
                self.ius = program_ius_one(self.one_track, self.one_mask, vol.zhpf,
                                           list_prefetch, vol.rpt, cython.address(records))
            else:
                self.ius = program_ius_into(groups, vol.zhpf, list_prefetch, vol.rpt,
                                            cython.address(records))
            self.records = records
        elif self.one:
            out = [0]
            self.ius = program_ius_one(self.one_track, self.one_mask, vol.zhpf, list_prefetch,
                                       vol.rpt, out)
            self.records = out[0]
        else:
            self.ius, self.records = program_ius(groups, vol.zhpf, list_prefetch, vol.rpt)
        self.nbytes = self.records * vol.record_bytes

    def _as_list(self) -> None:
        """A request of one track (:meth:`VolumeIO.start_track`) as a list of
        one group, where a path reads a list (the LPO's schedule, a split)."""
        self.groups = [(self.one_track, self.one_mask)]
        self.one = False

    def _disconnect(self, t: float, left: float, ready: float) -> None:
        """Disconnect at ``t`` until ``ready``: the channel gives back the
        work of the program's ``left`` share not yet transferred, which the
        reconnect queues again (:meth:`_reconnect`)."""
        vol: VolumeIO = self.vol
        path: ChannelPath = self.path
        self.left = left
        path.give_back(self.ius * self.left * path.iu_s + self.nbytes * self.left * path.byte_s)
        if vol.tr is not None:
            vol.tr.connected(path, self.since, t, self.id)
        self.ready = ready
        self.t = t

    def _reconnect(self) -> float:
        """Reconnect at ``ready`` over any path of the unit (a wait for one is
        DISC); returns when connected again."""
        vol: VolumeIO = self.vol
        path: ChannelPath
        t: float
        work: float
        path, t, work = vol._connect(self.ready, self, self.ius * self.left,
                                     self.nbytes * self.left, True)
        if vol.tr is not None:
            vol.tr.phase(t, self.id, CONN)
        self.path = path
        self.work_end = t + work
        self.since = t
        return t

    def _part_end(self, t: float) -> float:
        """One channel I/O's groups are done at ``t``: its end; then the next
        part's start (``pstate`` back to start) or the program's end (``pdone``)."""
        vol: VolumeIO = self.vol
        conn: float = self.conn_
        if self.work_end > t:
            # The channel is slower than the unit here: the I/O ends with its work.
            conn += self.work_end - t
            t = self.work_end
        if vol.tr is not None:
            vol.tr.connected(self.path, self.since, t, self.id)
        self.conn += conn
        self.hits += self.hits_
        self.pages += self.pages_
        st: CacheStats = vol.stats
        hits: cython.longlong = self.hits_
        st.hits += hits                   # the records found in cache; those it
        st.read_requests += hits          # waited for were counted by _await
        st.host_bytes += hits * vol.record_bytes
        self.path = None
        self.batch = None
        self.t = t
        if self.parts is not None and self.part + 1 < len(self.parts):
            self.part += 1
            self.groups = self.parts[self.part]
            self.pstate = _P_START
            return t                 # the next channel I/O books a path now
        vol._add_totals(self)
        self.pdone = True
        return t

    def _write_advance(self) -> float:
        """A write's channel program (DASD fast write, models/io/writes.py)
        to its next sync point, as :meth:`_advance` for a read; at its end
        set ``pdone`` and return the end time.

        Each group's records go over the channel into cache slots and a copy
        into NVS; the unit ends the I/O once all are in. When NVS has no
        room the unit disconnects until a destage frees it. A sync point
        before each group's destage is booked, so concurrent I/Os reach the
        drives in time order (as for reads).
        """
        # Typed for the compiled build (volume.pxd); no effect interpreted.
        vol: VolumeIO = self.vol
        st: cython.int = self.pstate
        cache: CacheDirectory = vol._cache
        nvs: NVS
        path: ChannelPath
        rec: cython.longlong = vol.record_bytes
        n: cython.long
        mask: cython.ulonglong
        key: cython.longlong
        track: cython.longlong
        t: float = self.t
        t0: float
        work: float
        step: float
        room: float
        tr = vol.tr
        groups = self.groups
        if st == _P_WRITE:
            t0 = t
            self._size_program(groups, False)
            path, t, work = vol._connect(t, self, self.ius, self.nbytes)
            self.path = path
            self.work_end = t + work
            self.since = t
            t = vol._start(t, self, t0)
            self.nvs = vol.cu.nvs
            self.xfer = vol._slot + vol.link_s_per_record
            self.prev_track = -2
            self.prev_last = -2
            self.wseq = _sequential_one(vol, self.one_track, self.one_mask) if self.one \
                else _sequential(vol, groups)
            self.i = 0
            st = _P_WGROUP
        nvs = self.nvs
        while True:
            if st == _P_WGROUP:
                if self.one:
                    if self.i == 1:
                        break
                    track, mask = self.one_track, self.one_mask
                else:
                    if self.i == len(groups):
                        break
                    track, mask = groups[self.i]
                n = bits(mask)
                if vol.zhpf:
                    step = vol._address * runs(mask)
                else:
                    step = ch.command_mode_cost((self.prev_track, self.prev_last), track, mask,
                                                vol.rpt)
                self.prev_track, self.prev_last = track, top(mask) - 1
                t += step + n * self.xfer
                self.conn += step + n * self.xfer
                self.track, self.mask, self.n = track, mask, n
                room = nvs.room_at(t, n * rec)
                if room > t:
                    # NVS full: the unit disconnects until a destage frees
                    # room. The channel gives back the work not yet
                    # transferred and queues it again on the reconnect.
                    vol.stats.nvs_waits += 1
                    self.disc += room - t
                    self._disconnect(t, (self.records - self.pages) / self.records, room)
                    self.pstate = _P_WNVS
                    return room
            elif st == _P_WNVS:
                t = self._reconnect()
            if st == _P_WBOOK:
                n = self.n
                self.hits += n
                self.pages += n
                book_write(vol, nvs, t, self.track, self.mask, self.wseq)
                self.i += 1
                st = _P_WGROUP
                continue
            # The group's records in cache and NVS at ``t``: its destage is
            # booked at this sync point.
            key = vol.kb + self.track
            cache.add(key, self.mask, t)
            cache.valid(key, t)
            self.t = t
            self.pstate = _P_WBOOK
            return t
        if self.work_end > t:
            self.conn += self.work_end - t
            t = self.work_end
        if tr is not None:
            tr.connected(self.path, self.since, t, self.id)
        self.path = None
        self.nvs = None
        if vol.write_disc > 0.0:
            # Remote copy (a calibrated quantity): the unit disconnects while
            # the write is sent to the secondary and gives ending status once
            # it is there; the volume stays busy, the channel is free.
            self.disc += vol.write_disc
            t += vol.write_disc
        if self.one:
            track, mask = self.one_track, self.one_mask
        else:
            track, mask = groups[-1]
        vol._write_next = track * vol.rpt + top(mask)
        stats: CacheStats = vol.stats
        stats.write_requests += self.pages
        stats.fast_writes += self.pages
        vol._add_totals(self)
        self.pdone = True
        return t
