"""``zperflab import-rmf``: RMF reports (files or a DDS) to a scenario file.

Reads the reports (:func:`models.rmf.read_reports`, or
:func:`models.rmf.dds.read_dds` with ``--dds``), builds the drawing of the
chosen interval (:func:`models.rmf.drawing.build`) and writes it with the
one atomic writer, so a failure at any step leaves no file, or the old one
untouched. ``--dds URL --date DAY`` reads the Postprocessor's reports of a
day, ``--dds URL --system NAME`` Monitor III's current minute of a system.
SIGTERM stops it like Ctrl-C: the DDS's temporary folder goes (status 143). ``--json`` prints what was read: the reports, intervals,
counts, the interval chosen and why, every assumption and the cards drawn.
Bad input is one line naming the file and line (status 2).
"""
from __future__ import annotations

import argparse
import json
import signal
import sys
from contextlib import contextmanager

from app.cli_common import EXIT_TERMINATED, Terminated, fail


def add_parser(sub) -> None:
    """Add ``import-rmf`` to the ``zperflab`` subcommands."""
    p = sub.add_parser(
        "import-rmf", help="read RMF reports into a drawing of your own system",
        description="Read RMF Postprocessor reports (text listings or XML), or Monitor "
                    "III's current minute from a DDS, and write a scenario file of the "
                    "interval: processors, channel groups, control "
                    "units, storage groups and one fitted I/O workload per group, with "
                    "every assumed value and the measured figures (docs/rmf-drawing.md).",
        epilog="Open the file with 'zperflab gui --open FILE' or run it with 'zperflab run "
               "--scenario FILE --json': its \"measured\" key holds the figures RMF "
               "measured beside the model's.")
    p.add_argument("reports", nargs="*", metavar="REPORT", help="report files (text, Postprocessor XML or "
                   "a DDS's Monitor III answers)")
    p.add_argument("--out", required=True, metavar="FILE.zpl.json",
                   help="the scenario file to write")
    p.add_argument("--interval", type=_interval, metavar="N",
                   help="the interval to draw, numbered 1… in time order (default: the "
                        "busiest)")
    p.add_argument("--json", action="store_true", help="print what was read as one JSON "
                                                       "object")
    p.add_argument("--join", action="store_true",
                   help="where the interval drawn lacks a report that another interval has "
                        "(a channel report of the day before), take it from the nearest; "
                        "each joined report is stated (default: named as not used)")
    p.add_argument("--dds", metavar="URL", help="read from an RMF Distributed Data Server "
                                                "(https://HOST:8803) instead of files")
    p.add_argument("--date", metavar="YYYYMMDD[,YYYYMMDD]", help="with --dds: the day(s) "
                   "of the Postprocessor reports")
    p.add_argument("--system", metavar="NAME", help="with --dds instead of --date: the "
                   "current Monitor III minute of this system (its MVS image name, e.g. "
                   "SYSA): devices, channels and processors")
    p.add_argument("--user", metavar="U", help="with --dds: the user (the password comes "
                   "from $ZPERFLAB_DDS_PASSWORD or a prompt, never the command line)")
    p.add_argument("--insecure", action="store_true",
                   help="with --dds: do not verify the server's TLS certificate")
    p.add_argument("--timeout", type=_timeout, default=60.0, metavar="SECONDS",
                   help="with --dds: give up when the whole answer has not come within "
                        "this long (default 60)")
    p.add_argument("--refine", type=_seconds, nargs="?", const=2.0, default=0.0, metavar="SECONDS",
                   help="check each storage group's fitted workload on the model's own runs of "
                        "SECONDS (default 2) and move its working set until the model gives the "
                        "measured read hit ratio; a few seconds per group at a large cache")
    p.add_argument("--calibrate", action="store_true",
                   help="calibrate the drawing to what RMF measured: fit the quantities it "
                        "lacks on the model's own run (as 'zperflab calibrate FILE')")
    p.set_defaults(func=cmd_import_rmf)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= 600:
        raise argparse.ArgumentTypeError(f"{text} s is out of range: give 0 < SECONDS <= 600")
    return value


def _timeout(text: str) -> float:
    from models.rmf import dds
    try:
        return dds.check_timeout(float(text))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"'{text}' is not a usable number of seconds: give 0 < SECONDS <= "
            f"{dds.MAX_TIMEOUT_S:g}, the deadline for the whole answer") from None


