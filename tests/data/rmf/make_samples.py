"""Writes the sample RMF reports of this folder (run it again after changing a figure).

The figures are invented for one system (SYSA: a DS8000 with two LCUs, six
volumes in two storage groups, four FICON channels, four CPs and two
zIIPs); the layouts are those IBM publishes in z/OS RMF Report Analysis
(SC34-2665). The text listing and the XML (ddsml) carry the same interval,
so both must read to the same figures.

    python tests/data/rmf/make_samples.py
"""
from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

HERE = Path(__file__).resolve().parent
START = "11/25/2026-09.00.00"
END = "11/25/2026-09.15.00"
SECONDS = 900
#: volser, devnum, storage group, LCU, rate, resp, iosq, pend, disc, conn, util, PAV.
#: The util column is not printed: % DEV CONN and % DEV UTIL are computed as z/OS
#: does (:func:`_dev_pct`), per PAV exposure; the real z/OS 2.5 answer agrees.
VOLUMES = (
    ("DB2001", "9000", "SGDB2", "0006", 245.301, .612, .000, .141, .221, .250, 11.54, "1.9H"),
    ("DB2002", "9001", "SGDB2", "0006", 198.220, .705, .010, .150, .290, .255, 10.80, "1.6H"),
    ("DB2003", "9002", "SGDB2", "0006", 310.004, .580, .000, .139, .190, .251, 13.70, "2.1H"),
    ("DB2004", "9003", "SGDB2", "0006", 120.500, .810, .021, .160, .370, .259, 7.58, "1.2H"),
    ("TSO001", "9100", "SGTSO", "0007", 35.200, 1.210, .250, .180, .520, .260, 2.75, "1"),
    ("TSO002", "9101", "SGTSO", "0007", 12.900, .950, .000, .170, .520, .260, 1.01, "1"),
)
#: Per volume: normal read, seq read (/s), normal read hits, seq read hits, writes,
#: seq writes, normal read misses, staged tracks normal, staged tracks seq.
CACHE = {
    "DB2001": (160.0, 40.0, 140.0, 39.6, 40.0, 5.301, 20.0, 20.1, 46.0),
    "DB2002": (130.0, 30.0, 112.0, 29.7, 33.0, 5.220, 18.0, 18.1, 34.5),
    "DB2003": (200.0, 50.0, 178.0, 49.5, 52.0, 8.004, 22.0, 22.1, 57.5),
    "DB2004": (80.0, 20.0, 66.0, 19.8, 18.0, 2.500, 14.0, 14.1, 23.0),
    "TSO001": (26.0, 0.0, 24.7, 0.0, 9.2, 0.0, 1.3, 1.3, 0.0),
    "TSO002": (10.0, 0.0, 9.6, 0.0, 2.9, 0.0, 0.4, 0.4, 0.0),
}
UNITS = (("0006", "9000", ("DB2001", "DB2002", "DB2003", "DB2004")),
         ("0007", "9100", ("TSO001", "TSO002")))
#: CHPID, type, generation, part %, total %, read MB/s, write MB/s, FICON /s, zHPF /s
CHANNELS = (("40", "FC_S", "11", 12.34, 20.10, 20.4, 3.3, 120.5, 3421.1),
            ("41", "FC_S", "11", 12.10, 19.85, 20.1, 3.2, 118.0, 3390.4),
            ("50", "FC_S", "11", 3.02, 5.44, 4.0, 1.1, 310.2, 0.0),
            ("51", "FC_S", "11", 2.98, 5.40, 3.9, 1.0, 305.9, 0.0))
#: number, type (report), LPAR busy, MVS busy
ENGINES = (("0", "CP", 45.12, 45.10), ("1", "CP", 44.80, 44.77), ("2", "CP", 43.95, 43.90),
           ("3", "CP", 42.21, 42.20), ("4", "IIP", 30.11, 30.05), ("5", "IIP", 28.40, 28.36))
