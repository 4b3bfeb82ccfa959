"""The canvas scene: listens to the scenario and draws it; turns gestures into edits.

The scene subscribes to the model's callbacks (``node_added``, ``moved``,
``link_removed`` …) and creates, moves or deletes items to match. Gestures go
the other way through the :class:`~ui.editor.Editor`: a finished drag becomes
one move command, a drag from a port onto another component becomes a link
(or a refusal explained in a tooltip and the status bar).
"""
from __future__ import annotations

import html
from contextlib import contextmanager

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsLineItem, QGraphicsScene, QToolTip

from models.drawing.scenario import Issue, Link, Node, Scenario
from ui import idle
from ui.canvas import menus
from ui.canvas import routing
from ui.canvas.items import LinkItem, NodeItem, PortItem, card_rect
from ui.editor import GRID, Editor

_CALLBACKS = ("node_added", "node_removed", "link_added", "link_removed", "moved",
              "property_changed", "label_changed", "kind_changed", "experiment_changed")


#: The canvas area before anything is drawn; it grows to take in every component.
_MIN_RECT = QRectF(-400, -300, 2400, 1600)
#: Room kept around the components (as much as the view's "fit" shows).
_MARGIN = 30.0
#: Links of a drawing of more cards than this are drawn straight (routing
#: them all on every move would cost more than it shows).
ROUTE_MAX = 200


