"""``zperflab sweep``: the full cross product of parameter values, headless.

    zperflab sweep (EXPERIMENT | --scenario FILE) --over KEY=V1,V2,... [--over KEY2=...]
                   [--set KEY=VALUE] [--replications N] [--csv FILE | --json]
                   [--workers N | --dask ADDRESS] [--seed N]

Every combination is checked before anything runs (a bad key or value: one
line, status 2). The points run on a local process pool
(:func:`app.sweep.run_points`, all cores unless ``--workers``) or on an
existing Dask cluster (:func:`app.sweep.run_points_dask`), each through
:func:`models.studies.sweep.point_metrics`, the Sweep tab's point runner, so the
numbers are the same wherever they run. Progress goes to stderr at a
terminal.

Finished points are never lost. The output file is checked before
anything runs (a folder, a device or a missing folder: one line, status 2).
While the sweep runs, its ``--csv`` file is rewritten with the points
finished so far every :data:`CHECKPOINT_S` seconds; whatever stops it, the
points that finished are written, and a partial CSV ends with a line
``# PARTIAL SWEEP: …`` saying how many finished and why it stopped (a
partial ``--json`` has ``"complete": false`` and ``"stopped"``). The exit
status says which: 0 complete, 130 Ctrl-C, 143 SIGTERM (handled like
Ctrl-C: the first asks the points to stop, the pool is shut down), and
:data:`EXIT_PARTIAL` when the machinery failed (a pool process died, the
Dask scheduler went away, no Dask worker was left for a minute).
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import math
import signal
import sys
import threading
import time

from app import sweep as pool
from app.cli_common import (EXIT_INTERRUPTED, EXIT_TERMINATED, Progress, apply_settings,
                            drawing_of, fail, parse_sets, split_sets, stop_signals)
from models import experiments
from models.core.params import ParamError, json_value, parse_cli_value, shorten
from models.core.run import NotImplementedYet
from models.studies.sweep import (GridSpec, SweepCancelled, check_grid, grid_json, grid_rows,
                          grid_table, metric_headings, metric_order, param_heading)

#: What the first Ctrl-C (or SIGTERM) says during a sweep.
STOPPING = ("stopping the sweep: finished points are kept and written; running points stop at "
            "their next progress report (Ctrl-C again stops at once)")
#: Exit status of a sweep the machinery stopped part-way (its output holds
#: the points that finished).
EXIT_PARTIAL = 4
#: Seconds between rewrites of a running sweep's --csv file.
CHECKPOINT_S = 5.0


def add_parser(sub, seed_type, replications_type, workers_type) -> None:
    """Add the ``sweep`` subcommand to ``sub`` (the CLI's subparsers)."""
    s = sub.add_parser(
        "sweep", help="run the cross product of parameter values on all cores or a Dask cluster",
        epilog="Each --over adds an axis; the first changes slowest. Values are JSON where "
               "they parse (a JSON list after = gives values that contain commas). Progress "
               "shows on stderr at a terminal; Ctrl-C or SIGTERM stops the sweep and writes "
               "the points that finished (status 130 or 143); a sweep the machinery stopped "
               f"writes them too (status {EXIT_PARTIAL}). A partial CSV ends with a "
               "'# PARTIAL SWEEP' line.")
    s.add_argument("experiment", nargs="?",
                   help="experiment (its built-in case study is the drawing); optional "
                        "with --scenario")
    s.add_argument("--scenario", metavar="FILE", help="sweep the drawing in a scenario file")
    s.add_argument("--over", action="append", required=True, metavar="KEY=V1,V2,...",
                   help="a parameter and its values (repeat for a cross product); "
                        "LABEL.property=V1,V2 runs one component in each version "
                        "(SGDB2.drive=HDD 15K,SSD)")
    s.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="a parameter every point shares, or one component changed for "
                        "every point: LABEL.property=VALUE (SGDB2.drive=SSD)")
    s.add_argument("--replications", type=replications_type, default=1, metavar="N",
                   help="run each point over N seeds (SEED, SEED+1, …): mean and 95%% "
                        "confidence interval")
    out = s.add_mutually_exclusive_group()
    out.add_argument("--csv", metavar="FILE",
                     help="write CSV with titled columns to FILE ('-': stdout)")
    out.add_argument("--json", action="store_true", help="print one JSON object")
    where = s.add_mutually_exclusive_group()
    where.add_argument("--workers", type=workers_type, metavar="N",
                       help="local processes (default: all cores)")
    where.add_argument("--dask", metavar="ADDRESS",
                       help="run on an existing Dask cluster, e.g. tcp://scheduler:8786 "
                            "(needs the cluster extra; workers need zperflab installed)")
    s.add_argument("--seed", type=seed_type, default=experiments.DEFAULT_SEED)
    s.set_defaults(func=cmd_sweep)