#: pool, adapter, RRID, read ops, read bytes/op, read resp, write ops, write bytes/op,
#: write resp, SSD, arrays, rpm, capacity, raid
RANKS = (("0000", "0000", "0000", 120.3, "55.2K", 8.1, 40.2, "96.0K", 15.2, "N", 1, 15,
          "2400G", "RAID 5"),
         ("0001", "0001", "0001", 95.7, "54.9K", 7.9, 31.0, "97.1K", 14.8, "N", 1, 15,
          "2400G", "RAID 5"))


def _dev_pct(rate: float, ms: float, pav: str) -> float:
    """% DEV CONN (``ms`` = CONN) or % DEV UTIL (``ms`` = DISC + CONN) as z/OS
    prints them: the time per second over the PAV exposures (the PAV column,
    an average for HyperPAV), IBM's "normalized by dividing by the number of
    PAV exposures"; the real z/OS 2.5 answer (../shared/rmf/dds-zos25/
    device.xml) agrees: VISHR1, 1.378/s at 0.341 ms CONN on 3 exposures,
    prints 0.02 %, not 0.05 %."""
    return rate * ms / 10.0 / float(pav.rstrip("H"))


def fmt(x: float) -> str:
    """A count the way RMF prints it in a 9-column cell."""
    if x >= 1e6:
        return f"{x / 1e3:.0f}K"
    return f"{x:.0f}"


def rate(x: float) -> str:
    return f"{x:.1f}" if x < 1000 else f"{x:.0f}"


def hr(h: float, n: float) -> str:
    return f"{h / n:.3f}" if n else "N/A"


def header(title: str, page: int, style: str, start=START, end=END) -> list[str]:
    spaced = "   ".join(" ".join(w) for w in title.split())
    day, time = start.split("-")
    out = ["1" + spaced.center(130), " " + f"PAGE {page:4d}".rjust(130)]
    if style == "start":
        out += [f"            z/OS V2R4                SYSTEM ID SYSA             START {start}"
                f"  INTERVAL 000.15.00",
                f"                                     RPT VERSION V2R4 RMF       END   {end}"
                f"  CYCLE 1.000 SECONDS"]
    else:
        out += [f"            z/OS V2R4                SYSTEM ID SYSA             DATE {day}"
                f"            INTERVAL 15.00.000",
                f"                                     RPT VERSION V2R4 RMF       TIME {time}"]
    return [ln if ln[0] in "1" else " " + ln[1:] if ln.startswith(" ") else " " + ln
            for ln in out]


def device_report(scale: float = 1.0, start=START, end=END) -> list[str]:
    out = header("DIRECT ACCESS DEVICE ACTIVITY", 1, "start", start, end)
    out += ["0TOTAL SAMPLES =     900    IODF = 99   CR-DATE: 11/02/2026   CR-TIME: 10.11.12"
            "   ACT: ACTIVATE",
            "-                                                     DEVICE   AVG  AVG  AVG  AVG"
            "  AVG  AVG  AVG  AVG      %      %     %    AVG      %     %",
            " STORAGE  DEV  DEVICE  NUMBER  VOLUME PAV   LCU      ACTIVITY  RESP IOSQ  CMR   DB"
            "  INT PEND DISC CONN    DEV    DEV   DEV  NUMBER   ANY    MT",
            " GROUP    NUM  TYPE    OF CYL  SERIAL                  RATE    TIME TIME  DLY  DLY"
            "  DLY TIME TIME TIME   CONN   UTIL  RESV  ALLOC  ALLOC  PEND"]
    lcu = None
    for vol, dev, sg, lc, r, resp, iosq, pend, disc, conn, util, pav in VOLUMES:
        if lcu and lc != lcu:
            out.append(f" LCU                              {lcu}")
        lcu = lc
        out.append(f" {sg:8s} {dev} 33909    10017  {vol}  {pav:5s}{lc}   {r * scale:9.3f}"
                   f"  {_ms(resp)} {_ms(iosq)} .012 .000 .000 {_ms(pend)} {_ms(disc)}"
                   f" {_ms(conn)}  {_dev_pct(r * scale, conn, pav):5.2f}"
                   f"  {_dev_pct(r * scale, disc + conn, pav):5.2f}   0.0"
                   f"   54.0  100.0   0.0")
    return out


