"""Presentation mode paints the animation views and the charts larger, and
leaving it puts the desktop sizes back (issue 21: "large fonts and lines that
read from the back of a room at 1024×768").

The painted text is caught the way tests/ui/test_anim_layout.py does it: by
wrapping ``QPainter.drawText`` and reading the painter's font at each call.
"""
from __future__ import annotations

import pyqtgraph as pg
import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFontMetricsF, QImage, QPainter
from PySide6.QtWidgets import QApplication

from ui.animation import style as anim_style
from ui.animation.replay_view import ReplayView
from ui.charts import style as chart_style


@pytest.fixture(autouse=True)
def _desktop_sizes_after():
    """A failing test must not leave the next one at presentation sizes."""
    yield
    from ui.canvas import items
    anim_style.set_scale(1.0)
    chart_style.set_scale(1.0)
    items.set_label_scale(1.0)


def _line_heights(view, monkeypatch) -> dict[str, float]:
    """Paint ``view`` once: each drawn line → the height of its font (px). A
    line is known by its first 12 characters (one drawn shortened with "…" in
    presentation mode is still the same line)."""
    seen: dict[str, float] = {}
    original = QPainter.drawText

    def draw_text(painter, *args):
        if len(args) == 3 and isinstance(args[0], QRectF) and isinstance(args[2], str):
            seen.setdefault(args[2][:12], QFontMetricsF(painter.font()).height())
        return original(painter, *args)
    monkeypatch.setattr(QPainter, "drawText", draw_text)
    try:
        view.render(QImage(view.size(), QImage.Format.Format_ARGB32))
    finally:
        monkeypatch.setattr(QPainter, "drawText", original)
    return seen


def _present(window, on: bool) -> None:
    window.lessons.presentation.set_on(on, full_screen=False)
    window.resize(1024, 768)
    QApplication.processEvents()


@pytest.mark.parametrize("case, part", [("natural_ziip", "SRB/TCB switches"),
                                        ("spool_dump", "Activity")])
def test_presentation_paints_animation_text_larger_and_leaving_restores_it(
        window, monkeypatch, case, part):
    window.resize(1024, 768)
    assert window.open_case_or_file(case) is None
    window.run_and_wait()
    window.show_view("animation")
    replay = window.findChild(ReplayView)
    view = replay.views[part]
    replay.tabs.setCurrentWidget(view)
    d = replay.data
    replay.controller.seek(d.t0 + 0.3 * (d.t1 - d.t0))
    QApplication.processEvents()
    desk = _line_heights(view, monkeypatch)
    desk_size = view.size()
    heading = next(t for t in desk if t.startswith((part + " — ")[:12]))
    _present(window, True)
    assert window.lessons.presentation.on
    big = _line_heights(view, monkeypatch)
    # The heading and the body lines (a lamp's name, a lane's, a counter) grow by 1.3× or more.
    assert big[heading] >= 1.3 * desk[heading], (heading, desk[heading], big[heading])
    body = [t for t in desk if t in big and t != heading and desk[t] < desk[heading]]
    assert len(body) >= 3
    grown = [t for t in body if big[t] >= 1.3 * desk[t]]
    assert len(grown) >= 0.8 * len(body), (len(grown), len(body))
    # Leaving puts the desktop sizes back.
    _present(window, False)
    # (The window's parts may come back a few pixels taller or shorter, and the
    # CPU counters choose their headings by height: compare at the same height.)
    window.resize(1024, 768 + desk_size.height() - view.height())
    QApplication.processEvents()
    assert view.size() == desk_size
    again = _line_heights(view, monkeypatch)
    assert again[heading] == pytest.approx(desk[heading])
    assert {t: again[t] for t in body if t in again} == pytest.approx(
        {t: desk[t] for t in body if t in again}), (desk_size, view.size())


def _chart_sizes(chart) -> dict[str, float]:
    item = chart.getPlotItem()
    bottom = item.getAxis("bottom")
    legend = item.legend
    sizes = {
        "tick font": bottom.style["tickFont"].pointSizeF(),
        "axis label": float(bottom.labelStyle["font-size"].rstrip("pt")),
        "title": float(item.titleLabel.opts["size"].rstrip("pt")),
        "axis line": bottom.pen().widthF(),
    }
    if legend is not None and legend.items:
        sizes["legend text"] = float(legend.items[0][1].opts["size"].rstrip("pt"))
    pens = [c.opts["pen"].widthF() for c in item.listDataItems()
            if hasattr(c, "opts") and hasattr(c.opts.get("pen"), "widthF")]
    if pens:
        sizes["line"] = max(pens)
    labels = [i.textItem.font().pointSizeF() for i in item.items if isinstance(i, pg.TextItem)]
    if labels:
        sizes["bar value"] = max(labels)
    return sizes


