"""How far do the published targets move when one model constant moves?

Each entry of :data:`REGISTRY` names a constant (``module``, ``attribute``,
where it comes from, which experiments read it). The bench moves one
constant at a time by each ``--factor`` (``0.1,0.3`` = to 0.7×, 0.9×, 1.1×
and 1.3× its value), re-runs the targets of those experiments through the
public tools (``models.studies.calibration.load_targets`` and ``validate``, the
same path as ``zperflab validate``) and prints, for every target, how far
its model value moved (relative to the unperturbed run) and whether its
verdict flipped. docs/model-constants.md lists every constant with its
source and these tables.

Monkeypatching works only for a value the models read when they run. The
bench refuses a constant it cannot perturb honestly, and says why:

* another module under ``models/`` copies it at import
  (``from module import NAME``),
* its own module derives another module-level value from it at import
  (``_RATE = 1 / NAME``): the patch would not reach that copy, or
* (a drive profile) another module picks the profile at import
  (``_PROFILE = profile("3390")``).

``attribute`` is ``NAME`` for a module global, ``OBJECT.field`` for a field
of a shared frozen dataclass instance (the CPU model's ``DEFAULT_COSTS``:
every model holds that same instance, so its field is changed in place), or
``TABLE[key].field`` for a field of one frozen entry of a module-level dict
(the drive profiles: the entry is replaced by a copy with the field moved,
and put back after). An integer constant is rounded; where rounding leaves
it unchanged at a factor, that column says so and nothing is run.

Add constants of other models by appending to ``REGISTRY``.

Usage::

    .venv/bin/python bench/sensitivity.py                 # every constant, ±20 %
    .venv/bin/python bench/sensitivity.py --factor 0.1,0.3 --only models.io.backend
    .venv/bin/python bench/sensitivity.py --only DA_OP_S --targets E6 --markdown
    .venv/bin/python bench/sensitivity.py --all-targets   # every target for every constant (slow)
    .venv/bin/python bench/sensitivity.py --list          # the registry, refusals included; runs nothing
"""
from __future__ import annotations