class CanvasScene(QGraphicsScene):
    """Draws :attr:`scenario`; every change arrives through model callbacks.

    A whole scenario (:meth:`bind`) and a batch of edits
    (:meth:`Document.batch <app.document.Document.batch>`) are drawn in
    one go: items are added as the model announces them, and the issues are
    redrawn once, when the document announces the batch.
    """

    #: The scenario's problems changed (list of :class:`~models.drawing.scenario.Issue`).
    issues_changed = Signal(list)
    #: A hint for the status bar (link refusals while dragging).
    hint = Signal(str)

    def __init__(self, editor: Editor, parent=None) -> None:
        super().__init__(parent)
        self.editor = editor
        self.scenario: Scenario | None = None
        self.node_items: dict[str, NodeItem] = {}
        self.link_items: dict[str, LinkItem] = {}
        self._issues: list[Issue] = []
        self._issues_by_node: dict[str | None, list[str]] = {}
        # Replay activity per component (ui.canvas.activity.Tint), set by CanvasTint.
        self._activity: dict[str, object] = {}
        #: What the tints show, said on the canvas ("at 3.2 s of 12.8 s, …").
        self.activity_note = ""
        #: The whole run's tints (exports show these whatever the replay's moment).
        self.whole_run_activity: dict[str, object] = {}
        # Links at each component, so a moved component redraws only its own.
        self._links_at: dict[str, set[str]] = {}
        self._link_from: str | None = None
        self._rubber_line: QGraphicsLineItem | None = None
        self._press_positions: dict[str, tuple[float, float]] = {}
        self.setSceneRect(_MIN_RECT)
        # Links are rerouted once after a batch of moves, adds and deletes.
        self._reroute_soon = QTimer(self)
        self._reroute_soon.setSingleShot(True)
        self._reroute_soon.setInterval(0)
        self._reroute_soon.timeout.connect(self._reroute)
        # The document says when a scenario is put in and when a batch of
        # edits is over (then the issues, which it checks once, are redrawn).
        editor.document.changed.connect(self._on_document_changed)
        self.bind(editor.scenario)

    def _on_document_changed(self, change) -> None:
        if change.replaced:
            self.bind(self.editor.scenario)
        elif change.scenario and not change.moved_only:
            self._refresh_issues()

    # ---- following the model -------------------------------------------
    def bind(self, scenario: Scenario) -> None:
        """Draw ``scenario`` from scratch, in one batch, and follow its changes."""
        if self.scenario is not None:
            for name in _CALLBACKS:
                getattr(self.scenario, name).disconnect(self._handler(name))
        self.clear()
        self.node_items.clear()
        self.link_items.clear()
        self._links_at.clear()
        self._issues, self._issues_by_node = [], {}
        self._activity, self.whole_run_activity, self.activity_note = {}, {}, ""
        self.setSceneRect(_MIN_RECT)
        self.scenario = scenario
        for name in _CALLBACKS:
            getattr(scenario, name).connect(self._handler(name))
        for node in scenario.nodes.values():
            self._add_node_item(node)
        for link in scenario.links.values():
            self._add_link_item(link)
        drawn = self.itemsBoundingRect().adjusted(-_MARGIN, -_MARGIN, _MARGIN, _MARGIN)
        # A large scenario gets a canvas of its own size, so "fit" leaves no
        # scroll bars; a small one keeps room around it for new components.
        self.setSceneRect(_MIN_RECT if _MIN_RECT.contains(drawn) else drawn)
        self._refresh_issues()

    def _handler(self, name: str):
        # Bound methods compare equal, so disconnect finds the same handler.
        return getattr(self, f"_on_model_{name}")

    def _add_node_item(self, node: Node) -> NodeItem:
        item = NodeItem(node.id)
        # Placed before it joins the scene, so no link is looked at yet.
        item.setPos(node.x, node.y)
        item.setToolTip(self._tooltip(node))
        self.node_items[node.id] = item
        self._links_at.setdefault(node.id, set())
        self.addItem(item)
        return item

    def _add_link_item(self, link: Link) -> LinkItem:
        item = LinkItem(link.id)
        self.link_items[link.id] = item
        self._links_at[link.source].add(link.id)
        self._links_at[link.target].add(link.id)
        self._draw_link(item, link)
        self.addItem(item)
        return item

    def _draw_link(self, item: LinkItem, link: Link) -> None:
        """Draw a link between its cards' current places, around the cards
        in its way (a drawing of more than :data:`ROUTE_MAX` cards: straight)."""
        a, b = self.node_items[link.source], self.node_items[link.target]
        cards = None
        if len(self.node_items) <= ROUTE_MAX:
            cards = routing.nearby(card_rect(a), card_rect(b),
                                   [card_rect(i) for i in self.node_items.values()
                                    if i is not a and i is not b])
        item.update_ends(a, b, cards)

    def _reroute(self) -> None:
        """Redraw every link: a card moved, came or went, and may now stand
        in another link's way (or no longer)."""
        for link_id, item in self.link_items.items():
            link = self.scenario.links.get(link_id)
            if link is not None:
                self._draw_link(item, link)

    def _on_model_node_added(self, node: Node) -> None:
        item = self._add_node_item(node)
        self._take_in(item.sceneBoundingRect())
        self._reroute_soon.start()

    def _on_model_node_removed(self, node: Node) -> None:
        self.removeItem(self.node_items.pop(node.id))
        # The model removes a component's links first, so none are left here.
        self._links_at.pop(node.id, None)
        self._reroute_soon.start()

    def _on_model_link_added(self, link: Link) -> None:
        self._add_link_item(link)

    def _on_model_link_removed(self, link: Link) -> None:
        self.removeItem(self.link_items.pop(link.id))
        for end in (link.source, link.target):
            self._links_at.get(end, set()).discard(link.id)

    def _on_model_moved(self, node: Node) -> None:
        item = self.node_items[node.id]
        item.setPos(node.x, node.y)
        self._take_in(item.sceneBoundingRect())
        self._reroute_soon.start()

    def _take_in(self, rect: QRectF) -> None:
        """Grow the scene (never shrink it) so scrolling and "fit" reach ``rect``."""
        wanted = self.sceneRect().united(rect.adjusted(-_MARGIN, -_MARGIN, _MARGIN, _MARGIN))
        if wanted != self.sceneRect():
            self.setSceneRect(wanted)

    def _on_model_label_changed(self, node: Node) -> None:
        item = self.node_items[node.id]
        item.setToolTip(self._tooltip(node))
        item.update()

    def _on_model_kind_changed(self, node: Node, old_key: str) -> None:
        """Another icon and tooltip; the issues follow the document's batch."""
        self._on_model_label_changed(node)

    def _on_model_property_changed(self, node: Node, key: str, value) -> None:
        """Nothing to redraw: the issues follow the document's batch."""

    def _on_model_experiment_changed(self, name) -> None:
        """Nothing to redraw: the issues follow the document's batch."""

    def _tooltip(self, node: Node) -> str:
        from models.drawing import components
        k = components.kind(node.kind)
        notes = "".join(f"<br><b style='color:#8a1c00'>⚠ {html.escape(m)}</b>"
                        for m in self._issues_by_node.get(node.id, ()))
        return f"<b>{node.label}</b> — {k.label}<br>{k.help}{notes}"

    def _refresh_issues(self) -> None:
        self._issues = self.editor.document.issues()
        by_node: dict[str | None, list[str]] = {}
        for issue in self._issues:
            by_node.setdefault(issue.node, []).append(issue.message)
        # A card the run leaves out says so, after what stops the run.
        for node_id, note in idle.notes(self.scenario).items():
            by_node.setdefault(node_id, []).append(note)
        # Repaint only the components whose notes appeared, changed or went.
        old = self._issues_by_node
        self._issues_by_node = by_node
        for node_id in set(old) | set(by_node):
            if old.get(node_id) != by_node.get(node_id) and node_id in self.node_items:
                item = self.node_items[node_id]
                item.setToolTip(self._tooltip(self.scenario.nodes[node_id]))
                item.update()
        self.issues_changed.emit(list(self._issues))

    def issues_for(self, node_id: str) -> list[str]:
        """Problems attached to one component, and why it takes no part in
        the run if so, for drawing next to it."""
        return list(self._issues_by_node.get(node_id, ()))

    def set_activity(self, tints: dict, note: str = "") -> None:
        """Show activity: node id → :class:`~ui.canvas.activity.Tint`; others
        plain. ``note`` says on the canvas what the tints show (which moment)."""
        if note != self.activity_note:
            self.activity_note = note
            for view in self.views():
                view.viewport().update()
        old, self._activity = self._activity, {nid: tint for nid, tint in tints.items()
                                               if nid in self.node_items}
        for nid in set(old) | set(self._activity):
            before, now = old.get(nid), self._activity.get(nid)
            if before == now:
                continue
            item, node = self.node_items.get(nid), self.scenario.nodes.get(nid)
            if item is None or node is None:
                continue
            tip = self._tooltip(node)
            item.setToolTip(tip if now is None else f"{tip}<br><b>{now.text}</b>")
            if before is None or now is None or round(before.level, 2) != round(now.level, 2):
                item.update()

    @contextmanager
    def whole_run_shown(self):
        """Show the whole run's figures for the time of the block (exports)."""
        saved = (dict(self._activity), self.activity_note)
        self.set_activity(self.whole_run_activity)
        try:
            yield
        finally:
            self.set_activity(*saved)

    def activity_for(self, node_id: str):
        """The replay tint of one component (None: not traced, or no current run)."""
        return self._activity.get(node_id)

    def node_item_moved(self, node_id: str) -> None:
        """Keep links glued to a component while it is dragged."""
        for link_id in self._links_at.get(node_id, ()):
            link = self.scenario.links.get(link_id)
            if link is not None and link_id in self.link_items:
                self._draw_link(self.link_items[link_id], link)

    # ---- selection -----------------------------------------------------
    def selected_node_ids(self) -> list[str]:
        return [i.node_id for i in self.selectedItems() if isinstance(i, NodeItem)]

    def selected_link_ids(self) -> list[str]:
        return [i.link_id for i in self.selectedItems() if isinstance(i, LinkItem)]

    def select_nodes(self, node_ids) -> None:
        self.clearSelection()
        for nid in node_ids:
            self.node_items[nid].setSelected(True)

    def node_at(self, pos: QPointF) -> str | None:
        for item in self.items(pos):
            if isinstance(item, NodeItem):
                return item.node_id
            if isinstance(item, PortItem):
                return item.node_id
        return None

    # ---- gestures ------------------------------------------------------
    def contextMenuEvent(self, event) -> None:
        """Right-click a card (or the menu key with cards selected): its menu
        ("Change to ▸" another version of it)."""
        node_id, at = self.node_at(event.scenePos()), event.screenPos()
        keyboard = event.reason() == event.Reason.Keyboard
        if node_id is None and keyboard and self.selected_node_ids():
            node_id = self.selected_node_ids()[0]
            at = menus.below(self, self.node_items[node_id], event.widget())
        if node_id is None:
            super().contextMenuEvent(event)
            return
        if node_id not in self.selected_node_ids():
            self.select_nodes([node_id])
        menu = menus.card_menu(self.editor, node_id, event.widget(), self.selected_node_ids())
        menus.popup(menu, at)
        menu.deleteLater()
        event.accept()

    def mousePressEvent(self, event) -> None:
        port = next((i for i in self.items(event.scenePos()) if isinstance(i, PortItem)), None)
        if port is not None and event.button() == Qt.MouseButton.LeftButton:
            self._link_from = port.node_id
            start = self.node_items[port.node_id].mapToScene(port.pos())
            self._rubber_line = self.addLine(QLineF(start, event.scenePos()),
                                             QPen(QColor("#1565c0"), 2, Qt.PenStyle.DashLine))
            event.accept()
            return
        super().mousePressEvent(event)
        self._press_positions = {nid: (self.node_items[nid].x(), self.node_items[nid].y())
                                 for nid in self.selected_node_ids()}

    def mouseMoveEvent(self, event) -> None:
        if self._link_from is None:
            super().mouseMoveEvent(event)
            return
        line = self._rubber_line.line()
        self._rubber_line.setLine(QLineF(line.p1(), event.scenePos()))
        target = self.node_at(event.scenePos())
        if target is not None and target != self._link_from:
            why = self.scenario.link_refusal(self._link_from, target)
            self._show_hint(event, why or "Release to link.")

    def mouseReleaseEvent(self, event) -> None:
        if self._link_from is None:
            super().mouseReleaseEvent(event)
            self._commit_drag()
            return
        source, self._link_from = self._link_from, None
        self.removeItem(self._rubber_line)
        self._rubber_line = None
        target = self.node_at(event.scenePos())
        if target is not None and target != source:
            why = self.editor.link(source, target)
            if why:
                self._show_hint(event, why)

    def _show_hint(self, event, text: str) -> None:
        self.hint.emit(text)
        widget = event.widget()
        if widget is not None:
            QToolTip.showText(event.screenPos(), text, widget)

    def _commit_drag(self) -> None:
        moved = {}
        for nid, old in self._press_positions.items():
            item = self.node_items.get(nid)
            if item is not None and (item.x(), item.y()) != old:
                moved[nid] = (item.x(), item.y())
        self._press_positions = {}
        if moved:
            self.editor.move(moved)
            # Snapping may leave the model where the item already is; resync.
            for nid in moved:
                node = self.scenario.nodes[nid]
                self.node_items[nid].setPos(node.x, node.y)

    def drawBackground(self, painter, rect: QRectF) -> None:
        painter.fillRect(rect, QColor("#fbfcfd"))
        painter.setPen(QPen(QColor("#d5dbe1"), 1.5))
        step = GRID * 2
        # Zoomed far out (a fitted large scenario) the dots would merge into
        # a grey wash and cost a point each: keep them at least 8 px apart.
        scale = painter.worldTransform().m11() or 1.0
        while step * scale < 8:
            step *= 2
        left = int(rect.left() // step) * step
        top = int(rect.top() // step) * step
        points = []
        y = top
        while y < rect.bottom():
            x = left
            while x < rect.right():
                points.append(QPointF(x, y))
                x += step
            y += step
        painter.drawPoints(points)
