"""Presentation mode (F11 or View ▸ Present): the window for a projector.

Full screen; menus, toolbars, status bar and side panels hidden (they come
back as they were on Escape); large fonts and thick lines that read from the
back of a room at 1024×768; a high-contrast palette (black on white, pure
colours, no greys) that survives a washed-out projector; the lesson's
caption as a band at the bottom; keyboard only: Space or → next step, ←
back, Escape leaves; a yellow disc follows the mouse pointer so the class
sees what the teacher points at.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QColor, QPainter, QPalette
from PySide6.QtWidgets import QApplication, QDockWidget, QStatusBar, QToolBar, QWidget

#: Tab titles in presentation mode (points). The animation views and the charts
#: paint their text and lines larger through one switch, :func:`set_scale` (the
#: scale of ui/animation/style.py and ui/charts/style.py); enlarging every
#: widget's font would widen the replay's timeline past 1024 pixels.
FONT_PT = 14
#: Radius of the pointer highlight (pixels).
POINTER_R = 28
#: Widgets' style in presentation mode: big tab titles, heavy borders, no grey.
STYLE = (f"QTabBar::tab {{ font-size: {FONT_PT}pt; font-weight: bold; padding: 4px 10px;"
         " color: #000; border: 2px solid #000; background: #ffffff; }"
         "QTabBar::tab:selected { background: #ffd600; }"
         # A panel a lesson brings forward (Results) reads from the back too.
         "QDockWidget QTableWidget, QDockWidget QLabel { font-size: 13pt; }")


class PointerSpot(QWidget):
    """A translucent yellow disc under the mouse, over the whole window."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.setObjectName("pointerSpot")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.pos_ = QPointF(-100, -100)
        self.hide()

    def move_to(self, global_pos) -> None:
        self.pos_ = QPointF(self.mapFromGlobal(global_pos.toPoint()))
        self.update()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(255, 214, 0, 110))
        p.drawEllipse(self.pos_, POINTER_R, POINTER_R)
        p.setBrush(Qt.BrushStyle.NoBrush)
        from PySide6.QtGui import QPen

        p.setPen(QPen(QColor("#ff6d00"), 3))
        p.drawEllipse(self.pos_, POINTER_R, POINTER_R)


