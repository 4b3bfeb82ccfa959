"""What an RMF import read: plain dataclasses, the one error class, assumptions.

A :class:`RmfSystem` holds one :class:`Interval` per RMF interval found in
the files (device, cache, channel, CPU and ESS figures of that interval),
the interval chosen (by number, or the busiest) with the reason, and every
:class:`Assumption`: a value the reports did not give, named with the file
and line it would have come from.

Where a figure was read is kept in ``source`` fields that take no part in
equality, so a text report and the XML of the same interval compare equal
when they carry the same figures.

Every record checks its figures when it is made (:func:`check`): a busy
is at most 100 %, a hit ratio at most 1, a rate one a storage system can
reach. A figure out of range raises :class:`RowError`, to which the reader
adds the file and the line of the cell.
"""
from __future__ import annotations

from dataclasses import dataclass, field


class RmfError(ValueError):
    """Bad input: one clear message naming the file and the line.

    Parameters
    ----------
    file : str
        The file (or URL) that was being read.
    line : int or None
        1-based line number, None when the problem is the whole file.
    message : str
        What is wrong and, where it helps, what to do.
    """

    def __init__(self, file: str, line: int | None, message: str):
        self.file = str(file)
        self.line = line
        self.message = message
        where = f"{self.file}:{line}" if line else self.file
        super().__init__(f"{where}: {message}")


class RowError(ValueError):
    """A row or cell that does not read (the reader adds file and line)."""


#: Highest I/O (or operation) rate per second of one volume, and of a whole
#: control unit, channel or rank: the fastest storage systems are rated at a
#: few million I/Os per second in all, a single volume at far less.
MAX_DEVICE_RATE = 1e6
MAX_RATE = 1e7
#: Longest average time in ms (an hour): RMF intervals are at most an hour.
MAX_MS = 3.6e6
#: Largest count of requests in an interval (MAX_RATE for an hour, rounded up).
MAX_COUNT = 1e11
#: Largest transfer per request or operation (bytes), per second (bytes, MB).
MAX_BYTES_REQ = 1e8
MAX_BYTES_S = 1e12

_PCT = (100.0, "%")
_RATIO = (1.0, "")

