"""Menus, toolbar and shortcuts of the main window.

:func:`build_actions` creates every :class:`QAction` with its shortcut and
tooltip, connects it to a window method, and lays out the menus and the
toolbar, so the window class itself stays about behaviour.
"""
from __future__ import annotations

from types import SimpleNamespace

import shiboken6
from PySide6.QtCore import QObject, Slot
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QComboBox, QInputDialog, QLabel, QMainWindow, QToolBar

from app import scenario_io, settings
from app.worker import TaskRunner
from models import experiments
from models.studies import replicate

K = QKeySequence.StandardKey


def _act(win: QMainWindow, text: str, slot, keys=(), tip: str = "") -> QAction:
    a = QAction(text, win)
    if keys:
        a.setShortcuts([QKeySequence(k) for k in keys])
    if tip:
        a.setToolTip(tip)
        a.setStatusTip(tip)
    a.triggered.connect(lambda _=False: slot())
    win.addAction(a)  # shortcuts work wherever the focus is
    return a


def shortcut_action(win: QMainWindow, text: str, slot, keys: str = "", tip: str = "") -> QAction:
    """An action with one shortcut, named in its tooltip ("Export (Ctrl+E)")."""
    return _act(win, text, slot, [keys] if keys else (), f"{tip} ({keys})" if keys else tip)


class _ShortUndoText(QObject):
    """Keeps an undo/redo action's text one word; the command goes in its tip.

    A child of the action, so the connection ends when the action does.
    """

    def __init__(self, act: QAction, verb: str):
        super().__init__(act)
        self.act, self.verb = act, verb
        self.show("")

    @Slot(str)
    def show(self, command: str) -> None:
        if not shiboken6.isValid(self.act):   # the stack outlives a closed window's actions
            return
        self.act.setText(f"&{self.verb}")
        tip = f"{self.verb} {command[:1].lower()}{command[1:]}" if command \
            else f"Nothing to {self.verb.lower()}"
        self.act.setToolTip(tip)
        self.act.setStatusTip(tip)


def build_actions(win) -> SimpleNamespace:
    """Create the actions, menus and toolbar of ``win`` (a MainWindow)."""
    stack = win.editor.undo_stack
    a = SimpleNamespace()
    a.new = _act(win, "&New", win.new_scenario, [K.New], "Start an empty scenario (Ctrl+N)")
    a.open = _act(win, "&Open…", win.open_dialog, [K.Open], "Open a scenario file (Ctrl+O)")
    a.save = _act(win, "&Save", win.save, [K.Save], "Save the scenario (Ctrl+S)")
    a.save_as = _act(win, "Save &As…", win.save_as, [K.SaveAs], "Save under a new name")
    a.start = _act(win, "Start &page", win.show_start_page, (), "The case studies and a new scenario")
    a.quit = _act(win, "&Quit", win.close, [K.Quit])
    a.undo = stack.createUndoAction(win, "&Undo")
    a.undo.setShortcuts([QKeySequence(K.Undo)])
    a.redo = stack.createRedoAction(win, "&Redo")
    a.redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    # Qt names the command on the button ("Undo Set blksize = 6144"), which
    # widens the toolbar and pushes Run and Zoom sideways: say it in the tip.
    for act, verb, changed in ((a.undo, "Undo", stack.undoTextChanged),
                               (a.redo, "Redo", stack.redoTextChanged)):
        changed.connect(_ShortUndoText(act, verb).show)
    a.delete = _act(win, "&Delete", win.delete_selected, ["Del", "Backspace"],
                    "Delete the selected components and links (Del)")
    a.copy = _act(win, "&Copy", win.copy_selection, [K.Copy], "Copy the selected components")
    a.paste = _act(win, "&Paste", win.paste, [K.Paste], "Paste copied components")
    a.select_all = _act(win, "Select &all", win.select_all, [K.SelectAll])
    a.expand = _act(win, "E&xpand group", win.expand_selected_group, ["Ctrl+U"],
                    "Draw the selected storage or channel group as its single volumes or "
                    "CHPIDs, wired as the group was (Ctrl+U, ungroup; undo gives the group back)")
    a.collapse = _act(win, "Co&llapse into group", win.collapse_selection, ["Ctrl+G"],
                      "Draw the selected volumes (or channels) of one kind, linked alike, as "
                      "one group card with their count (Ctrl+G)")
    a.zoom_in = _act(win, "Zoom &in", lambda: win.view.zoom(1.25), ["Ctrl++", "Ctrl+="], "Zoom in (Ctrl++)")
    a.zoom_out = _act(win, "Zoom &out", lambda: win.view.zoom(0.8), ["Ctrl+-"], "Zoom out (Ctrl+-)")
    a.fit = _act(win, "&Fit scenario", win.view.fit_whole, ["Ctrl+0"], "Show the whole scenario (Ctrl+0)")
    a.run = _act(win, "&Run", win.run, ["F5"], "Run the scenario's experiment (F5)")
    a.cancel = _act(win, "&Cancel run", win.cancel_run, ["Esc"], "Stop the running experiment (Esc)")
    a.cancel.setEnabled(False)
    win.replications = Replications(win.document, win)
    a.replications = _act(win, "Re&plications…", win.replications.ask, (),
                          "Run the scenario over several seeds: each figure's mean and 95 % "
                          "confidence interval")
    a.trace_rows = _act(win, "Replay &trace size…", lambda: ask_trace_rows(win), (),
                        "How many of a run's newest events are kept for the animation "
                        "(memory stays bounded on full-scale runs)")
    for act in (a.undo, a.redo):
        win.addAction(act)
    _menus(win, a)
    a.experiment_combo = _toolbar(win, a)
    return a


