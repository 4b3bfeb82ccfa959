"""Monitor III reports of an RMF Distributed Data Server (``/gpm/rmfm3.xml``).

Monitor III is RMF's short-term monitor: the DDS answers
``/gpm/rmfm3.xml?report=DEVR&resource=,SYSA,MVS_IMAGE`` with the current
range (100 s on the recorded system) of one report of one system::

    <ddsml><server>…</server>
      <report>
        <metric id="DEVR"><description>DEVR (Device Resource Delays)</description>…
        <resource><reslabel>,RPRT,MVS_IMAGE</reslabel>…
        <time-data><local-start>20220824051500</local-start>…
                   <data-range unit="seconds">100</data-range>…
        <caption><var><name>CPCHPNAM</name><value>VIRPT</value></var>…</caption>
        <row refno="1"><col>10</col><col>FC</col>…</row>…
        <column-headers><col type="N">CHACPIVC</col>…</column-headers>
      </report></ddsml>

The columns are named by Monitor III field names (``DVRACTRT``,
``CHACTUVC``, ``CPCPLEFU``), and the headers come after the rows. This
module reads that structure (SAX through defusedxml, as
:mod:`models.rmf.ddsml` does for the Postprocessor's) and maps three
reports onto the records the Postprocessor import fills, so the current
minute of a live system draws and runs like an interval of the
Postprocessor:

* DEVR (Device Resource Delays): a :class:`Volume` per device row;
* CHANNEL: a :class:`Channel` per CHPID (LPAR and total utilisation, read
  and write bandwidth, FICON and zHPF operation rates);
* CPC: the home partition's logical processors as :class:`Engine` records.

DEV (Device Delays) is recognised: it lists jobs delayed by volumes, which
the drawing has no use for, and it says so. docs/rmf-import.md lists which
names the recordings in ``../shared/rmf/dds-zos25`` confirm.
"""
from __future__ import annotations

import math
import re
import xml.sax
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from defusedxml import DefusedXmlException
from defusedxml import sax as dsax

from models.rmf import numbers as nm
from models.rmf.records import Assumption, Channel, Engine, Interval, RmfError, Source, Volume

#: What the DDS is asked for (DEV adds nothing the drawing uses).
REPORTS = ("DEVR", "CHANNEL", "CPC")
#: Report id: the Postprocessor report whose records it fills.
KINDS = {"DEVR": "DEVICE", "CHANNEL": "CHAN", "CPC": "CPU"}
#: Sections of the CPC report (``*CP`` …) and the engine type they hold.
SECTIONS = {"*CP": "CP", "*IIP": "zIIP", "*AAP": "zAAP", "*ICF": "ICF", "*IFL": "IFL"}
#: Bounds a cell must keep (a value outside is refused at its line).
MAX_RATE = 1e6          # I/O or operations per second of one device or channel
MAX_MS = 1e6            # a response time in ms
MAX_BYTES_S = 1e11      # a channel's bytes per second (100 GB/s)
_NUM = re.compile(r"^[+-]?(\d{1,15}(\.\d{0,9})?|\.\d{1,9})$")
_PEEK = 1 << 16


class M3Error(ValueError):
    """A cell or a report that does not read (the mapper adds file and line)."""


@dataclass
class M3Report:
    """One ``report`` element of a Monitor III answer."""

    metric: str = ""
    description: str = ""
    reslabel: str = ""
    restype: str = ""
    local_start: str = ""
    local_end: str = ""
    range_s: str = ""
    caption: dict[str, tuple[str, int]] = field(default_factory=dict)
    headers: list[str] = field(default_factory=list)
    rows: list[tuple[int, list[str]]] = field(default_factory=list)
    messages: list[tuple[str, str, int]] = field(default_factory=list)
    line: int = 0

    @property
    def system(self) -> str | None:
        """The MVS image of ``,SYSA,MVS_IMAGE``."""
        parts = [p.strip() for p in self.reslabel.split(",")]
        return parts[1] if len(parts) >= 3 and parts[1] else None


