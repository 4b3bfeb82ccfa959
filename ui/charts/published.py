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

from app import names
from app.names import format_number
from app.worker import TaskRunner
from models import experiments
from models.core.params import key_words
from models.studies import calibration
from models.core.run import Cancelled

#: Columns of :func:`published_rows` (the first holds the target id, for
#: files and tests) and of what a person sees (:func:`display_rows`: the
#: case in words, the id only in a tooltip).
HEADER = ("Target", "Figure", "Published", "Model", "Deviation", "Verdict")
DISPLAY_HEADER = ("Case", "Figure", "Published", "Model", "Deviation", "Verdict")


def _value(p, v) -> str:
    if isinstance(v, dict):     # a mix, as the inspector writes it: "Read 69 %, Update 9 %"
        return ", ".join(f"{names.words(k).capitalize()} {n:g} %" for k, n in v.items())
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        text = f"{v:,}" if isinstance(v, int) or float(v).is_integer() else f"{v:g}"
        return f"{text} {names.unit_for(v, p.unit)}".strip() if p is not None else text
    return str(v)


def describe_target(target: dict) -> str:
    """A published target in words: its parameters by title ("Module IEFBR14,
    Block size 6,144 bytes, LOADs 5,000"), and what a ratio compares with.
    The target's id (``A1.iefbr14.cpu``) is for files and logs, not slides."""
    try:
        schema = experiments.get(target["experiment"]).schema
    except (KeyError, ValueError):
        schema = None

    def words(params: dict, skip_defaults: bool = True) -> str:
        out = []
        for key, v in params.items():
            p = None
            if schema is not None and key in schema.names():
                p = schema[key]
                if skip_defaults and v == p.default:
                    continue     # what the case study sets anyway says nothing
            title = p.title if p is not None else key_words(key)
            out.append(f"{title} {_value(p, v)}")
        return ", ".join(out)
    text = words(target.get("params", {})) or experiments.get(target["experiment"]).title
    if target.get("baseline"):
        text += " — against " + words(target["baseline"], skip_defaults=False)
    return text


def metric_title(experiment: str, key: str) -> str:
    """The title of ``experiment``'s metric ``key`` (the key in words if unknown)."""
    try:
        for m in experiments.get(experiment).metrics:
            if m.name == key:
                return m.title
    except (KeyError, ValueError):
        pass
    return key_words(key)


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
    :class:`models.core.run.Cancelled` before the next one.
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
        metric = metric_title(experiment, t["metric"]) + (" ratio" if t.get("baseline") else "")
        case = t["id"]
        if v.model is None:
            rows.append((case, metric, _expected(t["expect"]), "—", v.error or "", "not run"))
        else:
            rows.append((case, metric, _expected(t["expect"]), format_number(v.model),
                         _deviation(v.model, t["expect"]), "PASS" if v.ok else "FAIL"))
    return rows


def display_rows(rows: list[tuple]) -> list[tuple]:
    """``rows`` with each target id replaced by the case in words."""
    by_id = {t["id"]: t for t in calibration.load_targets()}
    return [(describe_target(by_id[r[0]]) if r[0] in by_id else r[0], *r[1:]) for r in rows]


class PublishedTable(QTableWidget):
    """The published-vs-model table of one case study."""

    def __init__(self, parent=None):
        super().__init__(0, len(DISPLAY_HEADER), parent)
        self.setHorizontalHeaderLabels(DISPLAY_HEADER)
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
        for r, (row, shown) in enumerate(zip(self.rows, display_rows(self.rows))):
            for c, text in enumerate(shown):
                item = QTableWidgetItem(str(text))
                # The target id stays at hand for whoever looks it up in targets.json.
                item.setToolTip(f"{text} (target {row[0]})" if c == 0 else str(text))
                if c == len(row) - 1 and text in colours:
                    item.setForeground(Qt.GlobalColor.white)
                    item.setBackground(_brush(colours[text]))
                self.setItem(r, c, item)
        # The case's long description wraps in the room left; the figure's
        # name and the key columns (published, model, deviation, verdict)
        # always show whole.
        head = self.horizontalHeader()
        for c in range(self.columnCount()):
            head.setSectionResizeMode(c, QHeaderView.ResizeMode.Stretch if c == 0
                                      else QHeaderView.ResizeMode.ResizeToContents)
        self.setWordWrap(True)
        self.resizeRowsToContents()


    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        # Wrapped cases take the height their column's new width needs.
        super().resizeEvent(event)
        self.resizeRowsToContents()


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
        # Once the table is in, the button that stopped the work closes the window.
        self.close_button = QPushButton("Close")
        self.close_button.setToolTip("Close this window (Esc); the table stays as computed")
        self.close_button.clicked.connect(self.close)
        self.close_button.setVisible(False)
        self.runner.progressed.connect(lambda f: self.progress.setValue(int(f * 1000)))
        self.runner.succeeded.connect(self._on_runner_succeeded)
        self.runner.failed.connect(lambda text: self.heading.setText(f"Failed: {text}"))
        self.runner.cancelled.connect(lambda: self.heading.setText("Cancelled."))
        self.runner.done.connect(self._on_runner_done)
        bar = QHBoxLayout()
        bar.addWidget(self.heading, 1)
        bar.addWidget(self.progress)
        bar.addWidget(self.cancel_button)
        bar.addWidget(self.close_button)
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
        self.cancel_button.setVisible(True)
        self.close_button.setVisible(False)
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
        self.cancel_button.setVisible(False)
        self.close_button.setVisible(True)
