"""The XML reports (ddsml) onto the records the text reader fills.

Columns and variables are found by name, compared without case, blanks or
punctuation (``% Dev Util`` is ``devutil``); each field has the names the
Postprocessor and the DDS use for it (:data:`COLUMNS`). A report of a kind
zPerfLab does not read is listed as skipped; an error message from the DDS
(``<message id="GPM…">``) is an RmfError naming it.
"""
from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from models.rmf import numbers as nm
from models.rmf import rows as R
from models.rmf import ddsml
from models.rmf.ddsml import XPart, XReport, XTable
from models.rmf.records import CacheActivity, CacheUnit, Channel, Engine, Interval, Misses, \
    Rank, Requests, RmfError, Source, Transfer, Volume, VolumeCache

KNOWN = {"DEVICE", "CACHE", "CHAN", "CPU", "ESS"}


def key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


#: field: names it goes by (as :func:`key` makes them).
COLUMNS = {
    "sg": ("storagegroup", "stggrp"), "devnum": ("devicenumber", "devnum", "devicenum"),
    "dtype": ("devicetype",), "cyl": ("numberofcylinders", "numberofcyl"),
    "volser": ("volumeserial", "volser", "volume"), "pav": ("pav",), "lcu": ("lcu",),
    "rate": ("deviceactivityrate", "activityrate"),
    "resp": ("avgresptime", "responsetime"), "iosq": ("avgiosqtime", "iosqtime"),
    "pend": ("avgpendtime", "pendtime"), "disc": ("avgdisctime", "disctime"),
    "conn": ("avgconntime", "conntime"), "util": ("devutil", "deviceutilization"),
    "chpid": ("channelpathid", "chpid", "id"), "ctype": ("channelpathtype", "type"),
    "gen": ("generation", "g"), "part": ("utilizationpartition", "utilizationpart"),
    "total": ("utilizationtotal",), "read_mb": ("readmbsectotal",),
    "write_mb": ("writembsectotal",), "ficon": ("ficonoperationsrate",),
    "zhpf": ("zhpfoperationsrate",),
    "cpu": ("cpunumber",), "cputype": ("cputype",), "lpar": ("timelparbusy", "lparbusy"),
    "mvs": ("timemvsbusy", "mvsbusy"),
    "pool": ("extentpoolid", "extentpool"), "rrid": ("rankid", "rrid"),
    "rops": ("readopssec",), "rbop": ("readbytesop",), "rresp": ("readresptimeop",),
    "wops": ("writeopssec",), "wbop": ("writebytesop",), "wresp": ("writeresptimeop",),
    "ssd": ("ssd",), "arrays": ("numberofarrays",), "rpm": ("minrpm",),
    "cap": ("rankcapacity",), "raid": ("raidtype",),
    "io": ("iorate",), "rhit": ("readhitrate",), "dfw": ("dfwrate",),
    "stage": ("stagerate",), "rhr": ("readhr",), "whr": ("writehr",), "pctread": ("read",),
}
_REQ = ("readcount", "readrate", "readhits", "readhitrate", "readhr", "writecount",
        "writerate", "writefast", "writefastrate", "writehits", "writehitrate", "writehr",
        "read")


