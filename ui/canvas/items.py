"""Graphics items for components, their link ports and links.

Items keep only the id of what they draw; label, kind and problems are read
from the scene's scenario when painting (and, during a replay, the busy tint
from the scene's :meth:`~ui.canvas.scene.CanvasScene.activity_for`), so the
model stays the one source of truth. Positions are mirrored from the model
and only differ from it while the user drags (the drag is recorded as one
command on release).
"""
from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (QColor, QFont, QFontMetricsF, QPainterPath, QPainterPathStroker,
                           QPen)
from PySide6.QtWidgets import QGraphicsItem, QGraphicsObject, QGraphicsPathItem

from models.drawing import components, config
from ui.canvas import routing
from ui.icons import icon_for

NODE_W, NODE_H = 150.0, 92.0
#: Point size of a card's label (bold), before :data:`LABEL_SCALE`.
LABEL_PT = 10.5
#: Text size factor of the cards' labels and badges (presentation mode: larger).
LABEL_SCALE = 1.0
PRESENT_LABEL_SCALE = 1.5


def label_lines(metrics, text: str, width: float, most: int) -> list[str]:
    """``text`` in at most ``most`` lines of ``width``: broken between words,
    the last line ending in '…' if the rest does not fit."""
    lines: list[str] = []
    words = text.split(" ")
    while words and len(lines) < most - 1:
        n = len(words)
        while n > 1 and metrics.horizontalAdvance(" ".join(words[:n])) > width:
            n -= 1
        if metrics.horizontalAdvance(" ".join(words[:n])) > width:
            # One word wider than the card (PROD.HISTORY): break after a dot.
            word = words[0]
            cut = max((i + 1 for i, ch in enumerate(word) if ch in ".-_"
                       and metrics.horizontalAdvance(word[:i + 1]) <= width), default=0)
            if not cut or cut == len(word):
                break
            lines.append(word[:cut])
            words = [word[cut:], *words[1:]]
            continue
        lines.append(" ".join(words[:n]))
        words = words[n:]
    if words:
        lines.append(metrics.elidedText(" ".join(words), Qt.TextElideMode.ElideRight, int(width)))
    return lines


def set_label_scale(scale: float) -> None:
    """Card labels and badges at ``scale`` × their desktop size (presentation mode)."""
    global LABEL_SCALE
    LABEL_SCALE = float(scale)
ICON = 50.0
ISSUE_H = 64.0
PORT_R = 8.0
INK = QColor("#1d2733")
WARN_INK, WARN_FILL = QColor("#8a1c00"), QColor("#fff1c7")
#: Busy colour of the replay tint (Okabe-Ito vermillion: hot, the bottleneck).
BUSY = QColor("#D55E00")
CATEGORY_TINT = {
    "workload": "#efe7f8", "processor": "#e6eef9", "channel": "#e7f3e8",
    "control_unit": "#f8eedd", "volume": "#e9eef0", "rank": "#e4e7f2", "tape": "#e0f2ef",
    "coupling": "#dff0ee",
    "dataset": "#f8e8e8",
}


class PortItem(QGraphicsItem):
    """The handle on a component's right edge that starts a link drag."""

    def __init__(self, parent: "NodeItem") -> None:
        super().__init__(parent)
        self.setPos(NODE_W, ICON / 2 + 10)
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.setToolTip("Drag from this port onto another component to link them.")
        self.setZValue(2)

    @property
    def node_id(self) -> str:
        return self.parentItem().node_id

    def boundingRect(self) -> QRectF:
        r = PORT_R + 2
        return QRectF(-r, -r, 2 * r, 2 * r)

    def paint(self, painter, option, widget=None) -> None:
        painter.setRenderHint(painter.RenderHint.Antialiasing)
        painter.setPen(QPen(INK, 2))
        painter.setBrush(QColor("#ffffff"))
        painter.drawEllipse(QPointF(0, 0), PORT_R, PORT_R)
        painter.setBrush(INK)
        painter.drawEllipse(QPointF(0, 0), 3, 3)


