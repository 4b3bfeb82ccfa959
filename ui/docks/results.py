"""The results dock: key metrics with units and the RMF-style report tables.

It only shows a :class:`~models.core.run.RunResult`; it never computes anything.
"""
from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractItemView, QHeaderView, QLabel, QScrollArea, QSizePolicy,
                               QTableWidget, QTableWidgetItem, QToolButton, QVBoxLayout,
                               QWidget)

from app.names import format_number, words  # noqa: F401 (format_number: shared)
from models import experiments
from models.core.params import key_words
from models.studies.replicate import Replicated
from models.core.run import RunResult, Table


class ResultsPanel(QScrollArea):
    """Metrics table plus one table per report of the last run."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.headline = QLabel()
        self.metrics_table: QTableWidget | None = None
        self._tables: list = []
        self.measured_view = None
        self.preliminary: QLabel | None = None
        self.show_message("No run yet. Open a case study or build a scenario, then Run (F5).")

    def _page(self) -> QVBoxLayout:
        page = QWidget()
        layout = QVBoxLayout(page)
        old = self.takeWidget()
        if old is not None:
            old.deleteLater()
        self.setWidget(page)
        self.metrics_table, self._tables = None, []
        self.preliminary = None
        return layout

    @property
    def report_tables(self) -> list[QTableWidget]:
        """The report tables in the run's order (a folded one is made now if
        it was not yet unfolded: :meth:`build_folded`)."""
        return [t.table() if isinstance(t, _Folded) else t for t in self._tables]

    def build_folded(self) -> None:
        """Make every folded report's table (they stay folded): a long report's
        table is otherwise made when it is first unfolded."""
        for t in self._tables:
            if isinstance(t, _Folded):
                t.table()

    def show_message(self, text: str, error: bool = False) -> None:
        """Replace the results with one message (no run, failed, not implemented)."""
        layout = self._page()
        self.headline = QLabel(text)
        self.headline.setObjectName("resultsHeadline")
        self.headline.setWordWrap(True)
        self.headline.setStyleSheet("color: #a00000; font-weight: bold;" if error else "color: #3c4650;")
        layout.addWidget(self.headline)
        layout.addStretch(1)

    def show_result(self, result: RunResult, title: str | None = None,
                    warning: str = "", run: str = "", imported: dict | None = None,
                    preliminary: str = "") -> None:
        """Show a finished run's metrics and report tables (``title``: the
        drawing's own name, shown before the experiment's; ``warning``: rich
        text under it, the cards the run left out; ``run``: the run's name,
        "what-if: SGDB2 on SSD" or "baseline as imported", said in place of
        the experiment's title, which for a drawing of one's own is only
        "Your own system"; ``imported``: what the drawing run carried from its
        RMF import, whose calibrated figures Measured vs model marks)."""
        layout = self._page()
        exp = experiments.get(result.experiment)
        name = title or exp.title
        said = run or ("" if name.startswith(exp.title) else exp.title)
        head = f"<b>{html.escape(name)}</b> — " + ", ".join(
            [html.escape(said)] * bool(said) + [f"seed {result.seed}"])
        self.headline = QLabel(head)
        self.headline.setWordWrap(True)
        self.headline.setObjectName("resultsHeadline")
        layout.addWidget(self.headline)
        #: The notice over figures of a run not yet finished (None: final figures).
        self.preliminary: QLabel | None = None
        if preliminary:
            self.preliminary = QLabel(html.escape(preliminary))
            self.preliminary.setObjectName("resultsPreliminary")
            self.preliminary.setWordWrap(True)
            self.preliminary.setStyleSheet("background: #fff4d6; color: #5a4100; "
                                           "font-weight: bold; padding: 4px;")
            layout.addWidget(self.preliminary)
        if warning:
            layout.addWidget(_wrapped(warning))
        self._metrics(layout, exp, ("Metric", "Preliminary value" if preliminary else "Value"),
                      {k: format_number(v) for k, v in result.metrics.items()})
        for note in result.notes:
            layout.addWidget(_wrapped(f"<i>{note}</i>"))
        if preliminary:
            # The headline figures only: a shop's report tables (thousands of
            # rows) would take the window's time from the run still going on.
            self._tables = []
            self.measured_view = None
            layout.addWidget(_wrapped("<i>The report tables follow when the run ends.</i>"))
            layout.addStretch(1)
            return
        self._reports(layout, result.reports, result, imported)

    def show_replicated(self, rep: Replicated) -> None:
        """Show runs over several seeds: each figure's mean ± half-width of its
        95 % confidence interval."""
        layout = self._page()
        exp = experiments.get(rep.experiment)
        self.headline = QLabel(f"<b>{exp.title}</b> — {rep.n} replications, seeds "
                               f"{rep.seeds[0]}–{rep.seeds[-1]}")
        self.headline.setWordWrap(True)         # the seeds stay in view in a narrow dock
        self.headline.setObjectName("resultsHeadline")
        layout.addWidget(self.headline)
        self._metrics(layout, exp, ("Metric", "Mean ± 95 % CI"),
                      {k: e.text(format_number, rep.n) for k, e in rep.metrics.items()})
        for note in (rep.warmup_line(), *rep.notes):
            layout.addWidget(_wrapped(f"<i>{note}</i>"))
        table = rep.component_table()
        self._reports(layout, () if table is None else (table,))

    def _metrics(self, layout: QVBoxLayout, exp, columns, shown: dict) -> None:
        """The metrics table: each metric's title (its description in the
        tooltip), and the shown value with its unit."""
        meta = {m.name: m for m in exp.metrics}
        rows, tips = [], []
        for name, text in shown.items():
            m = meta.get(name)
            unit = f" {m.unit}" if m and m.unit else ""
            rows.append((m.title if m else key_words(name),
                         text + unit))
            tips.append((name, m.help if m and m.help else ""))
        self.metrics_table = _table(columns, rows)
        for r, (name, help_) in enumerate(tips):
            self.metrics_table.item(r, 0).setToolTip(
                f"{help_ or rows[r][0]} (metric '{name}' in zperflab run --json)")
        # The values always show whole; a long description is elided (its
        # tooltip has it all) rather than pushing the values out of view.
        head = self.metrics_table.horizontalHeader()
        head.setStretchLastSection(False)
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.metrics_table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.metrics_table.setObjectName("metricsTable")
        layout.addWidget(self.metrics_table)

    def _reports(self, layout: QVBoxLayout, reports, result=None,
                 imported: dict | None = None) -> None:
        """One table per report: the summaries first (a large shop's storage
        groups), then the others in the run's order, long ones folded."""
        from models.rmf.fitted import by_title
        from models.rmf.measured import TABLE_TITLE, figure_title
        from ui.docks.measured_table import MeasuredView
        self.measured_view = None
        tables: list = [None] * len(reports)
        for i in report_order(reports):
            report = reports[i]
            if report.title == TABLE_TITLE:
                # Six columns do not read in a dock: figures under their
                # component, the reason on demand, the whole in a window.
                layout.addWidget(_wrapped(f"<b>{report.title}</b>"))
                self.measured_view = MeasuredView(report, by_title(imported, figure_title),
                                                  _within(result))
                tables[i] = self.measured_view.table
                layout.addWidget(self.measured_view)
            elif fold(report):
                # Made when first unfolded: a shop's long reports hold 30,000
                # cells, most of the panel's time after each run.
                tables[i] = folded = _Folded(report)
                layout.addWidget(_fold(report, folded))
                layout.addWidget(folded)
            else:
                tables[i] = t = _report_table(report)
                layout.addWidget(_wrapped(f"<b>{report.title}</b>"))
                layout.addWidget(t)
                t.setVisible(True)
            if report.note:
                layout.addWidget(_wrapped(f"<i>{report.note}</i>"))
        self._tables = tables
        layout.addStretch(1)