class Mapper:
    """Puts each XReport into the registry's intervals."""

    def __init__(self, registry, name: str):
        self.reg = registry
        self.name = name
        self.known = 0
        self.other: list[tuple[str, int]] = []

    def add(self, rep: XReport) -> None:
        if rep.messages:
            mid, text, line = rep.messages[0]
            raise RmfError(self.name, line, f"the RMF Distributed Data Server answered with "
                           f"message {mid}: {text}")
        metric = rep.metric.upper()
        if metric not in KNOWN:
            self.other.append((rep.description or rep.metric, rep.line))
            self.reg.skipped.append(f"{rep.description or rep.metric} ({self.name}:{rep.line})")
            return
        self.known += 1
        iv = self._interval(rep)
        if self.reg.mode == "chosen" and iv.key not in self.reg.chosen:
            return                    # a large input's second pass: another interval
        iv.reports.add(metric)
        iv.sources.setdefault(metric, Source(self.name, rep.line))
        # a large input's first pass keeps only the activity of what one report gave
        into = Interval(number=0) if self.reg.mode == "summary" else iv
        try:
            getattr(self, f"_{metric.lower()}")(rep, into)
        except R.RowError as e:
            raise RmfError(self.name, self._row_line, f"{rep.description or metric}: {e}") \
                from None
        if into is not iv:
            iv.tally[0] += sum(v.rate for v in into.volumes.values())
            iv.tally[1] += sum((u.activity.read_rate if u.activity else 0.0) +
                               sum(v.io_rate for v in u.volumes.values())
                               for u in into.cache_units.values())
            iv.tally[2] += sum(c.busy_pct or 0.0 for c in into.channels.values()) + \
                sum(e.busy_pct or 0.0 for e in into.engines) + \
                sum((r.read_ops_s or 0.0) + (r.write_ops_s or 0.0) for r in into.ranks.values())

    def finish(self) -> None:
        if not self.known and self.other:
            what, line = self.other[0]
            raise RmfError(self.name, line, f"this is a {what}; zPerfLab reads the DEVICE, "
                           "CACHE, CHAN, CPU and ESS reports")

    # ---- common --------------------------------------------------------------------
    def _interval(self, rep: XReport):
        start = _when(rep.start)
        if rep.system is None or start is None:
            raise RmfError(self.name, rep.line, "the report has no system (resname) or no "
                           "interval start (display-start)")
        iv = self.reg.interval_for(rep.system, start.isoformat(), self.name, rep.line)
        length = _length(rep.interval)
        if length is None and rep.end:
            end = _when(rep.end)
            length = (end - start).total_seconds() if end else None
        iv.length_s = iv.length_s or length
        return iv

    def _rows(self, table: XTable):
        """Each row as {field: cell} (fields of :data:`COLUMNS`), with its line."""
        names = [key(h) for h in table.headers]
        fields = []
        for n in names:
            fields.append(next((f for f, al in COLUMNS.items() if n in al), n))
        for line, cells in table.rows:
            self._row_line = line
            yield dict(zip(fields, cells))

    def _num(self, row: dict, f: str, what: str) -> float | None:
        cell = row.get(f, "")
        return R.num(cell, what) if cell != "" else None

    def _need(self, row: dict, f: str, what: str) -> float:
        v = self._num(row, f, what)
        if v is None:
            raise R.RowError(f"{what} is missing or N/A")
        return v

    # ---- reports -------------------------------------------------------------------
    def _device(self, rep: XReport, iv) -> None:
        for part in rep.parts():
            for table in part.tables:
                for row in self._rows(table):
                    if not row.get("volser"):
                        continue
                    self._volume(row, iv)

    def _volume(self, row: dict, iv) -> None:
        try:
            pav, hyper = nm.pav(row["pav"]) if row.get("pav") else (None, False)
        except nm.NumberError as e:
            raise R.RowError(f"PAV: {e}") from None
        cyl = self._num(row, "cyl", "Number of Cylinders")
        v = Volume(devnum=row.get("devnum", ""), volser=row["volser"],
                   storage_group=row.get("sg") or None, lcu=row.get("lcu") or None,
                   device_type=row.get("dtype") or None,
                   cylinders=int(cyl) if cyl is not None else None,
                   rate=self._need(row, "rate", "Device Activity Rate"),
                   resp_ms=self._need(row, "resp", "Avg Resp Time"),
                   iosq_ms=self._need(row, "iosq", "Avg IOSQ Time"),
                   pend_ms=self._need(row, "pend", "Avg PEND Time"),
                   disc_ms=self._need(row, "disc", "Avg DISC Time"),
                   conn_ms=self._need(row, "conn", "Avg CONN Time"),
                   busy_pct=self._need(row, "util", "% Dev Util"), pav=pav, hyperpav=hyper,
                   source=Source(self.name, self._row_line))
        old = iv.volumes.get(v.volser)
        if old is not None and old.devnum != v.devnum:
            raise RmfError(self.name, self._row_line,
                           f"volume serial {v.volser} appears twice in {iv.label}: devices "
                           f"{old.devnum} and {v.devnum}; each volume must have its own volser")
        iv.volumes[v.volser] = v

    def _chan(self, rep: XReport, iv) -> None:
        for part in rep.parts():
            for table in part.tables:
                for row in self._rows(table):
                    if not row.get("chpid"):
                        continue
                    c = Channel(chpid=row["chpid"], type=row.get("ctype", ""),
                                generation=row.get("gen") or None,
                                busy_pct=self._num(row, "total", "Utilization% Total"),
                                part_busy_pct=self._num(row, "part", "Utilization% Partition"),
                                read_mb_s=self._num(row, "read_mb", "Read MB/Sec"),
                                write_mb_s=self._num(row, "write_mb", "Write MB/Sec"),
                                ficon_rate=self._num(row, "ficon", "FICON Operations Rate"),
                                zhpf_rate=self._num(row, "zhpf", "zHPF Operations Rate"),
                                source=Source(self.name, self._row_line))
                    iv.channels[c.chpid] = c

    def _cpu(self, rep: XReport, iv) -> None:
        for part in rep.parts():
            for table in part.tables:
                if "cputype" not in [key(h) for h in table.headers] or \
                        "cpunumber" not in [key(h) for h in table.headers]:
                    continue
                for row in self._rows(table):
                    t = row.get("cputype", "").upper()
                    if t not in R.ENGINE_TYPES or not re.match(r"^[0-9A-F]{1,3}$",
                                                               row.get("cpu", "")):
                        continue            # TOTAL/AVERAGE rows
                    iv.engines.append(Engine(number=row["cpu"], type=R.ENGINE_TYPES[t],
                                             busy_pct=self._num(row, "lpar", "LPAR Busy"),
                                             mvs_busy_pct=self._num(row, "mvs", "MVS Busy"),
                                             source=Source(self.name, self._row_line)))

    def _ess(self, rep: XReport, iv) -> None:
        for part in rep.parts():
            for table in part.tables:
                for row in self._rows(table):
                    if not row.get("rrid"):
                        continue
                    arrays = self._num(row, "arrays", "Number of Arrays")
                    r = Rank(rank_id=row["rrid"], extent_pool=row.get("pool") or None,
                             read_ops_s=self._num(row, "rops", "Read Ops/Sec"),
                             write_ops_s=self._num(row, "wops", "Write Ops/Sec"),
                             read_bytes_per_op=self._num(row, "rbop", "Read Bytes/Op"),
                             write_bytes_per_op=self._num(row, "wbop", "Write Bytes/Op"),
                             read_resp_ms=self._num(row, "rresp", "Read Resp Time/Op"),
                             write_resp_ms=self._num(row, "wresp", "Write Resp Time/Op"),
                             ssd=(row["ssd"] == "Y") if row.get("ssd") else None,
                             arrays=int(arrays) if arrays is not None else None,
                             rpm=self._num(row, "rpm", "Min RPM"),
                             capacity=row.get("cap") or None, raid=row.get("raid") or None,
                             source=Source(self.name, self._row_line))
                    iv.ranks[r.rank_id] = r

    # ---- cache -------------------------------------------------------------------------
    def _cache(self, rep: XReport, iv) -> None:
        for seg in rep.segments:
            head = {key(k): v for p in seg.parts for k, v in p.vars.items()}
            if "volumeserial" in head and "ssid" not in head:
                self._cache_detail(seg, head, iv)
                continue
            ssid = head.get("ssid", ("?", seg.line))[0]
            unit = iv.cache_units.get(ssid)
            if unit is None:
                unit = iv.cache_units[ssid] = CacheUnit(ssid=ssid, source=Source(self.name,
                                                                                   seg.line))
            unit.cu_id = head.get("cuid", (None, 0))[0]
            unit.type_model = head.get("typemodel", (None, 0))[0]
            unit.cache_mb = _storage(head.get("subsystemstorageconfigured"), self.name)
            unit.nvs_mb = _storage(head.get("nonvolatilestorageconfigured"), self.name)
            unit.activity = self._activity(seg.parts, seg.line)
            for part in seg.parts:
                for table in part.tables:
                    if "volumeserial" in [key(h) for h in table.headers]:
                        self._overview(table, unit)

    def _cache_detail(self, seg, head: dict, iv) -> None:
        volser = head["volumeserial"][0]
        unit = next((u for u in iv.cache_units.values() if volser in u.volumes), None)
        if unit is None:
            unit = iv.cache_units.setdefault("?", CacheUnit(ssid=None))
        vc = unit.volumes.get(volser)
        if vc is None:
            vc = unit.volumes[volser] = VolumeCache(volser=volser,
                                                    devnum=head.get("devicenumber",
                                                                    (None, 0))[0],
                                                    io_rate=0.0)
        vc.detail = self._activity(seg.parts, seg.line)

    def _activity(self, parts: list[XPart], line: int) -> CacheActivity:
        a = CacheActivity(source=Source(self.name, line))
        for part in parts:
            for table in part.tables:
                names = [key(h) for h in table.headers]
                if "readhr" in names:
                    self._requests(table, names, a)
                elif "tracks" in names:
                    self._misses(table, names, a)
            v = {key(k): val for k, val in part.vars.items()}
            if any(k.startswith("hostadapter") for k in v):
                self._transfers(v, a)
        return a

    def _requests(self, table: XTable, names: list[str], a: CacheActivity) -> None:
        for line, cells in table.rows:
            self._row_line = line
            row = dict(zip(names, cells))
            label = (cells[0] if cells else "").upper()
            vals = [R.num(row[c], c) if row.get(c, "") != "" else None for c in _REQ]
            read = Requests(*vals[:5])
            write = Requests(count=vals[5], rate=vals[6], fast=vals[7], fast_rate=vals[8],
                             hits=vals[9], hit_rate=vals[10], hit_ratio=vals[11])
            if label == "NORMAL":
                a.read_normal, a.write_normal = read, write
            elif label == "SEQUENTIAL":
                a.read_seq, a.write_seq = read, write
            elif label == "TOTAL":
                a.pct_read = vals[12]

    def _misses(self, table: XTable, names: list[str], a: CacheActivity) -> None:
        cols = ("read", "readrate", "write", "writerate", "tracks", "tracksrate")
        for line, cells in table.rows:
            self._row_line = line
            row = dict(zip(names, cells))
            m = Misses(*[R.num(row[c], c) if row.get(c, "") != "" else None for c in cols])
            label = (cells[0] if cells else "").upper()
            if label == "NORMAL":
                a.miss_normal = m
            elif label == "SEQUENTIAL":
                a.miss_seq = m

    def _transfers(self, v: dict, a: CacheActivity) -> None:
        def g(k):
            cell = v.get(k)
            if cell is None:
                return None
            self._row_line = cell[1]
            return R.num(cell[0], k)
        a.host_read = Transfer(g("hostadapterreadbytesreq"), g("hostadapterreadbytessec"))
        a.host_write = Transfer(g("hostadapterwritebytesreq"), g("hostadapterwritebytessec"))
        a.disk_read = Transfer(g("diskreadbytesreq"), g("diskreadbytessec"),
                               g("diskreadresptime"))
        a.disk_write = Transfer(g("diskwritebytesreq"), g("diskwritebytessec"),
                                g("diskwriteresptime"))

    def _overview(self, table: XTable, unit: CacheUnit) -> None:
        for row in self._rows(table):
            volser = row.get("volser", "")
            if not volser or volser.startswith("*"):
                continue
            vc = VolumeCache(volser=volser, devnum=row.get("devnum") or None,
                             io_rate=self._need(row, "io", "I/O Rate"),
                             read_hit_rate=self._num(row, "rhit", "Read Hit Rate"),
                             dfw_rate=self._num(row, "dfw", "DFW Rate"),
                             stage_rate=self._num(row, "stage", "Stage Rate"),
                             read_hit_ratio=self._num(row, "rhr", "Read H/R"),
                             write_hit_ratio=self._num(row, "whr", "Write H/R"),
                             pct_read=self._num(row, "pctread", "% Read"),
                             source=Source(self.name, self._row_line))
            old = unit.volumes.get(volser)
            if old is not None:
                vc.detail = old.detail
            unit.volumes[volser] = vc