#: Per record: field -> (highest value, how RMF labels it, unit after the limit).
LIMITS: dict[str, dict[str, tuple[float, str, str]]] = {
    "Volume": {"rate": (MAX_DEVICE_RATE, "DEVICE ACTIVITY RATE", "/s"),
               "resp_ms": (MAX_MS, "AVG RESP TIME", " ms"),
               "iosq_ms": (MAX_MS, "AVG IOSQ TIME", " ms"),
               "pend_ms": (MAX_MS, "AVG PEND TIME", " ms"),
               "disc_ms": (MAX_MS, "AVG DISC TIME", " ms"),
               "conn_ms": (MAX_MS, "AVG CONN TIME", " ms"),
               "busy_pct": (100.0, "% DEV UTIL", " %"),
               "pav": (256.0, "PAV (base and alias exposures)", ""),
               "cylinders": (1e7, "NUMBER OF CYL", ""),
               "cmr_ms": (MAX_MS, "AVG CMR DLY", " ms"),
               "db_ms": (MAX_MS, "AVG DB DLY", " ms"),
               "reserved_pct": (100.0, "% DEV RESV", " %")},
    "LcuTotal": {"rate": (MAX_RATE, "LCU DEVICE ACTIVITY RATE", "/s"),
                 "resp_ms": (MAX_MS, "LCU AVG RESP TIME", " ms"),
                 "iosq_ms": (MAX_MS, "LCU AVG IOSQ TIME", " ms"),
                 "pend_ms": (MAX_MS, "LCU AVG PEND TIME", " ms"),
                 "disc_ms": (MAX_MS, "LCU AVG DISC TIME", " ms"),
                 "conn_ms": (MAX_MS, "LCU AVG CONN TIME", " ms"),
                 "busy_pct": (100.0, "LCU % DEV UTIL", " %")},
    "Requests": {"count": (MAX_COUNT, "COUNT", ""), "rate": (MAX_RATE, "RATE", "/s"),
                 "hits": (MAX_COUNT, "HITS", ""), "hit_rate": (MAX_RATE, "hit RATE", "/s"),
                 "hit_ratio": (1.0, "H/R", ""), "fast": (MAX_COUNT, "FAST", ""),
                 "fast_rate": (MAX_RATE, "FAST RATE", "/s")},
    "Misses": {"read": (MAX_COUNT, "READ", ""), "read_rate": (MAX_RATE, "READ RATE", "/s"),
               "write": (MAX_COUNT, "WRITE", ""),
               "write_rate": (MAX_RATE, "WRITE RATE", "/s"),
               "tracks": (MAX_COUNT, "TRACKS", ""),
               "tracks_rate": (MAX_RATE, "TRACKS RATE", "/s")},
    "Transfer": {"bytes_per_req": (MAX_BYTES_REQ, "BYTES/REQ", " B"),
                 "bytes_per_s": (MAX_BYTES_S, "BYTES/SEC", " B/s"),
                 "resp_ms": (MAX_MS, "RESP TIME", " ms")},
    "CacheActivity": {"pct_read": (100.0, "% READ", " %")},
    "VolumeCache": {"io_rate": (MAX_DEVICE_RATE, "I/O RATE", "/s"),
                    "read_hit_rate": (MAX_DEVICE_RATE, "CACHE HIT RATE READ", "/s"),
                    "dfw_rate": (MAX_DEVICE_RATE, "CACHE HIT RATE DFW", "/s"),
                    "stage_rate": (MAX_DEVICE_RATE, "DASD I/O RATE STAGE", "/s"),
                    "read_hit_ratio": (1.0, "READ H/R", ""),
                    "write_hit_ratio": (1.0, "WRITE H/R", ""),
                    "pct_read": (100.0, "% READ", " %")},
    "Channel": {"busy_pct": (100.0, "UTILIZATION(%) TOTAL", " %"),
                "part_busy_pct": (100.0, "UTILIZATION(%) PART", " %"),
                "ficon_rate": (MAX_RATE, "FICON OPERATIONS RATE", "/s"),
                "zhpf_rate": (MAX_RATE, "ZHPF OPERATIONS RATE", "/s"),
                "read_mb_s": (MAX_BYTES_S / 1e6, "READ(MB/SEC)", " MB/s"),
                "write_mb_s": (MAX_BYTES_S / 1e6, "WRITE(MB/SEC)", " MB/s")},
    "Engine": {"busy_pct": (100.0, "LPAR BUSY", " %"),
               "mvs_busy_pct": (100.0, "MVS BUSY", " %")},
    "Rank": {"read_ops_s": (MAX_RATE, "READ OPS/SEC", "/s"),
             "write_ops_s": (MAX_RATE, "WRITE OPS/SEC", "/s"),
             "read_bytes_per_op": (MAX_BYTES_REQ, "READ BYTES/OP", " B"),
             "write_bytes_per_op": (MAX_BYTES_REQ, "WRITE BYTES/OP", " B"),
             "read_resp_ms": (MAX_MS, "READ RTIME/OP", " ms"),
             "write_resp_ms": (MAX_MS, "WRITE RTIME/OP", " ms"),
             "arrays": (1e4, "ARRAY NUM", ""), "rpm": (1e6, "MIN RPM", "")},
}


def check(record) -> None:
    """Raise :class:`RowError` for a figure of ``record`` outside its field's
    range (:data:`LIMITS`): not finite, negative, or above the limit. (Every
    cell read is finite and not negative already: :func:`models.rmf.numbers.number`.)"""
    for name, (hi, label, unit) in LIMITS.get(type(record).__name__, {}).items():
        value = getattr(record, name)
        if value is None or 0 <= value <= hi:       # NaN fails 0 <=
            continue
        if value != value or value in (float("inf"), float("-inf")):
            raise RowError(f"{label} is {value}, not a number RMF prints")
        if value < 0:
            raise RowError(f"{label} {value:g} is negative; RMF prints no negative "
                           "figure here")
        raise RowError(f"{label} {_figure(value)} is over {_figure(hi)}{unit}, more "
                       f"than {_beyond(unit, hi)}: the file is damaged or not from RMF")


