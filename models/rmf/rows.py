"""Rows of the Postprocessor's text tables, one function per kind of row.

Each takes the whitespace-split cells of one line and returns the record it
describes (:mod:`models.rmf.records`), or raises :class:`RowError` saying
which cell is wrong; the reader adds the file and the line. Columns follow
IBM's published layouts (z/OS RMF Report Analysis, SC34-2665): see
docs/rmf-import.md for each table's columns.
"""
from __future__ import annotations

import re

from models.rmf import numbers as nm
from models.rmf.records import Channel, Engine, Misses, Rank, Requests, RowError, Transfer, \
    Volume, VolumeCache

__all__ = ["RowError"]       # raised here, defined with the records that check their figures

HEX4 = re.compile(r"^[0-9A-F]{4,5}$")
HEX2 = re.compile(r"^[0-9A-F]{2}$")
DEVTYPE = re.compile(r"^3[0-9]{3}[0-9A-Z]?$")
ENGINE_TYPES = {"CP": "CP", "IIP": "zIIP", "ZIIP": "zIIP", "AAP": "zAAP", "ICF": "ICF",
                "IFL": "IFL"}
#: Device report numeric columns after LCU (with and without INT DLY).
DEVICE_COLS = ("rate", "resp", "iosq", "cmr", "db", "int", "pend", "disc", "conn",
               "pct_conn", "pct_util", "pct_resv", "alloc", "any_alloc", "mt_pend")
DEVICE_LABELS = {"rate": "DEVICE ACTIVITY RATE", "resp": "AVG RESP TIME",
                 "iosq": "AVG IOSQ TIME", "cmr": "AVG CMR DLY", "db": "AVG DB DLY",
                 "int": "AVG INT DLY", "pend": "AVG PEND TIME", "disc": "AVG DISC TIME",
                 "conn": "AVG CONN TIME", "pct_conn": "% DEV CONN", "pct_util": "% DEV UTIL",
                 "pct_resv": "% DEV RESV", "alloc": "AVG NUMBER ALLOC",
                 "any_alloc": "% ANY ALLOC", "mt_pend": "% MT PEND"}
OVERVIEW_COLS = ("pct_io", "io_rate", "read", "dfw", "cfw", "stage", "dfwbp", "icl", "byp",
                 "other", "async", "total_hr", "read_hr", "write_hr", "pct_read")
_DEVICE_USED = frozenset(("rate", "resp", "iosq", "pend", "disc", "conn", "pct_util",
                          "pct_resv"))
OVERVIEW_LABELS = {"io_rate": "I/O RATE", "read": "CACHE HIT RATE READ",
                   "dfw": "CACHE HIT RATE DFW", "stage": "DASD I/O RATE STAGE",
                   "read_hr": "READ H/R", "write_hr": "WRITE H/R", "pct_read": "% READ"}
_ADAPTER = re.compile(r"(READ|WRITE)\s+(\S+)\s+(\S+)\s+(READ|WRITE)\s+(\S+)\s+(\S+)\s+(\S+)\s*$")


def num(cell: str, what: str) -> float | None:
    try:
        return nm.number(cell)
    except nm.NumberError as e:
        raise RowError(f"{what}: {e}") from None


def _need(value: float | None, what: str) -> float:
    if value is None:
        raise RowError(f"{what} is N/A where the report must give a number")
    return value


# ---- Direct Access Device Activity ------------------------------------------------------
def is_device_row(cells: list[str]) -> bool:
    """A volume row: (storage group) device number, device type, ..."""
    for i in (0, 1):
        if len(cells) > i + 1 and HEX4.match(cells[i]) and DEVTYPE.match(cells[i + 1]):
            return True
    return False


def device_row(cells: list[str], has_int: bool) -> Volume:
    i = 0 if HEX4.match(cells[0]) and DEVTYPE.match(cells[1]) else 1
    group = cells[0] if i == 1 else None
    cols = DEVICE_COLS if has_int else tuple(c for c in DEVICE_COLS if c != "int")
    head = cells[i:i + 6]
    values = cells[i + 6:]
    if len(head) < 6 or len(values) < 11:
        raise RowError(f"a volume row needs device number, type, cylinders, volser, PAV, "
                       f"LCU and at least 11 figures; this one has {len(cells)} cells")
    devnum, dtype, cyl, volser, pav_cell, lcu = head
    if not HEX4.match(lcu):
        raise RowError(f"LCU '{lcu}' is not a hexadecimal number")
    try:
        pav, hyper = nm.pav(pav_cell)
    except nm.NumberError as e:
        raise RowError(f"PAV: {e}") from None
    # only the columns the import uses are read (the reader's hot path)
    v = {c: num(x, DEVICE_LABELS[c]) for c, x in zip(cols, values) if c in _DEVICE_USED}
    cylinders = num(cyl, "NUMBER OF CYL")
    return Volume(devnum=devnum, volser=volser, storage_group=group, lcu=lcu, device_type=dtype,
                  cylinders=int(cylinders) if cylinders is not None else None,
                  rate=_need(v.get("rate"), "DEVICE ACTIVITY RATE"),
                  resp_ms=_need(v.get("resp"), "AVG RESP TIME"),
                  iosq_ms=_need(v.get("iosq"), "AVG IOSQ TIME"),
                  pend_ms=_need(v.get("pend"), "AVG PEND TIME"),
                  disc_ms=_need(v.get("disc"), "AVG DISC TIME"),
                  conn_ms=_need(v.get("conn"), "AVG CONN TIME"),
                  busy_pct=_need(v.get("pct_util"), "% DEV UTIL"),
                  pav=pav, hyperpav=hyper, reserved_pct=v.get("pct_resv"))


