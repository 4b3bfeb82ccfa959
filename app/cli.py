"""The ``zperflab`` command: the desktop app, ``run``, ``sweep``, ``validate`` and ``gui``.

``run --replications N`` runs the drawing over the seeds ``--seed``,
``--seed`` + 1, … and reports each metric's mean and 95 % confidence
interval (:mod:`models.studies.replicate`). ``sweep`` runs the cross product of its
``--over`` values on all cores (:func:`app.sweep.run_points`) or on a Dask
cluster (``--dask``), each point through :func:`models.studies.sweep.point_metrics`
like the GUI's Sweep tab, and writes CSV with human column names or JSON.

``--set LABEL.property=VALUE`` (``run`` and ``sweep``) changes one component
of the drawing in place, by its canvas label (``SGDB2.drive=SSD``,
:mod:`models.drawing.variants`); ``--set KEY=VALUE`` without a dot sets a
parameter as before. ``run`` names the change ("What-if: SGDB2 on SSD") and
the cards that took no part in the run (``"whatif"`` and ``"idle_cards"`` in
``--json``).

Bad input (an unknown experiment or key, a value out of range, an unreadable
targets file) prints one line to stderr and exits with status 2; the value
it echoes is shortened and its control characters escaped. Long runs show
their progress on stderr when it is a terminal, warn when they will take
more than a few minutes, and stop cleanly on Ctrl-C (status 130); SIGTERM
stops ``run`` at once with one line (status 143, nothing on stdout). An
unexpected failure is one line too (status 70; ``ZPERFLAB_DEBUG=1`` shows
the traceback).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import threading
import traceback
from typing import Mapping, Sequence

from app import history
from app.names import format_number, metric_title, param_value_text, words
from app.cli_common import (EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_TERMINATED, Parser, Progress,
                            Terminated, apply_settings, drawing_of, fail, parse_sets,
                            split_sets, stop_signals)
from models import experiments
from models.studies import calibration, replicate
from models.core.params import ParamError, shorten
from models.core.run import Cancelled, NotImplementedYet, RunResult
from models.drawing.config import from_scenario, idle_cards
from models.workloads import params as wp
from models.workloads.system import workload_values

def _seed(text: str) -> int:
    """``--seed``: a whole number 0 to 2**63-1."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2 ** 63:
        raise argparse.ArgumentTypeError(f"must be a whole number 0–{2 ** 63 - 1}")
    return value


def _fmt(v: object) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    return str(v)