def _figure(x: float) -> str:
    return f"{x:,.0f}" if x >= 1e4 else f"{x:g}"


def _beyond(unit: str, hi: float) -> str:
    if hi == 1.0 and unit == "":
        return "a ratio of hits to requests can be"
    if unit == " %":
        return "the whole interval"
    if unit == "/s":
        return "a volume reaches" if hi == MAX_DEVICE_RATE else "any storage system reaches"
    if unit == "":
        return "the field can hold"
    return "any device reaches"


@dataclass(frozen=True)
class Source:
    """Where a figure was read: file and 1-based line."""

    file: str
    line: int | None


@dataclass(frozen=True)
class Assumption:
    """A value used although no report gave it.

    ``file`` and ``line`` name where the value would have come from (the
    line of the report's header or table it belongs in; None when the
    report or the whole section was absent).
    """

    what: str
    value: object
    why: str
    file: str
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{self.what} = {self.value} (assumed: {self.why}; would be read at {where})"


@dataclass
class Volume:
    """One row of Direct Access Device Activity: a base device and its volume."""

    devnum: str
    volser: str
    storage_group: str | None
    lcu: str | None
    device_type: str | None
    cylinders: int | None
    rate: float                      # I/O per second (DEVICE ACTIVITY RATE)
    resp_ms: float
    iosq_ms: float
    pend_ms: float
    disc_ms: float
    conn_ms: float
    busy_pct: float                  # % DEV UTIL
    pav: float | None                # exposures (base + aliases, average)
    hyperpav: bool = False
    # The delays inside PEND; only the XML reader keeps them so far, so they
    # take no part in equality (a text report and its XML compare equal).
    cmr_ms: float | None = field(default=None, compare=False)  # AVG CMR DLY
    db_ms: float | None = field(default=None, compare=False)   # AVG DB DLY: device busy
    # % DEV RESV: time the device was reserved (a RESERVE held by this
    # system); z/OS counts it in % DEV UTIL when no I/O was active.
    reserved_pct: float | None = field(default=None, compare=False)
    source: Source | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check(self)


@dataclass
class LcuTotal:
    """An LCU summary row of Direct Access Device Activity (all its devices)."""

    lcu: str
    rate: float
    resp_ms: float | None = None
    iosq_ms: float | None = None
    pend_ms: float | None = None
    disc_ms: float | None = None
    conn_ms: float | None = None
    busy_pct: float | None = None
    source: Source | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check(self)


@dataclass
class Requests:
    """One row of READ or WRITE I/O REQUESTS (NORMAL or SEQUENTIAL)."""

    count: float | None = None
    rate: float | None = None
    hits: float | None = None
    hit_rate: float | None = None
    hit_ratio: float | None = None   # None where the report prints N/A
    fast: float | None = None        # write rows: DASD fast writes
    fast_rate: float | None = None

    def __post_init__(self) -> None:
        check(self)


@dataclass
class Misses:
    """One row of CACHE MISSES: read and write misses and the tracks staged."""

    read: float | None = None
    read_rate: float | None = None
    write: float | None = None
    write_rate: float | None = None
    tracks: float | None = None
    tracks_rate: float | None = None

    def __post_init__(self) -> None:
        check(self)


@dataclass
class Transfer:
    """Host adapter or disk activity: bytes per request, bytes per second, response."""

    bytes_per_req: float | None = None
    bytes_per_s: float | None = None
    resp_ms: float | None = None

    def __post_init__(self) -> None:
        check(self)


