"""The canvas view: accepts palette drops, zooms, pans and rubber-band selects."""
from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt, QTimer, Signal
from PySide6.QtGui import QPainter, QTransform
from PySide6.QtWidgets import QGraphicsView

from ui.canvas.items import NODE_H, NODE_W
from ui.canvas import menus
from ui.canvas.mime import decode_kind
from ui.canvas.place import drop_spot
from ui.canvas.scene import CanvasScene

ZOOM_MIN, ZOOM_MAX = 0.25, 4.0
#: The smallest size, in pixels on screen, at which a fit shows the cards'
#: labels (a 1,000-volume shop fitted whole at 1280×800 drew them at 7 px).
LEGIBLE_PX = 9.0


def legible_scale() -> float:
    """The zoom below which a fit would draw the cards' labels under
    :data:`LEGIBLE_PX` (their font as the cards paint it, presentation mode
    included)."""
    from PySide6.QtGui import QFont, QFontInfo

    from ui.canvas import items
    font = QFont()
    font.setPointSizeF(items.LABEL_PT * items.LABEL_SCALE)
    font.setBold(True)
    return min(1.0, LEGIBLE_PX / max(1.0, QFontInfo(font).pixelSize()))


class CanvasView(QGraphicsView):
    """Shows a :class:`CanvasScene`; drops create components through the editor."""

    #: A component was dropped: its new id (or the card it changed).
    dropped = Signal(str)

    def __init__(self, scene: CanvasScene, parent=None) -> None:
        super().__init__(scene, parent)
        self.setAcceptDrops(True)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.BoundingRectViewportUpdate)
        # The activity note sits on the viewport, not the drawing: repaint it
        # whole when the drawing scrolls under it.
        for bar in (self.horizontalScrollBar(), self.verticalScrollBar()):
            bar.valueChanged.connect(self._on_scrolled)
        self._pan_from: QPointF | None = None
        # After "fit", keep the whole scenario in view as the window or the
        # docks change size, until the user zooms by hand, or an edit puts a
        # component outside the view (the scroll bars come back to reach it).
        self._keep_fitted = False
        # Fitted at the smallest legible size, the drawing being larger.
        self._legible_only = False
        self._fit_legible = True
        # Checked once the edit is drawn; the timer dies with the view, and
        # its connection with it.
        self._fit_check = QTimer(self)
        self._fit_check.setSingleShot(True)
        self._fit_check.setInterval(0)
        self._fit_check.timeout.connect(self._leave_fit_if_outgrown)
        scene.editor.undo_stack.indexChanged.connect(self._on_undo_stack_index_changed)
        # The empty canvas's hint goes as the first component comes (and back).
        scene.changed.connect(lambda _r: self.viewport().update()
                              if len(scene.node_items) <= 1 else None)

    # ---- drag and drop from the palette --------------------------------
    def dragEnterEvent(self, event) -> None:
        if decode_kind(event.mimeData()) is not None:
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:
        key = decode_kind(event.mimeData())
        if key is None:
            event.ignore()
            return
        pos = self.mapToScene(event.position().toPoint())
        editor = self.scene().editor

        def add() -> str:
            # Centred on the pointer, on the grid; beside the card it was
            # dropped on, never hiding it.
            x, y = drop_spot(editor.scenario, pos.x() - NODE_W / 2, pos.y() - NODE_H / 2)
            return editor.add_component(key, x, y)

        target = self.scene().node_at(pos)
        # Onto another version of the card (SSD onto an HDD group): ask.
        menu = menus.drop_menu(editor, target, key, add, self) if target else None
        if menu is None:
            node_id = add()
        else:
            before = set(editor.scenario.nodes)
            chosen = menus.popup(menu, self.viewport().mapToGlobal(event.position().toPoint()))
            menu.deleteLater()
            if chosen is None:
                event.ignore()
                return
            added = set(editor.scenario.nodes) - before
            node_id = added.pop() if added else target
        event.acceptProposedAction()
        self.dropped.emit(node_id)

    # ---- zoom and pan --------------------------------------------------
    def _on_scrolled(self, _value: int) -> None:
        if getattr(self.scene(), "activity_note", ""):
            self.viewport().update()

    def zoom(self, factor: float) -> None:
        """Zoom by ``factor`` within 25 %–400 %."""
        self._set_fitted(False)
        current = self.transform().m11()
        factor = max(ZOOM_MIN / current, min(ZOOM_MAX / current, factor))
        self.scale(factor, factor)

    def reset_zoom(self) -> None:
        self._set_fitted(False)
        self.resetTransform()

    def _set_fitted(self, fitted: bool, bars: bool = False) -> None:
        """Enter or leave "fitted" mode, where the scroll bars stay hidden.

        A fitted drawing is wholly in view, so scroll bars would only reach
        empty margin. Hiding them also breaks a feedback loop: were they
        shown as needed, a fit could make one appear, which narrows the
        viewport, whose resize fits again, which hides it, and so on for
        ever at some window sizes. With the bars fixed the viewport's size
        no longer depends on the fit, and one pass converges. A drawing too
        large to fit legibly (``bars``) keeps its bars: its fit is decided
        on the viewport's size without them, so it converges too.
        """
        self._keep_fitted = fitted
        policy = (Qt.ScrollBarPolicy.ScrollBarAlwaysOff if fitted and not bars
                  else Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        if self.verticalScrollBarPolicy() != policy:
            self.setVerticalScrollBarPolicy(policy)
            self.setHorizontalScrollBarPolicy(policy)

    def _on_undo_stack_index_changed(self, _index: int) -> None:
        self._fit_check.start()

    def _leave_fit_if_outgrown(self) -> None:
        if not self._keep_fitted or self.scene() is None or self._legible_only:
            return
        drawn = self.mapFromScene(self.scene().itemsBoundingRect()).boundingRect()
        if not self.viewport().rect().contains(drawn):
            self._set_fitted(False)

    def fit(self) -> None:
        """Show every component, never magnified above 100 % nor shrunk
        below :func:`legible_scale`: a drawing too large for that (the
        Large shop at 1280×800) is shown from its top left at the smallest
        legible size, and scrolls."""
        self._fit(legible=True)

    def fit_whole(self) -> None:
        """Show every component, however small (Fit scenario, Ctrl+0)."""
        self._fit(legible=False)

    def _fit(self, legible: bool) -> None:
        self._fit_legible = legible
        rect = self.scene().itemsBoundingRect()
        if rect.isEmpty():
            self._set_fitted(True)
            self.resetTransform()
            return
        box = rect.adjusted(-30, -30, 30, 30)
        room = self.maximumViewportSize()           # without scroll bars: see _set_fitted
        scale = min(room.width() / box.width(), room.height() / box.height(), 1.0)
        floor = legible_scale() if legible else 0.0
        self._legible_only = scale < floor
        self._set_fitted(True, bars=self._legible_only)
        self.setTransform(QTransform.fromScale(max(scale, floor), max(scale, floor)))
        # Centred where it fits; else from the workloads (left) and the top,
        # where a drawing reads from.
        seen = self.mapToScene(self.viewport().rect()).boundingRect()
        c = box.center()
        self.centerOn(c.x() if box.width() <= seen.width() else box.left() + seen.width() / 2,
                      c.y() if box.height() <= seen.height() else box.top() + seen.height() / 2)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if self._keep_fitted:
            self._fit(self._fit_legible)

    def wheelEvent(self, event) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.zoom(1.15 if event.angleDelta().y() > 0 else 1 / 1.15)
            event.accept()
        else:
            super().wheelEvent(event)

    def mousePressEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.MiddleButton:
            self._pan_from = event.position()
            self.setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:
        if self._pan_from is not None:
            delta = event.position() - self._pan_from
            self._pan_from = event.position()
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - int(delta.x()))
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - int(delta.y()))
            event.accept()
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        if event.button() == Qt.MouseButton.MiddleButton and self._pan_from is not None:
            self._pan_from = None
            self.unsetCursor()
            event.accept()
            return
        super().mouseReleaseEvent(event)