def device_rate(cells: list[str]) -> float:
    """Only the DEVICE ACTIVITY RATE of a volume row (a large input's first pass)."""
    i = 0 if HEX4.match(cells[0]) and DEVTYPE.match(cells[1]) else 1
    if len(cells) < i + 7:
        raise RowError("a volume row needs device number, type, cylinders, volser, PAV, LCU "
                       "and its figures")
    return _need(num(cells[i + 6], "DEVICE ACTIVITY RATE"), "DEVICE ACTIVITY RATE")


# ---- Cache Subsystem Activity ---------------------------------------------------------
def request_row(cells: list[str]) -> tuple[Requests, Requests | None, float | None]:
    """NORMAL / SEQUENTIAL of READ (and WRITE) I/O REQUESTS: (read, write, % read)."""
    vals = [num(c, f"column {k + 2}") for k, c in enumerate(cells)]
    if len(vals) < 5:
        raise RowError(f"a request row needs COUNT, RATE, HITS, RATE, H/R; it has "
                       f"{len(vals)} values")
    read = Requests(count=vals[0], rate=vals[1], hits=vals[2], hit_rate=vals[3],
                    hit_ratio=vals[4])
    write = None
    if len(vals) >= 12:
        write = Requests(count=vals[5], rate=vals[6], fast=vals[7], fast_rate=vals[8],
                         hits=vals[9], hit_rate=vals[10], hit_ratio=vals[11])
    pct = vals[12] if len(vals) >= 13 else None
    if pct is not None and pct > 100:
        raise RowError(f"% READ {pct:g} is over 100 %: the file is damaged or not from RMF")
    return read, write, pct


def miss_row(cells: list[str]) -> Misses:
    """NORMAL / SEQUENTIAL of CACHE MISSES (the MISC columns beside it ignored)."""
    vals: list[float | None] = []
    for c in cells:
        if len(vals) == 6 or (c[:1].isalpha() and c.upper() not in nm.MISSING):
            break               # the MISC column (DELAYED NVS ...) starts
        vals.append(num(c, f"column {len(vals) + 2}"))
    if len(vals) < 6:
        raise RowError(f"a CACHE MISSES row needs READ, RATE, WRITE, RATE, TRACKS, RATE; "
                       f"it has {len(vals)} values")
    return Misses(*vals[:6])


def adapter_row(line: str) -> tuple[str, Transfer, Transfer] | None:
    """``READ 4.1K 4.4M READ 1.463 55.2K 59.0M`` at the end of a line:
    (READ or WRITE, host adapter, disk); None when the line is not one."""
    m = _ADAPTER.search(line)
    if m is None or m.group(1) != m.group(4):
        return None
    host = Transfer(bytes_per_req=num(m.group(2), "HOST ADAPTER BYTES/REQ"),
                    bytes_per_s=num(m.group(3), "HOST ADAPTER BYTES/SEC"))
    disk = Transfer(resp_ms=num(m.group(5), "DISK RESP TIME"),
                    bytes_per_req=num(m.group(6), "DISK BYTES/REQ"),
                    bytes_per_s=num(m.group(7), "DISK BYTES/SEC"))
    return m.group(1), host, disk


def overview_row(cells: list[str]) -> VolumeCache:
    """A volume of CACHE SUBSYSTEM DEVICE OVERVIEW."""
    volser, devnum = cells[0], cells[1]
    rest = cells[2:]
    if len(rest) == len(OVERVIEW_COLS) + 1:
        rest = rest[1:]                      # XTNT POOL
    if len(rest) != len(OVERVIEW_COLS):
        raise RowError(f"a device overview row has volser, device number, (extent pool) and "
                       f"{len(OVERVIEW_COLS)} figures; this one has {len(cells)} cells")
    v = {c: num(x, OVERVIEW_LABELS[c]) for c, x in zip(OVERVIEW_COLS, rest)
         if c in OVERVIEW_LABELS}
    return VolumeCache(volser=volser, devnum=devnum, io_rate=_need(v["io_rate"], "I/O RATE"),
                       read_hit_rate=v["read"], dfw_rate=v["dfw"], stage_rate=v["stage"],
                       read_hit_ratio=v["read_hr"], write_hit_ratio=v["write_hr"],
                       pct_read=v["pct_read"])