class _Handler(xml.sax.ContentHandler):
    """Builds an :class:`M3Report` per ``report``; ``on_report`` gets each."""

    _TEXT = {"description": "description", "reslabel": "reslabel", "restype": "restype",
             "local-start": "local_start", "local-end": "local_end",
             "data-range": "range_s"}

    def __init__(self, on_report):
        super().__init__()
        self.on_report = on_report
        self.stack: list[str] = []
        self.text: list[str] = []
        self.rep: M3Report | None = None
        self.row: list[str] | None = None
        self.var = ["", "", 0]
        self.msg = ["", "", 0]
        self.locator = None
        self.reports = 0

    def setDocumentLocator(self, locator):  # noqa: N802 (SAX's name)
        self.locator = locator

    @property
    def line(self) -> int:
        return self.locator.getLineNumber() if self.locator is not None else 0

    def startElement(self, name, attrs):  # noqa: N802
        self.stack.append(name)
        self.text = []
        if name == "report":
            self.rep = M3Report(line=self.line)
        elif self.rep is None:
            if name == "message":
                self.rep = M3Report(line=self.line)
                self.msg = [attrs.get("id", ""), "", self.line]
        elif name == "metric":
            self.rep.metric = attrs.get("id", "")
        elif name == "row":
            self.row = []
            self.rep.rows.append((self.line, self.row))
        elif name == "var":
            self.var = ["", "", self.line]
        elif name == "message":
            self.msg = [attrs.get("id", ""), "", self.line]

    def characters(self, content):
        self.text.append(content)

    def endElement(self, name):  # noqa: N802
        self.stack.pop()
        parent = self.stack[-1] if self.stack else ""
        text = "".join(self.text).strip()
        self.text = []
        rep = self.rep
        if rep is None:
            return
        if name == "col" and parent == "row" and self.row is not None:
            self.row.append(text)
        elif name == "col" and parent == "column-headers":
            rep.headers.append(text)
        elif name in self._TEXT and not (name == "description" and parent == "message"):
            setattr(rep, self._TEXT[name], text)
        elif name == "description" and parent == "message":
            self.msg[1] = text
        elif name == "name" and parent == "var":
            self.var[0] = text
        elif name == "value" and parent == "var":
            self.var[1] = text
        elif name == "var" and "caption" in self.stack:
            rep.caption[self.var[0]] = (self.var[1], self.var[2])
        elif name == "message":
            rep.messages.append((self.msg[0], self.msg[1], self.msg[2]))
            if parent != "report":
                self._done()
        elif name == "report":
            self._done()

    def _done(self) -> None:
        self.reports += 1
        self.on_report(self.rep)
        self.rep = self.row = None


def is_m3(path: str | Path) -> bool:
    """True when the XML file is a Monitor III answer (its first report
    element is ``report``, not the Postprocessor's ``postprocessor``)."""
    with open(path, "rb") as f:
        head = f.read(_PEEK)
    m = re.search(rb"<(report|postprocessor)[\s>/]", head)
    return m is not None and m.group(1) == b"report"


def parse(source, on_report, name: str) -> int:
    """Parse a Monitor III answer (a path or a binary file object), calling
    ``on_report(M3Report)`` for each report; returns how many were found.

    Raises
    ------
    RmfError
        For a DTD or entities (refused, nothing expanded or fetched), XML that
        does not parse or ends early, or a document with no ``report``.
    """
    handler = _Handler(on_report)
    parser = dsax.make_parser()
    parser.setFeature(xml.sax.handler.feature_namespaces, False)
    parser.forbid_dtd = parser.forbid_entities = parser.forbid_external = True
    parser.setContentHandler(handler)
    try:
        parser.parse(source)
    except DefusedXmlException as e:
        raise RmfError(name, handler.line or None,
                       f"the XML declares a DTD or entities ({type(e).__name__}): refused, "
                       "nothing was expanded or fetched; RMF's XML never has one") from None
    except xml.sax.SAXParseException as e:
        msg = e.getMessage()
        if "no element found" in msg or "unclosed token" in msg:
            raise RmfError(name, e.getLineNumber(), "the XML ends early: the file or the "
                           "DDS answer was cut off (truncated); fetch or copy it again") \
                from None
        raise RmfError(name, e.getLineNumber(), f"the XML does not parse: {msg}") from None
    if handler.reports == 0:
        raise RmfError(name, 1, "this XML is not an RMF Monitor III answer (no <report> "
                                "element in a <ddsml> document)")
    return handler.reports


# ---- cells ----------------------------------------------------------------------------
def number(cell: str, what: str, top: float, unset: bool = True) -> float | None:
    """A cell as a finite number from 0 to ``top``; None for an empty cell,
    ``----`` or ``N/A`` (not measured) when ``unset`` allows it."""
    t = cell.strip()
    if t == "" or set(t) == {"-"} or t.upper() == "N/A":
        if unset:
            return None
        raise M3Error(f"{what} is not given (cell '{cell}') where the report must give it")
    if set(t) == {"*"}:
        raise M3Error(f"{what} is '{t}', a value too large for its field")
    if not _NUM.match(t):
        raise M3Error(f"{what} '{_short(t)}' is not a number")
    v = float(t)
    if not math.isfinite(v) or v < 0 or v > top:
        raise M3Error(f"{what} {t} is out of range (0 to {top:g})")
    return v


