"""How long opening a large scenario takes, until the canvas has been drawn (offscreen).

Usage::

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/canvas_open.py [--sizes 100 400 1000 2000] [--repeat 3]

Each scenario is the db2_io case study with extra 3390 volumes on its
control unit, up to the given number of components, written to a scenario
file. One main window (1280×800) opens each file the way File ▸ Open does
(``MainWindow.open_case_or_file``: read, check, build the canvas, fit the
view) and the canvas is then rendered once, so the time covers everything
up to the first complete picture. It prints the median wall time of
``--repeat`` opens and its ratio to opening the built-in db2_io case study
(8 components) in the same run. Target (the issue): 1,000 components in
about a second.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtWidgets import QApplication  # noqa: E402

from app import scenario_io  # noqa: E402

BASE = "db2_io"


def large_document(components: int) -> dict:
    """The db2_io case study filled up with volumes to ``components`` components."""
    doc = scenario_io.to_document(scenario_io.load_case(BASE))
    cu = next(n["id"] for n in doc["nodes"] if n["kind"] == "cu_ds8000")
    for i in range(components - len(doc["nodes"])):
        nid = f"n{10_000 + i}"
        doc["nodes"].append({"id": nid, "kind": "vol_hdd15k", "label": f"DB2V{i + 2:04d}",
                             "x": 600 + (i % 40) * 180, "y": (i // 40) * 200, "properties": {}})
        doc["links"].append({"id": f"l{50_000 + i}", "source": nid, "target": cu})
    return doc


def open_seconds(win, app: QApplication, what: str, repeat: int) -> float:
    """Median wall time of opening ``what`` (a case name or a file) and drawing it."""
    times = []
    for _ in range(repeat):
        win.new_scenario()
        app.processEvents()
        t0 = time.perf_counter()
        error = win.open_case_or_file(what)
        app.processEvents()
        win.view.viewport().grab()
        times.append(time.perf_counter() - t0)
        if error:
            raise SystemExit(f"could not open {what}: {error}")
    return statistics.median(times)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 400, 1000, 2000],
                    help="numbers of components (default: 100 400 1000 2000)")
    ap.add_argument("--repeat", type=int, default=3, help="opens per size; the median is shown")
    args = ap.parse_args(argv)

    app = QApplication.instance() or QApplication([])
    from ui.main_window import MainWindow
    win = MainWindow()
    win.resize(1280, 800)
    win.show()
    app.processEvents()
    try:
        base = open_seconds(win, app, BASE, max(args.repeat, 5))
        print(f"{'scenario':>28}  {'open (s)':>9}  {'× ' + BASE:>10}")
        print(f"{BASE + ' (8 components)':>28}  {base:9.3f}  {1.0:10.1f}")
        with tempfile.TemporaryDirectory() as tmp:
            for n in args.sizes:
                path = Path(tmp) / f"large_{n}.zpl.json"
                path.write_text(json.dumps(large_document(n)), encoding="utf-8")
                sec = open_seconds(win, app, str(path), args.repeat)
                print(f"{f'{n} components':>28}  {sec:9.3f}  {sec / base:10.1f}", flush=True)
    finally:
        win.shutdown()
        win.close()


if __name__ == "__main__":
    main()