def overview_rate(cells: list[str]) -> float:
    """Only the I/O RATE of a device overview row (a large input's first pass)."""
    extra = len(cells) - 2 - len(OVERVIEW_COLS)
    if extra not in (0, 1):
        raise RowError(f"a device overview row has volser, device number, (extent pool) and "
                       f"{len(OVERVIEW_COLS)} figures; this one has {len(cells)} cells")
    return _need(num(cells[3 + extra], "I/O RATE"), "I/O RATE")


# ---- Channel Path Activity --------------------------------------------------------------
def is_channel_row(cells: list[str]) -> bool:
    return len(cells) >= 3 and bool(HEX2.match(cells[0])) and cells[1][:1].isalpha()


def channel_row(cells: list[str]) -> Channel:
    chpid, ctype = cells[0], cells[1]
    i, gen = 2, None
    if cells[2] not in ("Y", "N") and len(cells) > 3 and cells[3] in ("Y", "N"):
        gen, i = cells[2], 3
    if cells[i] in ("Y", "N"):
        i += 1
    vals = [num(c, f"column {k + i + 1}") for k, c in enumerate(cells[i:])]
    vals += [None] * (13 - len(vals))
    part, total, _bus, _rp, read, _wp, write, ficon, _fa, _fd, zhpf = vals[:11]
    if total is None and part is None:
        raise RowError(f"channel {chpid} has no UTILIZATION(%)")
    return Channel(chpid=chpid, type=ctype, generation=gen, busy_pct=total if total is not None
                   else part, part_busy_pct=part, read_mb_s=read, write_mb_s=write,
                   ficon_rate=ficon, zhpf_rate=zhpf)


# ---- CPU Activity -------------------------------------------------------------------------
def is_engine_row(cells: list[str]) -> bool:
    return len(cells) >= 4 and bool(re.match(r"^[0-9A-F]{1,3}$", cells[0])) and \
        cells[1] in ENGINE_TYPES


def engine_row(cells: list[str]) -> Engine:
    vals = [num(c, f"column {k + 3}") if not set(c) <= {"-"} else None
            for k, c in enumerate(cells[2:6])]
    vals += [None] * (3 - len(vals))
    return Engine(number=cells[0], type=ENGINE_TYPES[cells[1]], busy_pct=vals[1],
                  mvs_busy_pct=vals[2])


def thread_row(cells: list[str]) -> float | None | bool:
    """A thread line of a multithreading core (SMT): the figures that are per
    logical processor, under the core's line: (CPU NUM) MVS BUSY, PARKED (and
    on a CP, I/O RATE and % VIA TPI). The MVS BUSY, None for ``----``; False
    when the line is not one. Layout from IBM's description of the report
    (SC34-2665: one line per thread, core figures only on the core's line);
    no recording confirms it."""
    if len(cells) % 2 and len(cells) in (3, 5) and re.match(r"^[0-9A-F]{1,3}$", cells[0]):
        cells = cells[1:]                      # the thread's own CPU number
    if len(cells) not in (2, 4) or not all(_figure(c) for c in cells):
        return False
    busy = None if set(cells[0]) <= {"-"} else num(cells[0], "MVS BUSY (thread)")
    if busy is not None and busy > 100:
        raise RowError(f"MVS BUSY (thread) {busy:g} is over 100 %, more than the whole "
                       "interval: the file is damaged or not from RMF")
    return busy


def _figure(cell: str) -> bool:
    return set(cell) <= {"-"} or bool(re.match(r"^\d*\.?\d+$", cell))


# ---- ESS rank statistics ------------------------------------------------------------------
def is_rank_row(cells: list[str]) -> bool:
    return len(cells) >= 12 and bool(HEX4.match(cells[0])) and cells[1] in ("CKD", "FB")


def rank_row(cells: list[str]) -> Rank:
    pool = cells[0]
    i = 2
    if not HEX4.match(cells[i]):
        i += 1                                  # extent size (1Gb, 16Mb)
    _adapter, rrid = cells[i], cells[i + 1]
    vals = [num(c, f"column {k + i + 3}") for k, c in enumerate(cells[i + 2:i + 10])]
    if len(vals) < 8:
        raise RowError("a rank row needs read and write OPS/SEC, BYTES/OP, BYTES/SEC, RTIME/OP")
    tail = cells[i + 10:]
    ssd = tail[0] == "Y" if tail else None
    arrays = int(num(tail[1], "NUM") or 0) if len(tail) > 1 else None
    rpm = num(tail[2], "MIN RPM") if len(tail) > 2 else None
    return Rank(rank_id=rrid, extent_pool=pool, read_ops_s=vals[0], read_bytes_per_op=vals[1],
                read_resp_ms=vals[3], write_ops_s=vals[4], write_bytes_per_op=vals[5],
                write_resp_ms=vals[7], ssd=ssd, arrays=arrays, rpm=rpm,
                capacity=tail[3] if len(tail) > 3 else None,
                raid=" ".join(tail[4:]) or None)
