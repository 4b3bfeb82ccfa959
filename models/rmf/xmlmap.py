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
from models.rmf.ddsml import XReport, XTable
from models.rmf.xmlnames import COLUMNS, _field, key
from models.rmf.records import Channel, Engine, Interval, LcuTotal, Rank, RmfError, Source, \
    Volume

KNOWN = {"DEVICE", "CACHE", "CHAN", "CPU", "ESS"}


#: Per report, the field a row must have to be read (what the error names).
NEEDS = {"DEVICE": ("volser", "Volume Serial Number"), "CHAN": ("chpid", "Channel Path ID"),
         "CPU": ("cpu", "CPU Number and CPU Type"), "ESS": ("rrid", "Rank ID"),
         "CACHE": ("ssid", "Subsystem ID (SSID) or Volume Serial")}


class Mapper:
    """Puts each XReport into the registry's intervals."""

    def __init__(self, registry, name: str):
        self.reg = registry
        self.name = name
        self.known = 0
        self.other: list[tuple[str, int]] = []
        self._row_line = 0

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
            found = getattr(self, f"_{metric.lower()}")(rep, into)
        except R.RowError as e:
            raise RmfError(self.name, self._row_line, f"{rep.description or metric}: {e}") \
                from None
        if not found:
            self._unmapped(rep, metric)
        if into is not iv:
            iv.tally[0] += sum(v.rate for v in into.volumes.values())
            iv.tally[1] += sum((u.activity.read_rate if u.activity else 0.0) +
                               sum(v.io_rate for v in u.volumes.values())
                               for u in into.cache_units.values())
            iv.tally[2] += sum(c.busy_pct or 0.0 for c in into.channels.values()) + \
                sum(e.busy_pct or 0.0 for e in into.engines) + \
                sum((r.read_ops_s or 0.0) + (r.write_ops_s or 0.0) for r in into.ranks.values())

    def _unmapped(self, rep: XReport, metric: str) -> None:
        """A known report none of whose rows was read: say so, with the columns found."""
        tables = [t for p in rep.parts() for t in p.tables]
        rows = sum(len(t.rows) for t in tables)
        if not rows and not any(p.vars for p in rep.parts()):
            return                    # an empty report: the interval has nothing of it
        cols = list(dict.fromkeys(h for t in tables for h in t.headers))
        names = ", ".join(f"'{c}'" for c in cols[:24]) + (" …" if len(cols) > 24 else "")
        line = tables[0].line if tables else rep.line
        raise RmfError(self.name, line, f"{rep.description or metric}: none of its {rows} "
                       f"rows could be read: no column zPerfLab knows as "
                       f"{NEEDS[metric][1]}; the columns found are {names or 'none'}. "
                       "This layout is not one zPerfLab reads (docs/rmf-import.md lists "
                       "the names it knows)")

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

    def _rows(self, table: XTable, names: dict = COLUMNS):
        """Each row as {field: cell} (fields of ``names``), with its line."""
        fields = [_field(h, names) for h in table.headers]
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
    def _device(self, rep: XReport, iv) -> bool:
        """Volumes, LCU summary rows and offline devices; False when rows
        with figures were there and not one volume was read."""
        volumes = unread = 0
        for part in rep.parts():
            for table in part.tables:
                for row in self._rows(table):
                    volser = row.get("volser", "")
                    if volser.upper() == "LCU" and not row.get("devnum") and row.get("lcu"):
                        self._lcu(row, iv)               # the LCU's summary row
                    elif volser:
                        self._volume(row, iv)
                        volumes += 1
                    elif row.get("devnum") and not row.get("rate"):
                        # no volume and no figures (the DDS says "Offline")
                        iv.offline.append((row["devnum"], row.get("lcu") or None,
                                           Source(self.name, self._row_line)))
                    else:
                        unread += 1
        return bool(volumes or not unread)

    def _lcu(self, row: dict, iv) -> None:
        lcu = row["lcu"]
        iv.lcus[lcu] = LcuTotal(
            lcu=lcu, rate=self._need(row, "rate", "Device Activity Rate"),
            resp_ms=self._num(row, "resp", "Average Response Time"),
            iosq_ms=self._num(row, "iosq", "Average IOS Queue Time"),
            pend_ms=self._num(row, "pend", "Average Device Pending Time"),
            disc_ms=self._num(row, "disc", "Average Device Disconnect Time"),
            conn_ms=self._num(row, "conn", "Average Device Connect Time"),
            busy_pct=self._num(row, "util", "% Device Utilized"),
            source=Source(self.name, self._row_line))

    def _volume(self, row: dict, iv) -> None:
        try:
            pav, hyper = nm.pav(row["pav"]) if row.get("pav") else (None, False)
        except nm.NumberError as e:
            raise R.RowError(f"PAV: {e}") from None
        # The DDS has a HyperPAV column of its own (empty in the z/OS 2.5
        # recording, so what it holds when set is not confirmed).
        hyper = hyper or row.get("hyperpav", "").upper() not in ("", "N", "NO", "0")
        cyl = self._num(row, "cyl", "Number of Cylinders")
        v = Volume(devnum=row.get("devnum", ""), volser=row["volser"],
                   storage_group=row.get("sg") or None, lcu=row.get("lcu") or None,
                   device_type=row.get("dtype") or None,
                   cylinders=int(cyl) if cyl is not None else None,
                   rate=self._need(row, "rate", "Device Activity Rate"),
                   resp_ms=self._need(row, "resp", "Average Response Time"),
                   iosq_ms=self._need(row, "iosq", "Average IOS Queue Time"),
                   pend_ms=self._need(row, "pend", "Average Device Pending Time"),
                   disc_ms=self._need(row, "disc", "Average Device Disconnect Time"),
                   conn_ms=self._need(row, "conn", "Average Device Connect Time"),
                   busy_pct=self._need(row, "util", "% Device Utilized"), pav=pav,
                   hyperpav=hyper, cmr_ms=self._num(row, "cmr", "Average CMR Delay"),
                   db_ms=self._num(row, "db", "Average Device Busy Delay"),
                   reserved_pct=self._num(row, "resv", "% Device Reserved"),
                   source=Source(self.name, self._row_line))
        old = iv.volumes.get(v.volser)
        if old is not None and old.devnum != v.devnum:
            raise RmfError(self.name, self._row_line,
                           f"volume serial {v.volser} appears twice in {iv.label}: devices "
                           f"{old.devnum} and {v.devnum}; each volume must have its own volser")
        iv.volumes[v.volser] = v

    def _chan(self, rep: XReport, iv) -> int:
        found = 0
        for part in rep.parts():
            for table in part.tables:
                for row in self._rows(table):
                    if not row.get("chpid"):
                        continue
                    c = Channel(chpid=row["chpid"], type=row.get("ctype", ""),
                                generation=row.get("gen") or None,
                                busy_pct=self._num(row, "total", "Util% (Total)"),
                                part_busy_pct=self._num(row, "part", "Util% (LPAR)"),
                                read_mb_s=self._num(row, "read_mb", "Read MB/Sec (Total)"),
                                write_mb_s=self._num(row, "write_mb", "Write MB/Sec (Total)"),
                                ficon_rate=self._num(row, "ficon", "FICON Ops Rate"),
                                zhpf_rate=self._num(row, "zhpf", "zHPF Ops Rate"),
                                status=row.get("status") or None,
                                source=Source(self.name, self._row_line))
                    iv.channels[c.chpid] = c
                    found += 1
        return found

    def _cpu(self, rep: XReport, iv) -> int:
        found = 0
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
                    found += 1
        return found

    def _ess(self, rep: XReport, iv) -> int:
        found = 0
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
                    found += 1
        return found

    def _cache(self, rep: XReport, iv) -> int:
        from models.rmf.xmlcache import read_cache
        return read_cache(self, rep, iv)


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
    m = re.match(r"^(\d{1,4}):(\d{1,2}):(\d{1,3})$", (text or "").strip())
    if not m:
        return None
    mm, ss, ttt = m.groups()
    return int(mm) * 60 + int(ss) + int(ttt) / 1000


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