import argparse
import ast
import dataclasses
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
DB2 = ("db2_io", "db2_skip_sequential", "db2_runstats_sampling", "db2_index_scan")
NATURAL = ("natural_ziip",)
FETCH = ("program_fetch", "library_space")
#: Experiments whose DASD I/O runs through models/io (spool and program fetch
#: have their own volume models; program fetch reads the drive profiles and
#: the channel's protocol costs).
DASD = (*DB2, "vsam_rls")
DRIVES = (*DASD, *FETCH)

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
    Global("models.spool.spxtape", "READERS_PER_VOLUME", "DUMP reader tasks (assumed)", SPOOL),
    Global("models.spool.spxtape", "SECTION_PAGES", "32-page sections (z/VM SSQBK)", SPOOL),
    Global("models.cics.logger", "LGDFINT_MS", "log defer interval (CICS TS default)",
           ("vsam_rls",)),
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
    # -- DB2 / I/O (docs/model-db2.md, docs/model-io.md, docs/model-constants.md) ----------
    # The back end's constants reach every experiment that reads DASD through
    # models/io (the drive profiles program fetch too); the staging and DB2
    # ones only case study E.
    # The channel's protocol costs are also read by program fetch's volumes.
    *[Global(module, name, source, DASD if module.endswith(("backend", "writes", "volume"))
             else DRIVES)
      for module, name, source in (
          ("models.io.backend", "DA_OP_S", "DA work per stage: assumed (no citable figure)"),
          ("models.io.backend", "DA_BYTES_S",
           "8 Gbit/s DA port: 2 Gbit/s = ~200 MB/s (DS6000 C&A p. 237) x 4"),
          ("models.io.backend", "SSD_RANK_BYTES_S", "SSD rank MB/s: assumed (fit to E8)"),
          ("models.io.backend", "READ_AHEAD_BYTES", "drive look-ahead segment: assumed"),
          ("models.io.backend", "DRIVE_CYLINDERS", "tracks per surface: assumed 1e5 "
           "(Savvio 10K.4: 147,620)"),
          ("models.io.backend", "STRIP_BYTES", "DS8000 array strip (no page cited)"),
          ("models.io.devices", "PROFILES[SSD].access_ms", "SSD read access: assumed, "
           "bounded by E9 (0.25 ms flips it)"),
          ("models.io.devices", "PROFILES[SSD].media_mb_s", "SSD drive media rate: assumed"),
          ("models.io.devices", "PROFILES[SSD].parallelism", "SSD internal lanes: assumed"),
          ("models.io.devices", "PROFILES[HDD10K].avg_seek_ms", "Savvio 10K.4 manual p. 9"),
          ("models.io.devices", "PROFILES[HDD10K].settle_ms",
           "assumed (Savvio 10K.4: 0.30 ms single track)"),
          ("models.io.devices", "PROFILES[HDD10K].media_mb_s",
           "Savvio 10K.4 maximum: 135 MB/s (72-135)"),
          ("models.io.devices", "PROFILES[HDD10K].access_ms",
           "assumed (Savvio 10K.4: 0.2 ms overhead)"),
          ("models.io.devices", "PROFILES[HDD15K].avg_seek_ms", "DOMAIN.md (no page)"),
          ("models.io.devices", "PROFILES[HDD15K].settle_ms", "assumed"),
          ("models.io.devices", "PROFILES[HDD15K].media_mb_s",
           "Savvio 15K.3 maximum: 202 MB/s (151-202)"),
          ("models.io.devices", "PROFILES[HDD15K].access_ms", "assumed"),
          ("models.io.devices", "PROFILES[3390].avg_seek_ms", "IBM 3390 reference summary"),
          ("models.io.channel", "START_S", "channel start and CU accept: estimate"),
          ("models.io.channel", "CCW_S", "one CCW exchanged: estimate"),
          ("models.io.channel", "LR_DOMAIN_S", "one Locate Record domain: estimate"),
          ("models.io.channel", "TCW_S", "TCW decode: estimate"),
          ("models.io.channel", "ADDRESS_S", "one address of a list: estimate"),
          ("models.io.channel", "SLOT_S", "one 4 KB slot to the host adapter: estimate"),
          ("models.io.channel", "LR_SAME_TRACK_S", "Locate Record on the same track: estimate"),
          ("models.io.channel", "CHANNEL_4K_IOPS", "a dict: not a number"),
          ("models.io.writes", "NVS_FRACTION", "DS8000: NVS = 1/32 of cache"),
          ("models.io.volume", "SEQ_STREAMS", "streams followed per volume: assumed"))],
    *[Global(module, name, source, DB2)
      for module, name, source in (
          ("models.io.staging", "SEQ_TRIGGER_TRACKS",
           "per-track count trigger: assumed (2 streams skip-17, E7)"),
          ("models.io.staging", "SEQ_DENSITY_TRACKS", "prestage density window: assumed"),
          ("models.io.staging", "AMP_MAX_STRIPES", "AMP depth bound: assumed"),
          ("models.db2.cpu", "INDEX_LEAF_US", "~300 keys x ~100 instructions: assumed"),
          ("models.db2.cpu", "GETPAGE_US", "SG24-7942 order of magnitude"),
          ("models.db2.cpu", "SYNC_IO_US", "SG24-7942 order of magnitude"),
          ("models.db2.cpu", "PREFETCH_IO_US", "SG24-7942 order of magnitude"),
          ("models.db2.cpu", "PREFETCH_PAGE_US", "SG24-7942 order of magnitude"),
          ("models.db2.bufmgr", "PREFETCH_ENGINES", "two lists in flight: assumed"),
          ("models.db2.dataset", "NONLEAF_FANOUT", "leaves per non-leaf page: assumed "
           "(10-byte key)"),
          ("models.db2.bufmgr", "PREFETCH_AHEAD", "buffer-pool share ahead: assumed"),
          ("models.db2.access", "DETECTION_WINDOW", "DB2 docs: 5 of the last 8 getpages"),
          ("models.db2.access", "DETECTION_THRESHOLD", "DB2 docs: 5 of the last 8 getpages"))],
]


