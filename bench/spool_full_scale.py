"""Full-scale spool dump and load (34,000 files, 353,000 pages): figures and run times.

Usage: .venv/bin/python bench/spool_full_scale.py
"""
from __future__ import annotations

import time

from models.experiments import run_experiment


def main() -> None:
    for exp in ("spool_dump", "spool_load"):
        for program, drives in (("SPTAPE", 1), ("SPXTAPE", 1), ("SPXTAPE", 2)):
            t = time.perf_counter()
            m = run_experiment(exp, {"program": program, "tape_drives": drives}).metrics
            took = time.perf_counter() - t
            print(f"{exp:10} {program:7} drives={drives}  elapsed {m['elapsed_s']:8.0f} s  "
                  f"tapes {m['tapes']:3.0f}  change {m['tape_change_s']:5.0f} s  "
                  f"idle {m['system_idle_s']:5.0f} s  overlap {m['overlap_pct']:5.1f} %  "
                  f"cpu {m['cpu_s']:6.1f} s   (run {took:.2f} s)")


if __name__ == "__main__":
    main()
