"""Which published targets flip when a calibrated global moves by ±20 %?

Each entry of :data:`REGISTRY` names a global (``module``, ``attribute``,
where it comes from). The bench moves one global at a time to 0.8× and
1.2× its value, re-runs the shared targets through the public tools
(``models.studies.calibration.load_targets`` and ``validate``, the same path as
``zperflab validate``) and prints the targets whose verdict differs from
the unperturbed run.

Monkeypatching works only for a value the models read when they run. The
bench refuses a global it cannot perturb honestly:

* another module under ``models/`` copies it at import
  (``from module import NAME``), or
* its own module derives another module-level value from it at import
  (``_RATE = 1 / NAME``): the patch would not reach that copy.

``attribute`` may be ``OBJECT.field`` for a field of a shared frozen
dataclass instance (the CPU model's ``DEFAULT_COSTS``): every model holds
that same instance, so its field is changed in place and restored after.

Add globals of other models by appending to ``REGISTRY``.

Usage::

    .venv/bin/python bench/sensitivity.py                 # every global, its experiments' targets
    .venv/bin/python bench/sensitivity.py --all-targets   # every target for every global (slow)
    .venv/bin/python bench/sensitivity.py --only spool    # globals whose module contains 'spool'
"""
from __future__ import annotations

import argparse
import ast
import importlib
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from models.studies import calibration  # noqa: E402


@dataclass(frozen=True)
class Global:
    """One calibrated global: where it lives, what it feeds, where it comes from."""

    module: str
    attribute: str
    source: str
    experiments: tuple[str, ...]


SPOOL = ("spool_dump", "spool_load")
NATURAL = ("natural_ziip",)
FETCH = ("program_fetch", "library_space")

