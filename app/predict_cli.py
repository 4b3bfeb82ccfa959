"""``zperflab predict``: calibrate on one interval of a recording, predict another.

The honest test of a calibration (issue 41, part 4;
:mod:`models.rmf.predict`): the quantities calibrated on one interval are
carried onto the drawing of another interval of the same system, built from
that interval's own workload, and its measured figures are checked against
the run, each beside its tolerance. The interval calibrated on is checked
the same way, for reference (fitted). Nothing is written.
Bad input is one line (status 2).
"""
from __future__ import annotations

import argparse
import json

from app.cli_common import fail
from app.names import format_number


def add_parser(sub, seed) -> None:
    """Add ``predict`` to the ``zperflab`` subcommands; ``seed`` reads ``--seed``
    as ``run`` does."""
    p = sub.add_parser(
        "predict", help="calibrate on one interval of an RMF recording and predict another",
        description="Import one interval of the recording and calibrate it to what RMF "
                    "measured; import another interval of the same system from its own "
                    "workload (rates and mix), carry the calibrated quantities onto its "
                    "cards, run it without fitting anything to it and print, per measured "
                    "figure, the error beside its tolerance (docs/rmf-drawing.md, "
                    "Predicting another interval).")
    p.add_argument("reports", nargs="+", metavar="REPORT",
                   help="the recording's report files (text or Postprocessor XML), read "
                        "together as import-rmf reads them")
    p.add_argument("--calibrate-on", type=_number, default=1, metavar="N",
                   help="the interval to calibrate on, numbered 1… in time order (default 1, "
                        "the first)")
    p.add_argument("--predict", type=_numbers, metavar="N[,N…]",
                   help="the interval(s) to predict (default: every other interval of the "
                        "same system)")
    p.add_argument("--seed", type=seed, default=1, metavar="N",
                   help="seed of the runs checked (default 1)")
    p.add_argument("--json", action="store_true", help="print the same as one JSON object")
    p.set_defaults(func=cmd_predict)


def _number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1")
    return value


def _numbers(text: str) -> list[int]:
    return [_number(t.strip()) for t in text.split(",")]


def cmd_predict(args: argparse.Namespace) -> int:
    from models.experiments import run_experiment
    from models.rmf import RmfError
    from models.rmf.predict import predict

    try:
        fitted, predicted = predict(args.reports, args.calibrate_on, args.predict,
                                    run_experiment, seed=args.seed)
    except (RmfError, ValueError, OSError) as exc:  # PredictError
        return fail(str(exc))
    if all(o.error for o in predicted):
        return fail("; ".join(f"{o.label}: {o.error}" for o in predicted))
    if args.json:
        print(json.dumps(as_json(args, fitted, predicted), indent=1))
        return 0
    _print(args, fitted, predicted)
    return 0


def check_row(c, inputs=frozenset()) -> dict:
    """One figure as ``--json`` gives it (``input``: set by the interval's own import)."""
    from models.rmf.tolerance import allowed, describe
    return {"card": c.label, "figure": c.title, "measured": c.measured, "model": c.model,
            "error": c.error, "tolerance": describe(c.key),
            "allowed": allowed(c.key, c.measured), "within": c.ok,
            "input": (c.label, c.key) in inputs}


def _outcome_json(o) -> dict:
    from models.rmf.tolerance import summary
    modelled = o.modelled()
    return {"interval": o.number, "label": o.label, "system": o.system,
            "summary": summary(o.checks) if not o.error else None,
            "within": o.within, "figures": len(o.checks),
            "modelled_within": sum(c.ok for c in modelled), "modelled": len(modelled),
            "error": o.error or None, "calibrated": o.calibrated,
            "not_carried": o.not_carried, "checks": [check_row(c, o.inputs) for c in o.checks]}


def as_json(args, fitted, predicted) -> dict:
    """What ``--json`` prints: the fitted interval and each predicted one."""
    return {"reports": list(args.reports), "seed": args.seed,
            "calibrated_on": _outcome_json(fitted),
            "predicted": [_outcome_json(o) for o in predicted]}


def _error_text(c) -> str:
    if c.error is None:
        return "no figure (no I/O reached it)"
    r = 100 * c.error / c.measured if c.measured else None
    rel = "" if r is None else f" ({r:+.0f} %)" if abs(r) >= 10 else f" ({r:+.1f} %)"
    err = round(c.error, 6) + 0.0       # no +0.000000000000002331 for a figure carried exactly
    return f"{'+' if err >= 0 else ''}{format_number(err)}{rel}"


def _table(o) -> None:
    from models.rmf.tolerance import describe
    head = ("card", "figure", "measured", "predicted", "error", "tolerance", "within", "")
    rows = [(c.label, c.title, format_number(c.measured),
             "–" if c.model is None else format_number(c.model), _error_text(c),
             describe(c.key), "yes" if c.ok else "no",
             "input" if (c.label, c.key) in o.inputs else "")
            for c in o.checks]
    widths = [max(len(r[i]) for r in (head, *rows)) for i in range(len(head))]
    for r in (head, *rows):
        print("  " + "  ".join(s.ljust(w) for s, w in zip(r, widths)).rstrip())


def _print(args, fitted, predicted) -> None:
    from models.rmf.calibrate import describe, title

    print(f"Calibrated on {fitted.label} of {fitted.system or 'the system'}:")
    for e in fitted.calibrated:
        print(f"  {describe(e)}")
    for o in predicted:
        if o.error:
            print(f"\n{o.label}: not predicted: {o.error}")
            continue
        print(f"\nPredicted {o.label} from its own workload (rates and mix) and the "
              f"quantities calibrated on interval {fitted.number}, seed {args.seed}:")
        names = "; ".join(f"{title(e)} of {e['component']}, {e['value']:g} {e['unit']}".rstrip()
                          for e in o.calibrated)
        print(f"  carried ({len(o.calibrated)}): {names or 'none'}")
        for line in o.not_carried:
            print(f"  not carried: {line}")
        _table(o)
        print(f"  Predicted: {_said(o)}")
    print(f"\nSummary, seed {args.seed} (the tolerances of docs/rmf-drawing.md):")
    print(f"  {fitted.label}, fitted (calibrated on itself): {_said(fitted)}")
    for o in predicted:
        print(f"  {o.label}, {'not predicted (above)' if o.error else 'predicted: ' + _said(o)}")
    print("  (input: a figure each interval's import sets its own drawing to: I/O and read "
          "rates, hit ratios, the engines' total busy; the model's own: the rest, which comes "
          "out of the run)")


def _said(o) -> str:
    """"12 of 22 figures within tolerance (55 %); the model's own: 4 of 14 (29 %)"."""
    from models.rmf.tolerance import summary
    own = o.modelled()
    ok = sum(c.ok for c in own)
    rest = f"; the model's own: {ok} of {len(own)}" + \
        (f" ({100 * ok / len(own):.0f} %)" if own else "")
    return summary(o.checks) + (rest if o.inputs else "")
