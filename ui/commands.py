"""Undo commands: every edit is a small QUndoCommand that calls model methods.

Commands never touch graphics items: ``redo``/``undo`` change the
:class:`~models.drawing.scenario.Scenario`, which tells the scene. Compound edits
(delete a selection, paste, drop a workload that picks the experiment) are
parent commands whose children run in order on redo and in reverse on undo.
"""
from __future__ import annotations

import copy
from typing import Any

from PySide6.QtGui import QUndoCommand

from models.drawing import variants
from models.drawing.scenario import Link, Node, Scenario


class Macro(QUndoCommand):
    """A compound edit. Its children run in order on redo, reversed on undo.

    The children are kept in a Python list rather than as Qt child commands:
    PySide lets the Python side of a Qt child be collected (or deleted twice
    when the stack is cleared), which crashes.
    """

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.children_: list[QUndoCommand] = []

    def redo(self) -> None:
        for child in self.children_:
            child.redo()

    def undo(self) -> None:
        for child in reversed(self.children_):
            child.undo()


def _keep(command: QUndoCommand, parent: QUndoCommand | None) -> None:
    if parent is not None:
        parent.children_.append(command)


class AddNodeCommand(QUndoCommand):
    """Add one component."""

    def __init__(self, scenario: Scenario, node: Node, parent: Macro | None = None):
        super().__init__(f"Add {node.label}")
        _keep(self, parent)
        self.scenario, self.node = scenario, node.copy()

    def redo(self) -> None:
        self.scenario.add_node(self.node.copy())

    def undo(self) -> None:
        self.scenario.remove_node(self.node.id)


class RemoveNodeCommand(QUndoCommand):
    """Remove one component with the links still attached to it."""

    def __init__(self, scenario: Scenario, node_id: str, parent: Macro | None = None):
        super().__init__(f"Delete {scenario.nodes[node_id].label}")
        _keep(self, parent)
        self.scenario, self.node_id = scenario, node_id
        self.node: Node | None = None
        self.links: list[Link] = []

    def redo(self) -> None:
        node, links = self.scenario.remove_node(self.node_id)
        self.node, self.links = node.copy(), links

    def undo(self) -> None:
        self.scenario.add_node(self.node.copy())
        for link in self.links:
            self.scenario.add_link(link)


class AddLinkCommand(QUndoCommand):
    """Link two components (the model has already said the link is legal)."""

    def __init__(self, scenario: Scenario, link: Link, parent: Macro | None = None):
        # In a paste macro the ends do not exist yet, so name them only if known.
        names = [scenario.nodes[i].label if i in scenario.nodes else "component"
                 for i in (link.source, link.target)]
        super().__init__(f"Link {names[0]} to {names[1]}")
        _keep(self, parent)
        self.scenario, self.link = scenario, link

    def redo(self) -> None:
        self.scenario.add_link(self.link)

    def undo(self) -> None:
        self.scenario.remove_link(self.link.id)


class RemoveLinkCommand(QUndoCommand):
    """Remove one link."""

    def __init__(self, scenario: Scenario, link_id: str, parent: Macro | None = None):
        super().__init__("Delete link")
        _keep(self, parent)
        self.scenario, self.link = scenario, scenario.links[link_id]

    def redo(self) -> None:
        self.scenario.remove_link(self.link.id)

    def undo(self) -> None:
        self.scenario.add_link(self.link)


class MoveNodesCommand(QUndoCommand):
    """One drag: the old and new positions of every component that moved."""

    def __init__(self, scenario: Scenario, moves: dict[str, tuple[tuple[float, float], tuple[float, float]]],
                 parent: Macro | None = None):
        n = len(moves)
        super().__init__(f"Move {n} component{'s' if n != 1 else ''}")
        _keep(self, parent)
        self.scenario, self.moves = scenario, dict(moves)

    def redo(self) -> None:
        with self.scenario.batch():          # one drag is one change for the listeners
            for node_id, (_, new) in self.moves.items():
                self.scenario.move_node(node_id, *new)

    def undo(self) -> None:
        with self.scenario.batch():
            for node_id, (old, _) in self.moves.items():
                self.scenario.move_node(node_id, *old)