def cmd_run(args: argparse.Namespace) -> int:
    cancel = threading.Event()
    try:
        plain, changes = split_sets(args.set or [])
        overrides = parse_sets(plain)
        name, scenario = drawing_of(args)
        scenario, whatif = apply_settings(name, scenario, changes)
        reps = args.replications
        progress = Progress(f"run {name}" + (f" × {reps} seeds" if reps else ""))
        warmup = {"warmup_s": args.warmup} if args.warmup else {}
        result: RunResult | replicate.Replicated
        try:
            with stop_signals(cancel, term_at_once=True):
                if reps:
                    result = replicate.replicate(name, overrides, reps, args.seed, scenario,
                                                 progress, cancel, args.warmup)
                else:
                    result = experiments.run_experiment(name, overrides, seed=args.seed,
                                                        scenario=scenario, progress=progress,
                                                        cancel=cancel, **warmup)
        finally:
            progress.done()
    except ParamError as exc:
        return fail(str(exc))
    except NotImplementedYet as exc:
        print(f"zperflab: {exc}", file=sys.stderr)
        return 3
    except Cancelled:
        print("zperflab: cancelled (Ctrl-C): no result", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print("zperflab: stopped by SIGTERM: no result", file=sys.stderr)
        return EXIT_TERMINATED
    # The drawing as the run edited it (its --set hardware values), where the
    # head reads each workload's own values from it (Your own system).
    ran = experiments.prepare(name, overrides, scenario)[1]
    drawn = ran if _workload_params(experiments.get(result.experiment)) else None
    idle = {ran.nodes[i].label: why for i, why in idle_cards(ran).items()}
    if args.json:
        out = result.as_json()
        out["whatif"], out["idle_cards"] = whatif, idle
        per = _workload_values(experiments.get(result.experiment), result.params, drawn)
        if per is not None:
            # What each drawn workload ran with ("params" holds the run's values).
            out["workloads"] = {w: {k: v for k, v in vals.items() if wp.applies(k, vals)}
                                for w, vals in per.items()}
        print(json.dumps(out, indent=1))
        return 0
    if isinstance(result, replicate.Replicated):     # --replications N
        _print_replicated(result, drawn, _whatif_lines(whatif, idle))
    else:
        exp = _print_head(result.experiment, result.params, f"seed {result.seed}", drawn)
        print(*_whatif_lines(whatif, idle), sep="\n", end="\n" if whatif or idle else "")
        print("Metrics:")
        _print_pairs([(title, f"{_fmt(v)} {unit}".rstrip())
                      for k, v in result.metrics.items()
                      for title, unit in [metric_title(exp, k)]])
        for table in result.reports:
            _print_table(_as_whatif(table, whatif))
    return 0


def _as_whatif(table, whatif: list[str]):
    """The Measured vs model table of a what-if names the change: RMF measured
    the system as imported, the run is the what-if, not "the model" of it."""
    from dataclasses import replace

    from models.rmf.measured import TABLE_TITLE
    if not whatif or table.title != TABLE_TITLE:
        return table
    names = {"measured": "RMF measured", "model": "what-if",
             "difference": "what-if − measured"}
    # The reasons explain the model's gap to RMF; a what-if's gap is its change.
    keep = [i for i, c in enumerate(table.columns) if c != "likely reason"]
    return replace(table, title=f"Measured vs what-if: {'; '.join(whatif)}",
                   columns=tuple(names.get(table.columns[i], table.columns[i]) for i in keep),
                   rows=tuple(tuple(row[i] for i in keep) for row in table.rows),
                   note="measured: RMF's figures of the system as imported; what-if: "
                        f"the run with {'; '.join(whatif)}")


def _print_head(name: str, params, runs: str, drawing=None):
    """The run's title line and its parameter values, named as the
    inspector names them; returns the experiment. ``drawing``: the run's
    drawing, where each workload carries its own values (see _param_rows)."""
    exp = experiments.get(name)
    print(f"{exp.title}, {runs}")
    _print_pairs(_param_rows(exp, params, drawing))
    return exp


def _param_rows(exp, params: Mapping, drawing) -> list[tuple[str, str]]:
    """(title, value) of each parameter of the run.

    Where the drawing's workloads each carry their own values (Your own
    system), a parameter reads as the workloads ran it, by canvas label
    ("OLTP: 160000 I/O/s; Batch: 40000 I/O/s"), or once when they agree; one
    that no drawn workload uses is left out (the CPU demand of a drawing
    without a CPU workload, the users of an open workload). Otherwise the
    run's value.
    """
    per = _workload_values(exp, params, drawing)
    if per is None:
        return [(p.title, param_value_text(p, params[p.name])) for p in exp.schema.params]
    rows = []
    for p in exp.schema.params:
        texts = [(w, param_value_text(p, vals[p.name])) for w, vals in per.items()
                 if p.name in vals and wp.applies(p.name, vals)]
        if not texts:
            continue
        if len(texts) == len(per) and len({t for _, t in texts}) == 1:
            rows.append((p.title, texts[0][1]))     # every workload ran it alike
        else:
            rows.append((p.title, "; ".join(f"{w}: {t}" for w, t in texts)))
    return rows


def _workload_params(exp) -> bool:
    """Whether the experiment's parameters are the drawn workloads' own."""
    return all(p.name in wp.BY_NAME for p in exp.schema.params)


def _workload_values(exp, params: Mapping, drawing) -> dict | None:
    """Each drawn workload's values as the run used them, by canvas label, when
    the experiment's parameters are the workloads' own; else None."""
    if drawing is None or not _workload_params(exp):
        return None
    try:
        per = workload_values(from_scenario(drawing), dict(params))
    except (ValueError, KeyError):
        return None
    return per or None


def _print_pairs(rows: list[tuple[str, str]]) -> None:
    """Indented ``title  value`` lines, the values lined up."""
    width = max((len(title) for title, _ in rows), default=0)
    for title, text in rows:
        print(f"  {title:{width}}  {text}".rstrip())


def _print_table(table) -> None:
    """A report table: its title, headings and rows (identifiers in words, as
    the results panel shows them)."""
    print(f"\n{table.title}")
    print("  " + " | ".join(table.columns))
    for row in table.rows:
        print("  " + " | ".join(_fmt(words(c)) for c in row))


def _whatif_lines(whatif: list[str], idle: Mapping[str, str]) -> list[str]:
    """What the run changed on the drawing (``--set LABEL.property=VALUE``) and
    the cards that took no part in it, one line each (none when neither)."""
    out = [f"What-if: {'; '.join(whatif)}"] if whatif else []
    if idle:
        shown = [f"{label} ({why})" for label, why in list(idle.items())[:8]]
        more = f"; and {len(idle) - 8} more" if len(idle) > 8 else ""
        out.append(f"Took no part in the run: {'; '.join(shown)}{more}")
    return out


def _print_replicated(rep: replicate.Replicated, drawing=None, lines=()) -> None:
    exp = _print_head(rep.experiment, rep.params,
                      f"{rep.n} replications, seeds {rep.seeds[0]}–{rep.seeds[-1]}", drawing)
    for line in lines:
        print(line)
    print("Metrics (mean ± half-width of the 95 % confidence interval):")
    _print_pairs([(title, e.text(_fmt, rep.n, unit))
                  for k, e in rep.metrics.items()
                  for title, unit in [metric_title(exp, k)]])
    print(rep.warmup_line())
    for note in rep.notes:
        print(note)
    table = rep.component_table()
    if table is not None:
        _print_table(table)
    print("\nRMF-style reports are per run: zperflab run without --replications prints them.")


def _replications(text: str) -> int:
    """``--replications``: a whole number 2 to 1000."""
    try:
        return replicate.check_replications(int(text))
    except (ValueError, ParamError):
        raise argparse.ArgumentTypeError(
            f"must be a whole number 2–{replicate.MAX_REPLICATIONS} (a confidence interval "
            "needs at least two runs)") from None


def _warmup(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0.0 <= value < 1e9:
        raise argparse.ArgumentTypeError("must be simulated seconds, 0 or more")
    return value


def _workers(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= 4096:
        raise argparse.ArgumentTypeError("must be a whole number 1–4096")
    return value


def cmd_validate(args: argparse.Namespace) -> int:
    try:
        targets = calibration.load_targets(args.targets)
    except calibration.TargetsError as exc:
        return fail(str(exc))
    progress = Progress("validate")
    try:
        verdicts = calibration.validate(targets, seed=args.seed,
                                        progress=lambda i, n: progress(i / n))
    finally:
        progress.done()
    passed = sum(v.ok for v in verdicts)
    if args.json:
        print(json.dumps({"results": [v.as_json() for v in verdicts],
                          "passed": passed, "total": len(verdicts)}, indent=1))
    else:
        for v in verdicts:
            mark = "PASS" if v.ok else "FAIL"
            shown = "—" if v.model is None else f"{v.model:.4g}"
            exp = v.expected
            want = (f"{exp.get('min', '-inf')}–{exp.get('max', 'inf')}" if "value" not in exp
                    else f"{exp['value']} ± {exp.get('rel_tol', 0) * 100:g}%" if "rel_tol" in exp
                    else f"{exp['value']} ± {exp['abs_tol']}")
            tail = f"  ({v.error})" if v.error else ""
            print(f"{mark}  {v.id:34} model {shown:>10}  published {want}{tail}")
        print(f"{passed} passed, {len(verdicts) - passed} failed")
    return 0


class _Version(argparse.Action):
    """``--version``: the rows of Help ▸ About (:func:`app.settings.about`);
    Qt is loaded only when asked."""

    def __init__(self, option_strings, dest, **kwargs):
        super().__init__(option_strings, dest, nargs=0,
                         help="show the version, the Python and Qt versions and where "
                              "your data lives, and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        from app import settings
        print(settings.about_text())
        parser.exit(0)


def _build_parser() -> argparse.ArgumentParser:
    p = Parser(prog="zperflab", description="zPerfLab: mainframe I/O and CPU performance lab. "
                "Without a command, opens the desktop app.")
    p.add_argument("--version", action=_Version)
    sub = p.add_subparsers(dest="command", parser_class=Parser)

    r = sub.add_parser(
        "run", help="run one experiment headless",
        epilog="Some values are valid but run for a long time: near their maxima, "
               "vsam_rls transactions (10,000,000: about 2 h) and requests_per_tran "
               "(1000: about 15 min), or a library_space member list of many thousands. "
               "A run estimated at over 3 minutes says so on stderr soon after it starts; "
               "progress shows on stderr when it is a terminal, and Ctrl-C stops the run "
               "cleanly (status 130); SIGTERM stops it at once (status 143).")
    r.add_argument("experiment", nargs="?",
                   help="experiment (its built-in case study is the drawing); optional "
                        "with --scenario")
    r.add_argument("--scenario", metavar="FILE",
                   help="run the drawing in a scenario file (--set edits a copy)")
    r.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="set a parameter (JSON value where it parses), or change one "
                        "component by its canvas label: LABEL.property=VALUE "
                        "(SGDB2.drive=SSD, CHP40.protocol=zHPF)")
    r.add_argument("--json", action="store_true", help="print one JSON object")
    r.add_argument("--seed", type=_seed, default=experiments.DEFAULT_SEED,
                   help="run seed (with --replications: the first of the seeds SEED, "
                        "SEED+1, …)")
    r.add_argument("--replications", type=_replications, metavar="N",
                   help="run N seeds and report each metric's mean and 95%% confidence "
                        "interval (\"ci95\" in --json)")
    r.add_argument("--warmup", type=_warmup, default=0.0, metavar="SECONDS",
                   help="leave the first simulated SECONDS out of the figures (models with "
                        "open arrivals; the report says how much was removed)")
    r.set_defaults(func=cmd_run)

    from app import sweep_cli
    sweep_cli.add_parser(sub, _seed, _replications, _workers)
    from app import rmf_cli
    rmf_cli.add_parser(sub)
    from app import calibrate_cli
    calibrate_cli.add_parser(sub)
    from app import predict_cli
    predict_cli.add_parser(sub, _seed)

    v = sub.add_parser("validate", help="compare the model with published figures")
    v.add_argument("--targets", help="targets file (default: the bundled copy)")
    v.add_argument("--json", action="store_true")
    v.add_argument("--seed", type=_seed, default=experiments.DEFAULT_SEED)
    v.set_defaults(func=cmd_validate)

    h = sub.add_parser("history", help="list the recorded runs, newest first")
    history.add_arguments(h)

    e = sub.add_parser(
        "export", help="run a case study or scenario file and write slides, tables or a chart",
        epilog="The format comes from OUT's extension: .pptx the slide deck, .csv the results "
               "tables, .png or .svg one chart (the first, or --chart NAME). The same code as "
               "the app's Export menu. With --whatif the deck is before/after: each chart "
               "of the baseline beside the what-if's, named, and on a drawing imported from "
               "RMF the measured figures beside both.")
    e.add_argument("case", metavar="CASE_OR_FILE", help="built-in case study or scenario file")
    e.add_argument("out", nargs="?", metavar="OUT", help="file to write (.pptx, .csv, .png, .svg)")
    e.add_argument("--chart", metavar="NAME", help="the chart to write (a name or title from "
                   "--list-charts)")
    e.add_argument("--set", action="append", metavar="KEY=VALUE",
                   help="set a parameter on the drawing before the run")
    e.add_argument("--whatif", action="append", metavar="LABEL.PROPERTY=VALUE",
                   help="run the drawing as it is (the baseline) and again with this "
                        "component changed (e.g. SGDB2.drive=SSD; repeatable: all in one "
                        "what-if), and write a before/after deck (.pptx) or table (.csv)")
    e.add_argument("--list-charts", action="store_true", help="name the run's charts and exit")
    e.add_argument("--timeout", type=float, default=600.0, metavar="SECONDS",
                   help="give up on a run after this long (default 600)")
    e.set_defaults(func=cmd_export)

    g = sub.add_parser("gui", help="open the desktop app (options for headless screenshots)")
    g.add_argument("--open", metavar="CASE_OR_FILE", help="built-in case study or scenario file")
    g.add_argument("--run", action="store_true", help="run the scenario after opening it")
    g.add_argument("--view", choices=("canvas", "charts", "animation", "history", "sweep", "compare"),
                   help="the tab in front (default: the canvas)")
    g.add_argument("--size", default=None,
                   help="window size WxH (default: 1280x800 for --screenshot; on a screen, "
                        "1280x800 where it fits with its title bar, else the screen's "
                        "available area)")
    g.add_argument("--screenshot", metavar="FILE", help="render the window to FILE and exit")
    g.set_defaults(func=cmd_gui)
    # Guided lessons (docs/lessons.md).
    g.add_argument("--lesson", metavar="NAME",
                   help="start a lesson in presentation mode (see 'zperflab lessons')")
    g.add_argument("--step", type=int, metavar="K",
                   help="with --lesson: show step K (from 1)")
    g.add_argument("--no-present", dest="present", action="store_false",
                   help="with --lesson: the normal window with the lesson's caption band, "
                        "not presentation mode")
    les = sub.add_parser("lessons", help="list the guided lessons (name, title, steps); check "
                         "them; print one as a handout")
    les.add_argument("name", nargs="?", metavar="NAME", help="one lesson (with --text or --check)")
    les.add_argument("--check", action="store_true",
                     help="run each lesson headless and check every claim it makes about its "
                          "runs and every moment and figure it names; exit 1 if one fails "
                          "(chart names are checked by the GUI tests)")
    les.add_argument("--json", action="store_true",
                     help="with --check: print the claims as a JSON list of {lesson, step, "
                          "claim, holds, value}")
    les.add_argument("--text", action="store_true",
                     help="print lesson NAME as a handout, every figure filled in from its runs")
    les.set_defaults(func=cmd_lessons)
    return p


def cmd_export(args: argparse.Namespace) -> int:
    try:
        args.sets = parse_sets(args.set or [])
    except ParamError as exc:
        return fail(str(exc))
    if not args.list_charts and not args.out:
        return fail("export needs OUT (a .pptx, .csv, .png or .svg file), or --list-charts")
    from app.gui import export  # Qt only when an export is wanted
    return export(args)


def cmd_lessons(args: argparse.Namespace) -> int:
    """List the lessons (tour first); --check runs and checks them; NAME
    --text prints one as a handout."""
    from app import lesson_figures, lessons

    try:
        found = [lessons.get(args.name)] if args.name else lessons.load_all()
    except lessons.LessonError as exc:
        return fail(str(exc))
    if args.json and not args.check:
        return fail("--json goes with --check")
    if args.text:
        if not args.name or args.check:
            return fail("--text prints one lesson: zperflab lessons NAME --text")
        results, problems = lessons.run_all(found[0])
        for line in problems:
            print(f"zperflab: error: {line}", file=sys.stderr)
        print(lesson_figures.handout(found[0], results), end="")
        return 1 if problems else 0
    if not args.check:
        width = max(len(lesson.name) for lesson in found)
        for lesson in found:
            print(f"{lesson.name:<{width}}  {lesson.title}  ({len(lesson.steps)} steps)")
        return 0
    problems, claims = [], []
    for lesson in found:
        results, failed = lessons.run_all(lesson)
        problems += failed + lessons.check_runs(lesson, results=results)
        claims += lesson_figures.check(lesson, results)
    if args.json:
        print(json.dumps(claims, indent=1, ensure_ascii=False))
    else:
        for c in claims:
            value = "no figure" if c["value"] is None else format_number(c["value"])
            print(f"{'holds' if c['holds'] else 'FAILS'}  {c['lesson']} step {c['step']}: "
                  f"{c['claim']} ({value})")
    for c in claims:
        if not c["holds"]:
            problems.append(f"{c['lesson']}: step {c['step']}: the claim "
                            f"'{c['claim']}' fails (the run has {c['value']})")
    for line in problems:
        print(f"zperflab: error: {line}", file=sys.stderr)
    return 1 if problems else 0


def cmd_gui(args: argparse.Namespace) -> int:
    from app.gui import main as gui_main  # Qt only when the GUI is wanted
    return gui_main(args)


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["gui", *(argv or sys.argv[1:])])
    try:
        return args.func(args)
    except Terminated:
        print("zperflab: stopped by SIGTERM", file=sys.stderr)
        return EXIT_TERMINATED
    except KeyboardInterrupt:
        print("zperflab: interrupted (Ctrl-C)", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (``zperflab run … | head``): not an error of
        # ours. Point stdout at /dev/null so the exit flush stays quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:  # the last edge: one line, never a bare traceback
        if os.environ.get("ZPERFLAB_DEBUG"):
            traceback.print_exc()
        print(f"zperflab: internal error: {type(exc).__name__}: {shorten(str(exc), 300)} "
              "(a bug: please report it; ZPERFLAB_DEBUG=1 shows the details)", file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
