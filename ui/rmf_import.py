"""File ▸ Import RMF reports… and the "Imported from RMF" panel.

The import reads the chosen report files on a worker thread
(:class:`app.worker.TaskRunner`: the share of the bytes read, then the
drawing's progress, and Cancel in the status bar, which stops the reading
at once,
so a 100 MB listing does not freeze the window), builds the drawing
(:func:`models.rmf.drawing.build`), says what was read and skipped, and
opens it as an unsaved scenario. The panel, a dock beside Results, lists
what the open drawing's import read and every value it assumed, with the
line it would have come from; it follows the document, so it empties for a
drawing made by hand.
"""
from __future__ import annotations

import html
import os

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QFileDialog, QInputDialog, QMessageBox, QTextBrowser, QVBoxLayout,
                               QWidget)

from app.worker import TaskRunner
from models.core.run import Cancelled

#: The part of the import's progress bar that reading the files takes.
READ_SHARE = 0.8
#: Seconds of each model run that refines a fit, as ``import-rmf --refine``.
REFINE_S = 2.0
#: How many assumed values the import's summary names (the panel has all).
SUMMARY_ASSUMED = 6
#: The file dialog's filter.
FILTER = "RMF reports (*.txt *.lst *.rmf *.xml *.out);;All files (*)"


def import_job(paths: list[str], interval: int | None = None, refine_s: float = 0.0,
               join: bool = False):
    """The worker's job: read the reports and build the drawing (``refine_s``:
    fit each group on the model's own runs of that many seconds, as
    ``import-rmf --refine``; ``join``: take the reports the interval lacks
    from other intervals, as ``import-rmf --join``).

    Returns ``(RmfSystem, Scenario)``; raises :class:`models.rmf.RmfError`
    (one line naming the file and line) on bad input.
    """
    def job(progress, cancel):
        from models.rmf import read_reports
        from models.rmf.drawing import build
        progress(0.0)
        # Reading is 0-80 % (the bytes of every pass), drawing the rest; Cancel
        # stops the reading within a few thousand lines.
        system = read_reports(paths, interval=interval,
                              progress=lambda f: progress(READ_SHARE * f),
                              cancel=cancel.is_set, join=join)
        if cancel.is_set():
            raise Cancelled("import cancelled")
        progress(READ_SHARE)
        scenario = build(system, refine_s=refine_s)
        progress(1.0)
        return system, scenario
    return job


def summary_text(system, scenario) -> str:
    """What the import read, skipped and assumed, for the message after it:
    a *Read* part (each report's line, :mod:`models.rmf.readout`) and an
    *Assumed* part (the first few values assumed; the panel has them all)."""
    from models.rmf.readout import counts_line, read_lines
    lines = [f"Read {len(system.files)} file(s): {counts_line(system)}.",
             system.reason[:1].upper() +
             system.reason[1:] + "."]
    lines.append("Read:\n" + "\n".join(f"• {line}" for line in read_lines(system)))
    if system.skipped:
        lines.append("Skipped: " + "; ".join(system.skipped) + ".")
    said = scenario.imported["assumptions"]
    first = [f"• {a['what']} = {_short(str(a['value']))}" for a in said[:SUMMARY_ASSUMED]]
    more = len(said) - len(first)
    lines.append(f"Assumed ({len(said)} values, not read):\n" + "\n".join(first) +
                 (f"\n• … and {more} more" if more > 0 else ""))
    lines.append("The Imported from RMF panel lists every value assumed, with why and the "
                 "line it would have come from.")
    lines.append("Run it (F5): the results end with a Measured vs model table.")
    return "\n\n".join(lines)


def _short(text: str, n: int = 90) -> str:
    return text if len(text) <= n else text[:n - 1] + "…"


class ImportedPanel(QWidget):
    """What the open drawing's import read and assumed (empty for a drawn one)."""

    def __init__(self, document, parent=None) -> None:
        super().__init__(parent)
        self.document = document
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.text = QTextBrowser()
        self.text.setObjectName("importedFromRmf")
        self.text.setOpenLinks(False)
        layout.addWidget(self.text, 1)
        document.changed.connect(self._on_document_changed)
        self.refresh()

    def _on_document_changed(self, change) -> None:
        # a run, a new drawing, or an edit that makes the last run stale
        if change.replaced or change.run or (change.scenario and not change.moved_only):
            self.refresh()

    def refresh(self) -> None:
        doc = self.document
        result = doc.result if not doc.run_is_stale() else None
        self.text.setHtml(run_html(result) + panel_html(doc.scenario.imported))


def run_html(result) -> str:
    """After a run: how many of the cards' measured figures the model reproduces
    within tolerance (:mod:`models.rmf.tolerance`), and the first few it does not."""
    from models.rmf import tolerance
    measured = getattr(result, "measured", None)
    if not measured:
        return ""
    found = tolerance.checks(measured, result)
    off = [c for c in found if not c.ok]
    worst = ", ".join(f"{html.escape(c.label)} {html.escape(c.title)}" for c in off[:4])
    more = f" and {len(off) - 4} more" if len(off) > 4 else ""
    return (f"<p style='background:#eef4fb;padding:4px'><b>Last run against RMF:</b> "
            f"{html.escape(tolerance.summary(found))}"
            + (f"; outside: {worst}{more}" if off else "") +
            ". The Results dock's <i>Measured vs model</i> gives each with its likely "
            "reason.</p>")


