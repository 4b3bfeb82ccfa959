"""The Postprocessor's text reports (SYSOUT listing), read line by line.

:func:`read_text` walks a listing once (:func:`models.rmf.lines.open_lines`,
ASA column or not) and fills :class:`~models.rmf.records.Interval` objects
keyed by system and interval start, so the Device, Cache, Channel, CPU and
ESS reports of one interval, in one file or several, meet in one interval.

Each report starts with its spaced title (``C A C H E   S U B S Y S T E M
A C T I V I T Y``) and a page header giving the system, the start and the
length of the interval. Reports of other kinds are skipped and listed. A
cache excerpt without any header (a table cut out of a report, as the
three REDP-4862 figures in ../shared/rmf are) is read too: its interval,
system and control unit are unknown and said so.
"""
from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from models.rmf import numbers as nm
from models.rmf import rows as R
from models.rmf.lines import open_lines
from models.rmf.records import Assumption, CacheActivity, CacheUnit, Engine, Interval, \
    RmfError, Source, VolumeCache

KINDS = {"DIRECTACCESSDEVICEACTIVITY": "DEVICE", "CACHESUBSYSTEMACTIVITY": "CACHE",
         "CACHEDEVICEACTIVITY": "CACHE", "CHANNELPATHACTIVITY": "CHAN",
         "CPUACTIVITY": "CPU"}
_TITLE = re.compile(r"^[A-Z0-9/&-](?: {1,4}[A-Z0-9/&-]){5,}$")
_START = re.compile(r"START\s+(\d\d)/(\d\d)/(\d{4})-(\d\d)\.(\d\d)\.(\d\d)")
_DATE = re.compile(r"\bDATE\s+(\d\d)/(\d\d)/(\d{4})")
_TIME = re.compile(r"\bTIME\s+(\d\d)\.(\d\d)\.(\d\d)")
_INTERVAL = re.compile(r"\bINTERVAL\s+(\d{1,3})\.(\d\d)\.(\d{2,3})\b")
_SYSTEM = re.compile(r"SYSTEM ID\s+(\S+)")
_SUBSYSTEM = re.compile(r"SUBSYSTEM\s+\S+\s+CU-ID\s+(\S+)\s+SSID\s+(\S+)")
_TYPE_MODEL = re.compile(r"TYPE-MODEL\s+(\S+)")
_VOLSER = re.compile(r"^\s*VOLSER\s+(\S+)\s+NUM\s+(\S+)")
_ROW_LABELS = {"NORMAL": "normal", "SEQUENTIAL": "seq"}
_SYNCH = "SYNCHRONOUS I/O (zHyperLink) DEVICE ACTIVITY, not read: zPerfLab draws no zHyperLink"
_PAGE = re.compile(r"^\s*PAGE\s+\d+\s*$")
_FIGURE = re.compile(r"^(?:\d*\.?\d+[KMGTH*]?|N/A)$")
#: Rows of figures not understood listed (each; the reading goes on).
_UNREAD_LISTED = 20
#: Page header lines kept for a table header whose report title is missing.
_RECENT = 4
#: What every line :func:`header_kind` knows has (one search instead of five).
_HINT = re.compile(r"IOSQ|UTILIZATION\(%\)|LPAR BUSY|RRID|CU-ID|READ I/O REQUESTS")


def header_kind(line: str) -> str | None:
    """The report whose table header ``line`` is (``"DEVICE"`` …), else None.

    Each is a line only that report prints (SC34-2665's layouts, the device
    one confirmed by IBM's figure of a z/OS 2.4 report): the device table's
    column heading, CHANNEL PATH with UTILIZATION(%), the CPU table's NUM TYPE
    ONLINE LPAR BUSY MVS BUSY, the ESS rank table's EXTENT POOL with RRID, a
    cache report's SUBSYSTEM … CU-ID … SSID line or its READ I/O REQUESTS table.
    """
    if "IOSQ" in line and "ACTIVITY" in line:
        if {"DEV", "DEVICE", "VOLUME", "PAV", "LCU", "ACTIVITY", "IOSQ"} <= set(line.split()):
            return "DEVICE"
    elif "UTILIZATION(%)" in line and "CHANNEL PATH" in line:
        return "CHAN"
    elif "LPAR BUSY" in line and "MVS BUSY" in line and "ONLINE" in line:
        return "CPU"
    elif "RRID" in line and "EXTENT POOL" in line:
        return "ESS"
    elif "CU-ID" in line and _SUBSYSTEM.search(line) or "READ I/O REQUESTS" in line:
        return "CACHE"
    return None