class Refused(Exception):
    """The constant cannot be perturbed by patching its module attribute."""


def _sources() -> dict[str, ast.Module]:
    out = {}
    for path in (ROOT / "models").rglob("*.py"):
        mod = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        out[mod] = ast.parse(path.read_text(encoding="utf-8"))
    return out


def _split(attribute: str) -> tuple[str, str | None, str | None]:
    """``NAME``, ``OBJ.field`` or ``TABLE[key].field`` → (name, key, field)."""
    head, _, field = attribute.partition(".")
    if "[" in head:
        name, key = head[:-1].split("[", 1)
        return name, key, field or None
    return head, None, field or None


def _picks_entry(node: ast.AST, table: str, key: str, getters: set[str]) -> bool:
    """Does ``node`` read ``table[key]`` or call one of the table's getters with
    ``key`` (``profile("3390")``)?"""
    for n in ast.walk(node):
        if (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == table
                and isinstance(n.slice, ast.Constant) and n.slice.value == key):
            return True
        if isinstance(n, ast.Call) and any(isinstance(a, ast.Constant) and a.value == key
                                           for a in n.args):
            fn = n.func.id if isinstance(n.func, ast.Name) else getattr(n.func, "attr", "")
            if fn in getters:
                return True
    return False


def bindings(g: Global, trees: dict[str, ast.Module]) -> list[tuple[str, str]]:
    """Every (module, name) that holds the constant: its own module, each module
    that imports it (``from m import NAME [as X]``), and their importers in turn.
    A module that imports it only to re-export it holds a binding too."""
    name = _split(g.attribute)[0]
    out, todo = [(g.module, name)], [(g.module, name)]
    while todo:
        src, sname = todo.pop()
        for mod, tree in trees.items():
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module == src:
                    for a in node.names:
                        if a.name == sname and (mod, a.asname or a.name) not in out:
                            out.append((mod, a.asname or a.name))
                            todo.append((mod, a.asname or a.name))
    return out


def _import_time_uses(tree: ast.Module, name: str, own: bool) -> str | None:
    """The first statement of ``tree`` that reads ``name`` when the module is
    imported: a module-level value, a default argument or a class attribute
    (``own``: the module defines ``name`` itself, so its definition is skipped)."""
    def reads(node) -> bool:
        return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
                   for n in ast.walk(node))

    funcs = {n.name: n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}

    def reads_via_call(node) -> bool:
        """A call made at import to one of the module's functions that reads ``name``."""
        return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in funcs
                   and reads(funcs[n.func.id]) for n in ast.walk(node))

    def walk(body):
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args
                if any(reads(d) for d in [*args.defaults, *args.kw_defaults] if d is not None) \
                        or any(reads(d) for d in node.decorator_list):
                    return f"def {node.name}(...): a default reads {name}"
                continue
            if isinstance(node, ast.ClassDef):
                hit = walk(node.body)
                if hit:
                    return hit
                continue
            if own and isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                    continue
            if reads(node) or reads_via_call(node):
                return ast.unparse(node).splitlines()[0]
        return None

    return walk(tree.body)


def check_perturbable(g: Global, trees: dict[str, ast.Module]) -> list[tuple[str, str]]:
    """The (module, name) bindings a patch of ``g`` must set; raise
    :class:`Refused` if a patch would not reach the models."""
    name, key, field = _split(g.attribute)
    if field is not None:
        # A field of a shared object: every importer holds the same instance
        # (and the same dict), so the one patch reaches them all, unless a
        # module picks the dict's entry at import.
        if key is not None:
            getters = {n.name for n in trees[g.module].body if isinstance(n, ast.FunctionDef)}
            for mod, tree in trees.items():
                for node in tree.body:
                    if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None \
                            and _picks_entry(node.value, name, key, getters):
                        line = ast.unparse(node).splitlines()[0]
                        raise Refused(f"{mod} picks {name}[{key}] at import: {line}")
        return [(g.module, name)]
    held = bindings(g, trees)
    for mod, local in held:
        line = _import_time_uses(trees[mod], local, own=(mod == g.module))
        if line:
            raise Refused(f"{mod} derives a value from {local} at import: {line}")
    return held


