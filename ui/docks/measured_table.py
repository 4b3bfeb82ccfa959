"""The "Measured vs model" table as the narrow Results dock shows it.

The report has six columns (component, figure, measured, model, difference,
likely reason): too wide for a dock of 300–450 px. Here each component is a
section row over its figures, so four short columns remain (figure,
measured, model, Δ); a figure outside its band is marked and its likely
reason shows under the table when its row is picked (and in its tooltip).
The members' rows (volumes, channels) come on demand, and "Full table…"
opens all six columns in a window of their own. It only shows the
:class:`~models.core.run.Table`; it computes nothing.

A what-if's run is named as one (:meth:`MeasuredView.set_run_name`): RMF
measured the system as imported, so the run's column is the what-if's, never
"model", and its gaps to RMF are the change, not the model's error: no band,
no likely reason (as ``zperflab run --set`` and the exports word it).
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QDialog, QHBoxLayout, QHeaderView,
                               QLabel, QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from app.names import format_number

#: The dock's columns; the report's component and likely reason are not among them.
COLUMNS = ("figure", "measured", "model", "Δ")
OUTSIDE = QColor("#fde7c4")          # a figure outside its band (amber, readable in print)
CALIBRATED = QColor("#dcebfa")       # a figure a calibrated quantity was set from (blue)
#: After a calibrated figure's name in the dock.
CALIBRATED_MARK = "calibrated"
SECTION = QColor("#e8edf2")
_TIP_DELTA = "Δ = model − measured"
#: The dock's columns of a what-if's run.
WHATIF_COLUMNS = ("figure", "RMF measured", "what-if", "Δ")
_TIP_WHATIF = "Δ = what-if − RMF measured"


def _text(v) -> str:
    return format_number(v) if isinstance(v, (int, float)) else str(v)


class MeasuredView(QWidget):
    """The compact table, its member switch, its reason line and the pop-out."""

    def __init__(self, report, calibrated: dict | None = None, within: str = "",
                 parent=None) -> None:
        """``calibrated``: ``{(card label, figure title): quantity title}`` of
        the figures calibration set a quantity from
        (:func:`models.rmf.fitted.by_title`); ``within``: how many of the
        cards' figures are within tolerance (:func:`models.rmf.tolerance.summary`)."""
        super().__init__(parent)
        self.report = report
        self.calibrated = dict(calibrated or {})
        self.dialog: QDialog | None = None
        #: The what-if's name ("what-if: SGDB2 on SSD"); "" for the baseline.
        self.whatif = ""
        rows = list(report.rows)
        self.cards = [r for r in rows if " / " not in str(r[0])]
        self.members = [r for r in rows if " / " in str(r[0])]
        outside = sum(1 for r in rows if r[5] and r[3] != "—")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        said = (within or (f"{outside} of {len(rows)} figures outside their band"
                           if outside else f"All {len(rows)} figures inside their band"))
        if self.calibrated:
            said += f"; {len(self.calibrated)} calibrated"
        self.summary = QLabel(said)
        self.summary.setObjectName("measuredSummary")
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
        blue = (" Blue: calibrated, a quantity was set from the figure; the others are the "
                "model's answers." if self.calibrated else "")
        self.legend = legend = QLabel(f"<i>Amber: outside its band (docs/rmf-drawing.md); "
                                      f"{_TIP_DELTA}. Pick a row for its likely reason.{blue}</i>")
        legend.setWordWrap(True)
        layout.addWidget(legend)
        layout.addWidget(self.table)
        self._row_of: list[tuple | None] = []
        self.reason_row: int | None = None     # the table row that holds a reason
        self._busy = False
        self._fill()

    def set_run_name(self, name) -> None:
        """Name the run's column by the run: ``name`` is its
        :class:`~app.run_names.RunName`. A what-if's figures stand beside
        RMF's as the what-if's; the table's title above (the dock's label
        reading the report's title) says so too."""
        whatif = name.label if name is not None and name.is_whatif else ""
        if whatif == self.whatif:
            return
        self.whatif = whatif
        if not whatif:        # a view is built per run: the baseline is how it starts
            return
        self.table.setHorizontalHeaderLabels(WHATIF_COLUMNS)
        self.table.horizontalHeaderItem(3).setToolTip(_TIP_WHATIF)
        self.summary.setText(f"{len(self.report.rows)} figures: RMF's, of the system as "
                             f"imported, beside the {whatif}")
        self.legend.setText(f"<i>{_TIP_WHATIF}: what the change moves, not the model's "
                            "error (that is the baseline's table).</i>")
        title = self._label_beside(-1, self.report.title)
        if title is not None:
            title.setText(f"<b>Measured vs {html.escape(whatif)}</b>")
        note = self._label_beside(1, self.report.note)
        if note is not None:
            note.setText(f"<i>{html.escape(self._full_report()[3])}</i>")
        self._fill()

    def _label_beside(self, offset: int, text: str) -> QLabel | None:
        """The dock's label just above (-1) or under (1) this view, if it reads ``text``."""
        parent = self.parentWidget()
        layout = parent.layout() if parent is not None else None
        index = layout.indexOf(self) if layout is not None else -1
        item = layout.itemAt(index + offset) if index >= 0 and text else None
        label = item.widget() if item is not None else None
        if isinstance(label, QLabel) and text in label.text():
            return label
        return None

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
            run = self.whatif or "model"
            tip = f"{label}: {figure}: measured {_text(measured)}, {run} {_text(model)}"
            why = "" if self.whatif else why      # a what-if's gap is its change
            if why:
                tip += f"\nLikely reason: {why}"
            # a what-if's figures are its change's, not the calibrated baseline's
            quantity = None if self.whatif else self.calibrated.get((label, figure))
            shown = f"  {figure}"
            if quantity:
                shown += f"  ({CALIBRATED_MARK})"
                tip += (f"\nCalibrated: {label}'s {quantity[:1].lower() + quantity[1:]} was "
                        "set from this figure, so it is no prediction of the model")
            for c, cell in enumerate((shown, measured, model, diff)):
                item = QTableWidgetItem(_text(cell))
                item.setToolTip(tip)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight
                                          | Qt.AlignmentFlag.AlignVCenter)
                # The name says calibrated (blue); the figures, outside (amber).
                if quantity and not c:
                    item.setBackground(QBrush(CALIBRATED))
                elif why and model != "—":
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
            if row is not None and not self.whatif:
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
            title, cols, rows, note = self._full_report()
            dialog.setWindowTitle(f"{title} — zPerfLab")
            box = QVBoxLayout(dialog)
            table = QTableWidget(len(rows), len(cols))
            table.setObjectName("measuredFullTable")
            table.setHorizontalHeaderLabels([str(c) for c in cols])
            table.verticalHeader().setVisible(False)
            table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            table.setAlternatingRowColors(True)
            table.setWordWrap(True)
            for r, row in enumerate(rows):
                for c, cell in enumerate(row):
                    calibrated = (c == 1 and not self.whatif
                                  and (row[0], row[1]) in self.calibrated)
                    item = QTableWidgetItem(_text(cell) + (f"  ({CALIBRATED_MARK})"
                                                           if calibrated else ""))
                    if calibrated:
                        item.setBackground(QBrush(CALIBRATED))
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
            if note:
                note_label = QLabel(f"<i>{note}</i>")
                note_label.setWordWrap(True)
                box.addWidget(note_label)
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

    def _full_report(self) -> tuple[str, tuple, tuple, str]:
        """The window's title, columns, rows and note: a what-if's as
        ``zperflab run --set`` prints them (RMF measured, the what-if, their
        difference; no likely reason: those explain the model's gap)."""
        rep = self.report
        if not self.whatif:
            return rep.title, tuple(rep.columns), tuple(rep.rows), rep.note
        names = {"measured": "RMF measured", "model": self.whatif,
                 "difference": "what-if − measured"}
        keep = [i for i, c in enumerate(rep.columns) if c != "likely reason"]
        return (f"Measured vs {self.whatif}",
                tuple(names.get(rep.columns[i], rep.columns[i]) for i in keep),
                tuple(tuple(row[i] for i in keep) for row in rep.rows),
                f"RMF measured: its figures of the system as imported; {self.whatif}: the "
                f"run; {_TIP_WHATIF}")
