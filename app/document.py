"""The document being edited: one scenario, its issues and its last run (Qt-free).

This is the one place the window's views learn what to show from, in the
manner of orange-canvas-core's document layer: the canvas, the inspector, the
results dock, the charts, the replay and the exports subscribe to
:attr:`Document.changed`; none of them tells another what happened.

:class:`Document` owns

- the scenario being edited (:attr:`scenario`, replaced whole by
  :meth:`replace`) and the file it came from (:attr:`path`);
- the edit-batch boundary: a paste of a hundred components, a drag, or
  undoing either reaches the listeners as **one** ``changed`` (the edits go
  through :meth:`batch`, which is :meth:`Scenario.batch
  <models.drawing.scenario.Scenario.batch>`);
- the scenario's issues, checked once per batch and cached (:meth:`issues`);
- the last run's result (:attr:`result`) and the scenario document as it was
  when that run started (:attr:`run_document`), so any view can ask whether
  the run it shows is still the drawing's (:meth:`run_is_stale`) and, if not,
  name the scenario it came from (:meth:`run_title`).

It imports no Qt (tests/app/test_document.py checks), so it is tested, and
can be used, without a window.
"""
from __future__ import annotations

import copy
import os
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from app import run_names
from models import experiments

from models.drawing import documents
from models.drawing.scenario import Callbacks, Issue, Scenario, ScenarioError

#: The scenario callbacks that mean "the drawing changed".
EDIT_SIGNALS = ("node_added", "node_removed", "link_added", "link_removed",
                "property_changed", "moved", "label_changed", "kind_changed",
                "experiment_changed")


@dataclass(frozen=True)
class Change:
    """What one ``changed`` announcement is about (any combination).

    Attributes
    ----------
    replaced : bool
        A whole scenario was put in (new, open, re-open, restore).
    scenario : bool
        The drawing changed (an edit, an undo or a redo; a batch counts once).
    run : bool
        A run was started, finished, or dropped; :attr:`Document.result` or
        :attr:`Document.run_document` changed.
    moved_only : bool
        The only edits were moves: what a run depends on is unchanged.
    failed : bool
        A run failed (:attr:`Document.failure` says why); the result shown,
        if any, is the one before it.
    """

    replaced: bool = False
    scenario: bool = False
    run: bool = False
    moved_only: bool = False
    failed: bool = False


def run_shape(sc: Scenario) -> tuple:
    """What a run depends on: experiment, components (not positions) and links."""
    return (sc.experiment,
            {nid: (n.kind, n.label, dict(n.properties)) for nid, n in sc.nodes.items()},
            {lid: (ln.source, ln.target) for lid, ln in sc.links.items()})