def _menus(win, a: SimpleNamespace) -> None:
    bar = win.menuBar()
    f = bar.addMenu("&File")
    for act in (a.new, a.open):
        f.addAction(act)
    win.recent_menu = f.addMenu("Open &recent")
    f.addSeparator()
    for act in (a.save, a.save_as):
        f.addAction(act)
    f.addSeparator()
    f.addAction(a.start)
    f.addAction(a.quit)
    e = bar.addMenu("&Edit")
    for act in (a.undo, a.redo, None, a.copy, a.paste, a.delete, a.select_all, None,
                a.expand, a.collapse):
        e.addSeparator() if act is None else e.addAction(act)
    v = bar.addMenu("&View")
    for act in (a.zoom_in, a.zoom_out, a.fit):
        v.addAction(act)
    win.docks_menu = v.addMenu("&Panels")
    win.view_menu = v
    r = bar.addMenu("&Run")
    r.addAction(a.run)
    r.addAction(a.cancel)
    r.addAction(a.replications)
    r.addSeparator()
    r.addAction(a.trace_rows)
    win.run_menu = r
    cases = bar.addMenu("&Case studies")
    win.cases_menu = cases
    for name in scenario_io.case_names():
        exp = experiments.get(name)
        act = QAction(exp.title, win)
        act.setToolTip(exp.description)
        act.triggered.connect(lambda _=False, n=name: win.open_case_or_file(n))
        cases.addAction(act)
    # The built-in systems that are no experiment's case: the Large shop and
    # the one imported from RMF's sample reports (and the CICS authors' mix).
    cases.addSeparator()
    for name in scenario_io.example_names():
        title = scenario_io.load_case(name).title
        act = QAction(title.partition(":")[0].strip(), win)
        act.setObjectName(f"example_{name}")
        act.setToolTip(title)
        act.triggered.connect(lambda _=False, n=name: win.open_case_or_file(n))
        cases.addAction(act)
    cases.setToolTipsVisible(True)


def _toolbar(win, a: SimpleNamespace) -> QComboBox:
    tb = QToolBar("Main", win)
    tb.setObjectName("mainToolbar")
    tb.setMovable(False)
    win.addToolBar(tb)
    for act in (a.new, a.open, a.save, None, a.undo, a.redo, None):
        tb.addSeparator() if act is None else tb.addAction(act)
    tb.addWidget(QLabel(" Experiment: "))
    combo = QComboBox()
    combo.setObjectName("experimentCombo")
    combo.setToolTip("What the scenario runs: the experiment decides which parameters "
                     "each component shows in the inspector.")
    combo.addItem("— choose —", None)
    for name, exp in experiments.registry().items():
        combo.addItem(exp.title, name)
        combo.setItemData(combo.count() - 1, exp.description, 3)  # 3: ToolTipRole
    combo.activated.connect(lambda i: win.editor.set_experiment(combo.itemData(i)))
    tb.addWidget(combo)
    tb.addSeparator()
    for act in (a.run, a.cancel, None, a.zoom_out, a.zoom_in, a.fit):
        tb.addSeparator() if act is None else tb.addAction(act)
    return combo


