"""History, comparison, sweeps, what-if studies and published-vs-model, wired
into the main window.

:class:`StudyActions` opens the run history, records every finished run,
adds the History, Sweep and Compare tabs, and owns the actions that reach
them (Run ▸ Compare…, Sweep…, Published vs model, View ▸ History, the
What-if studies menu and the start page's what-if buttons: each opens
Compare with the study's before and after drawings run). The views only
show; the runs go through ``models.experiments.run_experiment`` on worker
threads.
"""
from __future__ import annotations

import json
import os
from types import SimpleNamespace

from PySide6.QtGui import QAction

from app import drawing_diff, run_names, scenario_io
from app.document import run_shape
from app.history import History, HistoryError, RunRecord
from app.names import words
from app.worker import TaskRunner
from models import experiments
from models.drawing import documents
from models.studies import whatif
from models.core.params import ParamError
from models.drawing.scenario import Scenario, ScenarioError
from ui.actions import shortcut_action, whatif_menu
from ui.charts.published import PublishedDialog
from ui.compare import CompareView
from ui.history_panel import HistoryPanel
from ui.sweep_view import SweepView


def open_history() -> tuple[History | None, str]:
    """The user's run history, or ``None`` and why it cannot be used."""
    try:
        return History(), ""
    except HistoryError as exc:
        return None, f"Runs are not recorded: {exc}"


