"""zPerfLab's main window: canvas tab, palette, inspector, results, files and runs.

The window assembles parts that live in their own modules (actions, canvas,
docks, start page, the study tabs in ``ui.actions_study`` and the Export menu
in ``ui.actions_export``) and holds the behaviour that ties them together:
opening and saving files, starting and cancelling runs, handing finished runs
to the results dock and to the views added with :meth:`MainWindow.add_view`,
and which side panels each tab shows (see docs/ui.md, "Layout").
"""
from __future__ import annotations

import os

from PySide6.QtCore import QEventLoop, QMimeData, Qt, QTimer, Signal
from PySide6.QtWidgets import (QApplication, QDockWidget, QFileDialog, QHBoxLayout, QLabel,
                               QMainWindow, QMessageBox, QProgressBar, QPushButton, QScrollArea,
                               QStackedWidget, QTabWidget, QVBoxLayout, QWidget)

from app import autosave, collector, scenario_io, settings
from app.names import file_stem
from app.document import Document
from app.worker import RunThread
from models import experiments
from models.core.run import RunResult
from models.drawing import components
from models.drawing.scenario import Scenario, ScenarioError
from ui import idle
from ui.about import add_help_menu, app_icon
from ui.actions import build_actions, extend_menus
from ui.actions_export import ExportActions
from ui.actions_study import StudyActions
from ui.canvas.activity import tint_during_replay
from ui.canvas.items import NODE_H, NODE_W
from ui.canvas.place import free_spot
from ui.canvas.scene import CanvasScene
from ui.canvas.view import CanvasView
from ui.docks.inspector import Inspector
from ui.docks.palette import Palette
from ui.docks.results import ResultsPanel
from ui.editor import SELECTION_MIME, Editor
from ui.start_page import StartPage
from ui.views import RunPage, big_trace, install_result_views

FILE_FILTER = "zPerfLab scenarios (*.zpl.json *.json);;All files (*)"
#: Side panels each tab shows at first; the user's changes are kept per tab.
DOCK_PLAN = {"canvas": {"palette", "inspector", "results"}, "charts": {"results"}}
#: Default width of the right-hand panels (Properties and Results, tabbed).
RIGHT_DOCK_WIDTH = 400


#: The window's size where the screen has room for it (docs and tests use it).
FIRST_SIZE = (1280, 800)
#: What a window manager adds around a window (borders, title bar), allowed
#: for before the first show, when Qt cannot know it yet.
FRAME_ALLOWANCE = (16, 48)


def first_size(widget) -> tuple[int, int]:
    """The window's first size: 1280×800, or less where the screen's
    available area is smaller (a 1024×768 projector, a small laptop), with
    room left for the window manager's title bar and borders."""
    from PySide6.QtGui import QGuiApplication

    screen = widget.screen() if widget is not None else None
    if screen is None or QGuiApplication.platformName() == "offscreen":
        return FIRST_SIZE         # no real screen: the size the tests and docs use
    avail = screen.availableGeometry()
    return (min(FIRST_SIZE[0], avail.width() - FRAME_ALLOWANCE[0]),
            min(FIRST_SIZE[1], avail.height() - FRAME_ALLOWANCE[1]))


