"""A fixed set of fixed-seed runs, figure by figure: the before/after check of speed work.

Each case is one :func:`models.experiments.run_experiment` call (every
built-in case study, plus a few parameter points that take other model
paths: a cold cache, FICON command mode, closed arrivals, sequential and
multi-page I/O), or the I/O configuration of ``bench/io_config_scale.py``
at a small size. Sizes are cut down so the whole set runs in about a
minute. :func:`figures` flattens a run into ``{"case/metric": value}``:
its metrics, its per-component figures, every number in its report
tables and, for traced runs, the trace's length and a digest of its
records.

``tests/models/data/fixed_runs.json`` holds the figures of the code
before the speed work of issue 29 (written by running this module with
``--write``); ``tests/models/test_fixed_runs.py`` compares today's code
with them.

    .venv/bin/python -m tests.models.fixed_runs [--write] [--only CASE]
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

DATA = Path(__file__).with_name("data") / "fixed_runs.json"

#: name -> (experiment, overrides, seed, traced). Small sizes: the set is a
#: regression check of the figures, not a calibration.
CASES: dict[str, tuple[str, dict, int, bool]] = {
    "program_fetch": ("program_fetch", {"iterations": 200}, 1, True),
    "program_fetch_pdse": ("program_fetch", {"library": "PDSE", "iterations": 100}, 7, False),
    "library_space": ("library_space", {}, 1, False),
    "spool_dump": ("spool_dump", {"files": 2000, "pages": 20000}, 1, True),
    "spool_load": ("spool_load", {"files": 2000, "pages": 20000, "tape_drives": 2}, 1, False),
    "natural_ziip": ("natural_ziip", {"records": 2000}, 1, True),
    "db2_io": ("db2_io", {}, 1, True),
    "db2_io_cold_ficon": ("db2_io", {"cache": "cold", "protocol": "FICON", "channel": "FEx8"}, 42, False),
    "db2_io_contiguous": ("db2_io", {"cache": "cold", "layout": "contiguous", "pages": 64}, 7, False),
    "db2_skip_sequential": ("db2_skip_sequential", {"table_pages": 200000}, 1, False),
    "db2_runstats_sampling": ("db2_runstats_sampling", {"table_pages": 400000}, 1, False),
    "db2_index_scan": ("db2_index_scan", {"index_tracks": 2000}, 1, True),
    "vsam_rls": ("vsam_rls", {"transactions": 600}, 1, True),
    "vsam_rls_nonrls": ("vsam_rls", {"transactions": 400, "mode": "LSR"}, 7, False),
    "custom": ("custom", {"duration_s": 0.5}, 1, True),
    "custom_closed": ("custom", {"arrival": "closed", "duration_s": 0.5, "users": 40}, 7, False),
    "custom_seq_writes": ("custom", {"duration_s": 0.5, "read_pct": 40.0, "seq_pct": 30.0,
                                     "pages_per_io": 8, "io_rate": 3000.0}, 42, False),
}
#: The I/O configuration of bench/io_config_scale.py: (simulated s, I/O/s, seed).
IO_SCALE = {"io_config_scale": (0.25, 20_000.0, 1)}


def _numbers(prefix: str, value, out: dict) -> None:
    """Put every number inside ``value`` (nested lists and dicts) into ``out``."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, (int, float)):
        out[prefix] = float(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            _numbers(f"{prefix}/{k}", v, out)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _numbers(f"{prefix}/{i}", v, out)


def trace_digest(trace) -> str:
    """A digest of a trace's kept records (time, component name, kind name, payload)."""
    cols = trace.columns()
    h = hashlib.sha256()
    h.update(json.dumps([trace.components, trace.kinds]).encode())
    for name in cols.dtype.names:
        h.update(cols[name].tobytes())
    return h.hexdigest()[:16]


def run_case(name: str) -> dict:
    """The flat figures of case ``name``."""
    if name in IO_SCALE:
        return _run_io_scale(name, *IO_SCALE[name])
    from models.experiments import run_experiment

    exp, overrides, seed, traced = CASES[name]
    res = run_experiment(exp, overrides, seed=seed, trace=traced)
    out: dict = {}
    _numbers(f"{name}/metrics", dict(res.metrics), out)
    _numbers(f"{name}/components", {k: dict(v) for k, v in res.components.items()}, out)
    for table in res.reports:
        _numbers(f"{name}/table/{table.title}", [list(r) for r in table.rows], out)
    if res.trace is not None:
        out[f"{name}/trace/records"] = float(len(res.trace))
        out[f"{name}/trace/digest"] = trace_digest(res.trace)
    return out


def _run_io_scale(name: str, sim_s: float, rate: float, seed: int) -> dict:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        import io_config_scale
    finally:
        sys.path.pop(0)
    eng, system = io_config_scale.build(sim_s, rate, seed)
    eng.run()
    out: dict = {f"{name}/now": eng.now,
                 f"{name}/ios": float(sum(v.completed for v in system.volumes())),
                 f"{name}/path_waits": float(sum(v.path_waits for v in system.volumes()))}
    _numbers(f"{name}/components", system.component_figures(eng.now), out)
    return out


def all_cases() -> list[str]:
    return [*CASES, *IO_SCALE]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help=f"store the figures in {DATA}")
    ap.add_argument("--only", action="append", help="run only this case (repeatable)")
    args = ap.parse_args()
    names = args.only or all_cases()
    figs: dict = {}
    for name in names:
        t0 = time.perf_counter()
        figs.update(run_case(name))
        print(f"{name}: {time.perf_counter() - t0:.2f} s", file=sys.stderr)
    if args.write:
        DATA.parent.mkdir(exist_ok=True)
        DATA.write_text(json.dumps(figs, indent=0, sort_keys=True) + "\n")
        print(f"wrote {len(figs)} figures to {DATA}", file=sys.stderr)
    else:
        json.dump(figs, sys.stdout, indent=0, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