def extend_menus(win, study, exports) -> None:
    """Add the study actions (Run, View), the Export menu and tab shortcuts.

    ``study`` is a :class:`ui.actions_study.StudyActions`, ``exports`` an
    :class:`ui.actions_export.ExportActions`.
    """
    s = study.a
    win.run_menu.addSeparator()
    for act in (s.compare, s.sweep, s.published):
        win.run_menu.addAction(act)
    win.view_menu.addSeparator()
    win.view_menu.addAction(s.history)
    tabs = win.view_menu.addMenu("&Tabs")
    for i in range(win.tabs.count()):
        name = win.tabs.tabText(i)
        act = _act(win, name, lambda i=i: win.tabs.setCurrentIndex(i), [f"Ctrl+{i + 1}"],
                   f"Show the {name} tab (Ctrl+{i + 1})")
        tabs.addAction(act)
    export_menu = win.menuBar().addMenu("E&xport")
    win.menuBar().insertMenu(win.cases_menu.menuAction(), export_menu)
    exports.fill_menu(export_menu)
    for menu in (win.run_menu, win.view_menu, export_menu):
        menu.setToolTipsVisible(True)
    win.export_menu = export_menu


def ask_trace_rows(win) -> None:
    """Let the user set how many trace rows a run keeps for replay."""
    try:
        current = settings.trace_rows()
    except settings.SettingsError:
        current = settings.DEFAULT_TRACE_ROWS   # the bad value is replaced below
    rows, ok = QInputDialog.getInt(
        win, "Replay trace size",
        "Events kept for the animation of each run (newest first).\n"
        "28 bytes each: 2,000,000 events ≈ 56 MB.",
        current, settings.MIN_TRACE_ROWS, 100_000_000, 100_000)
    if ok:
        settings.set_trace_rows(rows)
        win.statusBar().showMessage(f"Runs now keep the newest {rows:,} events for replay.", 5000)


#: Replications the dialog offers first.
DEFAULT_REPLICATIONS = 10


class Replications:
    """Run ▸ Replications…: the scenario over N seeds on a worker thread, with
    progress and Cancel in the status bar; the results dock shows each
    figure's mean ± 95 % interval (:func:`models.studies.replicate.replicate`)."""

    def __init__(self, document, shell) -> None:
        self.document, self.shell = document, shell
        win = shell
        self._document: dict | None = None
        self.runner = TaskRunner("replications", win)
        self.runner.progressed.connect(win.task_progressed)
        self.runner.succeeded.connect(self._on_runner_succeeded)
        self.runner.failed.connect(self._on_runner_failed)
        self.runner.cancelled.connect(lambda: win.say("Replications cancelled: no result."))
        self.runner.done.connect(win.end_task)

    def ask(self) -> None:
        """Ask how many seeds, then :meth:`start`."""
        n, ok = QInputDialog.getInt(
            self.shell, "Replications",
            "Run the scenario with this many seeds (1, 2, 3, …) and show each figure's\n"
            "mean and 95 % confidence interval:", DEFAULT_REPLICATIONS, 2,
            replicate.MAX_REPLICATIONS)
        if ok:
            self.start(n)

    def start(self, n: int) -> bool:
        """Run the current scenario over ``n`` seeds; False if it cannot start."""
        win = self.shell
        if self.runner.running:
            win.say("Replications are already running.")
            return False
        name = win.runnable_experiment()
        if name is None:
            return False
        doc = self._document = self.document.snapshot()
        seed = experiments.DEFAULT_SEED

        def job(progress, cancel):
            return replicate.replicate(name, {}, n, seed, doc, progress, cancel)

        win.begin_task(f"{n} replications…", self.runner.cancel)
        win.say(f"Running {experiments.get(name).title} over {n} seeds…")
        return self.runner.start(job)

    def stop(self) -> None:
        """Cancel any replications and end the thread (window closing)."""
        self.runner.stop()

    def _on_runner_succeeded(self, rep) -> None:
        # The results dock and charts show the replications (means with 95 %
        # intervals); the replay has no trace of them, so it shows none
        # rather than an older run. They all follow the document.
        self.document.set_result(rep, self._document)
        self.shell.show_results()
        self.shell.say(f"Finished {rep.n} replications of {experiments.get(rep.experiment).title}.")

    def _on_runner_failed(self, message: str) -> None:
        self.shell.report_failure(message)


# ---- What-if studies --------------------------------------------------------------
def whatif_menu(win, open_study) -> None:
    """Add the "What-if studies" menu: one entry per built-in study
    (:mod:`models.studies.whatif`); ``open_study(name)`` opens Compare with both
    sides run. The menu is ``win.whatif_menu``."""
    from models.studies import whatif

    menu = win.menuBar().addMenu("&What-if studies")
    for st in whatif.studies():
        act = QAction(st.title, win)
        act.setToolTip(st.about)
        act.setStatusTip(f"{st.title}: opens Compare with the before and after drawings run")
        act.triggered.connect(lambda _=False, n=st.name: open_study(n))
        menu.addAction(act)
    menu.setToolTipsVisible(True)
    win.whatif_menu = menu
