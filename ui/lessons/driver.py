"""The window as a lesson sees it: one adapter, so the player needs nothing
of :class:`~ui.main_window.MainWindow` beyond this file.

It drives the window through its public methods (``open_scenario``,
``run_and_wait``, ``runnable_experiment``, ``show_view``, ``show_canvas``,
``charts_view``, ``say``, ``run_finished``) and the replay's
:class:`~ui.animation.controller.ReplayController`. Three things have no
public method yet and are reached here only: the editor (so a step's edits
are undo commands), the canvas scene (to draw a highlight ring round a
component) and the animation view (its controller and sub-tabs). If the
window's internals move, this file is the one to follow them.
"""
from __future__ import annotations

import shiboken6

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QDockWidget, QGraphicsRectItem, QTabWidget, QWidget

from app import lesson_charts
from models.drawing.scenario import Node

#: Highlight colour: a saturated orange that survives a washed-out projector.
HIGHLIGHT = QColor("#ff6d00")


class FrameOverlay(QWidget):
    """A thick rounded frame drawn over a widget; clicks pass through."""

    def __init__(self, target: QWidget) -> None:
        super().__init__(target)
        self.setObjectName("lessonHighlight")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setGeometry(target.rect())
        target.installEventFilter(self)
        self.show()
        self.raise_()

    def eventFilter(self, obj, event) -> bool:  # follow the target's size
        if event.type() == event.Type.Resize:
            self.setGeometry(obj.rect())
        return False

    def paintEvent(self, event) -> None:
        from PySide6.QtGui import QPainter

        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.setPen(QPen(HIGHLIGHT, 6))
        p.drawRoundedRect(QRectF(self.rect()).adjusted(3, 3, -3, -3), 8, 8)


class AppDriver:
    """What the lesson player may do to the window."""

    def __init__(self, window) -> None:
        self.window = window
        self._ring: QGraphicsRectItem | None = None
        self._frame: FrameOverlay | None = None

    # ---- scenario -----------------------------------------------------------
    @property
    def editor(self):
        return self.window.editor

    @property
    def scenario(self):
        return self.editor.scenario

    def restore(self, scenario, message: str, opened: dict | None = None) -> bool:
        """Put ``scenario`` on the canvas without the 'save changes?' question
        (a lesson's drawing is the lesson's, and Reset step means it);
        ``opened``: the lesson's case, what its runs' changes count from."""
        self.editor.undo_stack.setClean()
        return self.window.open_scenario(scenario, message, opened)

    def apply(self, step, text: str = "Lesson step", title: str | None = None) -> None:
        """A step's set/add/remove as undo commands, one Undo for the step;
        ``title``: the scenario's title from this step on (a what-if lesson's
        after drawing), in the same Undo."""
        stack = self.editor.undo_stack
        stack.beginMacro(text)
        try:
            self._apply(step)
            if title and title != self.scenario.title:
                from ui.commands import SetTitleCommand
                stack.push(SetTitleCommand(self.scenario, title))
        finally:
            stack.endMacro()
        # The lesson's own edits are not the user's unsaved changes (Undo
        # still takes the step back).
        stack.setClean()

    def _apply(self, step) -> None:
        ed, sc = self.editor, self.scenario
        labels = {n.label: n.id for n in sc.nodes.values()}
        if step.remove:
            ed.delete([labels[x] for x in step.remove])
        for item in step.add:
            nid = ed.add_component(item["kind"], float(item.get("x", 0)), float(item.get("y", 0)))
            if sc.nodes[nid].label != item["label"]:
                ed.rename(nid, item["label"])
            labels = {n.label: n.id for n in sc.nodes.values()}
            for other in item.get("links", ()):
                ed.link(nid, labels[other])
            for key, value in item.get("properties", {}).items():
                ed.set_property(nid, key, value)
        labels = {n.label: n.id for n in sc.nodes.values()}
        for a, b in step.link:
            ed.link(labels[a], labels[b])
        for label, props in step.set.items():
            for key, value in props.items():
                ed.set_property(labels[label], key, value)
        if step.calibrate:
            self.calibrate()

    def calibrate(self) -> None:
        """Calibrate to RMF as the class would (File ▸ Calibrate to RMF…), and
        wait for it: its own undo step inside the lesson step's."""
        calibration = self.window.calibration
        if calibration.start():
            calibration.wait()

    def document(self) -> dict:
        """The drawing as plain data, without positions (a dragged card is
        not a different configuration)."""
        return drawing(self.scenario.to_dict())

    # ---- runs and views ---------------------------------------------------
    def run_and_wait(self) -> None:
        self.window.run_and_wait()

    def show_view(self, name: str) -> None:
        if name == "canvas":
            self.window.show_canvas()
        else:
            self.window.show_view(name)

    def animation(self):
        return getattr(self.window, "views", {}).get("animation")

    def controller(self):
        view = self.animation()
        return getattr(view, "controller", None)

    def part_widget(self, view: str, part: str) -> QWidget | None:
        """Bring ``part`` forward (a sub-tab of the view, a chart, a dock); its widget."""
        for dock in self.window.findChildren(QDockWidget):
            if dock.windowTitle() == part:
                dock.setVisible(True)
                dock.raise_()
                return dock
        holder = {"animation": self.animation(), "charts": self.window.charts_view()}.get(view)
        if holder is None:
            return None
        for tabs in holder.findChildren(QTabWidget):
            for i in range(tabs.count()):
                if lesson_charts.names(part, tabs.tabText(i)):
                    tabs.setCurrentIndex(i)
                    return tabs.widget(i)
        return None

    # ---- highlights ---------------------------------------------------------
    def clear_highlight(self) -> None:
        if self._ring is not None:
            if self._ring.scene() is not None:
                self._ring.scene().removeItem(self._ring)
            self._ring = None
        if self._frame_shown():
            self._frame.deleteLater()
        self._frame = None

    def _frame_shown(self) -> bool:
        """True while the highlight frame exists: it is its target's child, and
        goes with it (a replay view that a new run replaced is deleted)."""
        if self._frame is not None and not shiboken6.isValid(self._frame):
            self._frame = None
        return self._frame is not None

    def highlight_component(self, label: str) -> bool:
        scene = self.window.scene
        node: Node | None = next((n for n in self.scenario.nodes.values() if n.label == label),
                                 None)
        item = scene.node_items.get(node.id) if node is not None else None
        if item is None:
            return False
        # The card itself (its shape), not the room its bounding box keeps
        # for a problem line below it: the ring hugs what the class looks at.
        rect = item.mapRectToScene(item.shape().boundingRect()).adjusted(-7, -7, 7, 7)
        self._ring = QGraphicsRectItem(rect)
        self._ring.setPen(QPen(HIGHLIGHT, 6))
        self._ring.setZValue(1000)
        self._ring.setData(0, label)
        scene.addItem(self._ring)
        return True

    def highlight_widget(self, widget: QWidget) -> None:
        self._frame = FrameOverlay(widget)

    def highlighted(self) -> str | None:
        """The component label or part now highlighted (tests, the panel)."""
        if self._ring is not None:
            return self._ring.data(0)
        if self._frame_shown():
            return self._frame.property("part")
        return None


def drawing(doc: dict) -> dict:
    """A scenario document without card positions or ids: what runs."""
    names = {n["id"]: n["label"] for n in doc["nodes"]}
    return {"experiment": doc["experiment"],
            "nodes": sorted((n["kind"], n["label"], sorted(n["properties"].items()))
                            for n in doc["nodes"]),
            "links": sorted(tuple(sorted((names[ln["source"]], names[ln["target"]])))
                            for ln in doc["links"])}

