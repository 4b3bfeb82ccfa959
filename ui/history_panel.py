"""The History tab: browse stored runs, re-open one, compare two, delete (with undo).

The panel only reads and deletes rows of :class:`app.history.History`; the
main window records runs and acts on :attr:`HistoryPanel.reopen_requested`
and :attr:`HistoryPanel.compare_requested`.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel,
                               QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app import drawing_diff, run_names
from app.run_names import WHATIF
from app.history import KEY_METRICS, History, HistoryError, RunRecord
from app.names import experiment_of, metrics_text, param_title, words
from models import experiments

COLUMNS = ("#", "Time", "Experiment", "Run (what changed from the case as opened)",
           "Key metrics")


_experiment = experiment_of


def changed_params(record: RunRecord) -> dict:
    """The parameters of ``record`` that differ from its experiment's defaults."""
    exp = _experiment(record.experiment)
    if exp is None:
        return dict(record.params)
    defaults = {p.name: p.default for p in exp.schema.params}
    return {k: v for k, v in record.params.items() if defaults.get(k, object()) != v}


def metric_text(record: RunRecord, limit: int | None = KEY_METRICS) -> str:
    """``Title value unit`` for the first ``limit`` metrics (all if ``None``)."""
    return metrics_text(_experiment(record.experiment), record.metrics, limit)


def changes_text(record: RunRecord, limit: int | None = drawing_diff.SHOWN) -> str:
    """The run as a baseline or a what-if and what it changed from the case as
    opened ("what-if: SGDB2 on SSD", "baseline as imported"); a run of the
    command line: its parameters set away from the defaults."""
    if record.changes:
        return f"{WHATIF}: {run_names.describe(list(record.changes), limit)}"
    if record.scenario:      # the drawing ran as opened (its values are the case's)
        return record.run_name().label
    return params_text(record, changed_params(record)) or record.run_name().label


def params_text(record: RunRecord, params: dict, sep: str = ", ") -> str:
    """``Title = value`` of each of ``params``, as the inspector names them."""
    exp = _experiment(record.experiment)
    return sep.join(f"{param_title(exp, k)} = {words(v)}" for k, v in params.items())