class _Patch:
    """Set a constant (a global in every module that holds it, a field of a
    shared frozen instance, or a field of one frozen entry of a module-level
    dict) and restore it."""

    def __init__(self, g: Global, held: list[tuple[str, str]] | None = None):
        self.module = importlib.import_module(g.module)
        name, self.key, field = _split(g.attribute)
        if not hasattr(self.module, name):
            raise Refused(f"{g.module} has no attribute {name}")
        obj = getattr(self.module, name)
        self.copies: list[tuple[object, str]] = []
        if self.key is not None:
            if not isinstance(obj, dict) or self.key not in obj or field is None:
                raise Refused(f"{g.module}.{name} has no entry {self.key!r} with a field")
            self.table, self.entry = obj, obj[self.key]
            self.owner, self.field = self.entry, field
        else:
            self.table = None
            self.owner = self.module if field is None else obj
            self.field = field or name
            if field is None:
                self.copies = [(m, n) for m, n in (held or []) if m != g.module]
        if not hasattr(self.owner, self.field):
            raise Refused(f"{g.module} has no attribute {g.attribute}")
        self.value = getattr(self.owner, self.field)
        if not isinstance(self.value, (int, float)) or isinstance(self.value, bool):
            raise Refused(f"{g.attribute} is not a number")

    def scaled(self, factor: float):
        """The value at ``factor``× (an integer rounded, at least 1)."""
        new = self.value * factor
        if isinstance(self.value, int):
            new = max(1, round(new))
        return new

    def _put(self, value) -> None:
        if self.table is not None:
            self.table[self.key] = (self.entry if value is self.value
                                    else dataclasses.replace(self.entry, **{self.field: value}))
            return
        object.__setattr__(self.owner, self.field, value)
        for mod, local in self.copies:
            setattr(importlib.import_module(mod), local, value)

    def set(self, factor: float):
        new = self.scaled(factor)
        self._put(new)
        return new

    def restore(self) -> None:
        self._put(self.value)


def _verdicts(targets: list[dict], seed: int) -> dict[str, tuple[bool, float | None]]:
    return {v.id: (v.ok, v.model) for v in calibration.validate(targets, seed=seed)}


def _factors(text: str) -> list[float]:
    """``"0.1,0.3"`` → [0.1, 0.3]; each in (0, 1)."""
    try:
        out = sorted({float(x) for x in text.split(",") if x.strip()})
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of numbers: {text!r}") from None
    if not out or any(not 0 < f < 1 for f in out):
        raise argparse.ArgumentTypeError(f"each factor must lie between 0 and 1: {text!r}")
    return out


def _pct(f: float) -> str:
    return f"{f * 100:+.0f} %"


def _cell(base: tuple[bool, float | None], got: tuple[bool, float | None] | None) -> str:
    """The relative move of one target's model value, and ``FLIP`` if its verdict changed."""
    if got is None:
        return "="
    (ok0, m0), (ok, m) = base, got
    if m is None or m0 is None:
        move = "n/a"
    elif m0 == 0:
        move = "0.0 %" if m == 0 else f"{m:.3g} (from 0)"
    else:
        move = f"{(m / m0 - 1) * 100:+.1f} %"
    if ok != ok0:
        move += " FLIP " + ("pass→fail" if ok0 else "fail→pass")
    return move


def _expect(e: dict) -> str:
    """A target's published expectation, short: ``0.64 ±20 %`` or ``0.75–1.05``."""
    if "value" in e:
        tol = (f"±{e['rel_tol'] * 100:.0f} %" if "rel_tol" in e
               else f"±{e['abs_tol']:g}" if "abs_tol" in e else "")
        return f"{e['value']:g} {tol}".strip()
    return f"{e.get('min', '')}–{e.get('max', '')}"


def _table(rows: list[list[str]], markdown: bool) -> str:
    if markdown:
        out = ["| " + " | ".join(rows[0]) + " |", "|" + "---|" * len(rows[0])]
        out += ["| " + " | ".join(r) + " |" for r in rows[1:]]
        return "\n".join(out)
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  " + "  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip()
                     for r in rows)


