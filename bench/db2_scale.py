"""Time full-scale RUNSTATS table sampling (8 million pages, 50 %) on FICON and zHPF.

Prints, per protocol, wall time, the pages simulated I/O by I/O, simulated
pages per wall second, and the elapsed time the model reports. With
``--whole`` the run simulates every I/O of the table (no slice), which shows
what the slice saves and that it agrees.

    .venv/bin/python bench/db2_scale.py [--whole] [--device HDD15K]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.db2 import runs  # noqa: E402
from models.experiments import run_experiment  # noqa: E402


def one(protocol: str, device: str, pct: float, pages: int) -> None:
    params = {"protocol": protocol, "device": device, "sampling_pct": pct, "table_pages": pages}
    t0 = time.perf_counter()
    res = run_experiment("db2_runstats_sampling", params)
    wall = time.perf_counter() - t0
    bp = res.reports[0]
    simulated = sum(row[2] for row in bp.rows if row[0] != "getpages")
    print(f"{protocol:6} {device:7} {pct:5.1f} %  wall {wall:6.2f} s  simulated pages "
          f"{simulated:>10,}  {simulated / wall:>12,.0f} pages/wall s  "
          f"model elapsed {res.metrics['elapsed_s']:8.1f} s  "
          f"throughput {res.metrics['throughput_mb_s']:6.1f} MB/s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--whole", action="store_true", help="simulate every I/O (no slice)")
    ap.add_argument("--device", default="HDD15K")
    ap.add_argument("--pct", type=float, default=50.0)
    ap.add_argument("--pages", type=int, default=8_000_000)
    args = ap.parse_args()
    if args.whole:
        runs.IO_BUDGET = 10 ** 12
    print(f"I/O budget per run: {runs.IO_BUDGET:,} I/Os")
    for protocol in ("FICON", "zHPF"):
        one(protocol, args.device, args.pct, args.pages)


if __name__ == "__main__":
    main()
