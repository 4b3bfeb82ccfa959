"""Replay frame rate of each animation view on a 200,000-event trace (offscreen).

Usage::

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/replay_fps.py [--frames N] [--shots DIR]

For each view a full-scale run is recorded into a ``Trace(limit=200_000)``
ring (so memory stays bounded), then replayed frame by frame at 1280×800:
the controller advances one 60 Hz frame, the view recomputes its state at the
new time, and the widget is rendered into an image (the full paint path).
Half the frames play through a stretch of the run at a speed that changes
the picture every frame; the other half scrub across the whole run in big
jumps (the worst case for look-ups). It prints frames per second (from the
median frame time) and the worst frame. Target (issue #10): median ≥ 60 fps,
no frame over 50 ms.

``--shots DIR`` also saves the 1280×800 screenshots used in docs/animation.md.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtGui import QImage  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from models.engine import Trace  # noqa: E402
from models.experiments import run_experiment  # noqa: E402

EVENTS = 200_000
SIZE = (1280, 800)

#: (view module, class, experiment, parameters, replay start as a fraction of the run,
#:  play speed: simulated seconds per frame)
CASES = (
    ("track_view", "TrackView", "db2_io", {"cache": "cold", "protocol": "FICON"}, 0.5, 20e-6),
    ("cache_view", "CacheView", "db2_skip_sequential", {"protocol": "zHPF"}, 0.5, 50e-6),
    ("cpu_view", "CpuView", "natural_ziip", {"records": 60_000, "operation": "sort"}, 0.5, 5e-6),
    ("activity_view", "ActivityView", "spool_dump", {"tape_drives": 2}, 0.5, 0.05),
)


def record(exp: str, params: dict):
    """Run ``exp`` into a 200,000-event ring; returns the trace."""
    trace = Trace(limit=EVENTS)
    run_experiment(exp, params, trace=trace)
    return trace


def replay(view_cls, trace, start: float, step: float, frames: int) -> list[float]:
    """Frame times (s) of ``frames`` frames: half playing, half scrubbing."""
    from ui.animation import ReplayController, ReplayData
    data = ReplayData(trace)
    view = view_cls()
    view.resize(*SIZE)
    ctl = ReplayController()
    ctl.time_changed.connect(view.set_time)
    view.set_data(data)
    ctl.set_data(data)
    ctl.seek(data.t0 + start * (data.t1 - data.t0))
    ctl.set_speed(step * 60)               # `step` simulated seconds per 1/60 s frame
    image = QImage(*SIZE, QImage.Format.Format_ARGB32_Premultiplied)
    times = []
    for i in range(frames):
        t0 = time.perf_counter()
        if i < frames // 2:
            ctl.advance(1 / 60)
        else:
            k = i - frames // 2
            ctl.seek(data.t0 + ((k * 7919) % frames) / frames * (data.t1 - data.t0))
        view.render(image)
        times.append(time.perf_counter() - t0)
    view.deleteLater()
    return times


def shots(directory: Path) -> None:
    """Save the documentation screenshots (each view, a few replay times)."""
    from ui.animation import ReplayView
    directory.mkdir(parents=True, exist_ok=True)
    plan = (
        ("track-ficon", "db2_io", {"cache": "cold", "protocol": "FICON"}, 0, 0.0000785),
        ("track-lpo", "db2_io", {"cache": "cold", "protocol": "zHPF"}, 0, 0.000055),
        ("cache-lpo", "db2_io", {"cache": "cold", "protocol": "zHPF", "stride": 3}, 1, 0.00033),
        ("cache-ficon", "db2_io", {"cache": "cold", "protocol": "FICON"}, 1, 0.0016),
        ("srb-tcb", "natural_ziip", {"records": 200, "operation": "sort", "calls_3gl": 1}, 0, 0.42),
        ("activity-spool", "spool_dump", {"files": 500, "pages": 60000, "tape_drives": 1,
                                          "tape_change_s": 10, "real_storage_mb": 16}, 1, 0.9),
        ("activity-db2", "db2_io", {"cache": "cold", "protocol": "zHPF"}, 2, 0.00006),
    )
    for name, exp, params, tab, frac in plan:
        view = ReplayView()
        view.resize(*SIZE)
        view.set_result(run_experiment(exp, params, trace=True))
        view.show()
        view.tabs.setCurrentIndex(tab)
        data = view.data
        view.controller.seek(data.t0 + frac * (data.t1 - data.t0))
        QApplication.processEvents()
        view.grab().save(str(directory / f"animation-{name}.png"))
        print(f"saved animation-{name}.png  t = {view.controller.t:.6f} s")
        view.close()
        view.deleteLater()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=600)
    parser.add_argument("--shots", type=Path, default=None)
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    import importlib
    print(f"{'view':14} {'experiment':13} {'events':>8} {'dropped':>8} "
          f"{'fps(median)':>11} {'p95 ms':>7} {'worst ms':>8}")
    for mod, cls, exp, params, start, step in CASES:
        trace = record(exp, params)
        view_cls = getattr(importlib.import_module(f"ui.animation.{mod}"), cls)
        times = replay(view_cls, trace, start, step, args.frames)
        med = statistics.median(times)
        p95 = sorted(times)[int(0.95 * len(times))]
        print(f"{cls:14} {exp:13} {len(trace):8,} {trace.dropped:8,} {1 / med:11.0f} "
              f"{p95 * 1e3:7.1f} {max(times) * 1e3:8.1f}")
    if args.shots:
        shots(args.shots)
    app.processEvents()


if __name__ == "__main__":
    main()