def first_placement(avail, size: tuple[int, int]):
    """Where the first window goes on a screen whose available area (without
    panels and docks) is ``avail``: ``None`` to maximise it, where
    ``size`` and a window manager's frame would not fit whole, else the
    top-left corner that centres it. A maximised window is the available
    area exactly, its title bar, status bar and progress bar included."""
    from PySide6.QtCore import QPoint

    w, h = size[0] + FRAME_ALLOWANCE[0], size[1] + FRAME_ALLOWANCE[1]
    if w > avail.width() or h > avail.height() or size[0] < FIRST_SIZE[0] \
            or size[1] < FIRST_SIZE[1]:
        return None
    return QPoint(avail.x() + (avail.width() - w) // 2, avail.y() + (avail.height() - h) // 2)


class MainWindow(QMainWindow):
    """The lab's window. ``run_finished(result)`` announces every finished run."""

    run_finished = Signal(object)
    #: A long run's preliminary figures were shown in the Results panel (the RunResult).
    run_previewed = Signal(object)
    #: Emitted after every run, whatever its outcome (tests, headless use).
    run_done = Signal()

    def __init__(self) -> None:
        super().__init__()
        # Cycles are collected on this thread only, never on a run's worker
        # thread (which would destroy these widgets from the wrong thread).
        collector.hold()
        self.resize(*first_size(self))
        #: The document every view follows: the scenario, its issues, the last
        #: run and the scenario that run came from (:mod:`app.document`).
        self.document = Document()
        self.editor = Editor(self.document, self)
        self.scene = CanvasScene(self.editor, self)
        self.view = CanvasView(self.scene)
        self.start_page = StartPage()
        # In a scroll area, so its cards cannot hold the window above 1024x640.
        self.start_holder = QScrollArea()
        self.start_holder.setWidgetResizable(True)
        self.start_holder.setFrameShape(QScrollArea.Shape.NoFrame)
        self.start_holder.setWidget(self.start_page)
        self.canvas_stack = QStackedWidget()
        self.canvas_stack.addWidget(self.start_holder)
        self.canvas_stack.addWidget(self.view)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.canvas_stack, "Canvas")
        self.setCentralWidget(self.tabs)
        self.views: dict[str, object] = {"canvas": self.canvas_stack}
        self.view_holders: dict[str, QScrollArea] = {}
        #: Tab page of each added view (its holder under a staleness banner).
        self.view_pages: dict[str, QWidget] = {}
        self.followers: list[str] = []
        #: The scenario document handed to the run in progress.
        self._starting_document: dict | None = None
        self.runner = RunThread(self)
        self._shut_down = False
        self._task_cancel = None
        self._build_docks()
        self.actions_ = build_actions(self)
        self._build_status()
        self._connect()
        self._refresh_recent()
        self._update_title()
        install_result_views(self)
        # During a replay the canvas cards show how busy each component is.
        self.canvas_tint = tint_during_replay(self.scene, self.views.get("animation"),
                                              self.document)
        self.study = StudyActions(self.document, self)
        self.exports = ExportActions(self.document, self, self.scene)
        extend_menus(self, self.study, self.exports)
        add_help_menu(self)
        self.setWindowIcon(app_icon())
        self.dock_plan = {name: set(DOCK_PLAN.get(name, ())) for name in self.views}
        self._shown_tab = "canvas"
        self._apply_dock_plan("canvas")
        # Unsaved changes survive a crash or a kill (app.recovery).
        self.autosaver = autosave.Autosaver(
            self, lambda: not self.editor.undo_stack.isClean(),
            lambda: scenario_io.to_document(self.editor.scenario), lambda: self.path)
        self.autosaver.failed.connect(self.say)
        self.recovery_box: QMessageBox | None = None
        self._report_history()
        # Guided lessons, their caption band and presentation mode (docs/lessons.md).
        from ui.lessons import install as install_lessons
        self.lessons = install_lessons(self)
        # File ▸ Import RMF reports… and the Imported from RMF panel (docs/rmf-drawing.md).
        from ui.rmf_import import install as install_rmf_import
        self.rmf_import = install_rmf_import(self)
        # File ▸ Calibrate to RMF… and its button in that panel (issue 41).
        from ui.calibrate import install as install_calibration
        self.calibration = install_calibration(self)

    # ---- the document's state, under the names the window always had -------
    @property
    def path(self) -> str | None:
        """The file the scenario was opened from or saved to (the document's)."""
        return self.document.path

    @path.setter
    def path(self, value: str | None) -> None:
        self.document.path = value

    @property
    def last_result(self) -> RunResult | None:
        """The last finished run (the document's result)."""
        return self.document.result

    @property
    def run_scenario_document(self) -> dict | None:
        """The scenario document the last run ran from (the document's)."""
        return self.document.run_document

    def _report_history(self) -> None:
        """Say once that the run history was damaged or has unreadable runs."""
        history = self.study.history
        lines = [history.notice, history.skipped_message()] if history is not None else []
        text = " ".join(line for line in lines if line)
        if text:
            self.say(text)
            self.alert("Run history", text)

    # ---- assembly --------------------------------------------------------
    def _dock(self, title: str, name: str, widget, area) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                         | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                         | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        self.addDockWidget(area, dock)
        return dock

    def _build_docks(self) -> None:
        self.palette = Palette()
        self.palette.setMinimumWidth(180)
        self.inspector = Inspector(self.editor, self.scene)
        self.inspector.setMinimumWidth(240)
        self.results = ResultsPanel()
        left, right = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.palette_dock = self._dock("Components", "paletteDock", self.palette, left)
        self.inspector_dock = self._dock("Properties", "inspectorDock", self.inspector, right)
        self.results_dock = self._dock("Results", "resultsDock", self._results_box(), right)
        # Tabbed, not stacked: each gets the full height, and one width.
        self.tabifyDockWidget(self.inspector_dock, self.results_dock)
        self.inspector_dock.raise_()
        self.resizeDocks([self.palette_dock], [230], Qt.Orientation.Horizontal)
        self.resizeDocks([self.inspector_dock], [RIGHT_DOCK_WIDTH], Qt.Orientation.Horizontal)
        self.docks = {"palette": self.palette_dock, "inspector": self.inspector_dock,
                      "results": self.results_dock}

    def _results_box(self) -> QWidget:
        """The results panel under a row of buttons (published table, export)."""
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        row = QHBoxLayout()
        row.setContentsMargins(6, 4, 6, 0)
        self.published_button = QPushButton("Published vs model…")
        self.published_button.setToolTip("The case study's published figures beside the "
                                          "model's, with the deviation (F8)")
        self.published_button.clicked.connect(lambda _=False: self.study.show_published())
        row.addWidget(self.published_button)
        row.addStretch(1)
        layout.addLayout(row)
        # The results follow the document too: its run, and a banner when the
        # drawing changed since (RunPage, as for the Charts and Animation tabs).
        #: The Results panel's page (its stale banner over the panel).
        self.results_page = RunPage(self.document, self.results, self._show_results, "results")
        layout.addWidget(self.results_page, 1)
        return box

    def _show_results(self, result) -> None:
        if result is None:
            self.results.show_message("Not run yet: press Run (F5).")
        elif hasattr(result, "seeds"):
            self.results.show_replicated(result)
        else:
            # A drawing of one's own (a what-if study, a lesson's) is named by
            # its title and the run's name ("what-if: SGDB2 on SSD"); "Your own
            # system" alone does not say which it is. Case studies keep theirs.
            own = result.experiment == "custom"
            doc = self.document.run_document or {}
            self.results.show_result(result, (doc.get("title") if own else None) or None,
                                     idle.run_line_html(self.document.run_document),
                                     self.document.run_name().label if own else "",
                                     doc.get("imported"))

    def _build_status(self) -> None:
        self.status = QLabel("Ready")
        self.status.setObjectName("statusMessage")
        self.statusBar().addWidget(self.status, 1)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setFixedWidth(220)
        self.progress.setVisible(False)
        self.statusBar().addPermanentWidget(self.progress)
        self.task_label = QLabel()
        self.task_progress = QProgressBar()
        self.task_progress.setRange(0, 1000)
        self.task_progress.setFixedWidth(160)
        self.task_cancel = QPushButton("Cancel")
        self.task_cancel.setToolTip("Stop this job; nothing is written")
        self.task_cancel.clicked.connect(self._on_task_cancel_clicked)
        for w in (self.task_label, self.task_progress, self.task_cancel):
            w.setVisible(False)
            self.statusBar().addPermanentWidget(w)
        for name, key in (("palette", "Ctrl+Shift+1"), ("inspector", "Ctrl+Shift+2"),
                          ("results", "Ctrl+Shift+3")):
            act = self.docks[name].toggleViewAction()
            act.setShortcut(key)
            act.setToolTip(f"Show or hide this panel on the current tab ({key})")
            act.triggered.connect(lambda on, n=name: self._on_dock_toggled(n, on))
            self.docks_menu.addAction(act)

    def _connect(self) -> None:
        self.editor.message.connect(self.say)
        self.scene.hint.connect(self.say)
        self.document.changed.connect(self._on_document_changed)
        self.scene.selectionChanged.connect(self._on_scene_selection_changed)
        self.editor.undo_stack.cleanChanged.connect(self._on_undo_stack_clean_changed)
        self.palette.kind_activated.connect(self._on_palette_kind_activated)
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.start_page.case_chosen.connect(self.open_case_or_file)
        self.start_page.new_requested.connect(self.new_scenario)
        self.start_page.import_requested.connect(lambda: self.rmf_import.action.trigger())
        w = self.runner.worker
        w.progressed.connect(self._on_worker_progressed)
        w.phased.connect(self._on_worker_phase)
        w.previewed.connect(self._on_worker_previewed)
        w.succeeded.connect(self._on_worker_succeeded)
        w.failed.connect(self._on_worker_failed)
        w.cancelled.connect(self._on_worker_cancelled)
        w.done.connect(self._on_worker_done)

    #: A status message clears after this many ms, so an old error is never
    #: read as news (a run's "Running …" stays while the run lasts).
    STATUS_MS = 10_000

    def say(self, text: str) -> None:
        """Show a message in the status bar until STATUS_MS pass or a newer one comes."""
        self.status.setText(text)
        if getattr(self, "_status_timer", None) is None:
            self._status_timer = QTimer(self)
            self._status_timer.setSingleShot(True)
            self._status_timer.timeout.connect(self._on_status_timer_timeout)
        self._status_timer.start(self.STATUS_MS)

    def _on_status_timer_timeout(self) -> None:
        if self.runner.running:
            self._status_timer.start(self.STATUS_MS)
        else:
            self.status.setText("Ready")

    def alert(self, title: str, text: str) -> QMessageBox:
        """A window-modal warning that does not block the caller."""
        self.alert_box = QMessageBox(QMessageBox.Icon.Warning, title, text,
                                     QMessageBox.StandardButton.Ok, self)
        self.alert_box.open()
        return self.alert_box

    # ---- scenario state ------------------------------------------------
    def _on_document_changed(self, change) -> None:
        if change.moved_only or not (change.scenario or change.replaced):
            return
        combo = self.actions_.experiment_combo if hasattr(self, "actions_") else None
        if combo is not None:
            combo.setCurrentIndex(max(0, combo.findData(self.editor.scenario.experiment)))
        self._update_title()

    def _on_scene_selection_changed(self) -> None:
        # Picking a component means editing it: bring its properties forward.
        if self.scene.selected_node_ids() and self.inspector_dock.isVisible():
            self.inspector_dock.raise_()

    def _on_undo_stack_clean_changed(self, clean: bool) -> None:
        if clean and hasattr(self, "autosaver"):
            self.autosaver.discard()
        self._update_title()

    def _update_title(self) -> None:
        sc = self.editor.scenario
        name = sc.title or (os.path.basename(self.path) if self.path else "Untitled")
        if sc.experiment and not sc.title:
            name += f" — {experiments.get(sc.experiment).title}"
        dirty = "" if self.editor.undo_stack.isClean() else " *"
        self.setWindowTitle(f"zPerfLab — {name}{dirty}")

    # ---- layout: the side panels each tab shows ---------------------------
    def tab_name(self, index: int | None = None) -> str:
        """The view name of tab ``index`` (default: the current tab)."""
        widget = self.tabs.widget(self.tabs.currentIndex() if index is None else index)
        for name, page in self.view_pages.items():
            if page is widget:
                return name
        return "canvas"

    def _on_tabs_current_changed(self, index: int) -> None:
        # The palette and inspector only serve the canvas; the results sit
        # beside the charts; the wide views (animation, history, sweep,
        # compare) get the whole width. Each tab keeps what the user chose.
        if not hasattr(self, "dock_plan"):
            return
        name = self.tab_name(index)
        self._apply_dock_plan(name)
        if name in ("sweep", "compare") and hasattr(self, "study"):
            self.study.sync_view(name)

    def _apply_dock_plan(self, name: str) -> None:
        self._shown_tab = name
        plan = self.dock_plan.setdefault(name, set(DOCK_PLAN.get(name, ())))
        presentation = getattr(getattr(self, "lessons", None), "presentation", None)
        if presentation is not None and presentation.on:
            plan = set()      # a projector gives the view the whole width
        for key, dock in self.docks.items():
            dock.setVisible(key in plan)
        if "results" in plan and (name != "canvas" or self.last_result is not None):
            self.results_dock.raise_()

    def _on_dock_toggled(self, name: str, on: bool) -> None:
        plan = self.dock_plan.setdefault(self._shown_tab, set())
        (plan.add if on else plan.discard)(name)

    # ---- long jobs in the status bar --------------------------------------
    def begin_task(self, text: str, cancel=None) -> None:
        """Show a job's progress bar (and Cancel, if ``cancel`` is given)."""
        self._task_cancel = cancel
        self.task_label.setText(text)
        self.task_progress.setValue(0)
        for w in (self.task_label, self.task_progress):
            w.setVisible(True)
        self.task_cancel.setVisible(cancel is not None)

    def task_progressed(self, fraction: float) -> None:
        self.task_progress.setValue(int(fraction * 1000))

    def end_task(self) -> None:
        for w in (self.task_label, self.task_progress, self.task_cancel):
            w.setVisible(False)
        self._task_cancel = None

    def _on_task_cancel_clicked(self) -> None:
        if self._task_cancel is not None:
            self._task_cancel()

    def _on_palette_kind_activated(self, key: str) -> None:
        self.show_canvas()
        center = self.view.mapToScene(self.view.viewport().rect().center())
        # Near the middle of the view, where no card is: a second double-click
        # does not stack a card on the first.
        x, y = free_spot(self.editor.scenario, center.x() - NODE_W / 2, center.y() - NODE_H / 2)
        nid = self.editor.add_component(key, x, y)
        item = self.scene.node_items.get(nid)
        if item is not None:
            self.view.ensureVisible(item)

    def open_scenario(self, scenario: Scenario, message: str, opened: dict | None = None) -> bool:
        """Replace the edited scenario (after the usual 'save changes?'); False if refused.
        ``opened``: the drawing runs count their changes from (default ``scenario``)."""
        if not self._confirm_discard():
            return False
        self._load(scenario, None, opened)
        self.say(message)
        return True

    def scenario_label(self) -> str:
        """How the history names the current scenario: its title or file name."""
        sc = self.editor.scenario
        return sc.title or (os.path.basename(self.path) if self.path else "")

    def _load(self, scenario: Scenario, path: str | None, opened: dict | None = None) -> None:
        # The document drops the previous run with the previous scenario, and
        # every view following it clears (no view shows A's run as B's).
        self.editor.replace(scenario, path, opened)
        self.show_canvas()
        self.view.fit()
        self._update_title()

    def show_canvas(self) -> None:
        self.canvas_stack.setCurrentWidget(self.view)
        self.tabs.setCurrentWidget(self.canvas_stack)

    def show_first(self, size: tuple[int, int] | None = None) -> None:
        """Show the window the first time, wholly on the screen's available
        area: at ``size`` if given (``gui --size``), else 1280×800 centred
        where that fits with the window manager's frame, maximised where it
        does not (1024×768, 1280×800), so the status bar and the run's
        progress bar are never below the screen's edge."""
        from PySide6.QtGui import QGuiApplication

        if size is not None:
            self.resize(*size)
        screen = self.screen()
        if size is not None or screen is None or QGuiApplication.platformName() == "offscreen":
            self.show()
            return
        where = first_placement(screen.availableGeometry(), (self.width(), self.height()))
        if where is None:
            self.showMaximized()
        else:
            self.move(where)
            self.show()

    def show_start_page(self) -> None:
        self.canvas_stack.setCurrentWidget(self.start_holder)
        self.tabs.setCurrentWidget(self.canvas_stack)

    def _confirm_discard(self) -> bool:
        """True if there are no unsaved edits or the user agrees to lose them."""
        if self.editor.undo_stack.isClean():
            return True
        answer = QMessageBox.question(
            self, "Unsaved changes", "The scenario has unsaved changes. Save them first?",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel)
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return answer == QMessageBox.StandardButton.Discard

    # ---- files -----------------------------------------------------------
    def new_scenario(self) -> None:
        if self._confirm_discard():
            self._load(Scenario(), None)
            self.say("New scenario: drag components from the palette onto the canvas.")

    def open_case_or_file(self, name_or_path: str) -> str | None:
        """Open a built-in case study by experiment name, or a scenario file.

        Returns ``None`` on success or a one-line error (also shown to the
        user); a file that cannot be read opens nothing.
        """
        notes: list[str] = []
        try:
            if (name_or_path in experiments.registry() or name_or_path in scenario_io.example_names()
                    or not os.path.exists(name_or_path)):
                scenario, path = scenario_io.load_case(name_or_path), None
            else:
                scenario = scenario_io.load(name_or_path, notes)
                path = os.path.abspath(name_or_path)
        except scenario_io.ScenarioFileError as exc:
            self.say(str(exc))
            return str(exc)
        except Exception as exc:  # a loader bug must reach the user, not stderr only
            import traceback
            traceback.print_exc()
            text = f"cannot open {name_or_path[:200]}: internal error ({type(exc).__name__})"
            self.say(text)
            return text
        if not self._confirm_discard():
            return "cancelled: the current scenario has unsaved changes"
        self._load(scenario, path)
        if path:
            settings.add_recent(path)
            self._refresh_recent()
        self.say(notes[0] if notes else f"Opened {scenario.title or path}.")
        if notes:
            self.results.show_message(notes[0])
        return None

    def open_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Open scenario", settings.last_folder(),
                                              FILE_FILTER)
        settings.remember_folder(path)
        if path:
            error = self.open_case_or_file(path)
            if error:
                self.alert("Cannot open scenario", error)

    def save(self) -> bool:
        """Save to the current file (asking for one if there is none)."""
        if self.path is None:
            return self.save_as()
        return self.save_to(self.path)

    def save_as(self) -> bool:
        name = file_stem(self.document.title(), "scenario") + scenario_io.SUFFIX
        path, _ = QFileDialog.getSaveFileName(self, "Save scenario",
                                              settings.suggested_path(name), FILE_FILTER)
        settings.remember_folder(path)
        return bool(path) and self.save_to(path)

    def save_to(self, path: str) -> bool:
        """Write the scenario atomically to ``path``; a failure leaves the old file."""
        try:
            scenario_io.save(self.editor.scenario, path)
        except scenario_io.ScenarioFileError as exc:
            self.say(str(exc))
            self.alert("Save failed", str(exc))
            return False
        self.path = os.path.abspath(path)
        self.editor.undo_stack.setClean()
        settings.add_recent(self.path)
        self._refresh_recent()
        self._update_title()
        self.say(f"Saved {self.path}")
        return True

    def offer_recovery(self) -> QMessageBox | None:
        """After a crash or kill: offer the autosaved canvas (window-modal, not blocking)."""
        found, problem = autosave.pending_recovery()
        if problem:
            self.say(problem)
        if found is None:
            return None
        # By its title: a built-in system (rmf_sysa, the Large shop) has no file.
        title, file = found.scenario.title, os.path.basename(found.source or "")
        where = (f"“{title}”" + (f" ({file})" if file else "") if title
                 else file or "an untitled scenario")
        box = QMessageBox(QMessageBox.Icon.Question, "Recover unsaved changes",
                          f"zPerfLab closed without saving the changes to {where} "
                          f"(autosaved {found.when()}). Restore them?",
                          QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Discard,
                          self)
        box.button(QMessageBox.StandardButton.Open).setText("Restore")
        box.setObjectName("recoveryBox")
        box.finished.connect(lambda _r: self._on_recovery_box_finished(box, found))
        self.recovery_box = box
        box.open()
        return box

    def _on_recovery_box_finished(self, box: QMessageBox, found) -> None:
        if box.clickedButton() is box.button(QMessageBox.StandardButton.Open):
            self._load(found.scenario, found.source)
            self.editor.undo_stack.resetClean()       # restored, not yet saved
            self._update_title()
            self.autosaver.save_now()
            self.say(f"Restored the changes autosaved {found.when()}: save to keep them.")
        elif box.clickedButton() is not box.button(QMessageBox.StandardButton.Discard):
            return                                    # closed unanswered: ask next time
        autosave.recovery.discard(found.file)

    def _refresh_recent(self) -> None:
        self.recent_menu.clear()
        files = settings.recent_files()
        for path in files:
            act = self.recent_menu.addAction(os.path.basename(path))
            act.setToolTip(path)
            act.triggered.connect(lambda _=False, p=path: self.open_case_or_file(p))
        self.recent_menu.setEnabled(bool(files))

    # ---- editing ---------------------------------------------------------
    def delete_selected(self) -> None:
        """Del: the selected runs on the History tab, else the canvas selection."""
        if self.tab_name() == "history":
            self.study.history_panel.delete_selected()
            return
        self.editor.delete(self.scene.selected_node_ids(), self.scene.selected_link_ids())

    def expand_selected_group(self) -> None:
        ids = [i for i in self.scene.selected_node_ids()
               if components.kind(self.editor.scenario.nodes[i].kind).is_group]
        if not ids:
            self.say("Select a storage group or channel group to expand.")
            return
        for nid in ids:
            self.editor.expand_group(nid)

    def collapse_selection(self) -> None:
        self.editor.collapse_group(self.scene.selected_node_ids())

    def select_all(self) -> None:
        for item in self.scene.node_items.values():
            item.setSelected(True)

    def copy_selection(self) -> None:
        ids = self.scene.selected_node_ids()
        if not ids:
            return
        mime = QMimeData()
        mime.setData(SELECTION_MIME, self.editor.copy_data(ids))
        QApplication.clipboard().setMimeData(mime)
        self.say(f"Copied {len(ids)} component(s).")

    def paste(self) -> None:
        mime = QApplication.clipboard().mimeData()
        if mime is None or not mime.hasFormat(SELECTION_MIME):
            self.say("Nothing to paste: copy components first.")
            return
        ids = self.editor.paste_data(bytes(mime.data(SELECTION_MIME)))
        self.scene.select_nodes(ids)

    # ---- runs -------------------------------------------------------------
    def run(self) -> bool:
        """Start the scenario's experiment on the worker thread (F5).

        Returns ``False`` (with the reason in the results dock) when the
        scenario cannot run or a run is already going.
        """
        if self.runner.running:
            self.say("A run is already in progress.")
            return False
        name = self.runnable_experiment()
        if name is None:
            return False
        self._starting_document = self.document.snapshot()
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.actions_.run.setEnabled(False)
        self.actions_.cancel.setEnabled(True)
        self._running_title = experiments.get(name).title
        self.say(f"Running {self._running_title}…")
        self.runner.start(name, {}, experiments.DEFAULT_SEED,
                          self._starting_document)
        return True

    def runnable_experiment(self) -> str | None:
        """The canvas's experiment if the drawing can run; else ``None``, with
        the reason in the results dock and the status bar."""
        try:
            return self.editor.scenario.run_request()[0]
        except ScenarioError as exc:
            self.results.show_message(f"Cannot run yet: {exc}", error=True)
            self.results_dock.raise_()
            self.say("Cannot run yet: see the warnings next to the components.")
            return None

    def cancel_run(self) -> None:
        if self.runner.running:
            self.runner.cancel()
            self.say("Cancelling…")

    def run_and_wait(self, timeout_s: float = 120.0) -> None:
        """Run and block (with the event loop turning) until the run ends."""
        if not self.run():
            return
        loop = QEventLoop()
        # A timer of our own, stopped when the run ends: a pending single shot
        # would keep the loop (and itself) alive for the whole timeout.
        timer = QTimer()
        timer.setSingleShot(True)
        timer.timeout.connect(loop.quit)
        self.run_done.connect(loop.quit)
        timer.start(int(timeout_s * 1000))
        loop.exec()
        timer.stop()
        self.run_done.disconnect(loop.quit)

    def _on_worker_progressed(self, fraction: float) -> None:
        self.progress.setValue(int(fraction * 1000))

    def _on_worker_phase(self, text: str) -> None:
        """The run's phase in the status bar: a big drawing's set-up and cache
        warm-up take seconds before the first progress."""
        self.say(f"Running {getattr(self, '_running_title', 'the run')}: {text}…")

    def _on_worker_previewed(self, result: RunResult, part: float, whole: float) -> None:
        """A long run's figures over its first ``part`` simulated seconds,
        given while it goes on: in the Results panel only, said to be
        preliminary, until the whole run replaces them (no other view, no
        history)."""
        own = result.experiment == "custom"
        doc = self._starting_document if isinstance(self._starting_document, dict) else {}
        self.results.show_result(
            result, (doc.get("title") if own else None) or None, run="preliminary",
            preliminary=(f"Preliminary figures: the first {part:.3g} s of the run only, while "
                         f"the whole {whole:g} s goes on. They are replaced when it ends."))
        # These figures are of the drawing as it is: a banner saying the panel
        # shows a run of the drawing before the last edit would be wrong (the
        # next change of the document sets it again).
        self.results_page.banner.hide()
        self.show_results()
        self.run_previewed.emit(result)

    def _on_worker_succeeded(self, result: RunResult) -> None:
        # The results dock, charts, replay and canvas tint follow the document.
        self.document.set_result(result, self._starting_document)
        self.show_results()
        left_out = idle.run_line(self._starting_document)
        # A case study by its title; a drawing of one's own by the run's name.
        done = (f"the {self.document.run_name().label}" if result.experiment == "custom"
                else experiments.get(result.experiment).title)
        self.say(f"Finished {done}."
                 + (f" {left_out}" if left_out else ""))
        self.run_finished.emit(result)

    def _on_worker_failed(self, message: str) -> None:
        self.report_failure(message)

    def report_failure(self, message: str) -> None:
        """A run failed: the reason in the results dock, the status bar and
        the banner over every view that follows runs."""
        self.results.show_message(message, error=True)
        self.say(message)
        self.document.set_failure(message)

    def show_results(self) -> None:
        """Bring the Results panel forward (a run just finished)."""
        self.results_dock.raise_()

    def _on_worker_cancelled(self) -> None:
        self.results.show_message("Run cancelled: no result.")
        self.say("Run cancelled.")

    def _on_worker_done(self) -> None:
        self.progress.setVisible(False)
        self.actions_.run.setEnabled(True)
        self.actions_.cancel.setEnabled(False)
        self.run_done.emit()

    # ---- extra views -----------------------------------------------------
    def add_view(self, name: str, widget, follows_runs: bool = True) -> None:
        """Add a view as a tab; one that ``follows_runs`` has ``set_result(result)``
        called after every run."""
        self.views[name] = widget
        # In a scroll area, so a view's minimum size cannot widen the window.
        holder = QScrollArea()
        holder.setWidgetResizable(True)
        holder.setFrameShape(QScrollArea.Shape.NoFrame)
        holder.setWidget(widget)
        self.view_holders[name] = holder
        page = holder
        if follows_runs:
            self.followers.append(name)
            # The view follows the document: each run, and a banner when the
            # drawing has changed since the run it shows.
            # A big run's charts and replay are drawn when their tab opens.
            page = RunPage(self.document, holder, widget.set_result, name, defer=big_trace)
        self.view_pages[name] = page
        self.tabs.addTab(page, name.capitalize())

    def show_view(self, name: str) -> str | None:
        """Bring the named view forward; returns an error message if there is none."""
        view = self.views.get(name)
        if view is None:
            return f"no '{name}' view in this build; views: {', '.join(self.views)}"
        self.tabs.setCurrentWidget(self.view_pages.get(name, view))
        return None

    def up_to_date_view(self, name: str):
        """The named view, showing the document's run even if its tab has
        not been opened since (``None`` when there is no such view)."""
        page = self.view_pages.get(name)
        if isinstance(page, RunPage):
            page.bring_up_to_date()
        return self.views.get(name)

    def charts_view(self):
        """The Charts tab's view (``None`` in a build without charts)."""
        return self.up_to_date_view("charts")

    def replay_view(self):
        """The Animation tab's replay view (``None`` in a build without it)."""
        return self.up_to_date_view("animation")

    def current_chart(self):
        """The chart the Export menu acts on: the Sweep or Compare tab's when one
        of them is in front, else the chart in front on the Charts tab."""
        name = self.tab_name()
        if name == "sweep":
            return self.study.sweep_view.chart
        if name == "compare":
            return self.study.compare_view.left.current_chart()
        charts = self.charts_view()
        return charts.current_chart() if charts is not None else None

    def closeEvent(self, event) -> None:
        if not self._confirm_discard():
            event.ignore()
            return
        self.shutdown()
        event.accept()

    def shutdown(self) -> None:
        """Stop the worker thread and quiet the parts before they are destroyed.

        Children die in no particular order; a dying scene still emits
        ``selectionChanged``, which must not reach a half-deleted inspector.
        """
        if self._shut_down:
            return
        self._shut_down = True
        self.autosaver.stop()
        self.runner.stop()
        self.replications.stop()
        self.study.shutdown()
        self.exports.deck_runner.stop()
        self.exports.clip_export.stop()
        self.rmf_import.stop()
        self.calibration.stop()
        for signal in (self.scene.selectionChanged, self.editor.undo_stack.cleanChanged):
            signal.disconnect()
        # The document's listeners (views, inspector, tint) go with the window.
        self.document.changed.clear()
        collector.release()