@dataclass
class CacheActivity:
    """A cache block of the Cache report: a subsystem's, or one volume's detail."""

    read_normal: Requests = field(default_factory=Requests)
    read_seq: Requests = field(default_factory=Requests)
    write_normal: Requests = field(default_factory=Requests)
    write_seq: Requests = field(default_factory=Requests)
    miss_normal: Misses = field(default_factory=Misses)
    miss_seq: Misses = field(default_factory=Misses)
    host_read: Transfer = field(default_factory=Transfer)
    host_write: Transfer = field(default_factory=Transfer)
    disk_read: Transfer = field(default_factory=Transfer)
    disk_write: Transfer = field(default_factory=Transfer)
    pct_read: float | None = None
    #: The TOTAL row of reads (normal, sequential and CFW together), where printed.
    read_total: Requests = field(default_factory=Requests)
    source: Source | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check(self)

    @property
    def read_rate(self) -> float:
        return (self.read_normal.rate or 0.0) + (self.read_seq.rate or 0.0)

    @property
    def read_hit_ratio(self) -> float | None:
        """Hits over read requests, normal and sequential together."""
        reads = self.read_rate
        if not reads:
            return None
        return ((self.read_normal.hit_rate or 0.0) + (self.read_seq.hit_rate or 0.0)) / reads


@dataclass
class VolumeCache:
    """One volume of the Cache Subsystem Device Overview (and its detail, if printed)."""

    volser: str
    devnum: str | None
    io_rate: float
    read_hit_rate: float | None = None
    dfw_rate: float | None = None
    stage_rate: float | None = None
    read_hit_ratio: float | None = None
    write_hit_ratio: float | None = None
    pct_read: float | None = None
    detail: CacheActivity | None = None
    source: Source | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check(self)


@dataclass
class CacheUnit:
    """A cache subsystem (SSID): its header, totals and volumes."""

    ssid: str | None
    cu_id: str | None = None
    type_model: str | None = None
    cache_mb: float | None = None    # SUBSYSTEM STORAGE CONFIGURED
    nvs_mb: float | None = None
    activity: CacheActivity | None = None
    volumes: dict[str, VolumeCache] = field(default_factory=dict)
    #: The Device Overview's ``*ALL`` row: the whole subsystem's figures.
    overview: VolumeCache | None = field(default=None, compare=False)
    source: Source | None = field(default=None, compare=False, repr=False)


@dataclass
class Channel:
    """One CHPID of Channel Path Activity."""

    chpid: str
    type: str
    busy_pct: float | None           # UTILIZATION(%) TOTAL
    part_busy_pct: float | None = None
    ficon_rate: float | None = None
    zhpf_rate: float | None = None
    read_mb_s: float | None = None
    write_mb_s: float | None = None
    generation: str | None = None
    status: str | None = None        # Online, Offline (the DDS's Status column)
    source: Source | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check(self)

    @property
    def zhpf_share(self) -> float | None:
        """zHPF operations over all FICON operations (None: not a FICON channel)."""
        f, z = self.ficon_rate, self.zhpf_rate
        if f is None and z is None:
            return None
        total = (f or 0.0) + (z or 0.0)
        return (z or 0.0) / total if total else 0.0


@dataclass
class Engine:
    """One logical processor of CPU Activity."""

    number: str
    type: str                        # CP, zIIP, zAAP, ICF, IFL
    busy_pct: float | None           # LPAR BUSY
    mvs_busy_pct: float | None = None
    #: With multithreading (SMT, LOADxx PROCVIEW CORE) the engine is a core and
    #: ``mvs_busy_pct`` its first thread's; the MVS BUSY of its other threads.
    thread_mvs_busy_pct: tuple[float | None, ...] = ()
    source: Source | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check(self)


@dataclass
class Rank:
    """One rank of ESS rank statistics."""

    rank_id: str
    extent_pool: str | None
    read_ops_s: float | None
    write_ops_s: float | None
    read_bytes_per_op: float | None = None
    write_bytes_per_op: float | None = None
    read_resp_ms: float | None = None
    write_resp_ms: float | None = None
    ssd: bool | None = None
    arrays: int | None = None
    rpm: float | None = None
    capacity: str | None = None
    raid: str | None = None
    source: Source | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check(self)