class SetPropertyCommand(QUndoCommand):
    """Set (or unset, with ``None``) one parameter value on one component."""

    def __init__(self, scenario: Scenario, node_id: str, key: str, new: Any,
                 parent: Macro | None = None):
        super().__init__(f"Set {key}")
        _keep(self, parent)
        self.scenario, self.node_id, self.key, self.new = scenario, node_id, key, new
        self.old = scenario.nodes[node_id].properties.get(key)

    def redo(self) -> None:
        self.scenario.set_property(self.node_id, self.key, self.new)

    def undo(self) -> None:
        self.scenario.set_property(self.node_id, self.key, self.old)


class RenameCommand(QUndoCommand):
    """Change a component's label."""

    def __init__(self, scenario: Scenario, node_id: str, label: str,
                 parent: Macro | None = None):
        super().__init__(f"Rename to {label}")
        _keep(self, parent)
        self.scenario, self.node_id, self.new = scenario, node_id, label
        self.old = scenario.nodes[node_id].label

    def redo(self) -> None:
        self.scenario.set_label(self.node_id, self.new)

    def undo(self) -> None:
        self.scenario.set_label(self.node_id, self.old)


class ChangeKindCommand(QUndoCommand):
    """Change a component's type in place (SGDB2 on SSD, CHPID 40 on zHPF).

    Redo calls :func:`models.drawing.variants.change`, which keeps label,
    serials, counts and links and returns the old kinds (a rank's drive
    changes the volumes on it too); undo gives each its old kind back.
    """

    def __init__(self, scenario: Scenario, node_id: str, prop: str, value: str,
                 parent: Macro | None = None):
        super().__init__(f"Change {scenario.nodes[node_id].label} to {value}")
        _keep(self, parent)
        self.scenario, self.node_id, self.prop, self.value = scenario, node_id, prop, value
        self.old: dict[str, str] = {}

    def redo(self) -> None:
        self.old = variants.change(self.scenario, self.node_id, self.prop, self.value)

    def undo(self) -> None:
        for node_id, key in self.old.items():
            variants.set_kind(self.scenario, node_id, key)


class SetTitleCommand(QUndoCommand):
    """Change the scenario's title (a what-if lesson's step from the study's
    before drawing to its after drawing)."""

    def __init__(self, scenario: Scenario, title: str, parent: Macro | None = None):
        super().__init__(f"Title {title}")
        _keep(self, parent)
        self.scenario, self.new, self.old = scenario, title, scenario.title

    def redo(self) -> None:
        self.scenario.title = self.new

    def undo(self) -> None:
        self.scenario.title = self.old


class SetExperimentCommand(QUndoCommand):
    """Choose the experiment the scenario runs."""

    def __init__(self, scenario: Scenario, name: str | None, parent: Macro | None = None):
        super().__init__(f"Experiment {name}")
        _keep(self, parent)
        self.scenario, self.new, self.old = scenario, name, scenario.experiment

    def redo(self) -> None:
        self.scenario.set_experiment(self.new)

    def undo(self) -> None:
        self.scenario.set_experiment(self.old)


class SetImportedCommand(QUndoCommand):
    """Set one entry of what the drawing's RMF import carries
    (``scenario.imported``): the calibrated quantities "Calibrate to RMF"
    lists. Undo puts the old entry back, or removes it if there was none."""

    _MISSING = object()

    def __init__(self, scenario: Scenario, key: str, value: Any, parent: Macro | None = None):
        super().__init__(f"Set the import's {key}")
        _keep(self, parent)
        self.scenario, self.key, self.new = scenario, key, copy.deepcopy(value)
        old = (scenario.imported or {}).get(key, self._MISSING)
        self.old = old if old is self._MISSING else copy.deepcopy(old)

    def redo(self) -> None:
        self.scenario.imported[self.key] = copy.deepcopy(self.new)

    def undo(self) -> None:
        if self.old is self._MISSING:
            self.scenario.imported.pop(self.key, None)
        else:
            self.scenario.imported[self.key] = copy.deepcopy(self.old)