def test_presentation_makes_chart_fonts_and_lines_larger_and_leaving_restores_them(window):
    window.resize(1024, 768)
    assert window.open_case_or_file("db2_io") is None
    window.run_and_wait()
    window.show_view("charts")
    from ui.charts.view import ChartWidget
    line_chart = next(c for c in window.findChildren(ChartWidget) if c.data is not None
                      and not {s.kind for s in c.data.series} & {"bar", "stack", "span"})
    desk = _chart_sizes(line_chart)
    assert {"tick font", "axis label", "title", "axis line", "line"} <= set(desk)
    _present(window, True)
    big = _chart_sizes(line_chart)
    for key, size in desk.items():
        assert big[key] >= 1.3 * size, (key, size, big[key])
    _present(window, False)
    assert _chart_sizes(line_chart) == pytest.approx(desk)
    # A bar chart's value labels too.
    bars = next(c for c in window.findChildren(ChartWidget) if c.data is not None
                and {s.kind for s in c.data.series} & {"bar", "stack"})
    desk = _chart_sizes(bars)
    assert "bar value" in desk
    _present(window, True)
    big = _chart_sizes(bars)
    assert all(big[k] >= 1.3 * v for k, v in desk.items() if k != "line"), (desk, big)
    _present(window, False)
    assert _chart_sizes(bars) == pytest.approx(desk)


def test_presenting_a_lesson_gives_the_view_the_width_on_every_step(window):
    """F11 first, then a step that brings the charts forward: the Results
    panel stays hidden (the chart gets the width); leaving brings it back."""
    window.resize(1024, 768)
    parts = window.lessons
    assert parts.start("whatif_hyperpav_aliases", 0) is None
    _present(window, True)
    parts.player.next()                                  # runs, shows the charts
    QApplication.processEvents()
    assert window.tab_name() == "charts"
    assert not window.results_dock.isVisible()
    assert not any(d.isVisible() for d in window.docks.values())
    chart = window.charts_view()
    assert chart.width() > 0.9 * window.width()
    assert parts.panel.title.shown_text() == parts.player.lesson.title   # whole, wrapped
    _present(window, False)
    assert window.results_dock.isVisible()                # the charts tab's panel is back


def test_a_lessons_edits_are_not_unsaved_changes_and_the_ring_hugs_the_card(window):
    from ui.canvas.items import NODE_H, NODE_W

    parts = window.lessons
    assert parts.start("db2_skip_sequential", 0) is None   # step 1 sets the table size
    assert window.editor.undo_stack.isClean()
    ring = parts.player.driver._ring
    card = window.scene.node_items[next(nid for nid, n in window.editor.scenario.nodes.items()
                                        if n.label == "Table space")]
    rect = ring.rect()
    assert rect.contains(card.sceneBoundingRect().topLeft())
    assert rect.height() < NODE_H + 20 and rect.width() < NODE_W + 20
    parts.player.next()                                   # edits as undo commands, and a run
    assert window.editor.undo_stack.isClean() and window.editor.undo_stack.canUndo()


def test_space_during_a_steps_run_is_queued_once_and_said_on_the_band(window, monkeypatch):
    parts = window.lessons
    player = parts.player
    assert parts.start("whatif_add_ziip", 0) is None
    seen = []
    real = window.run_and_wait

    def run_and_wait(*args, **kwargs):
        if not seen:
            player.next()                  # quick presses while the step runs
            seen.append(parts.panel.next_button.text())
            player.next()
            seen.append(parts.panel.next_button.text())
        return real(*args, **kwargs)

    monkeypatch.setattr(window, "run_and_wait", run_and_wait)
    player.next()                          # step 2 runs
    assert seen == ["Next queued…", "Queued: wait"]
    QApplication.processEvents()           # the queued press: step 3 (runs too)
    assert player.index == 2
    assert parts.panel.next_button.text() == "Next ▶"


def test_first_size_fits_the_available_screen(monkeypatch):
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QGuiApplication

    from ui.main_window import first_size

    class Screen:
        def availableGeometry(self):
            return QRect(0, 0, 1024, 740)

    class Widget:
        def screen(self):
            return Screen()

    monkeypatch.setattr(QGuiApplication, "platformName", staticmethod(lambda: "xcb"))
    # Room left for the window manager's title bar and borders (issue 40).
    assert first_size(Widget()) == (1024 - 16, 740 - 48)


def test_card_labels_grow_and_wrap_whole_in_presentation():
    from PySide6.QtGui import QFont, QFontMetricsF

    from ui.canvas.items import NODE_W, label_lines

    font = QFont()
    font.setPointSizeF(10.5 * 1.5)
    font.setBold(True)
    m = QFontMetricsF(font)
    assert label_lines(m, "Random reader", NODE_W - 4, 2) == ["Random", "reader"]
    assert label_lines(m, "PROD.HISTORY", NODE_W - 4, 2) == ["PROD.", "HISTORY"]
    assert label_lines(m, "HSTV01", NODE_W - 4, 2) == ["HSTV01"]
    long = label_lines(m, "A very long component name indeed", NODE_W - 4, 2)
    assert len(long) == 2 and long[1].endswith("…")