def panel_html(imported: dict | None) -> str:
    """The panel's text: the interval, the files, the calibrated quantities
    (or that there are none), then every assumption with the line it would
    have come from."""
    if not imported:
        return ("<p>This drawing was not imported from RMF reports. <b>File ▸ Import RMF "
                "reports…</b> draws your own system from them.</p>")
    iv = imported.get("interval", {})
    files = ", ".join(html.escape(os.path.basename(f)) for f in imported.get("source", []))
    said = imported.get("assumptions", [])
    out = [f"<p><b>{html.escape(iv.get('system') or 'System ?')}</b>, "
           f"{html.escape(iv.get('reason', ''))}<br>From {files or 'reports'}; reports read: "
           f"{html.escape(', '.join(iv.get('reports', [])) or 'none')}.<br>"
           f"{len(imported.get('measured', {}))} components carry measured figures: run "
           "(F5) and the results end with <i>Measured vs model</i>.</p>"]
    # What calibration set comes before the assumptions: it is what the
    # button above changed, and the list of assumptions is long.
    out += _calibrated_html(imported)
    out.append(f"<p><b>Assumed, not read ({len(said)})</b></p><ol style='margin-left:-20px'>")
    for a in said:
        where = os.path.basename(a.get("file") or "input")
        if a.get("line"):
            where += f", line {a['line']}"
        out.append(f"<li><b>{html.escape(str(a.get('what', '')))}</b> = "
                   f"{html.escape(str(a.get('value', '')))}<br>"
                   f"<span style='color:#555'>{html.escape(str(a.get('why', '')))}; would be "
                   f"read at {html.escape(where)}</span></li>")
    out.append("</ol>")
    skipped = imported.get("skipped", [])
    if skipped:
        out.append("<p><b>Skipped</b>: " + html.escape("; ".join(skipped)) + "</p>")
    return "".join(out)


def _calibrated_html(imported: dict) -> list[str]:
    """The calibrated quantities, each with the measured figure that set it;
    one refused (unphysical) is said NOT USED, in amber, with the reason."""
    from models.rmf.calibrate import entries, title

    done = entries(imported)
    if not done:
        return ["<p><b>Not calibrated.</b> <i>Calibrate to RMF</i> (the button above) sets "
                "the quantities the drawing lacks, each from the figure RMF measured.</p>"]
    out = [f"<p><b>Calibrated to RMF ({len(done)})</b></p><ol style='margin-left:-20px'>"]
    for e in done:
        head = (f"<b>{html.escape(title(e))} of "
                f"{html.escape(str(e.get('component')))}</b> = {e.get('value')} "
                f"{html.escape(str(e.get('unit', '')))}")
        if e.get("refused"):
            head += (f" <span style='color:#b36b00'>NOT USED: "
                     f"{html.escape(str(e['refused']))}</span>")
        out.append(f"<li>{head}<br><span style='color:#555'>from "
                   f"{html.escape(str(e.get('from', '')))}</span></li>")
    out.append("</ol>")
    return out