def _ms(x: float) -> str:
    return f"{x:.3f}"[1:] if x < 1 else f"{x:.2f}"


def cache_block(reads: tuple, title_volser: str | None = None) -> list[str]:
    rn, rs, hn, hs, wn, ws, mn, tn, ts = reads
    c = SECONDS
    writes = wn + ws
    pct = 100 * (rn + rs) / (rn + rs + writes) if rn + rs + writes else 0.0
    out = [" CACHE I/O    -------------READ I/O REQUESTS-------------   ------------------"
           "----WRITE I/O REQUESTS----------------------     %",
           " REQUESTS       COUNT     RATE      HITS     RATE     H/R      COUNT     RATE"
           "     FAST     RATE     HITS     RATE     H/R    READ"]
    for label, r, h, w in (("NORMAL", rn, hn, wn), ("SEQUENTIAL", rs, hs, ws)):
        p = 100 * r / (r + w) if r + w else 0.0
        out.append(f" {label:10s} {fmt(r * c):>9s} {rate(r):>8s} {fmt(h * c):>9s}"
                   f" {rate(h):>8s} {hr(h, r):>7s}  {fmt(w * c):>9s} {rate(w):>8s}"
                   f" {fmt(w * c):>8s} {rate(w):>8s} {fmt(w * c):>8s} {rate(w):>8s}"
                   f" {hr(w, w):>7s}  {p:5.1f}")
    out.append(" CFW DATA           0      0.0         0      0.0     N/A          0      0.0"
               "        0      0.0        0      0.0     N/A     N/A")
    out.append(f" TOTAL      {fmt((rn + rs) * c):>9s} {rate(rn + rs):>8s}"
               f" {fmt((hn + hs) * c):>9s} {rate(hn + hs):>8s} {hr(hn + hs, rn + rs):>7s}"
               f"  {fmt(writes * c):>9s} {rate(writes):>8s} {fmt(writes * c):>8s}"
               f" {rate(writes):>8s} {fmt(writes * c):>8s} {rate(writes):>8s}"
               f" {hr(writes, writes):>7s}  {pct:5.1f}")
    ms = rs - hs
    out += [" -----------------------CACHE MISSES-----------------------    ------------MISC"
            "------------",
            " REQUESTS      READ    RATE   WRITE    RATE  TRACKS    RATE                COUNT"
            "    RATE",
            f" NORMAL     {fmt(mn * c):>7s} {rate(mn):>7s}       0     0.0 {fmt(tn * c):>7s}"
            f" {rate(tn):>7s}   DELAYED NVS         0     0.0",
            f" SEQUENTIAL {fmt(ms * c):>7s} {rate(ms):>7s}       0     0.0 {fmt(ts * c):>7s}"
            f" {rate(ts):>7s}   DELAYED CACHE       0     0.0",
            " CFW DATA         0     0.0       0     0.0                   DFW INHIBIT         0"
            "     0.0",
            f" TOTAL      {fmt((mn + ms) * c):>7s} {rate(mn + ms):>7s}      0     0.0"
            f" {fmt((tn + ts) * c):>7s} {rate(tn + ts):>7s}   ASYNC (TRKS)    {fmt(writes * c)}"
            f" {rate(writes):>7s}",
            " ---CKD STATISTICS---   ---RECORD CACHING---   ----HOST ADAPTER ACTIVITY---"
            "   --------DISK ACTIVITY-------",
            "                                                          BYTES  BYTES"
            "            RESP   BYTES  BYTES",
            " WRITE            0      READ MISSES     0                /REQ   /SEC"
            "            TIME    /REQ   /SEC",
            f" WRITE HITS       0      WRITE PROM      0      READ      8.1K"
            f" {_mb((rn + rs) * 8100):>6s}   READ    1.210   55.3K {_mb((tn + ts) * 55300):>6s}",
            f"                                                WRITE     4.1K"
            f" {_mb(writes * 4100):>6s}   WRITE   2.400   56.4K {_mb(writes * 56400):>6s}"]
    return out