def _short(text: str) -> str:
    return text if len(text) <= 24 else text[:20] + "…"


# ---- the mapper -----------------------------------------------------------------------
class Mapper:
    """Puts each Monitor III report into the registry's intervals.

    ``join``: a list shared by the reports of one DDS request; they all go
    into the interval of the first (a live system's current minute), and a
    report of another range says so in an assumption.
    """

    def __init__(self, registry, name: str, join: list | None = None):
        self.reg, self.name, self.join = registry, name, join
        self.line = 0
        self.known = 0
        self.other: list[tuple[str, int]] = []
        self.dev: tuple[str, int] | None = None

    def add(self, rep: M3Report) -> None:
        if rep.messages:
            mid, text, line = rep.messages[0]
            raise RmfError(self.name, line, f"the RMF Distributed Data Server answered with "
                           f"message {mid}: {text}")
        metric = rep.metric.upper()
        what = rep.description or metric
        if metric == "DEV":
            self.dev = (what, rep.line)
            self.reg.skipped.append(f"{what}: the jobs a volume delays, nothing the drawing "
                                    f"uses; DEVR has the devices ({self.name}:{rep.line})")
            return
        if metric not in KINDS:
            self.other.append((what, rep.line))
            self.reg.skipped.append(f"{what} ({self.name}:{rep.line})")
            return
        self.known += 1
        iv = self._interval(rep)
        if self.reg.mode == "chosen" and iv.key not in self.reg.chosen:
            return
        kind = KINDS[metric]
        iv.reports.add(kind)
        iv.sources.setdefault(kind, Source(self.name, rep.line))
        into = Interval(number=0) if self.reg.mode == "summary" else iv
        try:
            getattr(self, f"_{metric.lower()}")(rep, into)
        except M3Error as e:
            raise RmfError(self.name, self.line, f"{what}: {e}") from None
        if into is not iv:
            _tally(iv, into)

    def finish(self) -> None:
        if self.known or self.dev:       # DEV alone: skipped, and said so (reader.assemble)
            return
        what, line = self.other[0] if self.other else ("answer", 1)
        raise RmfError(self.name, line, f"this is a Monitor III {what} report, which lists "
                       "no device, channel or processor figures; zPerfLab draws from DEVR, "
                       "CHANNEL and CPC")

    def _interval(self, rep: M3Report) -> Interval:
        start = _when(rep.local_start)
        if rep.system is None or start is None:
            raise RmfError(self.name, rep.line, "the report has no system (reslabel "
                           "',SYSTEM,MVS_IMAGE') or no start (local-start YYYYMMDDhhmmss)")
        try:
            length = number(rep.range_s, "data-range (seconds)", 86400)
        except M3Error as e:
            raise RmfError(self.name, rep.line, f"{rep.description or rep.metric}: {e}") \
                from None
        if length is None and rep.local_end and _when(rep.local_end):
            length = (_when(rep.local_end) - start).total_seconds()
        key = (rep.system, start.isoformat())
        if self.join is not None:
            if not self.join:
                self.join.append(key)
            elif self.join[0] != key:
                self.reg.assumptions.append(Assumption(
                    f"{rep.metric} of {key[0]} {key[1].replace('T', ' ')}",
                    f"joined to the range of {self.join[0][1].replace('T', ' ')}",
                    "the DDS answered the reports asked for together with different "
                    "Monitor III ranges", self.name, rep.line))
            key = self.join[0]
        iv = self.reg.interval_for(key[0], key[1], self.name, rep.line)
        iv.length_s = iv.length_s or length
        return iv

    def _rows(self, rep: M3Report):
        """Each row as {field: cell}, with its line kept for messages."""
        if rep.rows and len(rep.headers) < max(len(c) for _, c in rep.rows):
            raise M3Error(f"{len(rep.headers)} column headers for rows of "
                          f"{max(len(c) for _, c in rep.rows)} cells")
        for line, cells in rep.rows:
            self.line = line
            yield dict(zip(rep.headers, cells))

    def _need_columns(self, rep: M3Report, names: tuple[str, ...]) -> None:
        missing = [n for n in names if n not in rep.headers]
        if missing:
            self.line = rep.line
            raise M3Error("the columns " + ", ".join(missing) + " are missing (found: " +
                          ", ".join(rep.headers[:12]) + ("…" if len(rep.headers) > 12
                                                           else "") + ")")

    def _empty(self, rep: M3Report, what: str) -> None:
        """A report none of whose rows map is an error, never an empty drawing."""
        self.line = rep.line
        rows = f"among its {len(rep.rows)} rows" if rep.rows else "(the answer has no rows)"
        raise M3Error(f"no {what} row {rows} (columns: {', '.join(rep.headers[:8])}"
                      f"{'…' if len(rep.headers) > 8 else ''}): nothing to import; ask "
                      "the DDS again, or check that Monitor III gathers this data")

    # ---- DEVR: Device Resource Delays ---------------------------------------------------
    def _devr(self, rep: M3Report, iv: Interval) -> None:
        self._need_columns(rep, ("DVRPVOLU", "DVRACTRT", "DVRPCONN", "DVRPDISC",
                                 "DVRPPEND"))
        before = len(iv.volumes)
        for row in self._rows(rep):
            if not row.get("DVRPVOLU") or row.get("DVRACTRT", "") == "":
                continue                      # a job's delay line under its device
            if row["DVRPVOLU"] in (row.get("DVRPDEVN"), row.get("DVRPDVN5")):
                # "Volume / Dev Number": a device with no volume (offline), not drawn
                iv.offline.append((row["DVRPVOLU"], row.get("DVRPLCUN") or None,
                                   Source(self.name, self.line)))
                continue
            v = self._volume(row)
            old = iv.volumes.get(v.volser)
            if old is not None and old.devnum != v.devnum:
                raise M3Error(f"volume serial {v.volser} appears twice: devices "
                              f"{old.devnum} and {v.devnum}")
            iv.volumes[v.volser] = v
        if len(iv.volumes) == before:
            self._empty(rep, "device")

    def _volume(self, row: dict) -> Volume:
        rate = number(row["DVRACTRT"], "Activity Rate", MAX_RATE, unset=False)
        pct = {k: number(row.get(c, ""), label, 100, unset=False) for k, c, label in (
            ("conn", "DVRPCONN", "% Connect"), ("disc", "DVRPDISC", "% Disconnect"),
            ("pend", "DVRPPEND", "% Pending"))}

        def per_io(p: float) -> float:   # busy share of the range over I/Os: ms per I/O
            return 10.0 * p / rate if rate else 0.0
        resp = _ms(row, "DVRRPTHP", "DVRRESPT", "Response Time")
        iosq = _ms(row, "DVRIQTHP", "DVRIOSQT", "IOS Queue Time")
        if resp is None:
            resp = (iosq or 0.0) + sum(per_io(p) for p in pct.values())
        pav, hyper = _pav(row.get("DVRPSTAT", ""))
        devnum = row.get("DVRPDEVN") or row.get("DVRPDVN5") or ""
        return Volume(devnum=devnum, volser=row["DVRPVOLU"], storage_group=None,
                      lcu=row.get("DVRPLCUN") or None,
                      device_type=(row.get("DVRPIDEN") or "").split("/")[0].strip() or None,
                      cylinders=None, rate=rate, resp_ms=resp, iosq_ms=iosq or 0.0,
                      pend_ms=per_io(pct["pend"]), disc_ms=per_io(pct["disc"]),
                      conn_ms=per_io(pct["conn"]),
                      busy_pct=min(100.0, pct["conn"] + pct["disc"]), pav=pav,
                      hyperpav=hyper, source=Source(self.name, self.line))

    # ---- CHANNEL ----------------------------------------------------------------------
    def _channel(self, rep: M3Report, iv: Interval) -> None:
        self._need_columns(rep, ("CHACPIVC", "CHACPTVC", "CHACPUVC", "CHACTUVC"))
        before = len(iv.channels)
        for row in self._rows(rep):
            chpid = row.get("CHACPIVC", "")
            if not chpid:
                continue
            if not re.match(r"^[0-9A-F]{2}$", chpid.upper()):
                raise M3Error(f"CHPID '{_short(chpid)}' is not two hexadecimal digits")

            def n(col: str, what: str, top: float) -> float | None:
                return number(row.get(col, ""), f"CHPID {chpid} {what}", top)
            read, write = n("CHACTRVC", "Total Read Bandwidth", MAX_BYTES_S), \
                n("CHACTWVC", "Total Write Bandwidth", MAX_BYTES_S)
            iv.channels[chpid] = Channel(
                chpid=chpid, type=row.get("CHACPTVC", ""),
                busy_pct=n("CHACTUVC", "Total Util %", 100),
                part_busy_pct=n("CHACPUVC", "LPAR Util %", 100),
                ficon_rate=n("CHACFRTE", "FICON Operation Rate", MAX_RATE),
                zhpf_rate=n("CHACXRTE", "zHPF Operation Rate", MAX_RATE),
                read_mb_s=read / 1e6 if read is not None else None,
                write_mb_s=write / 1e6 if write is not None else None,
                source=Source(self.name, self.line))
        if len(iv.channels) == before:
            self._empty(rep, "channel path")

    # ---- CPC: the home partition's logical processors ------------------------------------
    def _cpc(self, rep: M3Report, iv: Interval) -> None:
        self._need_columns(rep, ("CPCPPNAM", "CPCPLPNO", "CPCPLEFU", "CPCPIND"))
        home, hline = rep.caption.get("CPCHPNAM", ("", rep.line))
        section, found = None, 0
        for row in self._rows(rep):
            name = row.get("CPCPPNAM", "")
            if name.startswith("*"):
                section = SECTIONS.get(name.upper())
                continue
            mine = name == home or (not home and row.get("CPCPOSNM") == iv.system)
            if not mine or section is None or not row.get("CPCPIND", "").endswith("P"):
                continue
            found += 1
            self._engines(row, section, iv)
        if not found:
            self.line = hline
            raise M3Error(f"no processor row of the home partition '{home or iv.system}' "
                          "(caption CPCHPNAM) in any section (*CP, *IIP …)")
        self.reg.assumptions.append(Assumption(
            "each logical processor's busy", "the partition's average (Logical Effective %)",
            "the CPC report gives a partition's logical processors together, not each one",
            self.name, rep.line))

    def _engines(self, row: dict, kind: str, iv: Interval) -> None:
        count = number(row["CPCPLPNO"], f"{kind} logical processors online", 1000,
                       unset=False)
        busy = number(row["CPCPLEFU"], f"{kind} Logical Effective %", 100)
        if count != int(count):
            self.reg.assumptions.append(Assumption(
                f"{kind} logical processors", f"{round(count)} (of {count:g} online on "
                "average)", "processors were varied on or off in the range", self.name,
                self.line))
        for _ in range(int(round(count))):
            iv.engines.append(Engine(number=f"{len(iv.engines):X}", type=kind, busy_pct=busy,
                                     source=Source(self.name, self.line)))