def _within(result) -> str:
    """"24 of 47 figures within tolerance (51 %)": the run's card figures
    against RMF's (:mod:`models.rmf.tolerance`); "" for a run without them."""
    from models.rmf import tolerance

    measured = getattr(result, "measured", None)
    if not measured:
        return ""
    return tolerance.summary(tolerance.checks(measured, result))


#: A report of more rows than this (a shop's 1,000 volumes) comes after the
#: others, folded under its title until asked for.
FOLD_ROWS = 40
#: Reports that come first where a run has them: a shop reads by storage group.
FIRST = ("Storage group activity", "Busiest volumes by storage group")


def report_order(reports) -> list[int]:
    """Indexes of ``reports`` in the order the dock shows them: the storage
    group summaries, then the others, then the long ones (run order within)."""
    def place(i: int) -> tuple[int, int]:
        r = reports[i]
        return (0 if r.title in FIRST else 2 if fold(r) else 1, i)
    return sorted(range(len(reports)), key=place)


def fold(report: Table) -> bool:
    """Whether a report is shown folded (long, and not a summary)."""
    return len(report.rows) > FOLD_ROWS and report.title not in FIRST


class _Folded(QWidget):
    """A long report's place in the dock, hidden while folded; its table is
    made the first time it is unfolded (or asked for)."""

    def __init__(self, report: Table) -> None:
        super().__init__()
        self.report = report
        self._table: QTableWidget | None = None
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        self.setVisible(False)

    def table(self) -> QTableWidget:
        if self._table is None:
            self._table = _report_table(self.report)
            self.layout().addWidget(self._table)
        return self._table