def _mb(x: float) -> str:
    return f"{x / 1e6:.1f}M" if x >= 1e5 else f"{x / 1e3:.1f}K"


def cache_report(start=START) -> list[str]:
    out = []
    page = 1
    for ssid, cu, vols in UNITS:
        out += header("CACHE SUBSYSTEM ACTIVITY", page, "date", start)
        day, time = start.split("-")
        out += [f"0SUBSYSTEM  2107-01     CU-ID  {cu}     SSID {ssid}     CDATE  {day}"
                f"     CTIME {time}      CINT  15.00",
                " TYPE-MODEL 2107-951    MANUF  IBM      PLANT  75     SERIAL 0000000ABCD1",
                "0" + "-" * 130,
                " " + "CACHE SUBSYSTEM STATUS".center(130),
                " " + "-" * 130,
                " SUBSYSTEM STORAGE                         NON-VOLATILE STORAGE"
                "                STATUS",
                " CONFIGURED           65536M               CONFIGURED         2048M"
                "            CACHING - ACTIVE",
                " AVAILABLE            64212M               PINNED                0.0"
                "           NON-VOLATILE STORAGE - ACTIVE",
                " PINNED                  0.0                                     "
                "              CACHE FAST WRITE - ACTIVE",
                "0" + "-" * 130,
                " " + "CACHE SUBSYSTEM OVERVIEW".center(130),
                " " + "-" * 130]
        total = tuple(sum(CACHE[v][k] for v in vols) for k in range(9))
        io = sum(total[:2]) + total[4] + total[5]
        out += [f" TOTAL I/O     {fmt(io * SECONDS):>9s}   CACHE I/O     {fmt(io * SECONDS):>9s}"
                f"   CACHE OFFLINE       0"]
        out += cache_block(total)
        page += 1
        out += header("CACHE SUBSYSTEM ACTIVITY", page, "date", start)
        out += [" " + "CACHE SUBSYSTEM DEVICE OVERVIEW".center(130),
                " VOLUME   DEV  XTNT      %      I/O   ---CACHE HIT RATE--  ----------DASD I/O"
                " RATE----------   ASYNC  TOTAL   READ  WRITE      %",
                " SERIAL   NUM  POOL     I/O     RATE    READ    DFW   CFW  STAGE  DFWBP   ICL"
                "   BYP  OTHER    RATE    H/R    H/R    H/R   READ"]
        out.append(_overview_row("*ALL", "    ", "    ", total, io, io))
        for v in vols:
            r = CACHE[v]
            out.append(_overview_row(v, next(d for x, d, *_ in VOLUMES if x == v), "0000", r,
                                     sum(r[:2]) + r[4] + r[5], io))
        page += 1
    # one volume's detail (CACHE DEVICE ACTIVITY)
    out += header("CACHE DEVICE ACTIVITY", page, "date", start)
    out += ["0VOLSER  DB2001     NUM  9000     EXTENT POOL  0000"]
    out += cache_block(CACHE["DB2001"])
    return out


