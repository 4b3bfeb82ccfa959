"""Bench: list-prefetch I/Os through the I/O model, per-I/O cost and behaviour.

Runs N 32-page list-prefetch I/Os (one stream, back to back) over a table
space with a given skip (1 in k pages read) and prints wall and CPU time per
I/O and per page, throughput, hit ratio and disk bytes per request. The page
lists are built before the clock starts; grouping them into tracks
(``pages_to_groups``) is timed, as DB2's side pays it per I/O. CPU time is
the figure to quote on a shared machine (wall time grows with other jobs).

    .venv/bin/python bench/io_list_prefetch.py [ios] [skip] [device] [protocol]
"""
from __future__ import annotations

import sys
import time

from models.engine import Engine
from models.io.subsystem import IOSubsystem, pages_to_groups


def run(ios: int, skip: float, device: str, protocol: str, streams: int = 1) -> dict:
    eng = Engine(1)
    sub = IOSubsystem(eng, device=device, protocol=protocol, aliases=streams - 1)
    lists = [[int((i * 32 + j) * skip) for j in range(32)] for i in range(ios)]
    lists.reverse()

    def stream():
        while lists:
            yield from sub.read(pages_to_groups(lists.pop(), sub.rpt))

    for _ in range(streams):
        eng.process(stream())
    t0 = time.perf_counter()
    c0 = time.process_time()
    eng.run()
    cpu = time.process_time() - c0
    wall = time.perf_counter() - t0
    st = sub.stats
    return {"wall_s": wall, "cpu_s": cpu, "cpu_us_per_io": cpu / ios * 1e6,
            "cpu_us_per_page": cpu / ios / 32 * 1e6, "sim_s": eng.now,
            "mb_s": ios * 32 * 4096 / 1e6 / eng.now, "hit_ratio": st.hit_ratio,
            "disk_bytes_per_req": st.disk_bytes_per_request,
            "io_ms": sub.totals.total / sub.requests * 1e3, "events": eng.events_run,
            "tracks_staged": st.tracks_staged, "seq_tracks": st.seq_tracks_staged}


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 250_000
    skip = float(sys.argv[2]) if len(sys.argv) > 2 else 100 / 99
    dev = sys.argv[3] if len(sys.argv) > 3 else "HDD15K"
    proto = sys.argv[4] if len(sys.argv) > 4 else "zHPF"
    streams = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    out = run(n, skip, dev, proto, streams)
    print(f"{n} I/Os skip={skip:g} {dev} {proto} streams={streams}: " +
          ", ".join(f"{k}={v:.4g}" for k, v in out.items()))
