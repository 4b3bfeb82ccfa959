"""The canvas's small menus: a card's "Change to ▸", and what a drop onto a card means.

Both turn into editor calls (one undo step each); neither holds state. A
menu is shown with :func:`popup`, the one place that blocks on the user, so
a test can answer for them.
"""
from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtGui import QAction, QCursor
from PySide6.QtWidgets import QMenu, QWidget

from models.drawing import components, variants

#: The words of each property a card's type varies in (models.drawing.variants),
#: as Properties' rows and the menus name them.
VARIANT_TITLES = {"drive": "Drive type", "protocol": "Channel protocol",
                  "type": "Processor type", "library": "Library type"}

#: Title of the submenu that changes a card's type in place.
CHANGE_TO = "Change to"
#: The drop menu's entry that adds the dropped kind as a card of its own.
ADD_BESIDE = "Add beside"


def popup(menu: QMenu, global_pos) -> QAction | None:
    """Show ``menu`` at ``global_pos`` and wait for the user's choice."""
    return menu.exec(global_pos)


def below(scene, item, widget) -> QPoint:
    """Where a card's menu opens from the keyboard: under the card, on screen."""
    view = next((v for v in scene.views() if v.viewport() is widget), None)
    if view is None:
        return QCursor.pos()
    rect = item.sceneBoundingRect()
    return view.viewport().mapToGlobal(view.mapFromScene(rect.center().x(), rect.top() + 60))


def alike(scenario, node_id: str, selected) -> list[str]:
    """The cards a change of ``node_id`` applies to: it, and the other selected
    cards of its sort (every selected storage group), when it is selected."""
    if node_id not in selected:
        return [node_id]
    here = scenario.nodes[node_id]
    sort = variants.family(here.kind) or here.category
    return [nid for nid in selected if nid == node_id
            or (variants.family(scenario.nodes[nid].kind) or scenario.nodes[nid].category) == sort]


def card_menu(editor, node_id: str, parent: QWidget | None = None,
              selected=()) -> QMenu:
    """A card's context menu: "Change to ▸" each other version of it (a
    storage group's drive, a channel's protocol), the current one ticked.
    With other cards of its sort ``selected``, the change is theirs too
    ("Change 3 cards to ▸"), in one undo step."""
    sc = editor.scenario
    menu = QMenu(parent)
    ids = alike(sc, node_id, list(selected))
    sub = menu.addMenu(CHANGE_TO if len(ids) == 1 else f"Change {len(ids)} cards to")
    kinds = variants.choices(sc, node_id)
    for prop, values in kinds.items():
        # One property (the usual case) lists its values right here.
        target = sub if len(kinds) == 1 else sub.addMenu(VARIANT_TITLES.get(prop, prop))
        now = {variants.current(sc, nid, prop) for nid in ids}
        for value in values:
            act = target.addAction(value)
            act.setCheckable(True)
            act.setChecked(now == {value})
            act.triggered.connect(lambda _on=False, p=prop, v=value:
                                  editor.change_kind(ids, p, v))
    if not kinds:
        kind = components.kind(sc.nodes[node_id].kind)
        sub.setEnabled(False)
        sub.setToolTip(f"A {kind.label.lower()} comes in one version only")
    return menu


def drop_menu(editor, node_id: str, kind_key: str, add_beside,
              parent: QWidget | None = None) -> QMenu | None:
    """What dropping ``kind_key`` onto a card of its family means: "Change
    SGDB2 to SSD" or "Add beside" (``add_beside()`` adds the card); ``None``
    when the kind is no other version of the card (the drop just adds it)."""
    change = variants.drop_change(editor.scenario, node_id, kind_key)
    if change is None:
        return None
    prop, value = change
    label = editor.scenario.nodes[node_id].label
    menu = QMenu(parent)
    act = menu.addAction(f"Change {label} to {value}")
    act.setToolTip(f"{label} keeps its label, serials, counts and links")
    act.triggered.connect(lambda _on=False: editor.change_kind(node_id, prop, value))
    what = components.kind(kind_key).label
    beside = menu.addAction(f"{ADD_BESIDE} (a new {what[:1].lower()}{what[1:]}, not linked)")
    beside.triggered.connect(lambda _on=False: add_beside())
    menu.setDefaultAction(act)
    return menu