def _overview_row(vol, dev, pool, r, io, total_io) -> str:
    rn, rs, hn, hs, wn, ws, mn, tn, ts = r
    reads = rn + rs
    stage = (rn - hn) + (rs - hs)
    return (f" {vol:8s} {dev} {pool}  {100 * io / total_io:6.1f} {io:8.1f} {hn + hs:7.1f}"
            f" {wn + ws:6.1f}   0.0 {stage:6.1f}    0.0   0.0   0.0    0.0 {wn + ws:7.1f}"
            f"  {(hn + hs + wn + ws) / io:5.3f}  {(hn + hs) / reads:5.3f}  1.000"
            f"  {100 * reads / io:5.1f}")


def channel_report() -> list[str]:
    out = header("CHANNEL PATH ACTIVITY", 1, "start")
    out += ["0IODF = 99   CR-DATE: 11/02/2026   CR-TIME: 10.11.12   ACT: ACTIVATE"
            "   MODE: LPAR   CPMF: EXTENDED MODE   CSSID: 0",
            "-" + "-" * 130,
            " " + "DETAILS FOR ALL CHANNELS".center(130),
            " " + "-" * 130,
            " CHANNEL PATH        UTILIZATION(%)     READ(MB/SEC)   WRITE(MB/SEC)"
            "   FICON OPERATIONS      ZHPF OPERATIONS",
            " ID  TYPE    G  SHR  PART  TOTAL   BUS   PART  TOTAL   PART  TOTAL"
            "     RATE  ACTIVE DEFER    RATE  ACTIVE DEFER"]
    for chp, typ, g, part, total, rd, wr, fic, zh in CHANNELS:
        out.append(f" {chp}  {typ:6s} {g:>2s}   Y  {part:5.2f}  {total:5.2f}  4.10"
                   f"  {rd / 2:5.1f}  {rd:5.1f}  {wr / 2:5.1f}  {wr:5.1f}   {fic:7.1f}"
                   f"    1.2   0.0  {zh:7.1f}    4.5   0.0")
    out.append(" F0  OSD          Y   0.10   1.23")
    return out


def cpu_report() -> list[str]:
    out = header("CPU ACTIVITY", 1, "date")
    out += ["-CPU  3906   CPC CAPACITY  1234   SEQUENCE CODE 00000000000ABCDE   HIPERDISPATCH=YES",
            "       MODEL  716   CHANGE REASON=NONE         H/W MODEL  M03",
            "0---CPU---    ---------------- TIME % ----------------     LOG PROC"
            "      --I/O INTERRUPTS--",
            " NUM  TYPE    ONLINE    LPAR BUSY    MVS BUSY    PARKED    SHARE %"
            "         RATE     % VIA TPI"]
    for typ in ("CP", "IIP"):
        rows = [e for e in ENGINES if e[1] == typ]
        for num, t, lpar, mvs in rows:
            out.append(f"  {num:>2s}  {t:4s}   100.00     {lpar:6.2f}       {mvs:6.2f}"
                       f"      0.00     100.0   HIGH   {1234 if t == 'CP' else 0:6d}      0.12")
        avg = sum(e[2] for e in rows) / len(rows)
        out.append(f" TOTAL/AVERAGE          {avg:6.2f}       {avg:6.2f}"
                   f"                {100.0 * len(rows):6.1f}")
    return out


def ess_report() -> list[str]:
    out = header("ESS RANK STATISTICS", 1, "start")
    out += ["0SERIAL NUMBER 0000000ABCD1   TYPE-MODEL 002107-951   CDATE 11/25/2026"
            "   CTIME 09.00.00   CINT 15.00",
            "                              ------ READ OPERATIONS -------   ------ WRITE"
            " OPERATIONS ------",
            " --EXTENT POOL-  ADAPT  RRID    OPS    BYTES   BYTES   RTIME     OPS    BYTES"
            "   BYTES   RTIME  --ARRAY--  MIN  RANK   RAID",
            " ID    TYPE       ID           /SEC     /OP    /SEC     /OP    /SEC      /OP"
            "    /SEC     /OP  SSD  NUM  RPM   CAP   TYPE"]
    for pool, ad, rrid, ro, rb, rr, wo, wb, wr, ssd, num, rpm, cap, raid in RANKS:
        rbs = float(rb[:-1]) * 1e3 * ro
        wbs = float(wb[:-1]) * 1e3 * wo
        out.append(f" {pool}  CKD 1Gb    {ad}  {rrid}  {ro:6.1f}  {rb:>6s}  {_mb(rbs):>6s}"
                   f"  {rr:6.1f}  {wo:6.1f}   {wb:>6s}  {_mb(wbs):>6s}"
                   f"  {wr:6.1f}    {ssd}    {num}   {rpm}  {cap}  {raid}")
    return out


