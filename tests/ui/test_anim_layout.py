"""The animation views' painted text fits, at 1024×640, 1280×800 and 1920×1080.

Every line a replay view draws goes through ``QPainter.drawText`` with a
rectangle; the test wraps that call and checks that no line is wider than its
rectangle (a wider line is cut at the edge: "Rank R1 dri", "k 25149 · cyl
317 · rec 2 in 894.1"). A line too long for its place is drawn shortened with
"…", and the full text is the tooltip of its rectangle. The time read-out
under the views fits its label too.
"""
from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QRectF, Qt
from PySide6.QtGui import QFontMetricsF, QHelpEvent, QImage, QPainter
from PySide6.QtWidgets import QApplication, QToolTip

from app.replay.activity import component_activity
from ui.animation.replay_view import ReplayView


def component_role(data, name: str) -> str:
    return component_activity(data, name, data.t1).role

SIZES = ((1024, 640), (1280, 800), (1920, 1080))
#: Cases with many drives (db2_index_scan: a rank of 8 and 14 components), a
#: CPU view (natural_ziip), a cache view (db2_io), tapes and spool (spool_dump).
CASES = ("db2_index_scan", "natural_ziip", "db2_io", "spool_dump")


class _Lines:
    """Wraps QPainter.drawText(QRectF, flags, text): what was drawn where, too wide or not."""

    def __init__(self, monkeypatch):
        self.too_wide: list[tuple[str, float, float]] = []
        self.count = 0
        original = QPainter.drawText

        def draw_text(painter, *args):
            if len(args) == 3 and isinstance(args[0], QRectF) and isinstance(args[2], str):
                rect, text = args[0], args[2]
                wide = QFontMetricsF(painter.font()).horizontalAdvance(text)
                self.count += 1
                if wide > rect.width() + 1:
                    self.too_wide.append((text, round(wide), round(rect.width())))
            return original(painter, *args)
        monkeypatch.setattr(QPainter, "drawText", draw_text)


def _paint(view) -> None:
    image = QImage(view.size(), QImage.Format.Format_ARGB32)
    view.render(image)


@pytest.mark.parametrize("case", CASES)
def test_every_painted_line_fits_or_is_shortened_with_its_full_text_as_tooltip(
        window, monkeypatch, case):
    assert window.open_case_or_file(case) is None
    window.run_and_wait()
    window.show_view("animation")
    replay = window.findChild(ReplayView)
    d = replay.data
    lines = _Lines(monkeypatch)
    shortened = 0
    for size in SIZES:
        window.resize(*size)
        QApplication.processEvents()
        for i in range(replay.tabs.count()):
            replay.tabs.setCurrentIndex(i)
            view = replay.tabs.widget(i)
            for f in (0.0, 0.3, 0.5, 1.0):
                replay.controller.seek(d.t0 + f * (d.t1 - d.t0))
                QApplication.processEvents()
                _paint(view)
                for rect, full in view.elided:
                    assert view.tooltip_at(rect.center()) == full
                    shortened += 1
                tl = replay.timeline
                assert tl.readout.fontMetrics().horizontalAdvance(tl.readout.text()) \
                    <= tl.readout.width(), (size, tl.readout.text())
    assert lines.count > 100
    assert lines.too_wide == [], (case, lines.too_wide[:5])


def test_at_1024_every_component_of_the_activity_strip_is_told_in_full(window):
    """At 1024×640 the Activity strip of a rank of 8 drives is two columns:
    "Rank R1 drive 3" may be drawn shortened, its tooltip names it and its role."""
    window.resize(1024, 640)
    assert window.open_case_or_file("db2_index_scan") is None
    window.run_and_wait()
    window.show_view("animation")
    replay = window.findChild(ReplayView)
    view = replay.views["Activity"]
    replay.tabs.setCurrentWidget(view)
    QApplication.processEvents()
    _paint(view)
    told = {full for _, full in view.elided}
    for name in replay.data.components:
        assert f"{name}: {component_role(replay.data, name)}" in told, name
    # Hovering there shows it (the view answers Qt's tooltip event).
    rect, full = view.elided[-1]
    at = rect.center().toPoint()
    QApplication.sendEvent(view, QHelpEvent(QEvent.Type.ToolTip, at, view.mapToGlobal(at)))
    assert QToolTip.text() == full


