"""The Cache Subsystem Activity report in XML (ddsml) onto the cache records.

Two layouts are read. The z/OS 2.5 DDS's (``../shared/rmf/dds-zos25/cache.xml``,
confirmed): a segment ``Cache Subsystem Activity for SSID nnnn`` per control
unit, whose parts are named ``Storage Subsystem Descriptor`` (``Subsystem ID``,
``Physical CU-ID``, ``Type-Model``), ``Subsystem Storage and Status``
(``Storage Configured``, ``NVS Configured``), ``Cache Subsystem Overview``
(one request table with reads, writes and misses side by side: rows
``Normal``, ``Sequential``, ``CFW Data``, ``Total``), ``Host Adapter Activity``
and ``Disk Activity`` (the same variable names, ``Bytes/Req Read`` …, told
apart by the part) and ``Cache Subsystem Device Overview`` (a ``*ALL`` row,
then one per volume). A segment without an SSID and without tables (the
DDS's ``Cache Interval``) is the interval's header, not a unit.

The other layout is our own samples' (``tests/data/rmf/sysa-0900-full.xml``,
from the manuals, unconfirmed): ``SSID``/``CU-ID`` variables, separate
request and miss tables, ``Host Adapter Read Bytes/Req`` variables and
per-volume ``Cache Device Activity`` segments.
"""
from __future__ import annotations

from models.rmf import numbers as nm
from models.rmf import rows as R
from models.rmf.ddsml import XPart, XReport, XSegment, XTable
from models.rmf.records import CacheActivity, CacheUnit, Misses, Requests, RmfError, Source, \
    Transfer, VolumeCache
from models.rmf.xmlnames import COLUMNS, HEADER, REQUESTS, _field, key


def read_cache(mapper, rep: XReport, iv) -> int:
    """Read every segment of a cache report into ``iv``; how many units and
    volume details were read."""
    found = 0
    _one_unknown_unit(mapper, rep)
    for seg in rep.segments:
        head = {key(k): v for p in seg.parts for k, v in p.vars.items()}
        if "volumeserial" in head and not any(_field(k, HEADER) == "ssid" for k in head):
            _detail(mapper, seg, head, iv)
            found += 1
            continue
        found += _unit(mapper, seg, iv)
    return found


def _one_unknown_unit(mapper, rep: XReport) -> None:
    """Several units' segments without an SSID would merge into one unit '?':
    refused, naming the variables found (one such segment is an excerpt's)."""
    nameless = [seg for seg in rep.segments if "ssid" not in _header(seg) and
                any(p.tables for p in seg.parts) and
                not any(key(k) == "volumeserial" for p in seg.parts for k in p.vars)]
    if len(nameless) < 2:
        return
    names = list(dict.fromkeys(k for p in nameless[0].parts for k in p.vars))
    raise RmfError(mapper.name, nameless[0].line, f"{rep.description or 'CACHE'}: "
                   f"{len(nameless)} control units' segments have no variable zPerfLab knows "
                   "as the Subsystem ID (SSID), so their figures cannot be told apart; the "
                   "variables found are " + (", ".join(f"'{n}'" for n in names[:16]) or
                                             "none"))


def _header(seg: XSegment) -> dict:
    out: dict[str, tuple[str, int]] = {}
    for p in seg.parts:
        for k, v in p.vars.items():
            f = _field(k, HEADER)
            if f in HEADER:
                out.setdefault(f, v)
    return out


def _unit(mapper, seg: XSegment, iv) -> int:
    head = _header(seg)
    has_tables = any(p.tables for p in seg.parts)
    if "ssid" not in head and not has_tables:
        return 0                          # the interval's header segment
    ssid = head.get("ssid", ("?", seg.line))[0]
    unit = iv.cache_units.get(ssid)
    if unit is None:
        unit = iv.cache_units[ssid] = CacheUnit(ssid=ssid, source=Source(mapper.name, seg.line))
    unit.cu_id = head.get("cuid", (None, 0))[0]
    unit.type_model = head.get("typemodel", (None, 0))[0]
    unit.cache_mb = _storage(head.get("cache"), mapper.name)
    unit.nvs_mb = _storage(head.get("nvs"), mapper.name)
    unit.activity = _activity(mapper, seg.parts, seg.line)
    for part in seg.parts:
        for table in part.tables:
            if "volumeserial" in [key(h) for h in table.headers]:
                _overview(mapper, table, unit)
    return 1 if "ssid" in head or unit.volumes or unit.activity.read_rate else 0


def _detail(mapper, seg: XSegment, head: dict, iv) -> None:
    volser = head["volumeserial"][0]
    unit = next((u for u in iv.cache_units.values() if volser in u.volumes), None)
    if unit is None:
        unit = iv.cache_units.setdefault("?", CacheUnit(ssid=None))
    vc = unit.volumes.get(volser)
    if vc is None:
        vc = unit.volumes[volser] = VolumeCache(
            volser=volser, devnum=head.get("devicenumber", (None, 0))[0], io_rate=0.0)
    vc.detail = _activity(mapper, seg.parts, seg.line)