# ---- XML (ddsml) ------------------------------------------------------------------------
def _x(tag: str, text) -> str:
    return f"<{tag}>{escape(str(text))}</{tag}>"


def _table(headers: list[str], rows: list[list]) -> str:
    h = "".join(f'<col type="{"N" if i else "T"}">{escape(c)}</col>'
                for i, c in enumerate(headers))
    body = "".join(f'<row refno="{k + 1}">' + "".join(_x("col", c) for c in r) + "</row>"
                   for k, r in enumerate(rows))
    return f"<table><column-headers>{h}</column-headers>{body}</table>"


def _vars(pairs) -> str:
    return "<var-list>" + "".join(f"<var>{_x('name', k)}{_x('value', v)}</var>"
                                  for k, v in pairs) + "</var-list>"


def _pp(metric: str, description: str, segments: str, start=START, end=END) -> str:
    return (f'<postprocessor><metric id="{metric}">{_x("description", description)}'
            f"<type>Interval</type></metric><resource><resname>SYSA</resname>"
            f"<restype>SYSTEM</restype></resource><time-data>"
            f'<display-start locale="en-us">{start}</display-start>'
            f'<display-end locale="en-us">{end}</display-end>'
            f'<report-interval unit="minutes">15:00:000</report-interval>'
            f"</time-data>{segments}</postprocessor>\n")


def xml_device(scale=1.0, start=START, end=END) -> str:
    heads = ["Storage Group", "Device Number", "Device Type", "Number of Cylinders",
             "Volume Serial", "PAV", "LCU", "Device Activity Rate", "Avg Resp Time",
             "Avg IOSQ Time", "Avg PEND Time", "Avg DISC Time", "Avg CONN Time",
             "% Dev Util", "% Dev Resv"]
    rows = [[sg, dev, "33909", 10017, vol, pav, lc, f"{r * scale:.3f}", resp, iosq, pend,
             disc, conn, f"{_dev_pct(r * scale, disc + conn, pav):.2f}", "0.0"]
            for vol, dev, sg, lc, r, resp, iosq, pend, disc, conn, util, pav in VOLUMES]
    seg = ('<segment id="1"><name>Direct Access Device Activity</name><part id="2">'
           + _table(heads, rows) + "</part></segment>")
    return _pp("DEVICE", "Direct Access Device Activity Report", seg, start, end)


def xml_cache(start=START, end=END) -> str:
    segs = []
    for ssid, cu, vols in UNITS:
        t = tuple(sum(CACHE[v][k] for v in vols) for k in range(9))
        segs.append(_cache_segment(ssid, cu, t, vols))
    segs.append("<segment><name>Cache Device Activity DB2001</name><part>"
                + _vars([("Volume Serial", "DB2001"), ("Device Number", "9000")])
                + "</part>" + _activity_parts(CACHE["DB2001"]) + "</segment>")
    return _pp("CACHE", "Cache Subsystem Activity Report", "".join(segs), start, end)


