"""Every case study at common window sizes: the canvas fit settles, the loop turns.

At some sizes the fit used to feed on itself (fit -> a scroll bar appears
-> the viewport narrows -> resize -> fit -> the bar goes -> ...), pinning a
core and starving every timer, autosave's among them. Here each case study
is opened at each size and the event loop must turn (a timer fires) with
the canvas quiet. A breaker stops a runaway view after ``RUNAWAY`` resizes,
so a regression fails the test instead of hanging it.
"""
from __future__ import annotations

import time

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from models import experiments
from ui.canvas.view import CanvasView, legible_scale

CASES = tuple(experiments.registry())
SIZES = ((1024, 640), (1024, 768), (1200, 800), (1280, 720), (1366, 768), (1920, 1080))
#: Resizes of the canvas during one settle beyond which it is spinning.
RUNAWAY = 200


@pytest.fixture
def resize_count(monkeypatch):
    """Counts the canvas's resize events; past RUNAWAY it stops passing them on."""
    count = [0]
    original = CanvasView.resizeEvent

    def counted(self, event):
        count[0] += 1
        if count[0] <= RUNAWAY:
            original(self, event)
    monkeypatch.setattr(CanvasView, "resizeEvent", counted)
    return count


def _loop_turns(app, seconds: float = 5.0) -> bool:
    """True once a timer fires: the event loop got back to its timers."""
    fired = []
    QTimer.singleShot(20, lambda: fired.append(True))
    deadline = time.monotonic() + seconds
    while not fired and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.002)
    return bool(fired)


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_case_settles_at_size(qapp, qtbot, resize_count, size):
    from ui.main_window import MainWindow
    win = MainWindow()
    qtbot.addWidget(win)
    try:
        win.resize(*size)
        stuck = []
        for case in CASES:
            resize_count[0] = 0
            assert win.open_case_or_file(case) is None
            win.show()
            turned = _loop_turns(qapp)
            settled = resize_count[0]
            resize_count[0] = 0
            QApplication.processEvents()
            if not turned or settled > 4 or resize_count[0]:
                stuck.append(f"{case}: {settled} resizes, then {resize_count[0]} more,"
                             f" loop turned: {turned}")
        assert not stuck, f"canvas fit does not settle at {size[0]}x{size[1]}: {stuck}"
        # Fitted: every component is in view (the hidden scroll bars hide
        # nothing), or, too large for that at a legible size, the drawing is
        # at that size and scrolls to every component.
        view = win.view
        drawn = view.mapFromScene(win.scene.itemsBoundingRect()).boundingRect()
        if view.transform().m11() > legible_scale() + 1e-9:
            assert view.viewport().rect().contains(drawn)
        else:
            assert view.transform().m11() == pytest.approx(legible_scale())
            assert win.scene.sceneRect().contains(win.scene.itemsBoundingRect())
    finally:
        win.shutdown()


def test_screenshot_at_1200x800_finishes(tmp_path):
    """The reported case: the headless screenshot at 1200x800 never finished."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    out = tmp_path / "spool.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen",
           "ZPERFLAB_SETTINGS": str(tmp_path / "settings.ini")}
    done = subprocess.run([sys.executable, "-m", "app", "gui", "--open", "spool_dump",
                           "--size", "1200x800", "--screenshot", str(out)],
                          cwd=Path(__file__).resolve().parents[2], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-400:]
    assert out.read_bytes().startswith(b"\x89PNG")


def test_an_edit_outside_the_fitted_view_brings_the_scroll_bars_back(window, qtbot):
    from PySide6.QtCore import Qt
    assert window.open_case_or_file("db2_io") is None
    view = window.view
    qtbot.waitUntil(lambda: view.verticalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    inside = window.editor.scenario.of_category("workload")[0]
    window.editor.move({inside.id: (inside.x + 10, inside.y)})          # still in view
    QApplication.processEvents()
    assert view.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    window.editor.move({inside.id: (inside.x + 5000, inside.y)})        # far off to the right
    qtbot.waitUntil(lambda: view.horizontalScrollBar().isVisible())
    assert view.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAsNeeded
