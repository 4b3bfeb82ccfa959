"""What the ``zperflab`` commands share: exit codes, one-line errors, progress
on stderr, Ctrl-C and SIGTERM handling and reading ``--set`` (a parameter's
``KEY=VALUE`` or one component's ``LABEL.property=VALUE``) and ``--scenario``.

:mod:`app.cli` (``run``, ``validate``, ``export``, ``gui`` …) and
:mod:`app.sweep_cli` (``sweep``) both import this module; neither imports
the other's internals.
"""
from __future__ import annotations

import argparse
import signal
import sys
import threading
import time
from contextlib import contextmanager
from typing import Sequence

from models.core.params import ParamError, parse_cli_value, shorten

EXIT_USAGE = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130
#: Exit status after SIGTERM (128 + 15, as a shell reports a process it ended).
EXIT_TERMINATED = 143
#: A run whose estimated length is over this many seconds is announced.
LONG_RUN_S = 180.0
#: Longest error line printed.
LINE_CHARS = 500


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one clear line, status 2
        self.exit(EXIT_USAGE, f"zperflab: error: {shorten(message, LINE_CHARS)}\n")


def fail(message: str) -> int:
    print(f"zperflab: error: {shorten(message, LINE_CHARS)}", file=sys.stderr)
    return EXIT_USAGE


def clock(seconds: float) -> str:
    if seconds >= 5400:
        return f"{seconds / 3600:.1f} h"
    if seconds >= 90:
        return f"{seconds / 60:.0f} min"
    return f"{seconds:.0f} s"


class Progress:
    """Progress of a long run on stderr: a line redrawn in place when stderr
    is a terminal, and one warning (terminal or not) when the run will take
    more than :data:`LONG_RUN_S`."""

    def __init__(self, what: str, stream=None) -> None:
        self.what = what
        self.stream = stream or sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.start = time.monotonic()
        self.warned = False
        self.drawn = False
        #: (time, fraction) of the first report: the rate is measured from
        #: there, so set-up before it (warming a large cache) does not count
        #: as if every step would take that long.
        self.first: tuple[float, float] | None = None

    def __call__(self, fraction: float) -> None:
        now = time.monotonic()
        elapsed = now - self.start
        if self.first is None:
            self.first = (now, fraction)
        t0, f0 = self.first
        if not self.warned and now - t0 >= 2.0 and f0 < fraction < 1.0:
            total = elapsed + (now - t0) / (fraction - f0) * (1.0 - fraction)
            if total > LONG_RUN_S:
                self.warned = True
                self._line(f"zperflab: note: {self.what} will take about {clock(total)} "
                           "in all; Ctrl-C stops it")
        if self.tty:
            left = f", about {clock(elapsed / fraction - elapsed)} left" if 0 < fraction < 1 \
                and elapsed >= 2.0 else ""
            self.drawn = True       # first: a signal during the write must still clear it
            self.stream.write(f"\r{self.what}: {fraction * 100:5.1f}% ({clock(elapsed)}{left})\033[K")
            self.stream.flush()

    def _line(self, text: str) -> None:
        if self.drawn:
            self.stream.write("\r\033[K")
        self.stream.write(text + "\n")
        self.stream.flush()

    def done(self) -> None:
        if self.drawn:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.drawn = False


#: What the first Ctrl-C says (some models report progress only every few
#: seconds, or a minute).
STOPPING = "stopping at the run's next progress report; Ctrl-C again stops at once"


class Terminated(KeyboardInterrupt):
    """SIGTERM stopped the command at once (status :data:`EXIT_TERMINATED`).

    A ``KeyboardInterrupt`` so that, like Ctrl-C, no ``except Exception`` in
    a model swallows it on the way out."""


@contextmanager
def stop_signals(cancel: threading.Event, message: str = STOPPING,
                 caught: list | None = None, term_at_once: bool = False):
    """Ctrl-C and SIGTERM: the first asks the work to stop at its next
    progress report (sets ``cancel``, says ``message``); a second stops at
    once (``KeyboardInterrupt``, or :class:`Terminated` if it is SIGTERM).

    ``term_at_once``: SIGTERM stops at once, for work that keeps nothing of
    a part-run (``run``), so a service manager's stop is not kept waiting for
    a progress report. Each signal caught is appended to ``caught``.
    """
    def handler(signum, frame):
        if caught is not None:
            caught.append(signum)
        term = signum == signal.SIGTERM
        if cancel.is_set() or (term and term_at_once):
            raise Terminated if term else KeyboardInterrupt
        cancel.set()
        print(f"\nzperflab: {message}", file=sys.stderr, flush=True)
    old = {}
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):
            old[sig] = signal.signal(sig, handler)
    except ValueError:          # not the main thread (tests): leave the signals alone
        yield
        return
    try:
        yield
    finally:
        for sig, previous in old.items():
            signal.signal(sig, previous)


def split_sets(items: Sequence[str]) -> tuple[list[str], list[str]]:
    """``--set`` items as (``KEY=VALUE`` parameters, ``LABEL.property=VALUE``
    changes of one component): a parameter's key has no dot."""
    from models.drawing.variants import is_setting

    plain = [item for item in items if not is_setting(item)]
    return plain, [item for item in items if is_setting(item)]


def apply_settings(name: str, scenario, settings: Sequence[str]):
    """Make each ``LABEL.property=VALUE`` change on a copy of the drawing
    (the case study of ``name`` when ``scenario`` is None).

    Returns
    -------
    (Scenario or None, list of str)
        The drawing to run (``scenario`` itself when there is nothing to
        change) and each change in words ("SGDB2 on SSD").

    Raises
    ------
    ParamError
        One line naming an unknown label, property or value and what is
        allowed, a component changed twice, or a change to what it already
        is (the run would be the baseline, titled as a what-if).
    """
    if not settings:
        return scenario, []
    from models import experiments
    from models.drawing import variants

    seen: set = set()
    for item in settings:
        key = item.partition("=")[0].strip().casefold()
        if key in seen:
            raise ParamError(f"--set {shorten(item.partition('=')[0].strip())} is given twice: "
                             "give each once")
        seen.add(key)
    sc = experiments.drawing(name, scenario)
    changes = []
    for item in settings:
        before = {nid: n.kind for nid, n in sc.nodes.items()}
        changes.append(variants.apply_setting(sc, item))
        if {nid: n.kind for nid, n in sc.nodes.items()} == before:
            raise ParamError(f"--set {shorten(item)} changes nothing ({changes[-1]} "
                             "already): without it the run is the drawing as it is")
    return sc, changes


def parse_sets(items: Sequence[str]) -> dict:
    out = {}
    for item in items:
        if "=" not in item:
            raise ParamError(f"--set needs KEY=VALUE, got '{item}'")
        key, _, text = item.partition("=")
        key = key.strip()
        if key in out:
            raise ParamError(f"--set {key} is given twice: give each key once")
        out[key] = parse_cli_value(text)
    return out


def drawing_of(args: argparse.Namespace):
    """(experiment name, scenario or None) the run command was asked for."""
    if not args.scenario:
        if not args.experiment:
            raise ParamError("name an experiment, or give --scenario FILE")
        return args.experiment, None
    from app import scenario_io

    notes: list[str] = []
    try:
        sc = scenario_io.load(args.scenario, notes)
    except scenario_io.ScenarioFileError as exc:
        raise ParamError(str(exc)) from None
    for line in notes:
        print(f"zperflab: {line}", file=sys.stderr)
    name = args.experiment or sc.experiment
    if name is None:
        raise ParamError(f"{args.scenario} has no experiment: name one before the file")
    return name, sc
