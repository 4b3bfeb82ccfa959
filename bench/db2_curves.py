"""Print the DB2 curves of case study E from a dense sweep (the paper's shapes).

RUNSTATS elapsed time against sampling % for the six protocol × device
curves, and the disorganized index scan (throughput, io_ms) against the
share read, on the model path (``run_experiment``).

    .venv/bin/python bench/db2_curves.py [--budget 1500] [--seed 1] [--only runstats|index|skip]
        [--png DIR]

With ``--png DIR`` it also draws the RUNSTATS and index-scan curves with the
app's own charts (``ui.charts``; 960×540 at 2×) into DIR, as
``db2-runstats.png``, ``db2-index-throughput.png`` and ``db2-index-io-ms.png`` (the
LPO on SSD)
(docs/model-db2.md shows them).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from models.db2 import runs  # noqa: E402
from models.experiments import run_experiment  # noqa: E402

SAMPLING = (99, 95, 90, 85, 80, 75, 70, 65, 60, 55, 50, 45, 40, 35, 30, 25, 20, 15, 10, 5, 2, 1)
INDEX_PCT = (1, 2, 5, 10, 15, 20, 30, 40, 50, 60, 70, 80, 90, 100)
SKIPS = (2, 3, 5, 9, 17, 33, 65, 129, 257, 1000)
VARIANTS = [(p, d) for p in ("FICON", "zHPF") for d in ("HDD10K", "HDD15K", "SSD")]


def row(label, values, fmt="{:7.1f}"):
    print(f"{label:14}" + "".join(fmt.format(v) for v in values))


def runstats(seed):
    """Print the six RUNSTATS curves; return them as {(protocol, device): elapsed s}."""
    print("RUNSTATS elapsed s (8M pages) by sampling %")
    row("", SAMPLING, "{:7d}")
    curves = {}
    for p, d in VARIANTS:
        curves[p, d] = [run_experiment("db2_runstats_sampling", dict(
            protocol=p, device=d, sampling_pct=s), seed=seed).metrics["elapsed_s"]
            for s in SAMPLING]
        row(f"{p} {d}", curves[p, d])
    print("seq staged track % (zHPF / FICON, HDD15K)")
    for p in ("zHPF", "FICON"):
        row(p, [run_experiment("db2_runstats_sampling", dict(
            protocol=p, device="HDD15K", sampling_pct=s), seed=seed).metrics["seq_staged_track_pct"]
            for s in SAMPLING])
    return curves


def index(seed):
    """Print the index-scan curves; return {(version, protocol, device): metrics per % read}."""
    print("Index scan (28,000 tracks), by % read")
    row("", INDEX_PCT, "{:7d}")
    curves = {}
    for v in (9, 10):
        for p, d in VARIANTS:
            ms = [run_experiment("db2_index_scan", dict(
                db2_version=v, protocol=p, device=d, pct_read=x), seed=seed).metrics
                for x in INDEX_PCT]
            curves[v, p, d] = ms
            row(f"v{v} {p} {d}", [r["throughput_mb_s"] for r in ms])
            if v == 10:
                row("   io_ms", [r["io_ms"] for r in ms], "{:7.2f}")
                row("   trk/idx", [r["tracks_staged"] / 28000 for r in ms], "{:7.2f}")
    return curves


def skip(seed):
    print("Skip-sequential MB/s by skip")
    row("", SKIPS, "{:7d}")
    for p, d in VARIANTS:
        row(f"{p} {d}", [run_experiment("db2_skip_sequential", dict(
            protocol=p, device=d, skip=k), seed=seed).metrics["throughput_mb_s"] for k in SKIPS])


DEVICE_WORDS = {"HDD10K": "10K HDD", "HDD15K": "15K HDD", "SSD": "SSD"}


def draw(folder: str, rs: dict | None, ix: dict | None) -> None:
    """Draw the curves with the app's chart widget into PNGs under ``folder``."""
    import os
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import numpy as np
    from PySide6.QtWidgets import QApplication

    from app.export import save_chart_png
    from app.replay.series import ChartData, Series
    from ui.charts.view import ChartWidget

    app = QApplication.instance() or QApplication([])
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)

    def save(name, data, legend_at=None, columns=1):
        w = ChartWidget()
        w.resize(960, 540)
        w.show()
        w.show_data(data)
        if columns > 1:
            w.getPlotItem().legend.setColumnCount(columns)
        if legend_at is not None:       # a corner these curves leave free
            w.getPlotItem().legend.anchor((legend_at, 0), (legend_at, 0),
                                          offset=(90 if legend_at == 0 else 0, 10))
        app.processEvents()
        path = save_chart_png(w, out / name, scale=2.0, size=(960, 540))
        w.close()
        print("wrote", path)

    def label(p, d):
        return f"{p}, {DEVICE_WORDS[d]}"

    if rs:
        x = np.array(SAMPLING, dtype=float)
        save("db2-runstats.png", ChartData(
            "runstats", "RUNSTATS table sampling, 8 million pages", "Sampling", "%",
            "Elapsed time", "s",
            tuple(Series(label(p, d), x, np.array(v)) for (p, d), v in rs.items())),
            legend_at=0)
    if ix:
        x = np.array(INDEX_PCT, dtype=float)
        save("db2-index-throughput.png", ChartData(
            "index_mb", "Disorganized index scan, DB2 10, cold cache", "Index read", "%",
            "Throughput", "MB/s",
            tuple(Series(label(p, d), x, np.array([m["throughput_mb_s"] for m in ms]))
                  for (v, p, d), ms in ix.items() if v == 10)), legend_at=1, columns=2)
        ms = ix[10, "zHPF", "SSD"]
        save("db2-index-io-ms.png", ChartData(
            "index_io", "LPO on SSD: time per list prefetch I/O, DB2 10, cold cache",
            "Index read", "%", "Time per list prefetch I/O", "ms",
            (Series(label("zHPF", "SSD"), x, np.array([m["io_ms"] for m in ms])),)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=int, default=1500)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default="")
    ap.add_argument("--png", default="", help="also draw the curves as PNGs into this folder")
    a = ap.parse_args()
    runs.IO_BUDGET = a.budget
    t0 = time.time()
    got = {}
    for name, fn in (("runstats", runstats), ("index", index), ("skip", skip)):
        if not a.only or a.only == name:
            got[name] = fn(a.seed)
            print()
    print(f"({time.time() - t0:.0f} s, I/O budget {a.budget})")
    if a.png:
        draw(a.png, got.get("runstats"), got.get("index"))


if __name__ == "__main__":
    main()