def _activity(mapper, parts: list[XPart], line: int) -> CacheActivity:
    a = CacheActivity(source=Source(mapper.name, line))
    for part in parts:
        for table in part.tables:
            names = [key(h) for h in table.headers]
            if "volumeserial" in names:
                continue                  # the device overview
            if "readcount" in names:
                _requests(mapper, table, a)
            elif "tracks" in names:
                _misses(mapper, table, names, a)
        _transfers(mapper, part, a)
    return a


def _requests(mapper, table: XTable, a: CacheActivity) -> None:
    titles = {_field(h, REQUESTS): h for h in table.headers}
    for row in mapper._rows(table, REQUESTS):
        cells = list(row.values())
        label = (cells[0] if cells else "").upper()
        g = {f: mapper._num(row, f, titles.get(f, f)) for f in REQUESTS}
        read = Requests(g["rcount"], g["rrate"], g["rhits"], g["rhitrate"], g["rhr"])
        write = Requests(count=g["wcount"], rate=g["wrate"], fast=g["fast"],
                         fast_rate=g["fastrate"], hits=g["whits"], hit_rate=g["whitrate"],
                         hit_ratio=g["whr"])
        miss = Misses(g["mread"], g["mreadrate"], g["mwrite"], g["mwriterate"], g["tracks"],
                      g["tracksrate"])
        if label == "NORMAL":
            a.read_normal, a.write_normal = read, write
        elif label == "SEQUENTIAL":
            a.read_seq, a.write_seq = read, write
        elif label == "TOTAL":
            a.pct_read, a.read_total = g["pct"], read
        if label in ("NORMAL", "SEQUENTIAL") and any(
                x is not None for x in (g["mread"], g["tracks"])):
            setattr(a, "miss_normal" if label == "NORMAL" else "miss_seq", miss)


def _misses(mapper, table: XTable, names: list[str], a: CacheActivity) -> None:
    cols = ("read", "readrate", "write", "writerate", "tracks", "tracksrate")
    for line, cells in table.rows:
        mapper._row_line = line
        row = dict(zip(names, cells))
        m = Misses(*[R.num(row[c], c) if row.get(c, "") != "" else None for c in cols])
        label = (cells[0] if cells else "").upper()
        if label == "NORMAL":
            a.miss_normal = m
        elif label == "SEQUENTIAL":
            a.miss_seq = m


#: Transfer variables by part: the DDS's part names (confirmed), then ours.
_PARTS = {"hostadapteractivity": "host", "diskactivity": "disk"}


def _transfers(mapper, part: XPart, a: CacheActivity) -> None:
    v = {key(k): val for k, val in part.vars.items()}
    side = _PARTS.get(key(part.name))

    def g(*names):
        for k in names:
            cell = v.get(k)
            if cell is not None:
                mapper._row_line = cell[1]
                return R.num(cell[0], k)
        return None
    if side == "host":
        a.host_read = Transfer(g("bytesreqread"), g("bytessecread"))
        a.host_write = Transfer(g("bytesreqwrite"), g("bytessecwrite"))
    elif side == "disk":
        a.disk_read = Transfer(g("bytesreqread"), g("bytessecread"), g("readresponsetime"))
        a.disk_write = Transfer(g("bytesreqwrite"), g("bytessecwrite"), g("writeresponsetime"))
    elif any(k.startswith("hostadapter") for k in v):
        a.host_read = Transfer(g("hostadapterreadbytesreq"), g("hostadapterreadbytessec"))
        a.host_write = Transfer(g("hostadapterwritebytesreq"), g("hostadapterwritebytessec"))
        a.disk_read = Transfer(g("diskreadbytesreq"), g("diskreadbytessec"),
                               g("diskreadresptime"))
        a.disk_write = Transfer(g("diskwritebytesreq"), g("diskwritebytessec"),
                                g("diskwriteresptime"))


def _overview(mapper, table: XTable, unit: CacheUnit) -> None:
    for row in mapper._rows(table, COLUMNS):
        volser = row.get("volser", "")
        if not volser:
            continue
        vc = VolumeCache(volser=volser, devnum=row.get("devnum") or None,
                         io_rate=mapper._need(row, "io", "I/O Rate"),
                         read_hit_rate=mapper._num(row, "rhit", "Cache Hit Read Rate"),
                         dfw_rate=mapper._num(row, "dfw", "Cache Hit DFW Rate"),
                         stage_rate=mapper._num(row, "stage", "DASD I/O Stage Rate"),
                         read_hit_ratio=mapper._num(row, "rhr", "Read Hit Ratio"),
                         write_hit_ratio=mapper._num(row, "whr", "Write Hit Ratio"),
                         pct_read=mapper._num(row, "pctread", "%Read of Read+Write"),
                         source=Source(mapper.name, mapper._row_line))
        if volser.startswith("*"):
            unit.overview = vc            # *ALL: the whole subsystem
            continue
        old = unit.volumes.get(volser)
        if old is not None:
            vc.detail = old.detail
        unit.volumes[volser] = vc


def _storage(cell, name: str) -> float | None:
    if cell is None:
        return None
    try:
        return nm.storage_mb(cell[0])
    except nm.NumberError as e:
        raise RmfError(name, cell[1], f"cache size: {e}") from None
