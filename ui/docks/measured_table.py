"""The "Measured vs model" table as the narrow Results dock shows it.

The report has six columns (component, figure, measured, model, difference,
likely reason): too wide for a dock of 300–450 px. Here each component is a
section row over its figures, so four short columns remain (figure,
measured, model, Δ); a figure outside its band is marked and its likely
reason shows under the table when its row is picked (and in its tooltip).
The members' rows (volumes, channels) come on demand, and "Full table…"
opens all six columns in a window of their own. It only shows the
:class:`~models.core.run.Table`; it computes nothing.
"""
from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QDialog, QHBoxLayout, QHeaderView,
                               QLabel, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from app.names import format_number

#: The dock's columns; the report's component and likely reason are not among them.
COLUMNS = ("figure", "measured", "model", "Δ")
OUTSIDE = QColor("#fde7c4")          # a figure outside its band (amber, readable in print)
SECTION = QColor("#e8edf2")
_TIP_DELTA = "Δ = model − measured"


def _text(v) -> str:
    return format_number(v) if isinstance(v, (int, float)) else str(v)


class MeasuredView(QWidget):
    """The compact table, its member switch, its reason line and the pop-out."""

    def __init__(self, report, parent=None) -> None:
        super().__init__(parent)
        self.report = report
        self.dialog: QDialog | None = None
        rows = list(report.rows)
        self.cards = [r for r in rows if " / " not in str(r[0])]
        self.members = [r for r in rows if " / " in str(r[0])]
        outside = sum(1 for r in rows if r[5] and r[3] != "—")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        self.summary = QLabel(f"{outside} of {len(rows)} figures outside their band"
                              if outside else f"All {len(rows)} figures inside their band")
        self.summary.setWordWrap(True)
        top.addWidget(self.summary, 1)
        self.full_button = QPushButton("Full table…")
        self.full_button.setToolTip("All columns, with each likely reason, in a window of "
                                    "its own")
        self.full_button.clicked.connect(self.open_full)
        top.addWidget(self.full_button)
        layout.addLayout(top)
        self.members_box = QCheckBox(f"Volumes and channels ({len(self.members)} figures)")
        self.members_box.setToolTip("The members' figures under the storage groups and "
                                    "channel groups")
        self.members_box.setVisible(bool(self.members))
        self.members_box.toggled.connect(self._fill)
        layout.addWidget(self.members_box)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("measuredTable")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.horizontalHeaderItem(3).setToolTip(_TIP_DELTA)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        head = self.table.horizontalHeader()
        head.setStretchLastSection(False)
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in range(1, len(COLUMNS)):
            head.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setWordWrap(True)          # the reason row only; figures are short
        self.table.itemSelectionChanged.connect(self._show_reason)
        legend = QLabel(f"<i>Amber: outside its band (docs/rmf-drawing.md); {_TIP_DELTA}. "
                        "Pick a row for its likely reason.</i>")
        legend.setWordWrap(True)
        layout.addWidget(legend)
        layout.addWidget(self.table)
        self._row_of: list[tuple | None] = []
        self.reason_row: int | None = None     # the table row that holds a reason
        self._busy = False
        self._fill()

    # -- the compact table -----------------------------------------------------------
    def _fill(self) -> None:
        shown = self.cards + (self.members if self.members_box.isChecked() else [])
        t = self.table
        t.clearSpans()
        t.setRowCount(0)
        self._row_of = []
        self.reason_row = None
        bold = QFont(t.font())
        bold.setBold(True)
        last = None
        for row in shown:
            if row[0] != last:
                last = row[0]
                r = t.rowCount()
                t.insertRow(r)
                item = QTableWidgetItem(str(row[0]))
                item.setFont(bold)
                item.setBackground(QBrush(SECTION))
                item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                item.setToolTip(str(row[0]))
                t.setItem(r, 0, item)
                t.setSpan(r, 0, 1, len(COLUMNS))
                self._row_of.append(None)
            r = t.rowCount()
            t.insertRow(r)
            label, figure, measured, model, diff, why = row
            tip = f"{label}: {figure}: measured {_text(measured)}, model {_text(model)}"
            if why:
                tip += f"\nLikely reason: {why}"
            for c, cell in enumerate((f"  {figure}", measured, model, diff)):
                item = QTableWidgetItem(_text(cell))
                item.setToolTip(tip)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                if why and model != "—":
                    item.setBackground(QBrush(OUTSIDE))
                t.setItem(r, c, item)
            self._row_of.append(row)
        t.resizeRowsToContents()
        self.reason_row = None
        self._fit_height()

    def _fit_height(self) -> None:
        t = self.table
        t.setFixedHeight(t.horizontalHeader().sizeHint().height() + t.verticalHeader().length()
                         + 2 * t.frameWidth())

    def _show_reason(self) -> None:
        """Under the picked row, a row with its likely reason (or that it is inside)."""
        if self._busy:
            return
        self._busy = True
        try:
            t = self.table
            picked = [i.row() for i in t.selectionModel().selectedRows()]
            if self.reason_row is not None:
                t.removeRow(self.reason_row)
                del self._row_of[self.reason_row]
                picked = [r - (r > self.reason_row) for r in picked]
                self.reason_row = None
            row = self._row_of[picked[0]] if picked else None
            if row is not None:
                label, figure, measured, model, diff, why = row
                text = (f"Likely reason: {why}." if why and model != "—" else
                        f"{why}." if why else "Inside its band.")
                r = picked[0] + 1
                t.insertRow(r)
                item = QTableWidgetItem(text)
                item.setFlags(Qt.ItemFlag.ItemIsEnabled)
                font = QFont(t.font())
                font.setItalic(True)
                item.setFont(font)
                item.setToolTip(text)
                t.setItem(r, 0, item)
                t.setSpan(r, 0, 1, len(COLUMNS))
                self._row_of.insert(r, None)
                self.reason_row = r
                t.resizeRowToContents(r)
            self._fit_height()
        finally:
            self._busy = False

    # -- the pop-out ------------------------------------------------------------------
    def open_full(self) -> QDialog:
        """All six columns in a window of their own (non-modal, one per run)."""
        if self.dialog is None:
            dialog = QDialog(self.window())
            dialog.setWindowTitle(f"{self.report.title} — zPerfLab")
            box = QVBoxLayout(dialog)
            cols = self.report.columns
            table = QTableWidget(len(self.report.rows), len(cols))
            table.setObjectName("measuredFullTable")
            table.setHorizontalHeaderLabels([str(c) for c in cols])
            table.verticalHeader().setVisible(False)
            table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            table.setAlternatingRowColors(True)
            table.setWordWrap(True)
            for r, row in enumerate(self.report.rows):
                for c, cell in enumerate(row):
                    item = QTableWidgetItem(_text(cell))
                    if 2 <= c <= 4:
                        item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                              | Qt.AlignmentFlag.AlignVCenter)
                    if c == 5 and cell and row[3] != "—":
                        item.setBackground(QBrush(OUTSIDE))
                    table.setItem(r, c, item)
            head = table.horizontalHeader()
            table.resizeColumnsToContents()
            for c in range(len(cols) - 1):
                head.setSectionResizeMode(c, QHeaderView.ResizeMode.Interactive)
            head.setSectionResizeMode(len(cols) - 1, QHeaderView.ResizeMode.Stretch)
            box.addWidget(table)
            if self.report.note:
                note = QLabel(f"<i>{self.report.note}</i>")
                note.setWordWrap(True)
                box.addWidget(note)
            screen = self.screen().availableGeometry() if self.screen() else None
            w = min(1100, int(0.9 * screen.width())) if screen else 1000
            h = min(700, int(0.85 * screen.height())) if screen else 600
            dialog.resize(w, h)
            self.dialog = dialog
            # Rows fit their reasons once the window has its width.
            QTimer.singleShot(0, table.resizeRowsToContents)
        self.dialog.show()
        self.dialog.raise_()
        return self.dialog