class NodeItem(QGraphicsObject):
    """Draws one component: tinted card, icon, label, and any problem below."""

    def __init__(self, node_id: str) -> None:
        super().__init__()
        self.node_id = node_id
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsMovable
                      | QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
                      | QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        self.port = PortItem(self)
        self.setZValue(1)

    def _node(self):
        return self.scene().scenario.nodes[self.node_id]

    def boundingRect(self) -> QRectF:
        return QRectF(-4, -4, NODE_W + 8, NODE_H + ISSUE_H + 8)

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        path.addRoundedRect(QRectF(0, 0, NODE_W, NODE_H), 10, 10)
        return path

    def center(self) -> QPointF:
        return self.pos() + QPointF(NODE_W / 2, NODE_H / 2)

    def paint(self, painter, option, widget=None) -> None:
        node = self._node()
        kind = components.kind(node.kind)
        painter.setRenderHint(painter.RenderHint.Antialiasing)
        selected = self.isSelected()
        painter.setPen(QPen(QColor("#1565c0") if selected else QColor("#8a96a3"), 3 if selected else 1.5))
        activity = self.scene().activity_for(self.node_id)
        fill = QColor(CATEGORY_TINT[kind.category])
        if activity is not None:
            fill = _blend(fill, BUSY, 0.75 * _hottest(activity))
        painter.setBrush(fill)
        painter.drawRoundedRect(QRectF(0, 0, NODE_W, NODE_H), 10, 10)
        if activity is not None:
            self._paint_activity(painter, activity)
        # Presentation mode: a smaller icon leaves two lines for a larger label.
        icon = ICON if LABEL_SCALE == 1.0 else ICON * 0.66
        icon_for(node.kind).paint(painter, QRectF((NODE_W - icon) / 2, 5, icon, icon).toRect())
        if kind.is_group:
            self._paint_count(painter, node, icon)
        font = QFont(painter.font())
        font.setPointSizeF(LABEL_PT * LABEL_SCALE)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(INK)
        label_rect = QRectF(2, icon + 6, NODE_W - 4, NODE_H - icon - 6)
        # Two lines where one does not hold the label whole ("Control unit
        # volumes data", an imported excerpt's names), a little higher.
        lines = label_lines(painter.fontMetrics(), node.label, label_rect.width(), 2)
        if len(lines) > 1 and LABEL_SCALE == 1.0:
            label_rect.adjust(0, -4, 0, 0)
        painter.drawText(label_rect, Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop,
                         "\n".join(lines))
        issues = self.scene().issues_for(self.node_id)
        if issues:
            self._paint_issue(painter, "⚠ " + issues[0] + (f" (+{len(issues) - 1} more)" if len(issues) > 1 else ""))

    def _paint_count(self, painter, node, icon: float) -> None:
        """A group card says how many it stands for: "×100" beside its icon."""
        try:
            count = len(config.members_of(node))
        except ValueError:
            count = int(node.properties.get("count", 0) or 0)
        font = QFont(painter.font())
        font.setPointSizeF(10.0 * LABEL_SCALE)
        font.setBold(True)
        text = f"×{count}"
        room = (NODE_W - icon) / 2 - CHIP_GAP - 3
        # Never wider than the room beside the icon ("×1000" in presentation
        # mode ran onto it): a smaller font first.
        while font.pointSizeF() > 7 and QFontMetricsF(font).horizontalAdvance(text) + 6 > room:
            font.setPointSizeF(font.pointSizeF() - 0.5)
        painter.setFont(font)
        rect = count_chip_rect(QFontMetricsF(font).horizontalAdvance(text), icon)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor("#37474f"))
        painter.drawRoundedRect(rect, 6, 6)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_activity(self, painter, activity) -> None:
        """A ring as strong as the busy share, the share in a corner badge and,
        where the drives behind are busier (a storage group's own ranks), a
        second badge on the card's lower edge that says so ("ranks 81 %")."""
        level = _hottest(activity)
        if level > 0:
            ring = QColor(BUSY)
            ring.setAlphaF(0.25 + 0.75 * level)
            painter.setPen(QPen(ring, 2 + 4 * level))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(QRectF(-1, -1, NODE_W + 2, NODE_H + 2), 10, 10)
        font = QFont(painter.font())
        font.setPointSizeF(8.5 * LABEL_SCALE)
        font.setBold(True)
        painter.setFont(font)
        self._paint_badge(painter, activity.level, activity.badge, 4)
        second = getattr(activity, "drives_badge", "")
        if second:
            self._paint_badge(painter, activity.drives, second, NODE_H - 8 * LABEL_SCALE)

    def _paint_badge(self, painter, level: float, text: str, top: float) -> None:
        width = max(40.0, painter.fontMetrics().horizontalAdvance(text) + 12)
        badge = QRectF(NODE_W - width - 4, top, width, 16 * LABEL_SCALE)
        # The lower badge straddles the card's edge: outlined, so it reads
        # on the card and on the canvas alike.
        painter.setPen(QPen(QColor("#ffffff") if level >= 0.5 else BUSY, 1) if top > 4
                       else Qt.PenStyle.NoPen)
        painter.setBrush(BUSY if level >= 0.5 else QColor("#ffffff"))
        painter.drawRoundedRect(badge, 8, 8)
        painter.setPen(QColor("#ffffff") if level >= 0.5 else INK)
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, text)

    def _paint_issue(self, painter, text: str) -> None:
        rect = QRectF(-2, NODE_H + 4, NODE_W + 4, ISSUE_H - 4)
        painter.setPen(QPen(WARN_INK, 1))
        painter.setBrush(WARN_FILL)
        painter.drawRoundedRect(rect, 6, 6)
        font = QFont(painter.font())
        font.setPointSizeF(8.5)
        font.setBold(False)
        painter.setFont(font)
        painter.drawText(rect.adjusted(5, 3, -5, -3),
                         Qt.TextFlag.TextWordWrap | Qt.AlignmentFlag.AlignLeft, text)

    def itemChange(self, change, value):
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionHasChanged and self.scene():
            self.scene().node_item_moved(self.node_id)
        return super().itemChange(change, value)


