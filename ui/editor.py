"""The editing front door: turns user gestures into undo commands.

The canvas, palette and inspector call :class:`Editor` methods; each method
checks the edit against the model, then pushes one command (or one macro) on
the :class:`QUndoStack`. Refusals come back as a one-line reason and are also
announced on :attr:`Editor.message` for the status bar.
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoStack

from app.document import Document
from models.drawing import components, hardware, labels, variants
from models.core.params import ParamError
from models.drawing.scenario import Link, Node, Scenario
from ui import commands as cmd
from ui import groups

#: Grid the canvas snaps positions to, in scene units.
GRID = 20.0
#: MIME type of a copied selection (components and the links between them).
SELECTION_MIME = "application/x-zperflab-selection"


def snap(x: float, y: float) -> tuple[float, float]:
    """The grid point nearest to ``(x, y)``."""
    return round(x / GRID) * GRID, round(y / GRID) * GRID


class BatchMacro(cmd.Macro):
    """A compound edit whose children reach the listeners as one batch.

    Pasting or deleting hundreds of components (and undoing it) then checks
    the scenario's issues once instead of after every component.
    """

    def __init__(self, scenario: Scenario, text: str) -> None:
        super().__init__(text)
        self.scenario = scenario

    def redo(self) -> None:
        with self.scenario.batch():
            super().redo()

    def undo(self) -> None:
        with self.scenario.batch():
            super().undo()


class Editor(QObject):
    """Turns gestures into undo commands on the :class:`~app.document.Document`'s scenario.

    The document owns the scenario (and announces its changes); the editor
    owns the undo stack, whose steps are the document's edit batches.
    """

    #: The whole scenario was replaced (new, open); listeners rebind.
    scenario_replaced = Signal(object)
    #: A message for the status bar (refusals, what happened).
    message = Signal(str)

    def __init__(self, document: Document | None = None, parent: QObject | None = None) -> None:
        if isinstance(document, QObject):        # Editor(parent) as before
            document, parent = None, document
        super().__init__(parent)
        self.document = document if document is not None else Document()
        self.undo_stack = QUndoStack(self)

    @property
    def scenario(self) -> Scenario:
        """The scenario being edited (the document's)."""
        return self.document.scenario

    def replace(self, scenario: Scenario, path: str | None = None,
                opened: dict | None = None) -> None:
        """Start editing ``scenario`` with an empty, clean undo history
        (``opened``: see :meth:`app.document.Document.replace`)."""
        self.undo_stack.clear()
        self.document.replace(scenario, path, opened)
        self.scenario_replaced.emit(scenario)
        self.undo_stack.setClean()

    def _refuse(self, why: str) -> str:
        self.message.emit(why)
        return why

    # ---- components ----------------------------------------------------
    def add_component(self, kind_key: str, x: float, y: float) -> str:
        """Drop a new component at ``(x, y)`` (snapped); returns its id.

        Dropping a workload onto a scenario with no experiment also picks the
        workload's first experiment, in the same undo step.
        """
        k = components.kind(kind_key)
        sc = self.scenario
        label = labels.new_label(kind_key, labels.taken(sc.nodes.values()))
        node = Node(sc.new_id(), kind_key, label, *snap(x, y))
        parent = BatchMacro(sc, f"Add {label}")
        cmd.AddNodeCommand(sc, node, parent)
        if k.experiments and (sc.experiment is None or sc.experiment not in k.experiments):
            cmd.SetExperimentCommand(sc, k.experiments[0], parent)
        self.undo_stack.push(parent)
        return node.id

    def link(self, source: str, target: str) -> str | None:
        """Link two components; returns ``None`` or why the link is refused."""
        why = self.scenario.link_refusal(source, target)
        if why:
            return self._refuse(why)
        link = Link(self.scenario.new_id("l"), source, target)
        self.undo_stack.push(cmd.AddLinkCommand(self.scenario, link))
        a, b = self.scenario.nodes[source], self.scenario.nodes[target]
        self.message.emit(f"Linked {a.label} to {b.label}: "
                          f"{components.link_reason(a.category, b.category)}.")
        return None

    def delete(self, node_ids: Iterable[str], link_ids: Iterable[str] = ()) -> None:
        """Delete components and links as one undo step."""
        node_ids = [n for n in node_ids if n in self.scenario.nodes]
        attached = {ln.id for ln in self.scenario.links.values()
                    if ln.source in node_ids or ln.target in node_ids}
        link_ids = [ln for ln in link_ids if ln in self.scenario.links and ln not in attached]
        if not node_ids and not link_ids:
            return
        parent = BatchMacro(self.scenario, f"Delete {len(node_ids) + len(link_ids)} item(s)")
        for lid in link_ids:
            cmd.RemoveLinkCommand(self.scenario, lid, parent)
        for nid in node_ids:
            cmd.RemoveNodeCommand(self.scenario, nid, parent)
        self.undo_stack.push(parent)

    def move(self, moves: dict[str, tuple[float, float]]) -> None:
        """Record one drag: ``{id: new position}`` (snapped), as one command."""
        out = {}
        for nid, (x, y) in moves.items():
            node = self.scenario.nodes[nid]
            new = snap(x, y)
            if new != (node.x, node.y):
                out[nid] = ((node.x, node.y), new)
        if out:
            self.undo_stack.push(cmd.MoveNodesCommand(self.scenario, out))

    def rename(self, node_id: str, label: str) -> str | None:
        label = label.strip()
        if not label:
            return self._refuse("A component needs a label.")
        if self.scenario.label_taken(label, node_id):
            return self._refuse(f"Another component is already labelled '{label}': labels name "
                                "components in every report, so each must be unique.")
        if label != self.scenario.nodes[node_id].label:
            self.undo_stack.push(cmd.RenameCommand(self.scenario, node_id, label))
        return None

    def set_property(self, node_id: str, key: str, value: Any) -> str | None:
        """Set a parameter on this component, or on every one of its category.

        An experiment parameter is modelled once per run, so its value is
        shared by all components of the category whose kind does not fix it
        (:meth:`Scenario.is_shared`); a component property (a volume's
        aliases, a control unit's cache) is set on this component only.
        Returns ``None`` or the one-line reason the value is refused
        (nothing is clamped).
        """
        sc = self.scenario
        param = sc.param(key)
        if param is None:
            return self._refuse(f"'{key}' is not a parameter of this experiment")
        if sc.fixed_by_kind(node_id, key):
            how = ", ".join(variants.choices(sc, node_id))
            return self._refuse(f"{sc.nodes[node_id].label} fixes '{param.title}': "
                                + (f"change its {how} instead (Properties, or right-click "
                                   "▸ Change to)" if how else "replace the component to "
                                   "change it"))
        try:
            value = None if value is None else param.coerce(value)
        except ParamError as exc:
            return self._refuse(exc.human)
        scope = (sc.of_category(sc.nodes[node_id].category) if sc.is_shared(node_id, key)
                 else [sc.nodes[node_id]])
        targets = [n.id for n in scope
                   if not sc.fixed_by_kind(n.id, key) and n.properties.get(key) != value]
        if targets:
            parent = BatchMacro(sc, f"Set {param.title} = {value}")
            for nid in targets:
                cmd.SetPropertyCommand(sc, nid, key, value, parent)
            self.undo_stack.push(parent)
        return None

    def change_kind(self, node_ids: str | Iterable[str], prop: str, value: str) -> str | None:
        """Change components' type in place (``drive`` to ``SSD``, ``protocol``
        to ``zHPF``) as one undo step, keeping their labels, serials, counts
        and links (:mod:`models.drawing.variants`). ``node_ids``: one id, or
        several cards of one sort (every selected storage group to SSD).
        ``None`` or the one-line reason it is refused (naming what is allowed)."""
        sc = self.scenario
        ids = [node_ids] if isinstance(node_ids, str) else list(node_ids)
        chosen = set(ids)
        ids = [nid for nid in sc.nodes if nid in chosen]      # in drawing order
        try:
            # Tried on a copy first: a refusal changes nothing and leaves no step.
            trial = sc.copy()
            todo = [nid for nid in ids if variants.change(trial, nid, prop, value)]
        except ParamError as exc:
            return self._refuse(str(exc))
        if not todo:
            return None                          # each already is
        what = sc.nodes[todo[0]].label if len(todo) == 1 else f"{len(todo)} cards"
        parent = BatchMacro(sc, f"Change {what} to {value}")
        changes = [cmd.ChangeKindCommand(sc, nid, prop, value, parent) for nid in todo]
        self.undo_stack.push(parent)
        said = (variants.describe(sc, todo[0], prop, changes[0].old) if len(todo) == 1 else
                f"{', '.join(sc.nodes[n].label for n in todo)} "
                f"{'as' if prop in ('type', 'library') else 'on'} {value}")
        self.message.emit(f"What-if: {said} (labels, serials, counts and links kept; "
                          "Ctrl+Z undoes).")
        return None

    def set_parameter(self, key: str, value: Any) -> str | None:
        """Set parameter ``key`` on the components that carry it (as the
        inspector would); ``None`` or the one-line reason it is refused."""
        sc = self.scenario
        carriers = [nid for nid in sc.nodes
                    if any(p.name == key for p in sc.params_for(nid))
                    and not sc.fixed_by_kind(nid, key)]
        if not carriers:
            return self._refuse(f"no component of this drawing carries '{key}'")
        param = sc.param(key, sc.nodes[carriers[0]].category)
        try:
            value = None if value is None or param is None else param.coerce(value)
        except ParamError as exc:
            return self._refuse(exc.human)
        # Every carrier, in one undo step: several workloads each carry their
        # own run length, several units their own cache.
        parent = self.macro(f"Set {param.title if param else key} = {value}")
        changed = False
        for nid in carriers:
            if sc.nodes[nid].properties.get(key) != value:
                cmd.SetPropertyCommand(sc, nid, key, value, parent)
                changed = True
        if changed:
            self.undo_stack.push(parent)
        return None

    def set_experiment(self, name: str | None) -> None:
        if name != self.scenario.experiment:
            self.undo_stack.push(cmd.SetExperimentCommand(self.scenario, name))

    def macro(self, text: str) -> BatchMacro:
        """A compound edit of this scenario, reaching the listeners as one batch."""
        return BatchMacro(self.scenario, text)

    # ---- group cards ---------------------------------------------------
    def expand_group(self, node_id: str) -> str | None:
        """Draw a storage or channel group as its single members (one undo
        step); ``None`` or why not."""
        out = groups.expand(self, node_id)
        return self._refuse(out) if isinstance(out, str) else None

    def collapse_group(self, node_ids: Iterable[str]) -> str | None:
        """Draw components of one kind with the same links as one group card
        (one undo step); ``None`` or why not."""
        out = groups.collapse(self, list(node_ids))
        return self._refuse(out) if out.startswith("Cannot") else None

    # ---- copy and paste ------------------------------------------------
    def copy_data(self, node_ids: Iterable[str]) -> bytes:
        """The selected components and the links among them, as JSON bytes."""
        ids = set(node_ids)
        data = self.scenario.to_dict()
        data["nodes"] = [n for n in data["nodes"] if n["id"] in ids]
        data["links"] = [ln for ln in data["links"] if ln["source"] in ids and ln["target"] in ids]
        return json.dumps(data).encode("utf-8")

    def paste_data(self, payload: bytes, offset: float = 2 * GRID) -> list[str]:
        """Paste copied components with fresh ids, shifted by ``offset``."""
        try:
            data = json.loads(bytes(payload).decode("utf-8"))
            nodes = [n for n in data["nodes"] if n["kind"] in components.KINDS]
            links = data["links"]
        except (ValueError, KeyError, TypeError):
            self._refuse("The clipboard holds no zPerfLab components.")
            return []
        if not nodes:
            return []
        sc = self.scenario
        parent, fresh = BatchMacro(sc, f"Paste {len(nodes)} component(s)"), {}
        used = {n.label for n in sc.nodes.values()}
        for raw in nodes:
            # A pasted copy is named after its original, never the same: labels are keys.
            label = str(raw["label"])
            if label in used:
                label = hardware.next_label(label, used)
            used.add(label)
            node = Node(sc.new_id(), raw["kind"], label,
                        *snap(float(raw["x"]) + offset, float(raw["y"]) + offset),
                        dict(raw.get("properties", {})))
            fresh[raw["id"]] = node.id
            cmd.AddNodeCommand(sc, node, parent)
        for raw in links:
            if raw.get("source") in fresh and raw.get("target") in fresh:
                cmd.AddLinkCommand(sc, Link(sc.new_id("l"), fresh[raw["source"]],
                                            fresh[raw["target"]]), parent)
        self.undo_stack.push(parent)
        return list(fresh.values())