def _interval(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError("must be a whole number from 1")
    return value


def read(args: argparse.Namespace):
    """The :class:`~models.rmf.RmfSystem` the arguments name (files or a DDS)."""
    from models.rmf import read_reports

    if args.dds:
        if args.reports:
            raise ValueError("give report files or --dds, not both")
        if bool(args.date) == bool(args.system):
            raise ValueError("--dds needs --date YYYYMMDD[,YYYYMMDD] (the Postprocessor's "
                             "reports of those days) or --system NAME (Monitor III's current "
                             "minute), one of them")
        from models.rmf import dds
        secret = dds.password(args.user) if args.user else None
        if args.system:
            if args.interval is not None:
                raise ValueError("--interval picks among a day's intervals: Monitor III "
                                 "(--system) has one, the current minute")
            return dds.read_dds_m3(args.dds, args.system, user=args.user, secret=secret,
                                   verify=not args.insecure, timeout=args.timeout)
        return dds.read_dds(args.dds, args.date, user=args.user, secret=secret,
                            verify=not args.insecure, timeout=args.timeout,
                            interval=args.interval)
    if not args.reports:
        raise ValueError("name the report files to read, or give --dds URL --date DAY")
    return read_reports(args.reports, interval=args.interval, join=args.join)


@contextmanager
def _term_stops():
    """SIGTERM stops the import at once as an exception, so every ``finally``
    and temporary folder on the way out is cleaned up (its default would
    end the process where it stands)."""
    def handler(signum, frame):
        raise Terminated
    try:
        old = signal.signal(signal.SIGTERM, handler)
    except ValueError:              # not the main thread (tests): leave the signal alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def summary(system, scenario, out: str) -> dict:
    """What ``--json`` prints: the reader's summary, the cards drawn, the file."""
    from models.drawing import components

    from models.rmf.readout import not_used, read_lines

    data = system.summary()
    data["read"] = read_lines(system)
    data["read_not_used"] = not_used(system)
    data["assumptions"] = [_line(a) for a in scenario.imported["assumptions"]]
    drawn: dict[str, int] = {}
    for n in scenario.nodes.values():
        label = components.kind(n.kind).label
        drawn[label] = drawn.get(label, 0) + 1
    data["drawn"] = drawn
    data["measured"] = sorted(scenario.imported.get("measured", {}))
    if "calibrated" in scenario.imported:
        data["calibrated"] = scenario.imported["calibrated"]
    data["out"] = out
    return data


def _line(a: dict) -> str:
    where = f"{a['file']}:{a['line']}" if a.get("line") else a.get("file") or "input"
    return f"{a['what']} = {a['value']} (assumed: {a['why']}; would be read at {where})"


def writable(out: str) -> None:
    """Check that ``out`` can be written, by creating (and removing) a file beside
    it: the folder's permissions alone do not tell (root, a read-only mount, /proc).

    Raises
    ------
    app.atomic.WriteError
        One line naming ``out`` and the real cause.
    """
    import os

    from app import atomic
    real = atomic.check_target(out)
    probe = atomic.temp_path(real.parent)
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise atomic.WriteError(out, f"the folder {real.parent} takes no new file "
                                     f"({exc.strerror or exc})") from None
    os.close(fd)
    os.unlink(probe)


def cmd_import_rmf(args: argparse.Namespace) -> int:
    from app import scenario_io
    from models.rmf import RmfError
    from models.rmf.drawing import build

    try:
        with _term_stops():
            writable(args.out)                 # before a long read, not after it
            system = read(args)
            scenario = build(system, refine_s=args.refine)
            calibrated = None
            if getattr(args, "calibrate", False):
                from app.calibrate_cli import calibrate_file
                calibrated = calibrate_file(scenario, args.out)
            else:
                scenario_io.save(scenario, args.out)
    except Terminated:
        # the DDS's temporary folder went on the way out, as on Ctrl-C
        print("zperflab: import-rmf stopped by SIGTERM: nothing written", file=sys.stderr)
        return EXIT_TERMINATED
    except (RmfError, ValueError, scenario_io.ScenarioFileError, OSError) as exc:
        return fail(str(exc))       # CalibrationError is a ValueError
    if args.json:
        print(json.dumps(summary(system, scenario, args.out), indent=1))
    else:
        iv = system.interval
        more = "; pick another with --interval N" if len(system.intervals) > 1 else ""
        from models.rmf.join import donors
        others = donors(system)
        if others and not getattr(args, "join", False):
            more += (f"; the {', '.join(others)} report(s) of other intervals do not meet it: "
                     "--join draws them anyway")
        print(f"Read {', '.join(system.files)}: {system.reason}{more}")
        from models.rmf.readout import counts_line, read_lines
        print(f"  {counts_line(system)}")
        for line in read_lines(system):
            print(f"  read: {line}")
        for line in system.skipped:
            print(f"  skipped: {line}")
        print(f"Assumed ({len(scenario.imported['assumptions'])}):")
        for a in scenario.imported["assumptions"]:
            print(f"  {_line(a)}")
        if calibrated is not None:
            from app.calibrate_cli import print_entries
            print_entries(calibrated)
        # 'run' refuses a drawing without a workload: say so instead of offering it
        then = (f"run it with: zperflab run --scenario {args.out}"
                if scenario.of_category("workload") else
                "it has no workload to run: no report of this interval gives one (a device, "
                f"cache or CPU report does); add one with 'zperflab gui --open {args.out}'")
        print(f"Wrote {args.out} ({len(scenario.nodes)} cards, {iv.system or 'system ?'}); "
              f"{then}", file=sys.stdout)
    return 0
