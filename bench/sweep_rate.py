"""Bench: sweep points per minute on the local process pool, with serial
(one point after another in this process) as the peer in the same run.

The sweep is what ``zperflab sweep`` runs: the cross product of its
``--over`` values (default: DB2 index scan, protocol × device × cache ×
pct_read, 36 points of 0.1–0.6 s), every point through
``models.studies.sweep.point_metrics``. The pool's figure includes starting its
``spawn`` processes (each imports the models once), as a command-line
sweep pays it. Both runs must give the same numbers; the bench checks.

    .venv/bin/python bench/sweep_rate.py [--workers N] [--experiment NAME KEY=V1,V2 ...]
"""
from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from app.sweep import default_workers, run_points  # noqa: E402
from app.sweep_cli import parse_over  # noqa: E402
from models.studies.sweep import GridSpec, check_grid, point_metrics  # noqa: E402

DEFAULT = ("db2_index_scan", ["protocol=FICON,zHPF", "device=HDD10K,HDD15K,SSD",
                              "cache=cold,warm", "pct_read=25,50,100"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=default_workers())
    ap.add_argument("--experiment", nargs="+", metavar="NAME KEY=V1,V2",
                    help=f"experiment and --over items (default: {DEFAULT[0]} "
                         f"{' '.join(DEFAULT[1])})")
    args = ap.parse_args()
    name, over = (args.experiment[0], args.experiment[1:]) if args.experiment else DEFAULT
    spec = GridSpec(name, parse_over(over, {}))
    check_grid(spec)
    points = spec.points()
    print(f"sweep {name}: {len(points)} points ({' × '.join(f'{k} {len(v)}' for k, v in spec.axes)})"
          f", {os.cpu_count()} cores")

    start = time.perf_counter()
    serial = [point_metrics(spec.runner, name, over_, seed) for over_, seed in points]
    t_serial = time.perf_counter() - start

    start = time.perf_counter()
    pooled = run_points(spec.runner, name, points, workers=args.workers)
    t_pool = time.perf_counter() - start
    for (over_, seed), a, b in zip(points, serial, pooled):
        if a != b:
            diff = {k: (a.get(k), b.get(k)) for k in a if a.get(k) != b.get(k)}
            raise SystemExit(f"the pool and the serial run differ at {over_} seed {seed}: {diff}")

    for label, t in (("serial (this process)", t_serial),
                     (f"local pool ({args.workers} processes)", t_pool)):
        print(f"  {label:28} {t:7.2f} s  {len(points) / t * 60:8.1f} points/min")
    print(f"  pool speed-up ×{t_serial / t_pool:.2f}; same numbers: yes")


if __name__ == "__main__":
    main()