def _when(text: str | None) -> datetime | None:
    if not text:
        return None
    for fmt in ("%m/%d/%Y-%H.%M.%S", "%Y%m%d%H%M%S", "%Y-%m-%dT%H:%M:%S"):
        try:
            return datetime.strptime(text.strip(), fmt)
        except ValueError:
            continue
    return None


def _length(text: str | None) -> float | None:
    """``15:00:000`` (mm:ss:ttt), as the DDS's report-interval gives it."""
    m = re.match(r"^(\d+):(\d+):(\d+)$", (text or "").strip())
    if not m:
        return None
    mm, ss, ttt = m.groups()
    return int(mm) * 60 + int(ss) + int(ttt) / 1000


def _storage(cell, name: str) -> float | None:
    if cell is None:
        return None
    try:
        return nm.storage_mb(cell[0])
    except nm.NumberError as e:
        raise RmfError(name, cell[1], f"cache size: {e}") from None


def read_xml(path: str | Path, registry) -> None:
    """Read a ddsml file into ``registry`` (a :class:`models.rmf.text.TextReader`)."""
    name = str(path)
    mapper = Mapper(registry, name)
    watch = getattr(registry, "watch", None)
    if watch is None:
        ddsml.parse(str(path), mapper.add, name)
    else:
        with open(path, "rb") as f:
            ddsml.parse(_Watched(f, watch), mapper.add, name)
    mapper.finish()


class _Watched:
    """A binary file that tells ``watch(bytes read)`` every MB or so."""

    STEP = 1 << 20

    def __init__(self, f, watch) -> None:
        self.f, self.watch, self.done, self.next = f, watch, 0, self.STEP

    def read(self, n: int = -1) -> bytes:
        data = self.f.read(n)
        self.done += len(data)
        if self.done >= self.next:
            self.next = self.done + self.STEP
            self.watch(self.done)
        return data

    def close(self) -> None:
        self.f.close()