def _cache_segment(ssid, cu, t, vols) -> str:
    ov_heads = ["Volume Serial", "Device Number", "I/O Rate", "Read Hit Rate", "DFW Rate",
                "Stage Rate", "Read H/R", "Write H/R", "% Read"]
    ov = []
    for v in vols:
        r = CACHE[v]
        io = sum(r[:2]) + r[4] + r[5]
        ov.append([v, next(d for x, d, *_ in VOLUMES if x == v), f"{io:.1f}",
                   f"{r[2] + r[3]:.1f}", f"{r[4] + r[5]:.1f}",
                   f"{(r[0] - r[2]) + (r[1] - r[3]):.1f}", f"{(r[2] + r[3]) / sum(r[:2]):.3f}",
                   "1.000", f"{100 * sum(r[:2]) / io:.1f}"])
    return (f'<segment><name>Cache Subsystem {ssid}</name><part>'
            + _vars([("SSID", ssid), ("CU-ID", cu), ("Type-Model", "2107-951"),
                     ("Subsystem Storage Configured", "65536M"),
                     ("Non-Volatile Storage Configured", "2048M")])
            + "</part>" + _activity_parts(t)
            + "<part><name>Cache Subsystem Device Overview</name>"
            + _table(ov_heads, ov) + "</part></segment>")


def _activity_parts(t) -> str:
    """Requests, misses and adapter parts of a cache segment (unit or volume)."""
    rn, rs, hn, hs, wn, ws, mn, tn, ts = t
    c = SECONDS
    writes = wn + ws
    req = ["Requests", "Read Count", "Read Rate", "Read Hits", "Read Hit Rate", "Read H/R",
           "Write Count", "Write Rate", "Write Fast", "Write Fast Rate", "Write Hits",
           "Write Hit Rate", "Write H/R", "% Read"]
    rows = [[lab, fmt(r * c), rate(r), fmt(h * c), rate(h), hr(h, r), fmt(w * c), rate(w),
             fmt(w * c), rate(w), fmt(w * c), rate(w), hr(w, w),
             f"{100 * r / (r + w):.1f}" if r + w else "0.0"]
            for lab, r, h, w in (("NORMAL", rn, hn, wn), ("SEQUENTIAL", rs, hs, ws))]
    rows.append(["TOTAL", fmt((rn + rs) * c), rate(rn + rs), fmt((hn + hs) * c),
                 rate(hn + hs), hr(hn + hs, rn + rs), fmt(writes * c), rate(writes),
                 fmt(writes * c), rate(writes), fmt(writes * c), rate(writes),
                 hr(writes, writes), f"{100 * (rn + rs) / (rn + rs + writes):.1f}"])
    ms = rs - hs
    miss = [["NORMAL", fmt(mn * c), rate(mn), 0, "0.0", fmt(tn * c), rate(tn)],
            ["SEQUENTIAL", fmt(ms * c), rate(ms), 0, "0.0", fmt(ts * c), rate(ts)]]
    adapter = [("Host Adapter Read Bytes/Req", "8.1K"),
               ("Host Adapter Read Bytes/Sec", _mb((rn + rs) * 8100)),
               ("Host Adapter Write Bytes/Req", "4.1K"),
               ("Host Adapter Write Bytes/Sec", _mb(writes * 4100)),
               ("Disk Read Resp Time", "1.210"), ("Disk Read Bytes/Req", "55.3K"),
               ("Disk Read Bytes/Sec", _mb((tn + ts) * 55300)),
               ("Disk Write Resp Time", "2.400"), ("Disk Write Bytes/Req", "56.4K"),
               ("Disk Write Bytes/Sec", _mb(writes * 56400))]
    return ("<part><name>Cache I/O Requests</name>" + _table(req, rows)
            + "</part><part><name>Cache Misses</name>"
            + _table(["Requests", "Read", "Read Rate", "Write", "Write Rate", "Tracks",
                      "Tracks Rate"], miss)
            + "</part><part><name>Host Adapter and Disk Activity</name>" + _vars(adapter)
            + "</part>")