def _ms(row: dict, ms_col: str, s_col: str, what: str) -> float | None:
    """A time in ms: the field in ms where the answer has it, else the one in
    seconds (the Monitor III DEVR screen's unit)."""
    v = number(row.get(ms_col, ""), f"{what} (ms)", MAX_MS)
    if v is not None:
        return v
    s = number(row.get(s_col, ""), f"{what} (s)", MAX_MS / 1000)
    return s * 1000 if s is not None else None


def _pav(cell: str) -> tuple[float | None, bool]:
    """``Status / PAV count``: a count (``3``, ``1.9H``) or a status word."""
    t = cell.strip()
    if not t or not t[0].isdigit():
        return None, False
    try:
        pav, hyper = nm.pav(t)
    except nm.NumberError:
        raise M3Error(f"Status / PAV count '{_short(t)}' is not a PAV count") from None
    if pav is None or not 1 <= pav <= 256:
        raise M3Error(f"PAV count {t} is out of range (1 to 256)")
    return pav, hyper


def _when(text: str) -> datetime | None:
    try:
        return datetime.strptime(text.strip(), "%Y%m%d%H%M%S")
    except ValueError:
        return None


def _tally(iv: Interval, into: Interval) -> None:
    """A large input's first pass: keep only the activity of what was read."""
    iv.tally[0] += sum(v.rate for v in into.volumes.values())
    iv.tally[2] += sum(c.busy_pct or 0.0 for c in into.channels.values()) + \
        sum(e.busy_pct or 0.0 for e in into.engines)


def read_m3(path: str | Path, registry, name: str | None = None,
            join: list | None = None) -> None:
    """Read a Monitor III answer into ``registry`` (a
    :class:`models.rmf.text.TextReader`); ``name`` is what messages call it
    (the file, or the DDS URL); ``join`` as for :class:`Mapper`."""
    name = name or str(path)
    mapper = Mapper(registry, name, join)
    parse(str(path), mapper.add, name)
    mapper.finish()
