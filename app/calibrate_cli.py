"""``zperflab calibrate``: calibrate a drawing imported from RMF, in place.

The same step as ``import-rmf … --calibrate``, for a file already imported:
each calibrated quantity (:mod:`models.rmf.calibrate`) is fitted on the
model's own run of the drawing, set on its card and listed under
``"imported"`` → ``"calibrated"`` with the measured figure that set it. The
file is rewritten with the one atomic writer (nothing changes on a failure).
Bad input is one line (status 2).
"""
from __future__ import annotations

import argparse
import sys

from app.cli_common import fail


def add_parser(sub) -> None:
    """Add ``calibrate`` to the ``zperflab`` subcommands."""
    p = sub.add_parser(
        "calibrate", help="calibrate a drawing imported from RMF to what RMF measured",
        description="Fit the physical quantities the drawing lacks (the busy of work not "
                    "drawn on each channel group) on the model's own run, set them on the "
                    "cards and list them under \"imported\" -> \"calibrated\" with the "
                    "measured figure that set each (docs/rmf-drawing.md, Calibration).")
    p.add_argument("scenario", metavar="FILE.zpl.json", help="a drawing written by import-rmf")
    p.add_argument("--out", metavar="FILE", help="write here instead of over FILE")
    p.set_defaults(func=cmd_calibrate)


def calibrate_file(sc, out: str) -> list[dict]:
    """Calibrate ``sc`` and save it to ``out``; the entries."""
    from app import scenario_io
    from models.experiments import run_experiment
    from models.rmf.calibrate import calibrate

    done = calibrate(sc, run_experiment)
    scenario_io.save(sc, out)
    return done


def print_entries(done: list[dict], file=sys.stdout) -> None:
    from models.rmf.calibrate import describe

    print(f"Calibrated ({len(done)}):", file=file)
    for e in done:
        print(f"  {describe(e)}", file=file)


def cmd_calibrate(args: argparse.Namespace) -> int:
    from app import scenario_io
    from models.rmf.calibrate import CalibrationError

    out = args.out or args.scenario
    try:
        sc = scenario_io.load(args.scenario)
        done = calibrate_file(sc, out)
    except scenario_io.ScenarioFileError as exc:
        return fail(str(exc))                       # it names the file already
    except (CalibrationError, OSError) as exc:
        return fail(f"{args.scenario}: {exc}")
    print_entries(done)
    print(f"Wrote {out}; run it with: zperflab run --scenario {out}")
    return 0