#: Shown on an empty canvas until the first component is dropped.
EMPTY_HINT = "Drag a workload here"


def _draw_empty_hint(view: QGraphicsView, painter: QPainter) -> None:
    """The empty canvas's hint, centred in the viewport (not part of the drawing)."""
    from PySide6.QtGui import QColor, QFont

    if view.scene() is None or getattr(view.scene(), "node_items", None):
        return
    painter.save()
    painter.resetTransform()
    font = QFont(painter.font())
    font.setPointSize(18)
    painter.setFont(font)
    painter.setPen(QColor("#5f6b76"))
    rect = view.viewport().rect()
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter,
                     f"{EMPTY_HINT}\nfrom the Components panel on the left")
    painter.restore()


def _draw_activity_note(view: QGraphicsView, painter: QPainter) -> None:
    """Which figures the cards show (the whole run, or a moment of the
    replay), at the top of the viewport: on the canvas, not in a tooltip."""
    from PySide6.QtGui import QColor, QFont

    note = getattr(view.scene(), "activity_note", "")
    if not note:
        return
    painter.save()
    painter.resetTransform()
    font = QFont(painter.font())
    font.setPointSizeF(getattr(view, "note_pt", 10.0))
    font.setBold(True)
    painter.setFont(font)
    metrics = painter.fontMetrics()
    text = metrics.elidedText(note, Qt.TextElideMode.ElideRight, view.viewport().width() - 24)
    box = metrics.boundingRect(text).adjusted(-8, -4, 8, 4)
    box.moveTopLeft(view.viewport().rect().topLeft() + QPoint(8, 8))
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(255, 255, 255, 230))
    painter.drawRoundedRect(box, 6, 6)
    painter.setPen(QColor("#b3261e"))
    painter.drawText(box, Qt.AlignmentFlag.AlignCenter, text)
    painter.restore()


def _draw_foreground(self, painter: QPainter, rect) -> None:
    QGraphicsView.drawForeground(self, painter, rect)
    _draw_empty_hint(self, painter)
    _draw_activity_note(self, painter)


CanvasView.drawForeground = _draw_foreground
