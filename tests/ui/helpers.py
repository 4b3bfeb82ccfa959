"""Drive the real canvas widgets: drops with hand-built mime data, mouse drags."""
from PySide6.QtCore import QEvent, QMimeData, QPointF, Qt
from PySide6.QtGui import QDropEvent, QMouseEvent
from PySide6.QtWidgets import QApplication

from ui.canvas.mime import MIME_TYPE


def drop(win, kind_key: str, scene_x: float, scene_y: float, raw: bytes | None = None) -> str | None:
    """Drop a palette payload on the canvas at a scene point; returns the new id."""
    view = win.view
    mime = QMimeData()
    mime.setData(MIME_TYPE, raw if raw is not None else kind_key.encode())
    before = set(win.editor.scenario.nodes)
    pos = QPointF(view.mapFromScene(QPointF(scene_x, scene_y)))
    for etype in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
        from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent
        cls = QDragEnterEvent if etype == QEvent.Type.DragEnter else QDragMoveEvent
        ev = cls(pos.toPoint(), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                 Qt.KeyboardModifier.NoModifier)
        QApplication.sendEvent(view.viewport(), ev)
    ev = QDropEvent(pos, Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                    Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), ev)
    new = set(win.editor.scenario.nodes) - before
    return new.pop() if new else None


def _mouse(view, etype, scene_pt: QPointF, buttons):
    pos = QPointF(view.mapFromScene(scene_pt))
    glob = QPointF(view.viewport().mapToGlobal(pos.toPoint()))
    button = Qt.MouseButton.LeftButton if etype != QEvent.Type.MouseMove else Qt.MouseButton.NoButton
    ev = QMouseEvent(etype, pos, glob, button, buttons, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(view.viewport(), ev)


def drag(view, start: QPointF, end: QPointF, steps: int = 4) -> None:
    """Press at ``start``, move in steps, release at ``end`` (scene points)."""
    left = Qt.MouseButton.LeftButton
    _mouse(view, QEvent.Type.MouseButtonPress, start, left)
    for i in range(1, steps + 1):
        p = start + (end - start) * (i / steps)
        _mouse(view, QEvent.Type.MouseMove, p, left)
    _mouse(view, QEvent.Type.MouseButtonRelease, end, Qt.MouseButton.NoButton)


def port_pos(win, node_id: str) -> QPointF:
    item = win.scene.node_items[node_id]
    return item.mapToScene(item.port.pos())


def centre(win, node_id: str) -> QPointF:
    return win.scene.node_items[node_id].center()


def link(win, a: str, b: str) -> None:
    """Drag from a's port onto b, as a user would."""
    drag(win.view, port_pos(win, a), centre(win, b))
