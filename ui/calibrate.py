"""File ▸ Calibrate to RMF, and its button in the Imported from RMF panel (issue 41).

A drawing imported from RMF lacks work RMF measured (other systems' busy on
a shared channel, a unit's connect overhead per I/O, …). Calibration
(:func:`models.rmf.calibrate.calibrate`) fits each such named, physical
quantity on the model's own run of the drawing. Here it runs on a worker
thread (:class:`app.worker.TaskRunner`: the run's progress and Cancel in the
status bar) on a copy of the drawing, and the result is applied as **one**
undo step: every card property it set and the import's list of calibrated
quantities, so Ctrl+Z gives back the drawing as imported. The step is
offered only for a drawing that carries RMF's measured figures; its tooltip
says why it is off for any other.
"""
from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHBoxLayout, QPushButton

from app.document import run_shape
from app.worker import TaskRunner
from models.drawing.scenario import Scenario

TEXT = "Calibrate to RMF"
#: Undo's name of the step ("Undo Calibrate to RMF").
UNDO_TEXT = "Calibrate to RMF"


def _what() -> str:
    """The quantities calibration fits, in words (as the panel names them)."""
    from models.rmf.calibrate import TITLES
    return "; ".join(TITLES.values())


def tip_on() -> str:
    return (f"Fit the quantities the drawing lacks to what RMF measured, on the model's own "
            f"run of it ({_what()}); each is set on its card and listed in the Imported "
            "from RMF panel with the figure that set it. One step: Ctrl+Z undoes it.")


TIP_OFF = ("Calibrate to RMF needs a drawing imported from RMF reports (File ▸ Import RMF "
           "reports…, or the imported SYSA under Case studies): it fits the drawing to the "
           "figures RMF measured, and this drawing carries none.")


def calibrate_job(document: dict):
    """The worker's job: calibrate a copy of the drawing (``document``, plain
    data); returns ``(entries, calibrated Scenario)``."""
    def job(progress, cancel):
        from models.experiments import run_experiment
        from models.rmf.calibrate import calibrate

        sc = Scenario.from_dict(document)

        def run(*args, **kwargs):          # each run of the fit reports and can stop
            return run_experiment(*args, progress=progress, cancel=cancel, **kwargs)
        progress(0.0)
        done = calibrate(sc, run)
        progress(1.0)
        return done, sc
    return job


def counts(done: list[dict]) -> tuple[int, int]:
    """(quantities set, quantities refused) of calibration's entries."""
    refused = sum(1 for e in done if e.get("refused"))
    return len(done) - refused, refused


def status_text(done: list[dict]) -> str:
    """The status bar's line after calibrating."""
    used, refused = counts(done)
    text = f"Calibrated to RMF: {used} {'quantity' if used == 1 else 'quantities'} set"
    if refused:
        text += (f", {refused} refused (unphysical: not used; the Imported from RMF panel "
                 "says why)")
    return text + ". Run (F5) to see Measured vs model; Ctrl+Z undoes it."


