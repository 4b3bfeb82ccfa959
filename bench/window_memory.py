"""Bench: the memory of one main window over many runs (issue #29, "the window
keeps no run it no longer shows").

One main window (offscreen, 1280x800) opens and runs the case studies in turn,
as a user trying them would, and after each run looks at the Charts, the
Animation (every replay tab) and the Canvas, each painted. It prints the
process's resident set size (RSS) every ``--every`` runs and at the end, and
the growth from where the first ten runs ended. Goal: 200 runs end within
100 MB of where the first ten ended.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/window_memory.py \
        [--runs 200] [--every 10] [--cases db2_io,natural_ziip,custom,program_fetch,vsam_rls]

For a peer in the same process, ``--bare`` runs the same case studies through
``run_experiment`` alone (same trace ring, no window) and prints its RSS too.
The window uses a private settings file and data folder (its runs go to a
throw-away run history, never the user's).
"""
from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CASES = ("db2_io", "natural_ziip", "custom", "program_fetch", "vsam_rls")
#: The goal of issue #29: the last run ends within this of where run 10 ended.
GOAL_MB = 100.0


def rss_mb() -> float:
    """The process's resident set size now, in MB (Linux /proc; else peak RSS)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def quiet_offscreen_warnings() -> None:
    """Drop the offscreen platform's one-line complaint at every window shown
    (it says nothing about memory); other Qt messages still reach stderr."""
    from PySide6.QtCore import qInstallMessageHandler

    def handler(_mode, _context, message: str) -> None:
        if "propagateSizeHints" not in message:
            print(message, file=sys.stderr)
    qInstallMessageHandler(handler)


def look(win, app) -> None:
    """Bring Charts, every Animation tab and the Canvas forward, each painted."""
    for name in ("charts", "animation"):
        if win.show_view(name) is None:
            app.processEvents()
            win.grab()
    replay = win.replay_view()
    if replay is not None:
        for i in range(replay.tabs.count()):
            replay.tabs.setCurrentIndex(i)
            app.processEvents()
            win.grab()
    win.show_canvas()
    app.processEvents()
    win.grab()


def settle(app) -> None:
    """Let deferred deletes and the GUI-thread collector run, as idle time would."""
    from PySide6.QtCore import QEvent
    for _ in range(3):
        app.processEvents()
        app.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)   # deleteLater
    gc.collect()


def window_runs(runs: int, every: int, cases: tuple[str, ...]) -> list[tuple[int, float]]:
    from PySide6.QtWidgets import QApplication

    from ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    quiet_offscreen_warnings()
    win = MainWindow()
    win.resize(1280, 800)
    win.show()
    app.processEvents()
    points = [(0, rss_mb())]
    print(f"{'runs':>5} {'RSS MB':>8} {'s/run':>6}  last case", flush=True)
    print(f"{0:5d} {points[0][1]:8.1f}", flush=True)
    start = time.perf_counter()
    try:
        for i in range(1, runs + 1):
            case = cases[(i - 1) % len(cases)]
            error = win.open_case_or_file(case)
            if error:
                raise SystemExit(f"cannot open {case}: {error}")
            win.run_and_wait(timeout_s=600)
            result = win.document.result
            if result is None or result.experiment != case:
                raise SystemExit(f"run {i} ({case}) did not finish: {win.status.text()}")
            del result
            look(win, app)
            if i % every == 0 or i == runs:
                settle(app)
                points.append((i, rss_mb()))
                per = (time.perf_counter() - start) / i
                print(f"{i:5d} {points[-1][1]:8.1f} {per:6.1f}  {case}", flush=True)
    finally:
        win.shutdown()
        win.close()
    return points


def bare_runs(runs: int, cases: tuple[str, ...]) -> float:
    """RSS after ``runs`` runs through run_experiment alone (no window)."""
    from app import settings
    from models.engine import Trace
    from models.experiments import run_experiment
    for i in range(runs):
        result = run_experiment(cases[i % len(cases)], {},
                                trace=Trace(limit=settings.trace_rows()))
        del result
    gc.collect()
    return rss_mb()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--cases", default=",".join(CASES),
                        help="comma-separated case studies, run in turn")
    parser.add_argument("--bare", type=int, default=0, metavar="N",
                        help="first run N runs through run_experiment alone (a peer)")
    args = parser.parse_args(argv)
    cases = tuple(c for c in args.cases.split(",") if c)
    private = tempfile.mkdtemp(prefix="zperflab-window-memory-")
    os.environ["ZPERFLAB_DATA_DIR"] = os.path.join(private, "data")
    os.environ["ZPERFLAB_SETTINGS"] = os.path.join(private, "settings.ini")
    print(f"one main window, 1280x800 offscreen; {args.runs} runs of {', '.join(cases)} "
          "in turn; Charts, Animation and Canvas looked at after each", flush=True)
    if args.bare:
        print(f"run_experiment alone, {args.bare} runs: RSS {bare_runs(args.bare, cases):.1f} MB",
              flush=True)
    try:
        points = window_runs(args.runs, args.every, cases)
    finally:
        shutil.rmtree(private, ignore_errors=True)   # the throw-away run history
    ref = next((mb for n, mb in points if n >= 10), points[-1][1])
    last_n, last = points[-1]
    growth = last - ref
    late = [(n, mb) for n, mb in points if n >= 10]
    slope = ((late[-1][1] - late[0][1]) / (late[-1][0] - late[0][0])
             if len(late) > 1 and late[-1][0] > late[0][0] else 0.0)
    print(f"after 10 runs: {ref:.1f} MB; after {last_n}: {last:.1f} MB; "
          f"growth {growth:+.1f} MB ({slope:+.2f} MB/run); goal: within {GOAL_MB:.0f} MB: "
          f"{'met' if growth <= GOAL_MB else 'NOT met'}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