def _matches(text: str, pattern: str) -> bool:
    """``pattern`` is empty or a comma list of which any one is in ``text``."""
    return not pattern or any(p.strip() and p.strip() in text for p in pattern.split(","))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--factor", type=_factors, default=[0.2], metavar="F[,F...]",
                    help="relative change(s), each applied down and up: 0.2 = ±20 %% "
                         "(the default); 0.1,0.3 = ±10 %% and ±30 %%")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--all-targets", action="store_true",
                    help="re-run every target for every constant, not only its experiments'")
    ap.add_argument("--only", default="",
                    help="constants whose module.attribute contains this text (comma list: any)")
    ap.add_argument("--targets", default="",
                    help="only targets whose id contains this text (comma list: any)")
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    ap.add_argument("--list", action="store_true",
                    help="list the selected constants, refused ones with the reason; run nothing")
    args = ap.parse_args(argv)

    trees = _sources()
    chosen = []
    for g in REGISTRY:
        label = f"{g.module}.{g.attribute}"
        if not _matches(label, args.only):
            continue
        try:
            chosen.append((g, label, _Patch(g, check_perturbable(g, trees))))
        except Refused as why:
            print(f"REFUSED  {label}: {why}")
    if args.list:
        for g, label, patch in chosen:
            print(f"{label} = {patch.value:g}  [{g.source}]  → {', '.join(g.experiments)}")
        return 0
    if not chosen:
        print("no constant selected")
        return 0

    targets = [t for t in calibration.load_targets() if _matches(t["id"], args.targets)]
    wanted = set().union(*(g.experiments for g, _, _ in chosen)) if not args.all_targets else None
    run_base = [t for t in targets if wanted is None or t["experiment"] in wanted]
    t0 = time.time()
    base = _verdicts(run_base, args.seed)
    print(f"\nbaseline: {sum(ok for ok, _ in base.values())}/{len(base)} pass "
          f"(seed {args.seed}, {time.time() - t0:.0f} s)")
    signed = [-f for f in reversed(args.factor)] + list(args.factor)
    flips: dict[float, list[str]] = {f: [] for f in args.factor}
    for g, label, patch in chosen:
        subset = [t for t in run_base if args.all_targets or t["experiment"] in g.experiments]
        if not subset:
            print(f"\n{label}: no selected target reads it")
            continue
        t1 = time.time()
        runs: dict[float, dict | None] = {}
        values = []
        for f in signed:
            new = patch.scaled(1 + f)
            values.append(f"{new:g}")
            if new == patch.value:
                runs[f] = None          # an integer that rounds back: nothing to run
                continue
            patch.set(1 + f)
            try:
                runs[f] = _verdicts(subset, args.seed)
            finally:
                patch.restore()
        head = ["target", "published", "model", "verdict"] + [f"{_pct(f)} ({v})" for f, v in zip(signed, values)]
        rows = [head]
        for t in subset:
            tid = t["id"]
            m0 = base[tid][1]
            rows.append([tid, _expect(t["expect"]), "n/a" if m0 is None else f"{m0:.4g}",
                         "pass" if base[tid][0] else "FAIL"]
                        + [_cell(base[tid], None if runs[f] is None else runs[f][tid])
                           for f in signed])
            for f in signed:
                if runs[f] is not None and runs[f][tid][0] != base[tid][0]:
                    flips[abs(f)].append(f"{label} {_pct(f)}: {tid}")
        also = "".join(f"; also set in {m}" for m, _ in patch.copies) if patch.copies else ""
        print(f"\n{label} = {patch.value:g}  [{g.source}{also}]  ({time.time() - t1:.0f} s)")
        print(_table(rows, args.markdown))
        if any(r is None for r in runs.values()):
            print("  (= : the integer rounds back to its value at that factor; not run)")
    print()
    for f in args.factor:
        where = flips[f]
        print(f"flips at ±{f:.0%}: {len(where)}" + "".join(f"\n  {w}" for w in where))
    print(f"({time.time() - t0:.0f} s in all)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