def _fold(report: Table, folded: _Folded) -> QToolButton:
    """The title of a long report as a button that shows and hides its table."""
    button = QToolButton()
    button.setObjectName("reportFold")
    button.setCheckable(True)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    button.setArrowType(Qt.ArrowType.RightArrow)
    button.setAutoRaise(True)
    button.setText(f"{report.title}: {len(report.rows):,} rows (show)")
    button.setStyleSheet("font-weight: bold;")
    # Its title never widens the dock (which scrolls vertically only).
    button.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)

    def toggled(on: bool) -> None:
        folded.table()
        folded.setVisible(on)
        button.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        button.setText(f"{report.title}: {len(report.rows):,} rows ({'hide' if on else 'show'})")
    button.toggled.connect(toggled)
    return button


def _wrapped(html: str) -> QLabel:
    label = QLabel(html)
    label.setWordWrap(True)
    return label


#: A report wider than this many columns, with few rows, is shown turned: its
#: columns become rows, so a narrow dock shows every figure without scrolling.
TURN_COLUMNS, TURN_ROWS = 4, 3


def _report_table(report: Table) -> QTableWidget:
    rows = [tuple(str(words(format_number(c))) for c in row) for row in report.rows]
    if len(report.columns) > TURN_COLUMNS and 0 < len(rows) <= TURN_ROWS:
        # One column per entity (volume, drive), headed by its first cell.
        header = (str(report.columns[0]), *(row[0] for row in rows))
        turned = [(str(col), *(row[c] for row in rows))
                  for c, col in enumerate(report.columns) if c > 0]
        return _table(header, turned)
    return _table(report.columns, rows)


#: Figures are right-aligned (every column but the first).
_FIGURE = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter


def _table(columns, rows) -> QTableWidget:
    t = QTableWidget(len(rows), len(columns))
    names = [str(c) for c in columns]
    t.setHorizontalHeaderLabels(names)
    t.verticalHeader().setVisible(False)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setAlternatingRowColors(True)
    # Laid out before it is filled: on a filled table each of these measured
    # every cell again (a shop's reports hold 30,000 cells; a third of a
    # second after each run).
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(True)
    t.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    # One line a row: a long cell in the stretched last column wrapped onto a
    # dozen lines out of sight to the right, and its row stood 200 px tall
    # (the analytic table's rank rows); the cell's tooltip has all of it.
    t.setWordWrap(False)
    one_line = True
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            text = str(cell)
            one_line = one_line and "\n" not in text
            item = QTableWidgetItem(text)
            item.setToolTip(f"{names[c]}: {cell}")
            if c > 0:
                item.setTextAlignment(_FIGURE)
            t.setItem(r, c, item)
    _fit_rows(t, one_line)
    # Show every row (the dock scrolls as a whole); room for a horizontal
    # scroll bar in case a wide RMF table does not fit the dock.
    height = (t.horizontalHeader().sizeHint().height() + t.verticalHeader().length()
              + 2 * t.frameWidth() + t.horizontalScrollBar().sizeHint().height())
    t.setFixedHeight(height)
    return t


def _fit_rows(t: QTableWidget, one_line: bool) -> None:
    """Each row as tall as its text. Rows of one line in one font are all as
    tall as the first: measure that one, not all 30,000 cells again."""
    if not one_line or t.rowCount() < 2:
        t.resizeRowsToContents()
        return
    t.resizeRowToContents(0)
    t.verticalHeader().setDefaultSectionSize(t.rowHeight(0))