class HistoryPanel(QWidget):
    """Stored runs, newest first, with Re-open, Compare and Delete/Undo.

    Parameters
    ----------
    history : History or None
        ``None`` when the database could not be opened; ``problem`` says why.
    """

    reopen_requested = Signal(object)
    compare_requested = Signal(object, object)

    def __init__(self, history: History | None, problem: str = "", parent=None) -> None:
        super().__init__(parent)
        self.history = history
        self.records: list[RunRecord] = []
        self.deleted: list[RunRecord] = []
        self.filter = QComboBox()
        self.filter.setToolTip("Show the runs of one experiment only")
        self.filter.addItem("All experiments", None)
        for name, exp in experiments.registry().items():
            self.filter.addItem(exp.title, name)
        self.filter.currentIndexChanged.connect(lambda _i: self.refresh())
        self.table = self._build_table()
        self.status = QLabel(problem)
        self.status.setObjectName("historyStatus")
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(self._build_buttons())
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.table.itemDoubleClicked.connect(lambda _item: self.reopen_selected())
        self.refresh()

    def _build_table(self) -> QTableWidget:
        t = QTableWidget(0, len(COLUMNS))
        t.setObjectName("historyTable")
        t.setHorizontalHeaderLabels(COLUMNS)
        t.verticalHeader().setVisible(False)
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        t.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        t.setAlternatingRowColors(True)
        t.setWordWrap(True)
        t.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        head = t.horizontalHeader()
        for c in range(2):
            head.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        # The scenario's title can be long (an imported system's): it wraps.
        for c in (2, 3, 4):
            head.setSectionResizeMode(c, QHeaderView.ResizeMode.Stretch)
        return t

    def _button(self, text: str, tip: str, slot) -> QPushButton:
        b = QPushButton(text)
        b.setToolTip(tip)
        b.clicked.connect(lambda _=False: slot())
        return b

    def _build_buttons(self) -> QHBoxLayout:
        self.reopen_button = self._button("Re-open", "Open the selected run's scenario and "
                                          "parameters on the canvas (double-click)", self.reopen_selected)
        self.compare_button = self._button("Compare two", "Select two runs (Ctrl+click) to see "
                                           "them side by side with B/A ratios", self.compare_selected)
        self.delete_button = self._button("Delete", "Delete the selected runs (Del); "
                                          "Undo delete brings them back", self.delete_selected)
        self.undo_button = self._button("Undo delete", "Bring back the runs deleted last",
                                        self.undo_delete)
        bar = QHBoxLayout()
        bar.addWidget(QLabel("Show:"))
        bar.addWidget(self.filter)
        bar.addStretch(1)
        for b in (self.reopen_button, self.compare_button, self.delete_button, self.undo_button):
            bar.addWidget(b)
        return bar

    # ---- contents -----------------------------------------------------
    def refresh(self, select_id: int | None = None) -> None:
        """Reload the runs from the database (newest first)."""
        try:
            self.records = self.history.runs(self.filter.currentData()) if self.history else []
        except HistoryError as exc:
            self.records = []
            self.status.setText(str(exc))
        t = self.table
        t.setRowCount(len(self.records))
        for r, rec in enumerate(self.records):
            exp = _experiment(rec.experiment)
            cells = (f"{rec.id}", rec.when(), rec.title(), changes_text(rec), metric_text(rec))
            changes = [drawing_diff.change_text(c)
                       for c in drawing_diff.grouped(list(rec.changes))]
            tips = ("", f"seed {rec.seed}",
                    f"{exp.description}\n\nExperiment: {exp.title}" if exp else rec.experiment,
                    "\n".join(changes or ["As opened."]) + "\n\nParameters:\n"
                    + params_text(rec, dict(rec.params), "\n"),
                    metric_text(rec, None).replace(", ", "\n"))
            for c, (text, tip) in enumerate(zip(cells, tips)):
                item = QTableWidgetItem(text)
                item.setToolTip(tip)
                if c == 0:
                    item.setData(Qt.ItemDataRole.UserRole, rec.id)
                t.setItem(r, c, item)
            if rec.id == select_id:
                t.selectRow(r)
        t.resizeRowsToContents()
        self._update_buttons()

    def selected_records(self) -> list[RunRecord]:
        rows = sorted({i.row() for i in self.table.selectedIndexes()})
        return [self.records[r] for r in rows if r < len(self.records)]

    def _update_buttons(self) -> None:
        n = len(self.selected_records())
        self.reopen_button.setEnabled(n == 1)
        self.compare_button.setEnabled(n == 2)
        self.delete_button.setEnabled(n > 0)
        self.undo_button.setEnabled(bool(self.deleted))

    # ---- actions ----------------------------------------------------------
    def reopen_selected(self) -> None:
        recs = self.selected_records()
        if len(recs) == 1:
            self.reopen_requested.emit(recs[0])

    def compare_selected(self) -> None:
        """Compare the two selected runs: the older is A, the newer B."""
        recs = self.selected_records()
        if len(recs) != 2:
            self.status.setText("Select exactly two runs to compare (Ctrl+click).")
            return
        a, b = sorted(recs, key=lambda r: (r.created, r.id))
        self.compare_requested.emit(a, b)

    def delete_selected(self) -> None:
        """Delete the selected runs (Del on this tab); :meth:`undo_delete` restores them."""
        recs = self.selected_records()
        if not recs or self.history is None:
            return
        try:
            for rec in recs:
                self.history.delete(rec.id)
        except HistoryError as exc:
            self.status.setText(str(exc))
        else:
            self.deleted = recs
            ids = ", ".join(f"#{r.id}" for r in recs)
            self.status.setText(f"Deleted run {ids}. Undo delete brings it back.")
        self.refresh()

    def undo_delete(self) -> None:
        """Put the runs deleted last back, with their ids and time stamps."""
        if not self.deleted or self.history is None:
            return
        try:
            for rec in self.deleted:
                self.history.restore(rec)
        except HistoryError as exc:
            self.status.setText(str(exc))
            return
        ids = ", ".join(f"#{r.id}" for r in self.deleted)
        self.deleted = []
        self.status.setText(f"Restored run {ids}.")
        self.refresh()
