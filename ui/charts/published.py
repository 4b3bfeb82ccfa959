"""Published vs model: the bundled targets of one case study beside the model's
figures, with the deviation (for the results dock).

Evaluating the targets runs the model at every target's parameters, so the
window computes :func:`published_rows` on a worker (:class:`PublishedDialog`
with a progress bar and Cancel) and hands the rows to the table.
"""
from __future__ import annotations

import threading
from typing import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QDialog, QHBoxLayout, QHeaderView, QLabel,
                               QProgressBar, QPushButton, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from app.worker import TaskRunner
from models import calibration, experiments
from models.run import Cancelled

HEADER = ("Target", "Metric", "Published", "Model", "Deviation", "Verdict")


def _expected(exp: dict) -> str:
    if "value" not in exp:
        return f"{exp.get('min', '−∞')} – {exp.get('max', '∞')}"
    if "rel_tol" in exp:
        return f"{exp['value']:g} ± {exp['rel_tol'] * 100:g}%"
    return f"{exp['value']:g} ± {exp['abs_tol']:g}"


def _deviation(model: float, exp: dict) -> str:
    if "value" in exp:
        if exp["value"] and "rel_tol" in exp:
            return f"{(model / exp['value'] - 1) * 100:+.1f}%"
        return f"{model - exp['value']:+.3g}"
    lo, hi = exp.get("min", float("-inf")), exp.get("max", float("inf"))
    return "in range" if lo <= model <= hi else f"{model - (lo if model < lo else hi):+.3g} outside"


def published_rows(experiment: str, evaluator: calibration.Evaluator | None = None,
                   progress: Callable[[float], None] | None = None,
                   cancel: threading.Event | None = None) -> list[tuple]:
    """One row per bundled target of ``experiment`` (runs the model as validate does).

    ``progress(fraction)`` is told after each target; a set ``cancel`` raises
    :class:`models.run.Cancelled` before the next one.
    """
    ev = evaluator or calibration.Evaluator()
    rows = []
    targets = [t for t in calibration.load_targets() if t["experiment"] == experiment]
    for n, t in enumerate(targets):
        if cancel is not None and cancel.is_set():
            raise Cancelled("published-vs-model table cancelled")
        if progress is not None:
            progress(n / len(targets))
        v = ev.evaluate(t)
        metric = t["metric"] + (" ratio" if t.get("baseline") else "")
        if v.model is None:
            rows.append((t["id"], metric, _expected(t["expect"]), "—", v.error or "", "not run"))
        else:
            rows.append((t["id"], metric, _expected(t["expect"]), f"{v.model:.4g}",
                         _deviation(v.model, t["expect"]), "PASS" if v.ok else "FAIL"))
    return rows


class PublishedTable(QTableWidget):
    """The published-vs-model table of one case study."""

    def __init__(self, parent=None):
        super().__init__(0, len(HEADER), parent)
        self.setHorizontalHeaderLabels(HEADER)
        self.setStyleSheet("font-size: 13pt;")
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setVisible(False)
        self.rows: list[tuple] = []

    def show_experiment(self, experiment: str, evaluator: calibration.Evaluator | None = None) -> None:
        """Evaluate and show the targets of ``experiment`` (blocks: tests and scripts only)."""
        self.show_rows(published_rows(experiment, evaluator))

    def show_rows(self, rows: list[tuple]) -> None:
        """Show rows computed elsewhere (on a worker)."""
        self.rows = list(rows)
        self.setRowCount(len(self.rows))
        colours = {"PASS": "#1b5e20", "FAIL": "#b71c1c"}
        for r, row in enumerate(self.rows):
            for c, text in enumerate(row):
                item = QTableWidgetItem(str(text))
                item.setToolTip(str(text))
                if c == len(row) - 1 and text in colours:
                    item.setForeground(Qt.GlobalColor.white)
                    item.setBackground(_brush(colours[text]))
                self.setItem(r, c, item)
        self.resizeColumnsToContents()
        self.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)


def _brush(colour: str):
    from PySide6.QtGui import QBrush, QColor
    return QBrush(QColor(colour))


class PublishedDialog(QDialog):
    """A non-modal window: the published-vs-model table, computed on a worker.

    ``rows_ready(experiment, rows)`` announces a finished table (the deck
    reuses it).
    """

    rows_ready = Signal(str, list)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle("Published vs model")
        self.resize(1100, 520)
        self.experiment: str | None = None
        self.table = PublishedTable(self)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop evaluating the targets")
        self.runner = TaskRunner("published", self)
        self.cancel_button.clicked.connect(self.runner.cancel)
        self.runner.progressed.connect(lambda f: self.progress.setValue(int(f * 1000)))
        self.runner.succeeded.connect(self._on_runner_succeeded)
        self.runner.failed.connect(lambda text: self.heading.setText(f"Failed: {text}"))
        self.runner.cancelled.connect(lambda: self.heading.setText("Cancelled."))
        self.runner.done.connect(self._on_runner_done)
        bar = QHBoxLayout()
        bar.addWidget(self.heading, 1)
        bar.addWidget(self.progress)
        bar.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)

    def compute(self, experiment: str) -> bool:
        """Evaluate ``experiment``'s targets on the worker; False if one is running."""
        if self.runner.running:
            return False
        self.experiment = experiment
        n = sum(t["experiment"] == experiment for t in calibration.load_targets())
        self.heading.setText(f"<b>{experiments.get(experiment).title}</b>: running the model "
                             f"for {n} published figure(s)…")
        self.table.show_rows([])
        self.progress.setValue(0)
        self.progress.setVisible(True)
        self.cancel_button.setEnabled(True)
        return self.runner.start(lambda progress, cancel:
                                 published_rows(experiment, None, progress, cancel))

    def _on_runner_succeeded(self, rows: list) -> None:
        self.table.show_rows(rows)
        passed = sum(r[5] == "PASS" for r in rows)
        title = experiments.get(self.experiment).title
        self.heading.setText(f"<b>{title}</b>: {passed} of {len(rows)} published figures "
                             "within tolerance." if rows else
                             f"<b>{title}</b>: no published figures are bundled for it.")
        self.rows_ready.emit(self.experiment, list(rows))

    def _on_runner_done(self) -> None:
        self.progress.setVisible(False)
        self.cancel_button.setEnabled(False)
