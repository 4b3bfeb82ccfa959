"""Print the DB2 curves of case study E from a dense sweep (the paper's shapes).

RUNSTATS elapsed time against sampling % for the six protocol × device
curves, and the disorganized index scan (throughput, io_ms) against the
share read, on the model path (``run_experiment``).

    .venv/bin/python bench/db2_curves.py [--budget 1500] [--seed 1] [--only runstats|index|skip]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.db2 import runs  # noqa: E402
from models.experiments import run_experiment  # noqa: E402

SAMPLING = (99, 95, 90, 85, 80, 75, 70, 65, 60, 55, 50, 45, 40, 35, 30, 25, 20, 15, 10, 5, 2, 1)
INDEX_PCT = (1, 2, 5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100)
SKIPS = (2, 3, 5, 9, 17, 33, 65, 129, 257, 1000)
VARIANTS = [(p, d) for p in ("FICON", "zHPF") for d in ("HDD10K", "HDD15K", "SSD")]


def row(label, values, fmt="{:7.1f}"):
    print(f"{label:14}" + "".join(fmt.format(v) for v in values))


def runstats(seed):
    print("RUNSTATS elapsed s (8M pages) by sampling %")
    row("", SAMPLING, "{:7d}")
    for p, d in VARIANTS:
        row(f"{p} {d}", [run_experiment("db2_runstats_sampling", dict(
            protocol=p, device=d, sampling_pct=s), seed=seed).metrics["elapsed_s"]
            for s in SAMPLING])
    print("seq staged track % (zHPF / FICON, HDD15K)")
    for p in ("zHPF", "FICON"):
        row(p, [run_experiment("db2_runstats_sampling", dict(
            protocol=p, device="HDD15K", sampling_pct=s), seed=seed).metrics["seq_staged_track_pct"]
            for s in SAMPLING])


def index(seed):
    print("Index scan (28,000 tracks), by % read")
    row("", INDEX_PCT, "{:7d}")
    for v in (9, 10):
        for p, d in VARIANTS:
            ms = [run_experiment("db2_index_scan", dict(
                db2_version=v, protocol=p, device=d, pct_read=x), seed=seed).metrics
                for x in INDEX_PCT]
            row(f"v{v} {p} {d}", [r["throughput_mb_s"] for r in ms])
            if v == 10:
                row("   io_ms", [r["io_ms"] for r in ms], "{:7.2f}")
                row("   trk/idx", [r["tracks_staged"] / 28000 for r in ms], "{:7.2f}")


def skip(seed):
    print("Skip-sequential MB/s by skip")
    row("", SKIPS, "{:7d}")
    for p, d in VARIANTS:
        row(f"{p} {d}", [run_experiment("db2_skip_sequential", dict(
            protocol=p, device=d, skip=k), seed=seed).metrics["throughput_mb_s"] for k in SKIPS])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    runs.IO_BUDGET = a.budget
    t0 = time.time()
    for name, fn in (("runstats", runstats), ("index", index), ("skip", skip)):
        if not a.only or a.only == name:
            fn(a.seed)
            print()
    print(f"({time.time() - t0:.0f} s, I/O budget {a.budget})")


if __name__ == "__main__":
    main()