@dataclass
class Interval:
    """One RMF interval: what each report gave for it."""

    number: int
    system: str | None = None
    start: str | None = None         # ISO 8601, local time of the report
    length_s: float | None = None
    volumes: dict[str, Volume] = field(default_factory=dict)       # by volser
    cache_units: dict[str, CacheUnit] = field(default_factory=dict)  # by SSID
    channels: dict[str, Channel] = field(default_factory=dict)     # by CHPID
    engines: list[Engine] = field(default_factory=list)
    ranks: dict[str, Rank] = field(default_factory=dict)
    reports: set[str] = field(default_factory=set)
    sources: dict[str, Source] = field(default_factory=dict, compare=False, repr=False)
    key: tuple = field(default=(), compare=False, repr=False)
    #: A large input's first pass keeps only these sums (DASD I/O/s, cache
    #: I/O/s, busy): enough to choose, not to draw.
    tally: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0], compare=False,
                               repr=False)
    #: The device report's LCU summary rows and the devices it lists without a
    #: volume (offline: devnum, LCU, source); the XML reader fills them.
    lcus: dict[str, LcuTotal] = field(default_factory=dict, compare=False)
    offline: list[tuple[str, str | None, Source | None]] = field(default_factory=list,
                                                                  compare=False)

    @property
    def label(self) -> str:
        when = self.start.replace("T", " ") if self.start else "time not given"
        if not self.number:                  # still being read: not numbered yet
            return f"the interval of {when}"
        return f"interval {self.number} ({when})"

    def activity(self) -> float:
        """How busy the interval was: DASD I/O/s, else cache reads/s, else busy %."""
        io = sum(v.rate for v in self.volumes.values()) + self.tally[0]
        if io:
            return io
        cache = sum((u.activity.read_rate if u.activity else 0.0) +
                    sum(v.io_rate for v in u.volumes.values()) for u in self.cache_units.values())
        cache += self.tally[1]
        if cache:
            return cache
        return self.tally[2] + sum((c.busy_pct or 0.0) for c in self.channels.values()) + \
            sum((e.busy_pct or 0.0) for e in self.engines) + \
            sum((r.read_ops_s or 0.0) + (r.write_ops_s or 0.0) for r in self.ranks.values())

    def storage_groups(self) -> dict[str, list[Volume]]:
        """Volumes by storage group (volumes without one under ``""``)."""
        out: dict[str, list[Volume]] = {}
        for v in self.volumes.values():
            out.setdefault(v.storage_group or "", []).append(v)
        return out


@dataclass
class RmfSystem:
    """Everything an import read, and what it assumed."""

    intervals: list[Interval] = field(default_factory=list)
    chosen: int = 0                  # index into intervals
    reason: str = ""                 # why that interval
    assumptions: list[Assumption] = field(default_factory=list)
    files: list[str] = field(default_factory=list, compare=False)
    skipped: list[str] = field(default_factory=list, compare=False)

    @property
    def interval(self) -> Interval:
        """The interval chosen."""
        return self.intervals[self.chosen]

    def summary(self) -> dict:
        """What was read, as plain data (``import-rmf --json``)."""
        iv = self.interval
        return {
            "files": list(self.files),
            "intervals": [{"number": i.number, "start": i.start, "length_s": i.length_s,
                           "system": i.system, "reports": sorted(i.reports),
                           "activity": round(i.activity(), 3)} for i in self.intervals],
            "chosen": iv.number, "reason": self.reason,
            "counts": {"volumes": len(iv.volumes), "cache_units": len(iv.cache_units),
                       "channels": len(iv.channels), "engines": len(iv.engines),
                       "ranks": len(iv.ranks)},
            "assumptions": [str(a) for a in self.assumptions],
            "skipped": list(self.skipped),
        }