def title_of(line: str) -> str | None:
    """``"CACHE SUBSYSTEM ACTIVITY"`` for a spaced report title line, else None."""
    s = line.strip()
    if len(s) < 11 or s[1] != " " or s[3] != " " or not _TITLE.match(s):
        return None
    words = [w.replace(" ", "") for w in re.split(r" {2,}", s)]
    if sum(ch.isalpha() for ch in s) < 5:
        return None
    return " ".join(words)


def kind_of(title: str) -> str | None:
    key = title.replace(" ", "")
    if key.startswith("ESS"):
        return "ESS"
    return KINDS.get(key)


@dataclass
class _State:
    """Where the walk is: report, interval, table, cache owner."""

    kind: str | None = None
    title_line: int = 0
    system: str | None = None
    start: str | None = None
    length_s: float | None = None
    table: str | None = None         # cache: read, miss, overview, status; ess: rank
    has_int: bool = True             # device report has an INT DLY column
    unit: CacheUnit | None = None
    owner: CacheActivity | None = None
    iv: Interval | None = None
    header_seen: bool = False
    engine: Engine | None = None     # cpu: the core whose thread lines may follow
    paged: bool = False              # a page began since the title (its own title lost)
    other: list[str] = field(default_factory=list)


class TextReader:
    """Reads text listings into intervals (shared across files: see module docstring)."""

    def __init__(self, mode: str = "all", chosen: frozenset = frozenset()):
        #: "all": keep every interval's figures; "summary": keep only each
        #: interval's activity (a large input's first pass); "chosen": keep
        #: the figures of the intervals in ``chosen`` (keys), skip the others.
        self.mode = mode
        self.chosen = chosen
        self.intervals: dict[tuple, Interval] = {}
        self.assumptions: list[Assumption] = []
        self.skipped: list[str] = []
        self.unread: list[tuple[str, int]] = []     # rows of figures not understood
        self.watch = None              # watch(bytes read of the file): progress, cancel

    # ---- the walk ----------------------------------------------------------------
    def read(self, path: str | Path) -> None:
        """Read one listing; RmfError names the file and line of the first bad one."""
        self.file = str(path)
        st = _State()
        known = 0
        first_title = None
        n = 0
        recent: deque[tuple[int, str]] = deque(maxlen=_RECENT)
        for n, line in open_lines(path, self.watch):
            try:
                title = title_of(line)
                if title is not None:
                    first_title = first_title or (n, title)
                    st = self._begin(st, title, n)
                    known += st.kind is not None
                    recent.clear()
                    continue
                if st.kind is not None and self._line(st, line, n):
                    continue                  # a row: the common case, no heading
                kind = header_kind(line) if _HINT.search(line) else None
                if kind is not None and kind != st.kind and (st.paged or not st.other):
                    # a table whose report title is missing (a page break, a slide); a
                    # report zPerfLab skips may print a like heading on its own page
                    st = self._untitled(st, kind, line, n, recent)
                    known += 1
                    self._line(st, line, n)
                elif "PAGE" in line and _PAGE.match(line):
                    recent.clear()            # the page header lines follow
                    if st.title_line != n - 1:
                        st.paged = True       # a page whose title line is missing
                        if st.kind is not None:
                            _new_page(st)
                elif "SYSTEM ID" in line or "RPT VERSION" in line:
                    recent.append((n, line))  # a page header line
            except R.RowError as e:
                raise RmfError(self.file, n, f"{_report_name(st.kind)}: {e}") from None
        self._finish(st, n, known, first_title)

    def _finish(self, st: _State, n: int, known: int, first_title) -> None:
        """The file read to its end: was there anything zPerfLab reads in it?"""
        if n == 0:
            raise RmfError(self.file, None, "the file is empty")
        if not known:
            if first_title is not None:
                raise RmfError(self.file, first_title[0],
                               f"this is a {first_title[1]} report; zPerfLab reads the "
                               "Direct Access Device Activity, Cache Subsystem Activity, "
                               "Channel Path Activity, CPU Activity and ESS reports")
            raise RmfError(self.file, 1, "not an RMF Postprocessor report: no report title "
                                         "and no table zPerfLab knows")
        self._check_complete(st, n)

    def _begin(self, st: _State, title: str, n: int) -> _State:
        self._check_complete(st, n - 1)
        kind = kind_of(title)
        if kind is None:
            self._skip(_SYNCH if "SYNCH" in title else title, n)
            return _State(other=[title], title_line=n)
        if kind == st.kind:               # a new page of the same report: keep the tables
            st.title_line = n
            _new_page(st)
            return st
        return _State(kind=kind, title_line=n,
                      table="rank" if kind == "ESS" and "RANK" in title else None)

    def _skip(self, what: str, n: int) -> None:
        """List a report or section not read (once per file)."""
        if not any(s.startswith(f"{what} ({self.file}:") for s in self.skipped):
            self.skipped.append(f"{what} ({self.file}:{n})")

    def _unread(self, st: _State, line: str, cells: list[str], n: int, figures: int) -> bool:
        """A line of a table's figures that names nothing zPerfLab knows (a device
        number that is not hexadecimal, a CHPID cut): listed with the skipped, not
        lost in silence. True when it was one."""
        if sum(1 for c in cells if _FIGURE.match(c)) < figures:
            return False
        if len(self.unread) < _UNREAD_LISTED and (self.file, n) not in self.unread:
            self.unread.append((self.file, n))
            text = " ".join(cells)
            self.skipped.append(f"a row of {_report_name(st.kind)} that names nothing "
                                f"zPerfLab knows, not read: '{text[:60]}' ({self.file}:{n})")
        return True

    def _untitled(self, st: _State, kind: str, line: str, n: int, recent) -> _State:
        """A report recognised by its table header, its title line missing: the
        page header just before it gives the interval; without one (a table cut
        out of a report, a slide) the interval, system and unit are unknown."""
        self._check_complete(st, n - 1)
        new = _State(kind=kind, title_line=n, table="rank" if kind == "ESS" else None)
        for m, text in recent:
            self._header(new, text, m)
        name = _report_name(kind)
        if new.iv is not None:
            self.assumptions.append(Assumption(
                f"report at line {n}", name, "its title line is missing (a page break or a "
                "cut); recognised by its table header", self.file, n))
            return new
        new.header_seen = True
        new.iv = self._interval(None, None, n, excerpt=True)
        new.iv.reports.add(kind)
        new.iv.sources.setdefault(kind, Source(self.file, n))
        said = [("interval start and length", "the excerpt has no page header"),
                ("system", "the excerpt has no page header")]
        if kind == "CACHE" and "READ I/O REQUESTS" in line:
            unit = new.iv.cache_units.setdefault("?", CacheUnit(ssid=None,
                                                                source=Source(self.file, n)))
            unit.activity = CacheActivity(source=Source(self.file, n))
            new.unit, new.owner = unit, unit.activity
            said += [("control unit (SSID, CU-ID, type)", "no SUBSYSTEM line"),
                     ("cache size", "no CACHE SUBSYSTEM STATUS section")]
        for what, why in said:
            self.assumptions.append(Assumption(what, "unknown", f"{why} ({name})", self.file, n))
        return new

    def _line(self, st: _State, line: str, n: int) -> bool:
        """Read one line of the report ``st`` is in; True when it was a row of
        figures (or another interval's line, skipped): no heading to look at."""
        if not st.header_seen or st.iv is None:
            if self._header(st, line, n):
                return False
            if st.iv is None:
                if _is_row(st.kind, line):
                    raise RmfError(self.file, n, f"{_report_name(st.kind)}: this row comes "
                                   "before the page header gave the system, the start and the "
                                   "interval (SYSTEM ID, START or DATE/TIME, INTERVAL; the page "
                                   f"starts at line {st.title_line}): the header is missing or "
                                   "cut off")
                return False
        if self.mode == "chosen" and st.iv is not None and st.iv.key not in self.chosen:
            return True               # another interval: nothing of it is kept
        cells = line.split()
        if not cells:
            return True
        return getattr(self, f"_{st.kind.lower()}")(st, line, cells, n)

    def _header(self, st: _State, line: str, n: int) -> bool:
        """System, start and length from the page header lines."""
        found = False
        m = _SYSTEM.search(line)
        if m:
            st.system, found = m.group(1), True
        m = _START.search(line)
        if m:
            mo, d, y, hh, mi, ss = m.groups()
            st.start, found = f"{y}-{mo}-{d}T{hh}:{mi}:{ss}", True
        else:
            md, mt = _DATE.search(line), _TIME.search(line)
            if md:
                mo, d, y = md.groups()
                st.start = f"{y}-{mo}-{d}" + (st.start[10:] if st.start and
                                              len(st.start) > 10 else "")
                found = True
            if mt and "CTIME" not in line[:mt.start() + 1]:
                day = st.start[:10] if st.start else "????-??-??"
                st.start, found = f"{day}T{mt.group(1)}:{mt.group(2)}:{mt.group(3)}", True
        m = _INTERVAL.search(line)
        if m:
            st.length_s, found = _interval_s(m.groups()), True
        if st.system and st.start and len(st.start) == 19 and "?" not in st.start and \
                st.length_s:
            _check_date(st.start, self.file, n)
            st.header_seen = True
            st.iv = self._interval(st.system, st.start, n)
            st.iv.length_s = st.iv.length_s or st.length_s
            st.iv.reports.add(st.kind)
            st.iv.sources.setdefault(st.kind, Source(self.file, st.title_line))
        return found

    def _interval(self, system, start, n: int, excerpt: bool = False) -> Interval:
        return self.interval_for(system, start, self.file, n, excerpt)

    def interval_for(self, system, start, file: str, n: int, excerpt: bool = False) -> Interval:
        """The interval of ``system`` starting at ``start`` (one per excerpt)."""
        key = ("excerpt", file, n) if excerpt else (system, start)
        iv = self.intervals.get(key)
        if iv is None:
            iv = self.intervals[key] = Interval(number=0, system=system, start=start, key=key)
        return iv

    def _check_complete(self, st: _State, n: int) -> None:
        if st.kind is not None and st.iv is None:
            raise RmfError(self.file, st.title_line,
                           f"the {_report_name(st.kind)} report's page header (SYSTEM ID, "
                           "START or DATE/TIME, INTERVAL) is missing or cut off")

    # ---- Direct Access Device Activity ----------------------------------------------
    def _device(self, st: _State, line: str, cells: list[str], n: int) -> bool:
        if "IOSQ" in cells:
            st.has_int = "INT" in cells
            st.table = None
            return False
        if "SYNCH" in line and not R.is_device_row(cells):
            # The Synchronous I/O (zHyperLink) section: its rows name devices too,
            # with other columns; zPerfLab draws no zHyperLink, so it is skipped, said.
            st.table = "synch"
            self._skip(_SYNCH, n)
            return False
        if st.table == "synch":
            return False
        if not R.is_device_row(cells):
            return cells[0] != "LCU" and self._unread(st, line, cells, n, 11)
        if self.mode == "summary":           # the first pass of a large input: the rate
            st.iv.tally[0] += R.device_rate(cells)
            return True
        vol = R.device_row(cells, st.has_int)
        vol.source = Source(self.file, n)
        old = st.iv.volumes.get(vol.volser)
        if old is not None and old.devnum != vol.devnum:
            raise RmfError(self.file, n, f"volume serial {vol.volser} appears twice in "
                           f"{st.iv.label}: device {old.devnum} (line {old.source.line}) and "
                           f"device {vol.devnum}; each volume must have its own volser")
        st.iv.volumes[vol.volser] = vol
        return True

    # ---- Channel Path Activity -----------------------------------------------------
    def _chan(self, st: _State, line: str, cells: list[str], n: int) -> bool:
        if R.is_channel_row(cells) and not line.lstrip().startswith(("ID ", "IODF")):
            ch = R.channel_row(cells)
            ch.source = Source(self.file, n)
            if self.mode == "summary":
                st.iv.tally[2] += ch.busy_pct or 0.0
                return True
            st.iv.channels[ch.chpid] = ch
            return True
        return self._unread(st, line, cells, n, 6)

    # ---- CPU Activity ------------------------------------------------------------------
    def _cpu(self, st: _State, line: str, cells: list[str], n: int) -> bool:
        if R.is_engine_row(cells):
            e = R.engine_row(cells)
            e.source = Source(self.file, n)
            if self.mode == "summary":
                st.iv.tally[2] += e.busy_pct or 0.0
                return True
            old = next((x for x in st.iv.engines if x.number == e.number), None)
            if old is not None and old.source is not None and old.source.file == self.file:
                raise RmfError(self.file, n, f"CPU Activity: CPU {e.number} appears twice in "
                               f"{st.iv.label} (lines {old.source.line} and {n}); each "
                               "processor has one line: the report was edited or pasted twice")
            if old is not None:                     # the same report in another file
                st.iv.engines.remove(old)
            st.iv.engines.append(e)
            st.engine = e
            return True
        busy = R.thread_row(cells) if st.engine is not None else False
        if busy is False:
            st.engine = None                        # thread lines follow their core only
            return False
        st.engine.thread_mvs_busy_pct += (busy,)
        return True

    # ---- ESS -------------------------------------------------------------------------
    def _ess(self, st: _State, line: str, cells: list[str], n: int) -> bool:
        if "STATISTICS" in cells:
            st.table = "rank" if "RANK" in cells else None
            return False
        if st.table == "rank" and R.is_rank_row(cells):
            r = R.rank_row(cells)
            r.source = Source(self.file, n)
            if self.mode == "summary":
                st.iv.tally[2] += (r.read_ops_s or 0.0) + (r.write_ops_s or 0.0)
                return True
            st.iv.ranks[r.rank_id] = r
            return True
        return False

    # ---- Cache Subsystem Activity ---------------------------------------------------
    def _cache(self, st: _State, line: str, cells: list[str], n: int) -> bool:
        if self._cache_owner(st, line, cells, n):
            return False                 # a heading: not a row
        if "READ I/O REQUESTS" in line:
            st.table = "read"
            return False
        if "CACHE MISSES" in line:
            st.table = "miss"
            return False
        if "DEVICE OVERVIEW" in line:
            st.table = "overview"
            return False
        if "SUBSYSTEM STATUS" in line:
            st.table = "status"
            return False
        adapter = R.adapter_row(line)
        if adapter is not None and st.owner is not None:
            which, host, disk = adapter
            if which == "READ":
                st.owner.host_read, st.owner.disk_read = host, disk
            else:
                st.owner.host_write, st.owner.disk_write = host, disk
            return True
        label = cells[0]
        if st.table == "status" and label == "CONFIGURED" and st.unit is not None:
            self._status(st, cells, n)
            return True
        if st.table in ("read", "miss") and label in _ROW_LABELS and st.owner is not None:
            self._cache_row(st, st.table, _ROW_LABELS[label], cells[1:])
            return True
        if st.table == "read" and label == "TOTAL" and st.owner is not None:
            read, _, pct = R.request_row(cells[1:])
            st.owner.pct_read, st.owner.read_total = pct, read
            return True
        if st.table == "overview" and not label.startswith("*") and len(cells) >= 15 and \
                R.HEX4.match(cells[1]):
            self._overview(st, cells, n)
            return True
        if st.table == "overview" and not label.startswith("*"):
            return self._unread(st, line, cells, n, 12)
        return False

    def _cache_owner(self, st: _State, line: str, cells: list[str], n: int) -> bool:
        m = _SUBSYSTEM.search(line)
        if m:
            cu_id, ssid = m.groups()
            unit = st.iv.cache_units.get(ssid)
            if unit is None:
                unit = st.iv.cache_units[ssid] = CacheUnit(ssid=ssid, cu_id=cu_id,
                                                           source=Source(self.file, n))
            st.unit, st.owner, st.table = unit, None, None
            return True
        m = _TYPE_MODEL.search(line)
        if m and st.unit is not None:
            st.unit.type_model = m.group(1)
            return True
        if "SUBSYSTEM OVERVIEW" in line and "DEVICE" not in line and st.unit is not None:
            st.unit.activity = st.owner = CacheActivity(source=Source(self.file, n))
            return True
        m = _VOLSER.match(line)
        if m and st.unit is not None:
            volser, devnum = m.groups()
            # The detail pages follow every unit's pages: find the volume's own unit.
            unit = next((u for u in st.iv.cache_units.values() if volser in u.volumes),
                        st.unit)
            vc = unit.volumes.get(volser)
            if vc is None:
                vc = unit.volumes[volser] = VolumeCache(volser=volser, devnum=devnum,
                                                        io_rate=0.0,
                                                        source=Source(self.file, n))
            vc.detail = st.owner = CacheActivity(source=Source(self.file, n))
            if self.mode == "summary":
                del unit.volumes[volser]      # only the overview's rate is tallied
            st.table = None
            return True
        return False

    def _status(self, st: _State, cells: list[str], n: int) -> None:
        sizes = [c for c in cells[1:] if c != "CONFIGURED"]
        try:
            st.unit.cache_mb = nm.storage_mb(sizes[0]) if sizes else None
            st.unit.nvs_mb = nm.storage_mb(sizes[1]) if len(sizes) > 1 else None
        except nm.NumberError as e:
            raise R.RowError(f"SUBSYSTEM STORAGE CONFIGURED: {e}") from None

    def _cache_row(self, st: _State, table: str, which: str, cells: list[str]) -> None:
        o = st.owner
        if table == "read":
            read, write, _ = R.request_row(cells)
            setattr(o, f"read_{which}", read)
            if write is not None:
                setattr(o, f"write_{which}", write)
        else:
            setattr(o, f"miss_{which}", R.miss_row(cells))

    def _overview(self, st: _State, cells: list[str], n: int) -> None:
        if self.mode == "summary":           # the first pass of a large input: the rate
            st.iv.tally[1] += R.overview_rate(cells)
            return
        vc = R.overview_row(cells)
        vc.source = Source(self.file, n)
        if st.unit is None:
            raise RmfError(self.file, n, f"Cache Subsystem Activity: device overview row of "
                           f"{vc.volser} before any SUBSYSTEM line named its control unit "
                           "(SSID): the report is cut or its lines out of order")
        old = st.unit.volumes.get(vc.volser)
        if old is not None and old.devnum != vc.devnum:
            raise RmfError(self.file, n, f"volume serial {vc.volser} appears twice under "
                           f"SSID {st.unit.ssid}: devices {old.devnum} and {vc.devnum}")
        if old is not None:
            vc.detail = old.detail
        st.unit.volumes[vc.volser] = vc


