"""DB2's side of a disorganized index scan: throughput against the share read,
and how DB2's assumed constants move the curve (issue 32, item 4).

    .venv/bin/python bench/db2_index_side.py [--budget 1500] [--seed 1]
        [--sweep] [--device SSD --protocol zHPF]

Prints DB2 10 throughput (MB/s) and the mean prefetch I/O time (ms) at
5, 10, 25, 50, 75 and 100 % of the 28,000-track index for the six protocol ×
device curves, with the synchronous reads per scan (non-leaf pages and the
start-up window). With ``--sweep`` it also prints one curve (``--device``,
``--protocol``) with each assumed DB2 constant at ±30 % (whole numbers
rounded) and at a few whole values: the CPU per leaf page
(``cpu.INDEX_LEAF_US``), the lists in flight (``bufmgr.PREFETCH_ENGINES``)
and the leaves per non-leaf page (``dataset.NONLEAF_FANOUT``). "rises" says
whether every step from 10 to 75 % gains more than 5 % (the shape test's
criterion, tests/models/test_db2_index_side.py).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.db2 import bufmgr, cpu, dataset, runs  # noqa: E402
from models.experiments import run_experiment  # noqa: E402

SHARES = (5, 10, 25, 50, 75, 100)
VARIANTS = [(p, d) for p in ("zHPF", "FICON") for d in ("SSD", "HDD15K", "HDD10K")]


def curve(device, protocol, seed):
    out = [run_experiment("db2_index_scan", dict(device=device, protocol=protocol, pct_read=p),
                          seed=seed) for p in SHARES]
    return out


def rises(mb):
    pick = [mb[SHARES.index(p)] for p in (10, 25, 50, 75)]
    return all(b > 1.05 * a for a, b in zip(pick, pick[1:]))


def show(label, runs_):
    mb = [r.metrics["throughput_mb_s"] for r in runs_]
    ms = [r.metrics["io_ms"] for r in runs_]
    print(f"{label:22}" + "".join(f"{v:7.1f}" for v in mb)
          + "  |" + "".join(f"{v:6.2f}" for v in ms) + f"  {'rises' if rises(mb) else 'NO'}")


def patched(module, name, value):
    """Set ``module.name`` (and runs' copy of NONLEAF_FANOUT) to ``value``."""
    old = getattr(module, name)
    setattr(module, name, value)
    if name == "NONLEAF_FANOUT":
        runs.NONLEAF_FANOUT = value
    return old


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--device", default="SSD")
    ap.add_argument("--protocol", default="zHPF")
    a = ap.parse_args()
    runs.IO_BUDGET = a.budget
    t0 = time.perf_counter()
    print(f"DB2 10 index scan (28,000 tracks, cold), seed {a.seed}, I/O budget {a.budget}")
    print(f"{'':22}" + "".join(f"{p:6d}%" for p in SHARES) + "  | prefetch I/O ms by share")
    for p, d in VARIANTS:
        show(f"{p} {d}", curve(d, p, a.seed))
    if a.sweep:
        print(f"\n{a.protocol} {a.device}: each assumed DB2 constant moved alone")
        cases = [(cpu, "INDEX_LEAF_US", v) for v in (17.5, 25.0, 32.5)]
        cases += [(bufmgr, "PREFETCH_ENGINES", v) for v in (1, 2, 3, 4)]
        cases += [(dataset, "NONLEAF_FANOUT", v) for v in (204, 292, 380)]
        for mod, name, v in cases:
            old = patched(mod, name, v)
            try:
                show(f"{name}={v:g}", curve(a.device, a.protocol, a.seed))
            finally:
                patched(mod, name, old)
    print(f"wall {time.perf_counter() - t0:.1f} s")


if __name__ == "__main__":
    main()
