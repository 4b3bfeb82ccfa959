"""What the ``zperflab`` commands share: exit codes, one-line errors, progress
on stderr, Ctrl-C handling and reading ``--set`` and ``--scenario``.

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
            self.stream.write(f"\r{self.what}: {fraction * 100:5.1f}% ({clock(elapsed)}{left})\033[K")
            self.stream.flush()
            self.drawn = True

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


@contextmanager
def ctrl_c_cancels(cancel: threading.Event, message: str = STOPPING):
    """The first Ctrl-C asks the run to stop at its next progress report; a
    second one interrupts at once."""
    def handler(signum, frame):
        if cancel.is_set():
            raise KeyboardInterrupt
        cancel.set()
        print(f"\nzperflab: {message}", file=sys.stderr, flush=True)
    try:
        old = signal.signal(signal.SIGINT, handler)
    except ValueError:          # not the main thread (tests): leave Ctrl-C alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


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