class Calibration:
    """The action, the panel's button and the worker, installed on a MainWindow."""

    def __init__(self, win, panel) -> None:
        from models.rmf.calibrate import CalibrationError
        from models.core.params import ParamError

        self.win = win
        self.panel = panel
        self._started: tuple | None = None        # run_shape of the drawing calibrated
        self._stopped = False
        self.runner = TaskRunner("rmf-calibrate", win, expected=(CalibrationError, ParamError))
        self.runner.progressed.connect(win.task_progressed)
        self.runner.succeeded.connect(self._on_runner_succeeded)
        self.runner.failed.connect(self._on_runner_failed)
        self.runner.cancelled.connect(
            lambda: win.say("Calibration cancelled: the drawing is unchanged."))
        self.runner.done.connect(self._on_runner_done)
        self.action = QAction(TEXT + "…", win)
        self.action.setObjectName("calibrateToRmf")
        self.action.triggered.connect(lambda _=False: self.start())
        self.button = QPushButton(TEXT)
        self.button.setObjectName("calibrateButton")
        self.button.clicked.connect(lambda _=False: self.start())
        row = QHBoxLayout()
        row.setContentsMargins(4, 4, 4, 0)
        row.addWidget(self.button)
        row.addStretch(1)
        panel.layout().insertLayout(0, row)
        self._place_in_file_menu()
        win.document.changed.connect(self._on_document_changed)
        # An Undo of the step changes the import's list too: the panel follows.
        win.editor.undo_stack.indexChanged.connect(self._on_undo_stack_index_changed)
        self.update_enabled()

    def _place_in_file_menu(self) -> None:
        """After File ▸ Import RMF reports… and its option."""
        imports = self.win.rmf_import
        menu = next((w for w in imports.action.associatedObjects()
                     if hasattr(w, "insertAction")), None)
        if menu is None:
            return
        actions = menu.actions()
        i = actions.index(imports.refine_action) if imports.refine_action in actions else -1
        before = actions[i + 1] if 0 <= i < len(actions) - 1 else None
        menu.insertAction(before, self.action) if before else menu.addAction(self.action)
        menu.setToolTipsVisible(True)

    def available(self) -> bool:
        """Whether the open drawing carries RMF's measured figures."""
        imported = self.win.document.scenario.imported
        return bool(imported and imported.get("measured"))

    def update_enabled(self) -> None:
        on = self.available()
        tip = tip_on() if on else TIP_OFF
        if self.runner.running:
            on, tip = False, "Calibrating: wait for it, or Cancel in the status bar."
        for w in (self.action, self.button):
            w.setEnabled(on)
            w.setToolTip(tip)
        self.action.setStatusTip(tip)

    def _on_document_changed(self, change) -> None:
        if change is None or change.replaced:
            self.update_enabled()

    def start(self) -> bool:
        """Calibrate the open drawing on the worker thread; False if it cannot start."""
        if not self.available():
            self.win.say(TIP_OFF)
            return False
        if self.runner.running:
            self.win.say("A calibration is already running.")
            return False
        sc = self.win.document.scenario
        self._started = run_shape(sc)
        self.win.begin_task("Calibrating to RMF: the model's own run…", self.runner.cancel)
        started = self.runner.start(calibrate_job(sc.to_dict()))
        self.update_enabled()
        return started

    def _on_runner_succeeded(self, value) -> None:
        done, calibrated = value
        sc = self.win.document.scenario
        if run_shape(sc) != self._started or not sc.imported:
            self.win.say("The drawing changed while it was calibrated: nothing applied. "
                         "Calibrate to RMF again.")
            return
        self.apply(done, calibrated)
        self.win.say(status_text(done))
        self.panel.refresh()
        dock = self.win.docks.get("rmf_import")
        if dock is not None and dock.isVisible():
            dock.raise_()

    def apply(self, done: list[dict], calibrated: Scenario) -> None:
        """Set what calibration set, as one undo step: each card property
        that differs, then the import's list of calibrated quantities."""
        from models.rmf.calibrate import QUANTITIES
        from ui.commands import SetImportedCommand, SetPropertyCommand

        editor = self.win.editor
        sc = editor.scenario
        props = {prop for _, prop, _, _ in QUANTITIES.values()}
        macro = editor.macro(UNDO_TEXT)
        for nid, node in sc.nodes.items():
            fitted = calibrated.nodes.get(nid)
            for prop in props if fitted is not None else ():
                new = fitted.properties.get(prop)
                if new != node.properties.get(prop):
                    SetPropertyCommand(sc, nid, prop, new, macro)
        SetImportedCommand(sc, "calibrated", done, macro)
        editor.undo_stack.push(macro)

    def _on_runner_failed(self, message: str) -> None:
        text = f"Calibrate to RMF: {message}"
        self.win.say(text)
        self.win.alert("Calibrate to RMF", text)

    def _on_runner_done(self) -> None:
        self.win.end_task()
        self.update_enabled()

    def wait(self, timeout_s: float = 60.0) -> None:
        """Turn the event loop until the calibration ends (lessons, tests)."""
        from PySide6.QtCore import QEventLoop, QTimer

        if not self.runner.running:
            return
        loop = QEventLoop()
        timer = QTimer()
        timer.setSingleShot(True)
        timer.timeout.connect(loop.quit)
        self.runner.done.connect(loop.quit)
        timer.start(int(timeout_s * 1000))
        loop.exec()
        timer.stop()
        self.runner.done.disconnect(loop.quit)

    def _on_undo_stack_index_changed(self, _index: int) -> None:
        if not self._stopped:
            self.panel.refresh()

    def stop(self) -> None:
        """End the worker and stop following the undo stack (window closing)."""
        self._stopped = True
        self.runner.stop()


def install(win) -> Calibration:
    """Add File ▸ Calibrate to RMF… and the panel's button to ``win`` (after
    :func:`ui.rmf_import.install`)."""
    return Calibration(win, win.rmf_import.panel)