class RmfImport:
    """The File menu's import action and the panel, installed on a MainWindow."""

    def __init__(self, win) -> None:
        self.win = win
        self.paths: list[str] = []            # what the last import read
        self.joined = False                    # whether it joined other intervals' reports
        self.interval: int | None = None       # the interval it asked for (None: busiest)
        self.runner = TaskRunner("rmf-import", win, expected=_expected())
        self.runner.progressed.connect(self._on_runner_progressed)
        self.runner.succeeded.connect(self._on_runner_succeeded)
        self.runner.failed.connect(self._on_runner_failed)
        self.runner.cancelled.connect(lambda: win.say("Import cancelled: nothing opened."))
        self.runner.done.connect(self._on_runner_done)
        self.action = QAction("&Import RMF reports…", win)
        tip = ("Draw your own system from RMF Postprocessor reports (text or XML): "
               "processors, channels, control units, storage groups and fitted workloads, "
               "with what was measured")
        self.action.setToolTip(tip)
        self.action.setStatusTip(tip)
        self.action.triggered.connect(lambda _=False: self.ask())
        self.refine_action = QAction("Fit imported workloads on the model's own runs", win)
        self.refine_action.setCheckable(True)
        tip = ("When on, Import RMF reports runs each storage group's fitted workload on the "
               "model for 2 s and moves its working set until the model gives the measured read "
               "hit ratio (the quick fit works the model's sequential hits out in closed form and "
               "leaves out what timing decides). A few seconds more per group at a large cache.")
        self.refine_action.setToolTip(tip)
        self.refine_action.setStatusTip(tip)
        self.panel = ImportedPanel(win.document)
        self.dock = win._dock("Imported from RMF", "rmfImportDock", self.panel,
                              Qt.DockWidgetArea.RightDockWidgetArea)
        win.tabifyDockWidget(win.results_dock, self.dock)
        win.docks["rmf_import"] = self.dock
        self._place_in_file_menu()
        win.document.changed.connect(self._on_document_changed)
        self._on_document_changed(None)

    def _on_document_changed(self, change) -> None:
        """The panel shows on the canvas and charts tabs while the drawing is an import."""
        if change is not None and not change.replaced:
            return
        on = bool(self.win.document.scenario.imported)
        for tab in ("canvas", "charts"):
            plan = self.win.dock_plan.setdefault(tab, set())
            (plan.add if on else plan.discard)("rmf_import")
        self.dock.setVisible(on and "rmf_import" in self.win.dock_plan.get(
            self.win.tab_name(), set()))

    def _place_in_file_menu(self) -> None:
        bar = self.win.menuBar()
        file_menu = next((a.menu() for a in bar.actions() if a.text() == "&File"), None)
        if file_menu is None:
            return
        after = self.win.actions_.open
        actions = file_menu.actions()
        i = actions.index(after) if after in actions else -1
        before = actions[i + 1] if 0 <= i < len(actions) - 1 else None
        for action in (self.action, self.refine_action):
            file_menu.insertAction(before, action) if before else file_menu.addAction(action)

    def ask(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self.win, "Import RMF reports", "", FILTER)
        if paths:
            self.start(paths)

    def start(self, paths: list[str], interval: int | None = None, join: bool = False) -> bool:
        """Read ``paths`` on the worker thread (``interval``: its number, 1…;
        None: the busiest; ``join``: take the reports it lacks from other
        intervals); False if an import is running."""
        if self.runner.running:
            self.win.say("An import is already running.")
            return False
        self.paths = list(paths)
        size = sum(os.path.getsize(p) for p in paths if os.path.isfile(p))
        self.reading = f"Reading {len(paths)} RMF file(s), {size / 1e6:,.1f} MB"
        self.win.begin_task(self.reading + "…", self.runner.cancel)
        refine_s = REFINE_S if self.refine_action.isChecked() else 0.0
        self.joined, self.interval = join, interval
        return self.runner.start(import_job(list(paths), interval, refine_s, join))

    def _on_runner_progressed(self, fraction: float) -> None:
        # The bar's own percentage is the one figure shown (reading, then drawing).
        if fraction >= READ_SHARE:               # read: drawing now
            self.win.task_label.setText("Drawing the system and fitting its workloads…")
        self.win.task_progressed(fraction)

    def _on_runner_done(self) -> None:
        self.win.task_progress.setRange(0, 1000)
        self.win.end_task()

    def _on_runner_succeeded(self, value) -> None:
        system, scenario = value
        text = summary_text(system, scenario)
        # The title already says "Imported from RMF: …".
        if self.win.open_scenario(scenario, f"{scenario.title}: not saved yet."):
            self.panel.refresh()
            self.dock.raise_()
            box = QMessageBox(QMessageBox.Icon.Information, "RMF import", text,
                              QMessageBox.StandardButton.Ok, self.win)
            box.setObjectName("rmfImportSummary")
            if len(system.intervals) > 1:
                pick = box.addButton("Pick another interval…", QMessageBox.ButtonRole.ActionRole)
                pick.setObjectName("pickInterval")
                pick.setToolTip("Import the same reports again at another of their "
                                f"{len(system.intervals)} intervals")
                pick.clicked.connect(lambda _=False, sy=system: self.pick_interval(sy))
            self._offer_join(box, system)
            box.open()
            self.summary_box = box

    def _offer_join(self, box: QMessageBox, system) -> None:
        """A Join button when other intervals hold reports this one lacks."""
        from models.rmf.join import donors
        others = donors(system)
        if self.joined or not others:
            return
        join = box.addButton("Join the other intervals' reports",
                             QMessageBox.ButtonRole.ActionRole)
        join.setObjectName("joinIntervals")
        join.setToolTip("Import again, taking " + ", ".join(
            f"the {k} report of {iv.label}" for k, iv in others.items()) + " into "
            f"{system.interval.label}: they do not meet it, and the import will say so")
        # the same interval as asked (None: the busiest again, so it says so)
        join.clicked.connect(lambda _=False: self.start(self.paths, self.interval, join=True))

    def pick_interval(self, system) -> bool:
        """Ask which of ``system``'s intervals to import, and import it; False
        if the user cancelled or an import is running."""
        from models.rmf.reader import activity_text
        labels = [f"{iv.label} — {activity_text(iv)}" for iv in system.intervals]
        label, ok = QInputDialog.getItem(self.win, "Pick an interval",
                                         "Import the reports at this interval:", labels,
                                         system.chosen, False)
        if not ok:
            return False
        return self.start(self.paths, labels.index(label) + 1)

    def _on_runner_failed(self, message: str) -> None:
        self.win.report_failure(f"Import RMF reports: {message}")

    def stop(self) -> None:
        self.runner.stop()


def _expected() -> tuple:
    from models.rmf import RmfError
    from models.rmf.fit import FitError
    return (RmfError, FitError)


def install(win) -> RmfImport:
    """Add File ▸ Import RMF reports… and the Imported from RMF panel to ``win``."""
    return RmfImport(win)