def parse_over(items, base: dict) -> tuple[tuple[str, tuple], ...]:
    """``--over KEY=V1,V2,…`` items as (key, values) axes.

    Raises
    ------
    ParamError
        A malformed item, a key given twice (or also in ``--set``), no values.
    """
    axes: list = []
    for item in items:
        key, eq, text = item.partition("=")
        key = key.strip()
        if not eq or not key:
            raise ParamError(f"--over needs KEY=V1,V2,…, got '{shorten(item)}'")
        if key in base:
            raise ParamError(f"--over {key} is also given with --set: give it once")
        if any(key == k for k, _ in axes):
            raise ParamError(f"--over {key} is given twice: list all its values in one --over")
        values = _values(text)
        if not values:
            raise ParamError(f"--over {key} has no values: give KEY=V1,V2,…")
        axes.append((key, tuple(values)))
    return tuple(axes)


def _values(text: str) -> list:
    text = text.strip()
    if text.startswith("["):
        try:
            parsed = json_value(text)
        except ValueError:
            parsed = None
        if isinstance(parsed, list):
            return parsed
    return [parse_cli_value(v.strip()) for v in text.split(",") if v.strip()]


def _spec(args: argparse.Namespace) -> GridSpec:

    plain, changes = split_sets(args.set or [])
    base = parse_sets(plain)
    name, scenario = drawing_of(args)
    scenario, whatif = apply_settings(name, scenario, changes)
    # A component changed with --set cannot be an axis too.
    axes = parse_over(args.over, {**base, **dict.fromkeys(
        item.partition("=")[0].strip() for item in changes)})
    spec = GridSpec(name, axes, base, seed=args.seed, replications=args.replications,
                    scenario=None if scenario is None else scenario.to_dict())
    check_grid(spec)
    if args.dask is not None and not args.dask.strip():
        raise ParamError("--dask needs the scheduler's address, e.g. tcp://scheduler:8786 "
                         "(leave --dask out to run on this machine)")
    if args.csv and args.csv != "-":
        from app import atomic
        try:            # before any work: a folder, a device, a missing folder
            atomic.check_target(args.csv)
        except atomic.WriteError as exc:
            raise ParamError(f"--csv {exc}") from None
    if whatif:          # said once the sweep is known to start
        print(f"zperflab: what-if: {'; '.join(whatif)}", file=sys.stderr)
    return spec


def cmd_sweep(args: argparse.Namespace) -> int:

    try:
        spec = _spec(args)
    except ParamError as exc:
        return fail(str(exc))
    points = spec.points()
    combos = len(points) // spec.replications
    where = f"Dask at {args.dask}" if args.dask else \
        f"{args.workers or pool.default_workers()} local processes"
    print(f"zperflab: sweep {spec.experiment}: {combos} points × {spec.replications} "
          f"seed(s) = {len(points)} runs on {where}", file=sys.stderr)
    progress = Progress(f"sweep {spec.experiment}")
    cancel = threading.Event()
    start = time.monotonic()
    results: list = [None] * len(points)
    checkpoint = _Checkpoint(args, spec, results, combos)
    stopped, status = "", 0
    caught: list[int] = []

    def on_progress(done: int, total: int) -> None:
        progress(done / total)
        checkpoint.maybe()
    try:
        with stop_signals(cancel, STOPPING, caught):
            _run(args, spec, points, on_progress, cancel, results)
    except pool.SweepStopped as exc:
        _keep(results, exc.partial)
        stopped, status = str(exc), EXIT_PARTIAL
    except (SweepCancelled, KeyboardInterrupt) as exc:     # a second signal: at once
        _keep(results, getattr(exc, "partial", None))
        term = signal.SIGTERM in caught
        stopped = "stopped by SIGTERM" if term else "cancelled (Ctrl-C)"
        status = EXIT_TERMINATED if term else EXIT_INTERRUPTED
    except pool.ClusterError as exc:
        return fail(str(exc))
    except ParamError as exc:
        return _salvage(args, spec, checkpoint, "a point failed", fail(str(exc)))
    except NotImplementedYet as exc:
        print(f"zperflab: {exc}", file=sys.stderr)
        return _salvage(args, spec, checkpoint, "a point failed", 3)
    except Exception:
        _salvage(args, spec, checkpoint, "an internal error stopped it", 0)
        raise
    finally:
        progress.done()
    rows = grid_rows(spec, results)
    try:
        _write(args, spec, rows, combos, stopped)
    except OSError as exc:
        return fail(str(exc))
    took = time.monotonic() - start
    if stopped:
        dest = f" to {args.csv}" if args.csv and args.csv != "-" else ""
        print(f"zperflab: {stopped}: wrote the {len(rows)} of {combos} points that "
              f"finished{dest}", file=sys.stderr)
        return status
    print(f"zperflab: {combos} points ({len(points)} runs) in {took:.1f} s", file=sys.stderr)
    return 0