def xml_chan(start=START, end=END) -> str:
    heads = ["Channel Path ID", "Channel Path Type", "Generation", "Utilization% Partition",
             "Utilization% Total", "Read MB/Sec Total", "Write MB/Sec Total",
             "FICON Operations Rate", "zHPF Operations Rate"]
    rows = [[c, t, g, f"{p:.2f}", f"{tot:.2f}", f"{rd:.1f}", f"{wr:.1f}", f"{f:.1f}",
             f"{z:.1f}"] for c, t, g, p, tot, rd, wr, f, z in CHANNELS]
    rows.append(["F0", "OSD", "", "0.10", "1.23", "", "", "", ""])
    seg = ('<segment><name>Channel Path Activity</name><part>' + _table(heads, rows)
           + "</part></segment>")
    return _pp("CHAN", "Channel Path Activity Report", seg, start, end)


def xml_cpu(busy_scale=1.0, start=START, end=END) -> str:
    heads = ["CPU Number", "CPU Type", "Time% Online", "Time% LPAR Busy", "Time% MVS Busy"]
    rows = [[n, t, "100.00", f"{b * busy_scale:.2f}", f"{m * busy_scale:.2f}"]
            for n, t, b, m in ENGINES]
    seg = ('<segment id="1"><name>CPU Activity</name><part id="2">'
           + _vars([("CPU", "3906"), ("Model", "716")]) + _table(heads, rows)
           + "</part></segment>")
    return _pp("CPU", "CPU Activity Report", seg, start, end)


def xml_ess(start=START, end=END) -> str:
    heads = ["Extent Pool ID", "Rank ID", "Read Ops/Sec", "Read Bytes/Op", "Read Resp Time/Op",
             "Write Ops/Sec", "Write Bytes/Op", "Write Resp Time/Op", "SSD",
             "Number of Arrays", "Min RPM", "Rank Capacity", "RAID Type"]
    rows = [[p, rr, f"{ro:.1f}", rb, f"{rt:.1f}", f"{wo:.1f}", wb, f"{wt:.1f}", s, n, rpm,
             cap, raid] for p, _a, rr, ro, rb, rt, wo, wb, wt, s, n, rpm, cap, raid in RANKS]
    seg = ('<segment><name>ESS Rank Statistics</name><part>' + _table(heads, rows)
           + "</part></segment>")
    return _pp("ESS", "ESS Statistics Report", seg, start, end)


def ddsml(body: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<?xml-stylesheet type="text/xsl" href="include/ddsml-pp.xsl"?>\n'
            '<ddsml xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
            ' xsi:noNamespaceSchemaLocation="include/ddsml.xsd">\n'
            "<server><name>RMF-DDS-Server</name><version>ZOSV2R5</version>"
            "<functionality>3500</functionality><platform>z/OS</platform></server>\n"
            + body + "</ddsml>\n")


def intervals(n: int = 4):
    """Start, end and load of the many-interval sample (the third is the busiest)."""
    loads = (0.6, 0.9, 1.4, 1.1, 0.8, 0.5)[:n]
    for k, load in enumerate(loads):
        h, m = divmod(9 * 60 + 15 * k, 60)
        h2, m2 = divmod(9 * 60 + 15 * (k + 1), 60)
        yield f"11/25/2026-{h:02d}.{m:02d}.00", f"11/25/2026-{h2:02d}.{m2:02d}.00", load


def main() -> None:
    text = device_report() + cache_report() + channel_report() + cpu_report() + ess_report()
    (HERE / "sysa-0900-full.txt").write_text("\n".join(text) + "\n", encoding="ascii")
    body = xml_device() + xml_cache() + xml_chan() + xml_cpu() + xml_ess()
    (HERE / "sysa-0900-full.xml").write_text(ddsml(body), encoding="utf-8")
    many = ""
    for start, end, load in intervals():
        many += xml_device(load, start, end) + xml_cpu(load, start, end)
    (HERE / "sysa-many-intervals.xml").write_text(ddsml(many), encoding="utf-8")


if __name__ == "__main__":
    main()