REGISTRY: list[Global] = [
    # -- spool (docs/model-spool.md) ---------------------------------------------------
    Global("models.spool.costs", "IO_CPU_US", "CP path length per I/O (estimate)", SPOOL),
    Global("models.spool.costs", "PAGE_CPU_US", "CP path length per page moved (estimate)", SPOOL),
    Global("models.spool.costs", "FILE_CPU_US", "CP path length per file selected (estimate)", SPOOL),
    Global("models.spool.costs", "CREATE_FILE_US", "building a spool file on LOAD (estimate)", SPOOL),
    Global("models.spool.costs", "ALLOC_PAGE_US", "allocating a spool slot (estimate)", SPOOL),
    Global("models.spool.costs", "CHAIN_STEP_US", "one spool-file chain step (estimate)", SPOOL),
    Global("models.spool.costs", "OTHER_BURST_S", "CPU burst of other work (estimate)", SPOOL),
    Global("models.spool.spxtape", "STORAGE_SHARE", "calibrated once from C6", SPOOL),
    Global("models.spool.volume", "DASD_START_S", "channel + 3990 start per I/O (estimate)", SPOOL),
    Global("models.spool.placement", "ALLOCATION_PAGES", "one 3390 cylinder (DMKPGT)", SPOOL),
    Global("models.spool.setup", "FILE_HEADER_BYTES", "SPTAPE file header block (estimate)", SPOOL),
    # -- tape ------------------------------------------------------------------------------
    Global("models.tape.drive", "START_STOP_S", "3480-class backhitch (estimate)", SPOOL),
    Global("models.tape.drive", "IO_OVERHEAD_S", "tape command overhead (estimate)", SPOOL),
    Global("models.tape.drive", "CHANNEL_RATE_B_S", "4.5 MB/s channel (DOMAIN.md)", SPOOL),
    Global("models.tape.drive", "BUFFER_BYTES", "3490 A-unit 2 MB buffer", SPOOL),
    # -- CPU model / Natural (docs/model-cpu.md) --------------------------------------------
    *[Global("models.cpu.costs", f"DEFAULT_COSTS.{f}", src, NATURAL + FETCH)
      for f, src in (("switch_us", "D1-D4 algebra"), ("adabas_call_us", "D1-D2 algebra"),
                     ("access_call_us", "D3-D4 algebra"), ("statement_us", "D2, D4"),
                     ("move_ns_per_byte", "~1 GB/s, z196 class"),
                     ("svc_us", "typical SVC path length"),
                     ("open_close_us", "typical OPEN path length"),
                     ("compare_ns", "a few CLC/MVC"),
                     ("field_convert_us", "one statement's scale (estimate)"))],
    Global("models.natural.session", "STORAGE_INCREMENT_KB", "64 KB subpool unit (assumption)",
           NATURAL),
    # -- program fetch (docs/model-fetch.md) ------------------------------------------------
    *[Global("models.loadlib.costs", name, src, FETCH)
      for name, src in (("REDISPATCH_S", "dispatcher latency (estimate)"),
                        ("IO_INTERRUPT_US", "~3,000 instructions"),
                        ("CCW_US", "~500 instructions"),
                        ("PAGE_US", "~1,000 instructions"),
                        ("ADCON_US", "~20 instructions"),
                        ("DIR_ENTRY_US", "~50 instructions"),
                        ("PDSE_CONNECT_US", "~40,000 instructions"),
                        ("PDSE_INDEX_PAGE_US", "~2,000 instructions"),
                        ("PDSE_PAGE_US", "~1,500 instructions"),
                        ("LLA_LOOKUP_US", "~3,000 instructions"),
                        ("CSECT_BYTES", "typical load-module structure"),
                        ("BYTES_PER_ADCON", "typical load-module structure"),
                        ("MIN_FILL_BLOCK", "smallest track-fill block (estimate)"),
                        ("PDSE_NONLOAD_FRACTION", "program-object classes (estimate)"),
                        ("PDSE_RLD_BYTES_PER_ADCON", "relocation class (estimate)"))],
    # -- DB2 / I/O (docs/model-db2.md, docs/model-io.md) --------------------------------------
    # The back end's globals reach every experiment that reads DASD through
    # models/io; the DB2 ones only case study E.
    *[Global("models.io.backend", name, source,
             ("db2_io", "db2_skip_sequential", "db2_runstats_sampling", "db2_index_scan",
              "program_fetch", "library_space", "vsam_rls", "spool_dump", "spool_load"))
      for name, source in (
          ("DA_OP_S", "DS8800 device adapter work per stage (estimate, no citable figure)"),
          ("DA_BYTES_S", "8 Gbit/s FC device-adapter port (SG24-8886)"),
          ("SSD_RANK_BYTES_S", "DS8800 SSD rank (estimate from REDP-4862 RUNSTATS 99 %)"),
          ("READ_AHEAD_BYTES", "drive read look-ahead segment (estimate)"))],
    *[Global(module, name, source,
             ("db2_io", "db2_skip_sequential", "db2_runstats_sampling", "db2_index_scan"))
      for module, name, source in (
          ("models.io.staging", "DENSE_TRACK_SHARE", "LPO dense list: 71 % (E7) < x < 93 %"),
          ("models.io.staging", "AMP_MAX_STRIPES", "AMP depth bound (Gill & Bathen 2007)"),
          ("models.db2.cpu", "INDEX_LEAF_US", "~300 keys x ~100 instructions, zEC12"),
          ("models.db2.cpu", "GETPAGE_US", "SG24-7942 order of magnitude"),
          ("models.db2.cpu", "SYNC_IO_US", "SG24-7942 order of magnitude"),
          ("models.db2.cpu", "PREFETCH_IO_US", "SG24-7942 order of magnitude"),
          ("models.db2.bufmgr", "PREFETCH_AHEAD", "buffer-pool share ahead (estimate)"))],
]


class Refused(Exception):
    """The global cannot be perturbed by patching its module attribute."""


def _sources() -> dict[str, ast.Module]:
    out = {}
    for path in (ROOT / "models").rglob("*.py"):
        mod = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[mod] = ast.parse(path.read_text(encoding="utf-8"))
    return out