def _salvage(args, spec: GridSpec, checkpoint: "_Checkpoint", why: str, status: int) -> int:
    """After a failure: the --csv file gets the finished points, marked partial
    (it may hold a checkpoint already, which must not pass for the sweep's
    end); with nothing finished and no checkpoint, an old file stays as it was."""
    rows, total = grid_rows(spec, checkpoint.results), checkpoint.total
    if not checkpoint.on or not (rows or checkpoint.written):
        return status
    try:
        _write(args, spec, rows, total, why)
    except OSError as exc:
        print(f"zperflab: error: {shorten(str(exc), 300)}", file=sys.stderr)
        return status
    print(f"zperflab: {why}: wrote the {len(rows)} of {total} points that finished to "
          f"{args.csv}", file=sys.stderr)
    return status


def _keep(results: list, partial: list | None) -> None:
    """Points a runner reported finished that ``results`` does not hold yet."""
    for n, metrics in enumerate(partial or ()):
        if metrics is not None and n < len(results):
            results[n] = metrics


class _Checkpoint:
    """Rewrites a running sweep's --csv file with the points finished so far,
    at most every :data:`CHECKPOINT_S` seconds, marked as partial."""

    def __init__(self, args, spec: GridSpec, results: list, total: int) -> None:
        self.on = bool(args.csv and args.csv != "-")
        self.args, self.spec, self.results, self.total = args, spec, results, total
        self.last = time.monotonic()
        self.written = False

    def maybe(self) -> None:
        now = time.monotonic()
        if not self.on or now - self.last < CHECKPOINT_S:
            return
        self.last = now
        rows = grid_rows(self.spec, self.results)
        if rows and len(rows) < self.total:
            try:
                _write(self.args, self.spec, rows, self.total, "still running when written")
                self.written = True
            except OSError:
                pass            # the final write reports it; the sweep goes on


def _run(args, spec: GridSpec, points, progress, cancel, out) -> list:
    if args.dask:
        return pool.run_points_dask(args.dask, spec.runner, spec.experiment, points,
                                    spec.scenario, progress, cancel, out)
    return pool.run_points(spec.runner, spec.experiment, points, spec.scenario, args.workers,
                           progress, cancel, out)


def _write(args, spec: GridSpec, rows, total: int, stopped: str = "") -> None:
    """The output; a partial one says so (``stopped``: why it is partial)."""
    if args.json:
        doc = grid_json(spec, rows, total)
        if stopped:
            doc["stopped"] = stopped
        print(json.dumps(doc, indent=1))
        return
    if args.csv:
        text = csv_text(*grid_table(spec, rows))
        if stopped and len(rows) < total:
            text += partial_mark(len(rows), total, stopped)
        if args.csv == "-":
            sys.stdout.write(text)
        else:
            from app import atomic
            try:
                atomic.write(args.csv, text.encode("utf-8"))
            except atomic.WriteError as exc:
                raise OSError(str(exc)) from None
        return
    _print_rows(spec, rows)


def partial_mark(finished: int, total: int, why: str) -> str:
    """The last line of a partial CSV (a comment line to ``pandas`` and R's
    ``comment.char``; one cell to a spreadsheet)."""
    why = " ".join(why.replace(",", ";").split())
    return f"# PARTIAL SWEEP: {finished} of {total} points finished; {why}\n"


def csv_text(header, cells) -> str:
    """CSV with a heading row; numbers to 10 significant digits (no float
    noise such as 0.19512000000000146), an empty cell for none."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for line in cells:
        w.writerow(["" if isinstance(c, float) and not math.isfinite(c)
                    else f"{c:.10g}" if isinstance(c, float)
                    else json.dumps(c) if isinstance(c, (dict, list)) else c for c in line])
    return buf.getvalue()


def _print_rows(spec: GridSpec, rows) -> None:
    """One block per point: the swept values, then each metric (mean ± half-width)."""
    names = metric_order(spec.experiment, rows)
    heads = metric_headings(spec.experiment, names)
    width = max([len(t) for t, _ in heads.values()] or [0])
    for row in rows:
        print(", ".join(f"{param_heading(spec.experiment, k)} = {_show(row.values[k])}"
                        for k, _ in spec.axes))
        for name in names:
            title, unit = heads[name]
            e = row.metrics.get(name)
            if e is None:
                continue
            ci = f" ± {_show(e.half)}" if spec.replications > 1 else ""
            print(f"  {title:{width}}  {_show(e.mean)}{ci} {unit}".rstrip())


def _show(c) -> str:
    if isinstance(c, float):
        return "—" if not math.isfinite(c) else f"{c:.6g}"
    return json.dumps(c) if isinstance(c, (dict, list)) else str(c)