class Presentation(QObject):
    """Turns presentation mode on and off for a window with lessons."""

    def __init__(self, window, lessons) -> None:
        super().__init__(window)
        self.window = window
        self.lessons = lessons
        self.on = False
        self.spot = PointerSpot(window)
        self._saved: dict = {}

    def set_on(self, on: bool, full_screen: bool = True) -> None:
        """Enter or leave presentation mode (``full_screen=False``: keep the
        window's size, for a screenshot at a chosen size)."""
        if on == self.on:
            return
        self.on = on
        w = self.window
        app = QApplication.instance()
        if on:
            self._saved = {
                "geometry": w.saveGeometry(), "maximized": w.isMaximized(),
                "menubar": w.menuBar().isVisible(), "style": w.styleSheet(),
                "palette": QWidget.palette(w),
                "hidden": [x for x in self._chrome() if x.isVisible()],
            }
            for x in self._saved["hidden"]:
                x.hide()
            w.menuBar().hide()
            w.setStyleSheet(STYLE)
            w.setPalette(high_contrast(QWidget.palette(w)))
            self.lessons.panel.set_large(True, w.height())
            set_scale(w, True)
            if self.lessons.player.lesson is not None:
                self.lessons.dock.show()
            self.lessons.dock.setTitleBarWidget(QWidget())
            if full_screen:
                w.showFullScreen()
            fit = getattr(getattr(w, "view", None), "fit", None)
            if fit is not None:
                fit()
            self.spot.setGeometry(w.rect())
            self.spot.show()
            self.spot.raise_()
            app.installEventFilter(self)
        else:
            app.removeEventFilter(self)
            self.spot.hide()
            w.setStyleSheet(self._saved.get("style", ""))
            w.setPalette(self._saved.get("palette", QWidget.palette(w)))
            self.lessons.panel.set_large(False)
            set_scale(w, False)
            self.lessons.dock.setTitleBarWidget(None)
            w.menuBar().setVisible(self._saved.get("menubar", True))
            for x in self._saved.get("hidden", []):
                if not isinstance(x, QDockWidget):
                    x.show()
            # The side panels the tab in front shows (the lesson may have
            # moved to another tab while presenting).
            apply_plan = getattr(w, "_apply_dock_plan", None)
            if apply_plan is not None:
                apply_plan(getattr(w, "_shown_tab", "canvas"))
            else:
                for x in self._saved.get("hidden", []):
                    x.show()
            w.showNormal()
            if self._saved.get("maximized"):
                w.showMaximized()
            elif "geometry" in self._saved:
                w.restoreGeometry(self._saved["geometry"])
        action = getattr(self.lessons, "present_action", None)
        if action is not None and action.isChecked() != on:
            action.setChecked(on)

    def _chrome(self) -> list[QWidget]:
        """Side panels, toolbars and the status bar (not the lesson band)."""
        w = self.window
        out: list[QWidget] = [d for d in w.findChildren(QDockWidget)
                              if d is not self.lessons.dock and d.parent() is w]
        out += [t for t in w.findChildren(QToolBar) if t.parent() is w]
        out += [s for s in w.findChildren(QStatusBar) if s.parent() is w]
        return out

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind == QEvent.Type.MouseMove:
            self.spot.move_to(event.globalPosition())
            return False
        if kind == QEvent.Type.Resize and obj is self.window:
            self.spot.setGeometry(self.window.rect())
            self.lessons.panel.set_large(True, self.window.height())
            return False
        if kind == QEvent.Type.KeyPress:
            key = event.key()
            player = self.lessons.player
            if key == Qt.Key.Key_Escape:
                self.set_on(False)
                return True
            if key in (Qt.Key.Key_Space, Qt.Key.Key_Right, Qt.Key.Key_PageDown):
                player.next()
                return True
            if key in (Qt.Key.Key_Left, Qt.Key.Key_PageUp):
                player.back()
                return True
            if key == Qt.Key.Key_F11:
                self.set_on(False)
                return True
            return True  # keyboard only: nothing else reaches the widgets
        return False


def set_scale(window: QWidget, on: bool) -> None:
    """Presentation sizes (``on``) or desktop sizes for the text and lines the
    animation views and charts of ``window`` paint; they repaint at once."""
    from ui.animation import style as anim_style
    from ui.animation.base import ReplayViewBase
    from ui.animation.replay_view import ReplayView
    from ui.charts import style as chart_style
    from ui.charts.view import ChartWidget

    from ui.canvas import items as canvas_items
    from ui.canvas.view import CanvasView

    anim_style.set_scale(anim_style.PRESENT_SCALE if on else 1.0)
    chart_style.set_scale(chart_style.PRESENT_SCALE if on else 1.0)
    canvas_items.set_label_scale(canvas_items.PRESENT_LABEL_SCALE if on else 1.0)
    for canvas in window.findChildren(CanvasView):
        canvas.note_pt = 14.0 if on else 10.0
        canvas.viewport().update()
    for view in window.findChildren(ReplayViewBase):
        view.update()
    for replay in window.findChildren(ReplayView):
        # A room reads the lesson's caption band, and the keys drive the
        # replay: the event count and the mouse hint give their height to the views.
        replay.note.setVisible(not on)
        replay.timeline.hint.setVisible(not on)
    for chart in window.findChildren(ChartWidget):
        chart.restyle()


def high_contrast(palette: QPalette) -> QPalette:
    """Black on pure white, saturated blue selection: no mid greys to wash out."""
    p = QPalette(palette)
    black, white = QColor("#000000"), QColor("#ffffff")
    for role, colour in ((QPalette.ColorRole.Window, white), (QPalette.ColorRole.Base, white),
                         (QPalette.ColorRole.WindowText, black), (QPalette.ColorRole.Text, black),
                         (QPalette.ColorRole.Button, QColor("#ffd600")),
                         (QPalette.ColorRole.ButtonText, black),
                         (QPalette.ColorRole.Highlight, QColor("#0033cc")),
                         (QPalette.ColorRole.HighlightedText, white)):
        p.setColor(role, colour)
    return p