def check_perturbable(g: Global, trees: dict[str, ast.Module]) -> None:
    """Raise :class:`Refused` if a patch of ``g`` would not reach the models."""
    name = g.attribute.split(".")[0]
    for mod, tree in trees.items():
        if mod == g.module or mod.endswith("__init__"):
            continue        # a package re-export is not a use
        for node in ast.walk(tree):
            if (isinstance(node, ast.ImportFrom) and node.module == g.module
                    and any(a.name == name for a in node.names)):
                if "." in g.attribute:
                    continue    # a shared object: the importer holds the same instance
                raise Refused(f"{mod} copies {name} at import (from {g.module} import {name})")
    for node in trees[g.module].body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                continue
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node.value)):
                line = ast.unparse(node).splitlines()[0]
                raise Refused(f"{g.module} derives a value from {name} at import: {line}")


class _Patch:
    """Set a global (or a field of a shared frozen instance) and restore it."""

    def __init__(self, g: Global):
        self.module = importlib.import_module(g.module)
        parts = g.attribute.split(".")
        self.owner = self.module if len(parts) == 1 else getattr(self.module, parts[0])
        self.field = parts[-1]
        if not hasattr(self.owner, self.field):
            raise Refused(f"{g.module} has no attribute {g.attribute}")
        self.value = getattr(self.owner, self.field)
        if not isinstance(self.value, (int, float)) or isinstance(self.value, bool):
            raise Refused(f"{g.attribute} is not a number")

    def set(self, factor: float):
        new = self.value * factor
        if isinstance(self.value, int):
            new = max(1, round(new))
        object.__setattr__(self.owner, self.field, new)
        return new

    def restore(self) -> None:
        object.__setattr__(self.owner, self.field, self.value)


def _verdicts(targets: list[dict], seed: int) -> dict[str, tuple[bool, float | None]]:
    return {v.id: (v.ok, v.model) for v in calibration.validate(targets, seed=seed)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--factor", type=float, default=0.2, help="relative change (0.2 = ±20 %%)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--all-targets", action="store_true",
                    help="re-run every target for every global, not only its experiments'")
    ap.add_argument("--only", default="", help="globals whose module contains this text")
    args = ap.parse_args(argv)

    targets = calibration.load_targets()
    trees = _sources()
    t0 = time.time()
    base = _verdicts(targets, args.seed)
    print(f"baseline: {sum(ok for ok, _ in base.values())}/{len(base)} pass "
          f"(seed {args.seed}, {time.time() - t0:.0f} s)\n")
    flips_total = 0
    for g in REGISTRY:
        if args.only and args.only not in g.module:
            continue
        label = f"{g.module}.{g.attribute}"
        try:
            check_perturbable(g, trees)
            patch = _Patch(g)
        except Refused as why:
            print(f"REFUSED  {label}: {why}")
            continue
        subset = (targets if args.all_targets
                  else [t for t in targets if t["experiment"] in g.experiments])
        line = []
        for sign in (-1, 1):
            new = patch.set(1 + sign * args.factor)
            try:
                got = _verdicts(subset, args.seed)
            finally:
                patch.restore()
            flips = [f"{tid} {'PASS→FAIL' if base[tid][0] else 'FAIL→PASS'} "
                     f"({base[tid][1]:.4g}→{model:.4g})" if model is not None else tid
                     for tid, (ok, model) in got.items() if ok != base[tid][0]]
            flips_total += len(flips)
            # The largest move of any compared value shows the patch reached the model.
            moves = [(abs(m / base[tid][1] - 1), tid) for tid, (_, m) in got.items()
                     if m is not None and base[tid][1]]
            top = max(moves, default=(0.0, "-"))
            line.append(f"  {'-' if sign < 0 else '+'}{args.factor:.0%} ({new:g}): "
                        + ("no flips" if not flips else "; ".join(flips))
                        + f"  [largest move {top[0]:.1%} {top[1]}]")
        print(f"{label} = {patch.value:g}  [{g.source}]")
        print("\n".join(line))
    print(f"\n{flips_total} flips in all ({time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
