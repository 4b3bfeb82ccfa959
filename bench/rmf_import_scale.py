"""How fast a large RMF text listing imports, and in how much memory.

Usage::

    .venv/bin/python bench/rmf_import_scale.py [--mb 100] [--volumes 2000]

Writes a Postprocessor listing of about ``--mb`` MB to a temporary folder:
one day of 15-minute intervals (as many as it takes), each with a Direct
Access Device Activity report of ``--volumes`` volumes (pages of 48 rows
with their headers) and a Cache Subsystem Activity report (a unit per 64
volumes: status, overview, device overview). Then it reads the file with
``models.rmf.read_reports`` (the busiest interval chosen) and prints the
wall time and the process's peak RSS before and after, beside a peer in
the same run: reading the same file line by line with ``open()`` and
splitting each line, which is the least any reader does. Target (issue 31): 100 MB in under a minute, memory bounded by one
interval's figures, not by the file.
"""
from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.rmf import read_reports  # noqa: E402

TITLE_DEV = "D I R E C T   A C C E S S   D E V I C E   A C T I V I T Y"
TITLE_CACHE = "C A C H E   S U B S Y S T E M   A C T I V I T Y"


def _header(title: str, page: int, start: str, end: str, date_style: bool) -> list[str]:
    day, time_ = start.split("-")
    out = ["1" + title.center(130), " " + f"PAGE {page:4d}".rjust(130)]
    if date_style:
        out += [f"            z/OS V2R4                SYSTEM ID SYSA             DATE {day}"
                "            INTERVAL 15.00.000",
                f"                                     RPT VERSION V2R4 RMF       TIME {time_}"]
    else:
        out += [f"            z/OS V2R4                SYSTEM ID SYSA             START {start}"
                "  INTERVAL 000.15.00",
                f"                                     RPT VERSION V2R4 RMF       END   {end}"
                "  CYCLE 1.000 SECONDS"]
    return out


def interval_lines(k: int, volumes: int) -> list[str]:
    h, m = divmod(15 * k, 60)
    d, h = divmod(h, 24)
    h2, m2 = divmod(15 * (k + 1), 60)
    start = f"11/{1 + d:02d}/2026-{h:02d}.{m:02d}.00"
    end = f"11/{1 + d:02d}/2026-{h2 % 24:02d}.{m2:02d}.00"
    load = 1.0 + 0.5 * ((k * 7) % 11) / 10
    out: list[str] = []
    page = 1
    for first in range(0, volumes, 48):
        out += _header(TITLE_DEV, page, start, end, False)
        out += [" STORAGE  DEV  DEVICE  NUMBER  VOLUME PAV   LCU      ACTIVITY  RESP IOSQ  CMR"
                "   DB  INT PEND DISC CONN    DEV    DEV   DEV  NUMBER   ANY    MT"]
        for v in range(first, min(volumes, first + 48)):
            out.append(f" SG{v % 20:02d}     {0x9000 + v:04X} 33909    10017  V{v:05d}  1.4H "
                       f"{v // 64:04X}   {load * (10 + v % 90):9.3f}  .612 .000 .012 .000 .000"
                       " .141 .221 .250   6.13  11.54   0.0   54.0  100.0   0.0")
        page += 1
    for unit in range(0, volumes, 64):
        out += _header(TITLE_CACHE, page, start, end, True)
        out += [f"0SUBSYSTEM  2107-01     CU-ID  {0x9000 + unit:04X}     SSID {unit // 64:04X}"
                f"     CDATE  {start[:10]}     CTIME {start[11:]}      CINT  15.00",
                " CONFIGURED           65536M               CONFIGURED         2048M",
                " CACHE I/O    -------------READ I/O REQUESTS-------------",
                " REQUESTS       COUNT     RATE      HITS     RATE     H/R",
                " NORMAL        513000    570.0    446400    496.0   0.870",
                " SEQUENTIAL    126000    140.0    124740    138.6   0.990",
                " -----------------------CACHE MISSES-----------------------",
                " NORMAL       66600    74.0       0     0.0   66960    74.4",
                " SEQUENTIAL    1260     1.4       0     0.0  144900   161.0",
                "                                                READ      8.1K   5.8M   READ "
                "   1.210   55.3K  13.0M",
                " CACHE SUBSYSTEM DEVICE OVERVIEW"]
        for v in range(unit, min(volumes, unit + 64)):
            out.append(f" V{v:05d}   {0x9000 + v:04X} 0000    28.1    245.3   179.6   45.3   0.0"
                       "   20.4    0.0   0.0   0.0    0.0    45.3  0.917  0.898  1.000   81.5")
        page += 1
    return out


def write_listing(path: Path, mb: float, volumes: int) -> int:
    size = 0
    k = 0
    with open(path, "w") as f:
        while size < mb * 1e6:
            text = "\n".join(interval_lines(k, volumes)) + "\n"
            f.write(text)
            size += len(text)
            k += 1
    return k


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=float, default=100.0)
    ap.add_argument("--volumes", type=int, default=2000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rmf.txt"
        intervals = write_listing(path, args.mb, args.volumes)
        size = path.stat().st_size / 1e6
        t0 = time.perf_counter()
        with open(path) as f:
            cells = sum(len(line.split()) for line in f)
        peer = time.perf_counter() - t0
        rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        t0 = time.perf_counter()
        system = read_reports([path])
        took = time.perf_counter() - t0
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        volumes = len(system.interval.volumes)
    print(f"listing: {size:.1f} MB, {intervals} intervals of {args.volumes} volumes "
          f"({cells:,} cells)")
    print(f"peer (open + split every line): {peer:.2f} s")
    print(f"read_reports: {took:.2f} s ({took / peer:.1f}x the peer, "
          f"{size / took:.1f} MB/s); chose {system.reason}")
    print(f"peak RSS: {rss0:.0f} MB before reading, {rss:.0f} MB after "
          f"(+{rss - rss0:.0f} MB for a {size:.0f} MB listing; {volumes} volumes kept)")


if __name__ == "__main__":
    main()