class Document:
    """The scenario being edited and its last run; announces one ``changed`` per batch.

    Parameters
    ----------
    scenario : Scenario, optional
        The scenario to start with (an empty one by default).
    """

    def __init__(self, scenario: Scenario | None = None) -> None:
        #: Listeners get one :class:`Change` per edit batch, replace or run.
        self.changed = Callbacks()
        self.scenario = Scenario()
        #: The file the scenario was opened from or saved to (None: unsaved).
        self.path: str | None = None
        #: The last finished run (a RunResult, or a Replicated), or None.
        self.result: Any = None
        #: The scenario document the result ran from (None: no run).
        self.run_document: dict | None = None
        #: Why the last run failed ("" when the last run did not fail).
        self.failure = ""
        self._run_shape: tuple | None = None
        self._issues: list[Issue] | None = None
        self._pending_edit = False
        self._only_moves = True
        self._bind(scenario if scenario is not None else Scenario())
        #: The drawing as it was opened (plain data): what a run's changes
        #: are counted from (app.drawing_diff).
        self.opened_document: dict = copy.deepcopy(self.scenario.to_dict())

    # ---- the scenario -------------------------------------------------------
    def _bind(self, scenario: Scenario) -> None:
        old = self.scenario
        for name in EDIT_SIGNALS:
            try:
                getattr(old, name).disconnect(self._edit_listener(name))
            except ValueError:
                pass
        try:
            old.batch_finished.disconnect(self._on_scenario_batch_finished)
        except ValueError:
            pass
        self.scenario = scenario
        for name in EDIT_SIGNALS:
            getattr(scenario, name).connect(self._edit_listener(name))
        scenario.batch_finished.connect(self._on_scenario_batch_finished)

    def _edit_listener(self, name: str):
        """One bound listener per signal name (so it can be disconnected again)."""
        listeners = self.__dict__.setdefault("_listeners", {})
        if name not in listeners:
            listeners[name] = lambda *_args, _n=name: self._on_scenario_edited(_n)
        return listeners[name]

    def replace(self, scenario: Scenario, path: str | None = None,
                opened: dict | None = None) -> None:
        """Edit ``scenario`` from now on; the previous run is dropped.

        ``opened`` is the drawing a run's changes are counted from (default:
        ``scenario`` as it is now; a lesson step passes its lesson's case).

        No view may keep showing the previous scenario's run as this one's,
        so the result goes with the scenario it belonged to.
        """
        self._bind(scenario)
        self.path = path
        self.opened_document = copy.deepcopy(opened if opened is not None else scenario.to_dict())
        self._issues = None
        self._pending_edit, self._only_moves = False, True
        self.result, self.run_document, self._run_shape = None, None, None
        self.failure = ""
        self.changed.emit(Change(replaced=True, scenario=True, run=True))

    @contextmanager
    def batch(self):
        """Group edits so the listeners hear of them once, when the batch ends."""
        with self.scenario.batch():
            yield self

    def _on_scenario_edited(self, name: str) -> None:
        self._issues = None
        self._pending_edit = True
        self._only_moves = self._only_moves and name == "moved"
        if not self.scenario.in_batch:
            self._flush()

    def _on_scenario_batch_finished(self) -> None:
        self._flush()

    def _flush(self) -> None:
        if not self._pending_edit:
            return
        moved_only = self._only_moves
        self._pending_edit, self._only_moves = False, True
        self.changed.emit(Change(scenario=True, moved_only=moved_only))

    def issues(self) -> list[Issue]:
        """The scenario's problems, checked at most once per batch of edits."""
        if self._issues is None:
            self._issues = self.scenario.issues()
        return list(self._issues)

    def title(self) -> str:
        """How the scenario is named: its title, its file, or its experiment."""
        sc = self.scenario
        if sc.title:
            return sc.title
        if self.path:
            return os.path.basename(self.path)
        return experiments.get(sc.experiment).title if sc.experiment else "Untitled scenario"

    # ---- runs -----------------------------------------------------------------
    def snapshot(self) -> dict:
        """The scenario as a file document, to hand to a run that starts now."""
        return documents.to_document(self.scenario)

    def set_result(self, result: Any, run_document: dict | None) -> None:
        """Record a finished run and the scenario document it ran from.

        ``result`` may be ``None`` (the run is dropped: no view shows it).
        """
        self.result = result
        self.failure = ""
        self.run_document = run_document if result is not None else None
        self._run_shape = None
        if result is not None:
            try:
                ran = (documents.from_document(run_document) if run_document is not None
                       else self.scenario)
                self._run_shape = run_shape(ran)
            except (ScenarioError, ValueError):
                self._run_shape = None
        self.changed.emit(Change(run=True))

    def clear_result(self) -> None:
        """Forget the last run (every view clears)."""
        self.set_result(None, None)

    def run_is_stale(self) -> bool:
        """True when there is a run and the drawing is no longer the one it ran.

        Moving a component does not make a run stale; any other edit does.
        """
        if self.result is None:
            return False
        return self._run_shape is None or self._run_shape != run_shape(self.scenario)

    def run_title(self) -> str:
        """The title of the scenario the last run came from ("" without a run)."""
        if self.result is None:
            return ""
        doc = self.run_document or {}
        title = doc.get("title") if isinstance(doc, dict) else None
        name = getattr(self.result, "experiment", None)
        if title:
            return str(title)
        return experiments.get(name).title if name in experiments.registry() else ""

    def run_name(self) -> run_names.RunName:
        """The last run's :class:`~app.run_names.RunName`: a what-if when the
        drawing it ran differs from the drawing as opened, else the baseline."""
        return run_names.run_name(self.opened_document, self.run_document)

    def set_failure(self, message: str) -> None:
        """Record that the last run failed (views keep the run before it and say so)."""
        self.failure = str(message) or "the run failed"
        self.changed.emit(Change(failed=True))

    def failure_message(self) -> str:
        """One line saying the last run failed ("" if it did not)."""
        if not self.failure:
            return ""
        text = f"The last run failed: {self.failure.rstrip('.')}."
        if self.result is not None:
            text += f" This view still shows the run before it, of “{self.run_title()}”."
        return text

    def stale_message(self) -> str:
        """One line saying the run shown is not of the drawing ("" if it is)."""
        if not self.run_is_stale():
            return ""
        return (f"This run is of “{self.run_title()}” as it was before your last edit: "
                "press Run (F5) to see the scenario as drawn.")