class LinkItem(QGraphicsPathItem):
    """A link drawn from one component's edge to the other's, with an arrow."""

    def __init__(self, link_id: str) -> None:
        super().__init__()
        self.link_id = link_id
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setPen(QPen(QColor("#4a5663"), 2.5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        self.setZValue(0)

    def update_ends(self, a: NodeItem, b: NodeItem, cards: list | None = None) -> None:
        """Redraw between the two component items' current positions:
        straight, or around ``cards`` (other cards' rectangles, see
        :func:`ui.canvas.routing.route`) where the straight line crosses one."""
        start, end = _edge_point(a, b.center()), _edge_point(b, a.center())
        points = [(start.x(), start.y()), (end.x(), end.y())]
        if cards:
            points = routing.route(points[0], points[1], card_rect(a), card_rect(b), cards)
        path = _rounded([QPointF(x, y) for x, y in points])
        end, before = QPointF(*points[-1]), QPointF(*points[-2])
        line = QLineF(end, before)
        if line.length() > 1:
            angle = math.radians(line.angle())
            for da in (0.45, -0.45):
                tip = end + QPointF(math.cos(angle + da) * 12, -math.sin(angle + da) * 12)
                path.moveTo(end)
                path.lineTo(tip)
        self.setPath(path)

    @property
    def routed(self) -> bool:
        """True when the link goes around cards (not one straight line)."""
        return self.path().elementCount() > 6

    def paint(self, painter, option, widget=None) -> None:
        pen = QPen(self.pen())
        if self.isSelected():
            pen.setColor(QColor("#1565c0"))
            pen.setWidthF(4)
        painter.setRenderHint(painter.RenderHint.Antialiasing)
        painter.setPen(pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self.path())

    def shape(self) -> QPainterPath:
        # A wider hit area than the 2.5 px line, so links are easy to select.
        stroker = QPainterPathStroker()
        stroker.setWidth(12)
        return stroker.createStroke(self.path())


#: Room between a group card's count chip and its icon.
CHIP_GAP = 4.0


def count_chip_rect(text_width: float, icon: float) -> QRectF:
    """Where a group card's "×100" chip goes: beside the icon (``icon`` px
    wide, centred at the card's top), :data:`CHIP_GAP` from it, as wide as
    its text, and level with the icon's middle."""
    height = 20 * LABEL_SCALE
    icon_left = (NODE_W - icon) / 2
    width = min(text_width + 6, icon_left - CHIP_GAP - 3)
    return QRectF(icon_left - CHIP_GAP - width, 5 + (icon - height) / 2, width, height)


def card_rect(item: NodeItem) -> tuple[float, float, float, float]:
    """A card's rectangle in the scene, as :mod:`ui.canvas.routing` takes it."""
    return item.x(), item.y(), item.x() + NODE_W, item.y() + NODE_H


def _rounded(points: list[QPointF], radius: float = 10.0) -> QPainterPath:
    """A path through ``points`` whose corners are rounded."""
    path = QPainterPath(points[0])
    for prev, corner, nxt in zip(points, points[1:], points[2:]):
        a, b = QLineF(corner, prev), QLineF(corner, nxt)
        r = min(radius, a.length() / 2, b.length() / 2)
        path.lineTo(a.pointAt(r / a.length()) if a.length() else corner)
        path.quadTo(corner, b.pointAt(r / b.length()) if b.length() else corner)
    path.lineTo(points[-1])
    return path


def _hottest(activity) -> float:
    """The busier of a tint's figures (a replay moment's tint has one)."""
    return getattr(activity, "hottest", activity.level)


def _blend(a: QColor, b: QColor, share: float) -> QColor:
    """``a`` moved ``share`` (0–1) of the way to ``b``."""
    return QColor.fromRgbF(*(x + (y - x) * share for x, y in
                             zip(a.getRgbF()[:3], b.getRgbF()[:3])))


def _edge_point(item: NodeItem, toward: QPointF) -> QPointF:
    """Where the line from the item's centre toward ``toward`` leaves its card."""
    c = item.center()
    dx, dy = toward.x() - c.x(), toward.y() - c.y()
    if dx == 0 and dy == 0:
        return c
    sx = (NODE_W / 2) / abs(dx) if dx else math.inf
    sy = (NODE_H / 2) / abs(dy) if dy else math.inf
    s = min(sx, sy, 1.0)
    return QPointF(c.x() + dx * s, c.y() + dy * s)
