"""Bench: Run → first figures and Run → simulated figures in the window (issue 42, GUI part).

One main window (offscreen, 1280x800) opens the Large shop and runs it as
drawn (1 s) from the Canvas tab: the time from Run to the Results panel
showing the preliminary figures (painted) and to the simulated figures
(painted); then the time to open the Charts tab and the Animation tab
(each drawn from the run's trace when first opened after a big run).
Peers in the same process: the same run through ``run_experiment`` bare
(no trace) and with the window's trace ring, and the window with its
preliminary figures turned off.

    OPENBLAS_NUM_THREADS=1 QT_QPA_PLATFORM=offscreen .venv/bin/python \\
        bench/run_first_results.py [--repeat 2] [--trace-rows N]

The window uses a private settings file and data folder.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SHOP = "resources/scenarios/large_shop.json"


def open_tab(win, app, name: str) -> float:
    """Seconds to bring the named tab forward, painted."""
    start = time.perf_counter()
    win.show_view(name)
    win.views[name].grab()
    app.processEvents()
    return time.perf_counter() - start


def window_run(win, app, preliminary: bool) -> tuple[float | None, float, float, float]:
    """(seconds to preliminary figures painted or None, seconds to simulated
    figures painted, seconds to open Charts, seconds to open Animation)."""
    win.show_view("canvas")
    app.processEvents()
    from app import worker
    saved = worker.PRELIMINARY_MIN_IOS
    if not preliminary:
        worker.PRELIMINARY_MIN_IOS = float("inf")
    marks: dict[str, float] = {}

    def painted(key):
        def slot(*_args):
            win.results.grab()
            marks[key] = time.perf_counter()
        return slot
    first, final = painted("first"), painted("final")
    win.run_previewed.connect(first)
    win.run_finished.connect(final)
    try:
        start = time.perf_counter()
        win.run_and_wait(timeout_s=600)
        app.processEvents()
    finally:
        win.run_previewed.disconnect(first)
        win.run_finished.disconnect(final)
        worker.PRELIMINARY_MIN_IOS = saved
    if win.document.result is None:
        raise SystemExit("the run gave no result")
    got = marks.get("first")
    charts, animation = open_tab(win, app, "charts"), open_tab(win, app, "animation")
    return (None if got is None else got - start), marks["final"] - start, charts, animation


def bare(trace_rows: int | None) -> float:
    from app.scenario_io import load_case
    from models import experiments
    from models.engine import Trace
    sc = load_case("large_shop")
    start = time.perf_counter()
    experiments.run_experiment("custom", {}, scenario=sc,
                               trace=Trace(limit=trace_rows) if trace_rows else False)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--trace-rows", type=int, default=None,
                    help="the window's trace size (default: the setting's default)")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="zperflab-bench-")
    os.environ["ZPERFLAB_SETTINGS"] = os.path.join(tmp, "settings.ini")
    os.environ["ZPERFLAB_DATA_DIR"] = tmp
    from PySide6.QtWidgets import QApplication

    from app import settings
    from ui.main_window import MainWindow
    if args.trace_rows:
        settings.set_trace_rows(args.trace_rows)
    rows = settings.trace_rows()
    app = QApplication.instance() or QApplication([])
    win = MainWindow()
    win.resize(1280, 800)
    win.show()
    app.processEvents()
    if win.open_case_or_file(SHOP):
        raise SystemExit(f"cannot open {SHOP}")
    print(f"Large shop, as drawn; trace ring {rows:,} rows; best of {args.repeat}")
    rows_out = []
    try:
        for label, fn in (
                ("bare run_experiment, no trace", lambda: (None, bare(None), None, None)),
                ("bare run_experiment, window's trace", lambda: (None, bare(rows), None, None)),
                ("window, no preliminary figures", lambda: window_run(win, app, False)),
                ("window, preliminary figures", lambda: window_run(win, app, True))):
            runs = [fn() for _ in range(args.repeat)]

            def best(i):
                got = [r[i] for r in runs if r[i] is not None]
                return min(got) if got else None
            rows_out.append((label, best(0), best(1), best(2), best(3)))
    finally:
        win.shutdown()
    peer = rows_out[0][2]

    def cell(v, width):
        return f"{v:{width}.2f}" if v is not None else f"{'—':>{width}}"
    print(f"{'':38} {'first s':>8} {'results s':>10} {'× bare':>7} {'Charts s':>9} {'Anim. s':>8}")
    for label, first, final, charts, animation in rows_out:
        print(f"{label:38} {cell(first, 8)} {final:10.2f} {final / peer:7.2f} "
              f"{cell(charts, 9)} {cell(animation, 8)}")


if __name__ == "__main__":
    main()