class _Boxes(_Lines):
    """Also keeps each painted line's rectangle (per paint), to find lines drawn over lines."""

    def __init__(self, monkeypatch):
        super().__init__(monkeypatch)
        self.boxes: list[tuple[QRectF, str]] = []
        wrapped = QPainter.drawText

        def draw_text(painter, *args):
            if len(args) == 3 and isinstance(args[0], QRectF) and isinstance(args[2], str) \
                    and args[2].strip():
                # The ink's box: as wide as the text, placed as the flags say.
                rect, flags, s = args
                fm = QFontMetricsF(painter.font())
                w, h = min(fm.horizontalAdvance(s), rect.width()), fm.height()
                x = rect.x()
                if flags & Qt.AlignmentFlag.AlignHCenter:
                    x = rect.center().x() - w / 2
                elif flags & Qt.AlignmentFlag.AlignRight:
                    x = rect.right() - w
                box = QRectF(x, rect.center().y() - h / 2, w, h)
                self.boxes.append((painter.transform().mapRect(box), s))
            return wrapped(painter, *args)
        monkeypatch.setattr(QPainter, "drawText", draw_text)

    def overlaps(self) -> list[tuple[str, str]]:
        """Pairs of painted lines whose boxes cross by more than 3 px both ways."""
        out = []
        for i, (a, ta) in enumerate(self.boxes):
            for b, tb in self.boxes[i + 1:]:
                both = a.intersected(b)
                # (The CPU view draws the units of one lane as a stack of
                # opaque cards, each a little lower and to the left: by design.)
                cards = ta.startswith("work ") and tb.startswith("work ")
                if both.width() > 3 and both.height() > 3 and not cards:
                    out.append((ta, tb))
        return out


@pytest.mark.parametrize("case", CASES)
def test_in_presentation_mode_at_1024x768_every_line_fits_and_none_covers_another(
        window, monkeypatch, case):
    """Presentation mode paints larger (ui/presentation.py): at a projector's
    1024×768 every line still fits its place (or is shortened with its full
    text as tooltip), no line is painted over another, and the text is larger
    than on the desktop."""
    from ui.animation import style
    assert window.open_case_or_file(case) is None
    window.run_and_wait()
    window.show_view("animation")
    replay = window.findChild(ReplayView)
    d = replay.data
    window.lessons.presentation.set_on(True, full_screen=False)
    try:
        window.resize(1024, 768)
        QApplication.processEvents()
        assert style.SCALE > 1.2
        lines = _Boxes(monkeypatch)
        covered = []
        for i in range(replay.tabs.count()):
            replay.tabs.setCurrentIndex(i)
            view = replay.tabs.widget(i)
            for f in (0.0, 0.3, 0.5, 1.0):
                replay.controller.seek(d.t0 + f * (d.t1 - d.t0))
                QApplication.processEvents()
                lines.boxes = []
                _paint(view)
                covered += [(replay.tabs.tabText(i), f, pair) for pair in lines.overlaps()]
                for rect, full in view.elided:
                    # (The CPU view stacks the boxes of units in one lane, the
                    # Activity strip's two columns name a row and its role in
                    # one tooltip: the topmost shortened line's text shows.)
                    assert view.tooltip_at(rect.center()), full
    finally:
        window.lessons.presentation.set_on(False)
    assert lines.count > 50
    assert lines.too_wide == [], (case, lines.too_wide[:5])
    assert covered == [], (case, covered[:5])