def _check_date(start: str, file: str, n: int) -> None:
    try:
        datetime.fromisoformat(start)
    except ValueError:
        raise RmfError(file, n, f"the page header's date and time ({start.replace('T', ' ')}) "
                                "is no date: the header is damaged") from None


def _new_page(st: _State) -> None:
    """A new page of the report: its header is read afresh (the next interval's
    pages follow the last one's), and no row belongs to an interval until it is."""
    st.header_seen = False
    st.system = st.start = st.length_s = st.iv = None


def _is_row(kind: str | None, line: str) -> bool:
    """Whether ``line`` is one of the figures' rows of a ``kind`` report (not a
    heading): what may not come before the page header."""
    cells = line.split()
    if not cells:
        return False
    if kind == "DEVICE":
        return R.is_device_row(cells)
    if kind == "CHAN":
        return R.is_channel_row(cells) and not line.lstrip().startswith(("ID ", "IODF"))
    if kind == "CPU":
        return R.is_engine_row(cells)
    if kind == "ESS":
        return R.is_rank_row(cells)
    return bool(_SUBSYSTEM.search(line) or _VOLSER.match(line)) or \
        cells[0] in ("NORMAL", "SEQUENTIAL", "CONFIGURED") or \
        (len(cells) >= 15 and bool(R.HEX4.match(cells[1])))


def _interval_s(groups: tuple) -> float:
    """``000.15.00`` (hhh.mm.ss) or ``15.00.000`` (mm.ss.ttt) in seconds."""
    a, b, c = groups
    if len(c) == 3:
        return int(a) * 60 + int(b) + int(c) / 1000
    return int(a) * 3600 + int(b) * 60 + int(c)


def _report_name(kind: str | None) -> str:
    return {"DEVICE": "Direct Access Device Activity", "CACHE": "Cache Subsystem Activity",
            "CHAN": "Channel Path Activity", "CPU": "CPU Activity",
            "ESS": "ESS statistics"}.get(kind or "", "report")