class StudyActions:
    """The study tabs and actions.

    Parameters
    ----------
    document : app.document.Document
        The scenario (what Compare and Sweep start from) and its runs (what
        the history records, with the scenario each ran from).
    shell : MainWindow
        The window services of :class:`ui.shell.Shell`, plus the signal
        ``run_finished`` and the start page's ``whatif_chosen``.
    """

    def __init__(self, document, shell) -> None:
        self.document = document
        self.win = win = shell
        self.history, problem = open_history()
        self.history_panel = HistoryPanel(self.history, problem)
        self.sweep_view = SweepView()
        self.compare_view = CompareView()
        self.published = PublishedDialog(win)
        self.compare_runner = TaskRunner("compare", win)
        self._compare_labels = ("A", "B")
        #: Labels of two stored runs whose drawings run again (else the titles').
        self._drawing_labels: tuple[str, str] | None = None
        self._compare_documents: tuple = (None, None)
        #: The canvas drawing the running A and B ran from (None: two drawings).
        self._compare_drawing: dict | None = None
        #: (what a run depends on, title) of the canvas drawing the A and B on
        #: show ran from; None: none on show, or a what-if study's or stored runs.
        self._compare_ran_from: tuple[tuple, str] | None = None
        self._reopening = False
        for name, widget in (("history", self.history_panel), ("sweep", self.sweep_view),
                             ("compare", self.compare_view)):
            win.add_view(name, widget, follows_runs=False)
        self._connect()
        self.a = self._build_actions()
        whatif_menu(win, self.open_whatif)
        win.start_page.whatif_chosen.connect(self.open_whatif)

    def _connect(self) -> None:
        # Every run the document receives is recorded (not replications).
        self.document.changed.connect(self._on_document_changed)
        self.history_panel.reopen_requested.connect(self.reopen)
        self.history_panel.compare_requested.connect(self.compare_records)
        cv, r = self.compare_view, self.compare_runner
        cv.run_requested.connect(self._on_compare_view_run_requested)
        cv.drawings_run_requested.connect(self._on_compare_view_drawings_run_requested)
        cv.cancel_requested.connect(r.cancel)
        r.progressed.connect(lambda f: cv.progress.setValue(int(f * 1000)))
        r.succeeded.connect(self._on_compare_runner_succeeded)
        r.failed.connect(lambda text: cv.set_running(False, f"Failed: {text}"))
        r.cancelled.connect(lambda: cv.set_running(False, "Cancelled: no comparison."))

    def _act(self, text: str, slot, keys: str = "", tip: str = "") -> QAction:
        return shortcut_action(self.win, text, slot, keys, tip)

    def _build_actions(self) -> SimpleNamespace:
        a = SimpleNamespace()
        a.compare = self._act("&Compare…", self.show_compare, "F6",
                              "Run two variants of the scenario that differ in one parameter, "
                              "side by side with B/A ratios")
        a.sweep = self._act("S&weep…", self.show_sweep, "F7",
                            "Vary one parameter over a range and plot the curves")
        a.published = self._act("&Published vs model", self.show_published, "F8",
                                "The case study's published figures beside the model's")
        a.history = self._act("Run &history", lambda: self.win.show_view("history"), "Ctrl+H",
                              "Every recorded run: re-open, compare, delete")
        return a

    def shutdown(self) -> None:
        """Stop the workers and close the database (window closing)."""
        self.sweep_view.shutdown()
        self.compare_runner.stop()
        self.published.runner.stop()
        if self.history is not None:
            self.history.close()

    # ---- history -------------------------------------------------------------
    def _on_document_changed(self, change) -> None:
        if getattr(change, "replaced", False):
            # Another case or file: the comparison on the tab was the old one's.
            self.compare_runner.cancel()
            self.compare_view.clear()
            self._compare_ran_from = None
        if not getattr(change, "moved_only", False):
            self.compare_view.show_stale(self._compare_stale_message())
        result = self.document.result
        if change.run and result is not None and not hasattr(result, "seeds") \
                and not self._reopening:
            self.record(result, scenario_document=self.document.run_document)

    def record(self, result, label: str = "", scenario_document: dict | None = None,
               opened: dict | None = None) -> int | None:
        """Store a finished run with the scenario it came from and what that
        changed from ``opened`` (default: the drawing as opened); its id or None."""
        if self.history is None:
            return None
        doc = scenario_document
        try:
            rid = self.history.add(result, scenario=json.dumps(doc) if doc else "",
                                   label=label or self._scenario_label(doc),
                                   changes=run_names.changes(
                                       opened or self.document.opened_document, doc))
        except HistoryError as exc:
            self.win.say(str(exc))
            return None
        self.history_panel.refresh(select_id=rid)
        return rid

    def _scenario_label(self, doc: dict | None) -> str:
        """How the history names a run's scenario: its title or file name."""
        title = (doc or {}).get("title") if isinstance(doc, dict) else None
        if title:
            return str(title)
        path = self.document.path
        return os.path.basename(path) if path else ""

    def reopen(self, record: RunRecord) -> None:
        """Open the scenario a stored run came from and show its stored metrics."""
        win = self.win
        try:
            scenario = (scenario_io.from_document(json.loads(record.scenario), f"run #{record.id}")
                        if record.scenario else scenario_io.load_case(record.experiment))
        except (ValueError, scenario_io.ScenarioFileError) as exc:
            win.alert("Cannot re-open the run", str(exc))
            return
        if not win.open_scenario(scenario, f"Re-opened run #{record.id} of {record.when()}."):
            return
        # The stored run becomes the document's, so every view and export
        # shows it as this scenario's (it is not recorded a second time).
        self._reopening = True
        try:
            self.document.set_result(record.as_result(), json.loads(record.scenario)
                                     if record.scenario else None)
        finally:
            self._reopening = False
        if not record.scenario:
            win.say(f"Run #{record.id} kept no scenario: opened the built-in case study.")

    def compare_records(self, a: RunRecord, b: RunRecord) -> None:
        """Two stored runs side by side, each headed by what it changed from
        the case as opened, and what B's drawing changed from A's."""
        from ui.history_panel import changes_text

        if self.compare_runner.running:
            self.win.say("A comparison is running: wait for it or cancel it first.")
            return
        view = self.compare_view
        # Out of a study's drawings, and forward before the runs go in: bringing
        # the tab forward loads the canvas's parameter bar (sync_view).
        view.clear()
        self.win.show_view("compare")
        self._compare_ran_from = None      # stored runs: not the canvas's
        view.set_results(a.as_result(), b.as_result(), f"Run #{a.id}: {changes_text(a)}",
                         f"Run #{b.id}: {changes_text(b)}")
        between = ""
        try:
            between = drawing_diff.describe(drawing_diff.differences(
                json.loads(a.scenario), json.loads(b.scenario)), None)
        except (TypeError, ValueError):
            between = ""
        view.about.setText(f"Run #{b.id} against run #{a.id}: {between}" if between else "")
        view.about.setVisible(bool(between))
        view.status.setText(f"Runs #{a.id} and #{b.id} from the history "
                            "(stored metrics: no traces).")
        self._offer_measured_rerun(a, b, view.about.text())

    def _offer_measured_rerun(self, a: RunRecord, b: RunRecord, about: str) -> None:
        """Two stored runs of drawings imported from the same RMF reports: the
        history keeps run-wide metrics only, so offer to run both drawings
        again, which sets RMF's measured figures beside them."""
        try:
            da, db = json.loads(a.scenario), json.loads(b.scenario)
            same = (da["imported"]["measured"] == db["imported"]["measured"]
                    and bool(da["imported"]["measured"]))
        except (TypeError, ValueError, KeyError):
            return
        if not same or da.get("experiment") != db.get("experiment") \
                or self.compare_runner.running:
            return
        view = self.compare_view
        view.set_drawings(da["experiment"], da, db, about=about)
        view.about.setVisible(bool(about))
        self._drawing_labels = (view.label_a.text(), view.label_b.text())
        view.status.setText(f"Runs #{a.id} and #{b.id} from the history (stored metrics). "
                            "Both drawings were imported from the same RMF reports: Run before "
                            "and after runs them again, with RMF's measured figures beside.")

    # ---- compare and sweep ---------------------------------------------------
    def _scenario_request(self) -> tuple[str, dict, dict] | None:
        """(experiment, values as drawn, the drawing) of the canvas, or None."""
        try:
            experiment, values = self.document.scenario.run_request()
        except ScenarioError as exc:
            self.win.alert("The scenario cannot run yet", str(exc))
            return None
        return experiment, values, self.document.scenario.to_dict()

    def show_compare(self) -> None:
        request = self._scenario_request()
        if request is not None and not self.compare_runner.running:
            self.compare_view.set_scenario(*request)
            self.compare_view.status.setText("Pick a parameter and its two values, then "
                                             "Run A and B.")
        self.win.show_view("compare")

    def sync_view(self, name: str) -> None:
        """Load the canvas scenario into the Sweep or Compare tab when it is
        brought forward by its tab (not only by its menu item), keeping the
        user's set-up when the scenario has not changed.

        Two drawings on Compare (a what-if study, two stored runs) are not the
        canvas's: bringing the tab forward keeps them (:meth:`open_whatif` puts
        them in, then brings it forward). Run ▸ Compare… goes back to variants
        of the canvas.
        """
        view, busy = ((self.sweep_view, self.sweep_view.running) if name == "sweep"
                      else (self.compare_view, self.compare_runner.running))
        if busy or (view is self.compare_view and self.compare_view.drawings is not None):
            return
        try:
            experiment, overrides = self.document.scenario.run_request()
        except ScenarioError as exc:
            view.status.setText(f"The scenario cannot run yet: {exc}")
            return
        drawing = self.document.scenario.to_dict()
        if (view.experiment, view.base, view.scenario) != (experiment, dict(overrides), drawing):
            view.set_scenario(experiment, overrides, drawing)

    def show_sweep(self) -> None:
        request = self._scenario_request()
        if request is not None and not self.sweep_view.running:
            self.sweep_view.set_scenario(*request)
        self.win.show_view("sweep")

    def _on_compare_view_run_requested(self, name: str, text_a: str, text_b: str) -> None:
        cv = self.compare_view
        exp = experiments.get(cv.experiment)
        try:
            va, vb = exp.schema[name].coerce(text_a), exp.schema[name].coerce(text_b)
        except ParamError as exc:
            cv.status.setText(exc.human)
            return
        over_a, over_b = {**cv.base, name: va}, {**cv.base, name: vb}
        title = exp.schema[name].title
        self._compare_labels = (f"{title} = {words(va)}", f"{title} = {words(vb)}")
        here = self.document.snapshot()
        self._compare_documents = (here, here)

        drawing = self._compare_drawing = cv.scenario

        def job(progress, cancel):
            a = experiments.run_experiment(exp.name, over_a, trace=True, cancel=cancel,
                                           progress=lambda f: progress(0.5 * f), scenario=drawing)
            b = experiments.run_experiment(exp.name, over_b, trace=True, cancel=cancel,
                                           progress=lambda f: progress(0.5 + 0.5 * f),
                                           scenario=drawing)
            return a, b
        cv.set_running(True, f"Running {exp.title} twice…")
        self.compare_runner.start(job)

    # ---- what-if studies -------------------------------------------------------
    def open_whatif(self, name: str) -> bool:
        """Open Compare on what-if study ``name`` and run its before and after
        drawings; False (with the reason) if it cannot start."""
        try:
            st = whatif.study(name)
            before, after = st.documents()
        except documents.ScenarioFileError as exc:
            self.win.alert("Cannot open the what-if study", str(exc))
            return False
        if self.compare_runner.running:
            self.win.say("A comparison is running: wait for it or cancel it first.")
            return False
        self._drawing_labels = None
        self.compare_view.set_drawings(before["experiment"], before, after, st.title,
                                       st.about, st.metric)
        self.win.show_view("compare")
        return self._run_drawings()

    def _on_compare_view_drawings_run_requested(self) -> None:
        self._run_drawings()

    def _run_drawings(self) -> bool:
        cv = self.compare_view
        before, after = cv.drawings
        name = before["experiment"]
        self._compare_labels = self._drawing_labels or tuple(
            f"{side}: {d['title'].split(': ', 1)[-1]}"
            for side, d in (("Before", before), ("After", after)))
        self._compare_documents = tuple({"format": documents.FORMAT,
                                         "version": documents.VERSION, **d}
                                        for d in (before, after))
        self._compare_drawing = None

        def job(progress, cancel):
            a = experiments.run_experiment(name, {}, trace=True, cancel=cancel,
                                           progress=lambda f: progress(0.5 * f), scenario=before)
            b = experiments.run_experiment(name, {}, trace=True, cancel=cancel,
                                           progress=lambda f: progress(0.5 + 0.5 * f),
                                           scenario=after)
            return a, b
        cv.set_running(True, "Running before and after…")
        return self.compare_runner.start(job)

    def _on_compare_runner_succeeded(self, pair) -> None:
        a, b = pair
        la, lb = self._compare_labels
        self.compare_view.set_results(a, b, la, lb)
        self.compare_view.set_running(False, "Done: both runs are in the history.")
        self._compare_ran_from = self._ran_from(self._compare_drawing)
        # The canvas may have been edited while A and B ran.
        self.compare_view.show_stale(self._compare_stale_message())
        da, db = self._compare_documents
        # Two drawings (a what-if study): B's changes are counted from A's.
        base = da if self.compare_view.drawings is not None else None
        self.record(a, f"compare: {la}", da, base)
        self.record(b, f"compare: {lb}", db, base)

    @staticmethod
    def _ran_from(drawing: dict | None) -> tuple[tuple, str] | None:
        """(what a run depends on, title) of the canvas ``drawing`` A and B ran from."""
        if drawing is None:
            return None
        name = drawing.get("experiment")
        title = drawing.get("title") or (experiments.get(name).title
                                         if name in experiments.registry() else "")
        # The drawing came from Scenario.to_dict, so it reads back.
        return run_shape(Scenario.from_dict(drawing)), title

    def _compare_stale_message(self) -> str:
        """One line saying the A and B on show ran from the canvas as it was
        before the last edit ("" if they are of the drawing, or not the canvas's);
        worded as :meth:`app.document.Document.stale_message`."""
        ran = self._compare_ran_from
        if ran is None or ran[0] == run_shape(self.document.scenario):
            return ""
        return (f"These runs are of “{ran[1]}” as it was before your last edit: "
                "press Run A and B to see the scenario as drawn.")

    # ---- published vs model ------------------------------------------------
    def show_published(self) -> None:
        win = self.win
        result = self.document.result
        name = self.document.scenario.experiment or (result and result.experiment)
        if not name:
            win.alert("No case study", "Open a case study or choose an experiment first.")
            return
        self.published.show()
        self.published.raise_()
        if self.published.experiment != name or not self.published.table.rows:
            self.published.compute(name)
