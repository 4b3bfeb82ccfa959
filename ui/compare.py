"""A/B comparison: two runs of a scenario side by side with a delta table in the
published style ("elapsed time ratio", "rate ratio").

:class:`CompareView` is the Compare tab. Its bar sets up two variants of the
current scenario that differ in one parameter and asks the window to run
them (:attr:`CompareView.run_requested`); the window runs both on a worker
and calls :meth:`CompareView.set_results`. It can also compare **two
drawings** (a what-if study's before and after, :meth:`set_drawings`): the
parameter bar is then hidden, the study's paragraph is shown, and Run asks
for both drawings again (:attr:`drawings_run_requested`). Two runs picked in
the History tab are shown the same way. The view computes nothing but the
B/A ratios of the figures it is given. When the canvas is edited after A and B
ran from it, the window says so in the same banner as the other views
(:meth:`CompareView.show_stale`).
"""
from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel,
                               QLineEdit, QProgressBar, QPushButton, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from app.names import format_number, words
from app.run_names import BASELINE_CALIBRATED, WHATIF
from models import experiments
from models.core.params import key_words
from models.rmf import measured
from ui.charts import ChartsView
from ui.views import STALE_STYLE

#: Metrics whose B/A ratio the case-study papers name, and the name they use.
RATIO_NAMES = {"elapsed_s": "elapsed time ratio", "throughput_mb_s": "rate ratio",
               "pages_per_s": "rate ratio", "cpu_s": "CPU time ratio", "cpu_ms": "CPU time ratio",
               "io_ms": "I/O time ratio", "srb_switches": "switch ratio"}
#: Figures a chart of utilisation per component shows best.
UTILISATION_METRICS = ("channel_util_pct", "gcp_busy_pct", "ziip_busy_pct", "volume_busy_pct",
                       "rank_busy_pct")
#: Least size of each half's charts (two and the margins fit well inside 1024 px).
HALF_CHART_MINIMUM = (360, 280)
#: The Run button's tooltip: variants of the canvas (False) or two drawings (True).
RUN_TIPS = {False: "Run the scenario twice, once with A's value and once with B's, in the "
                   "background: the one difference is the parameter you picked",
            True: "Run the two drawings again, before and after, in the background: "
                  "what differs between them is what the paragraph above describes"}
#: Parameter kinds a user can type an A and a B value for.
COMPARABLE_KINDS = ("int", "float", "bool", "choice")


def delta_rows(a, b) -> list[tuple[str, float, float, float | None, str]]:
    """(metric, A, B, B/A or None, published-style name) for metrics both runs report."""
    rows = []
    for name, va in a.metrics.items():
        if name not in b.metrics:
            continue
        va, vb = float(va), float(b.metrics[name])
        ratio = vb / va if va else None
        rows.append((name, va, vb, ratio, RATIO_NAMES.get(name, f"{name} ratio")))
    return rows


def bars_name(label: str) -> str:
    """A side's name for its bars beside RMF's: "Run #3: what-if: SGDB2 on SSD"
    → "what-if: SGDB2 on SSD" (the run's number heads the side already)."""
    head, sep, rest = label.partition(": ")
    return rest if sep and head.startswith("Run #") else label


def other_value(param, current):
    """A sensible B for parameter ``param`` when A is ``current``."""
    if param.kind == "choice":
        others = [c for c in param.choices if c != current]
        return others[0] if others else current
    if param.kind == "bool":
        return not current
    hi = param.max if param.max is not None else float("inf")
    value = current * 2 if current else 1
    value = min(value, hi)
    return int(value) if param.kind == "int" else value


class CompareView(QWidget):
    """Runs A and B: their charts side by side above the delta table."""

    #: (parameter, text of A, text of B): the user asked to run the two variants.
    run_requested = Signal(str, str, str)
    #: The user asked to run the two drawings of :meth:`set_drawings` again.
    drawings_run_requested = Signal()
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.experiment: str | None = None
        self.base: dict = {}
        self.scenario: dict | None = None
        #: (drawing A, drawing B) when two drawings are compared, else None.
        self.drawings: tuple[dict, dict] | None = None
        #: The figure a what-if study is about (highlighted in the table).
        self.key_metric: str | None = None
        # As over the Charts and Animation tabs: runs of a drawing edited since.
        self.banner = QLabel("")
        self.banner.setObjectName("staleBanner")
        self.banner.setWordWrap(True)
        self.banner.setStyleSheet(STALE_STYLE)
        self.banner.setVisible(False)
        self.about = QLabel("")
        self.about.setObjectName("compareAbout")
        self.about.setWordWrap(True)
        self.about.setStyleSheet("font-size: 11pt; color: #1d2733; padding: 4px 2px;")
        self.about.setVisible(False)
        # Each half may narrow below a chart's usual 480 px, so A and B fit
        # side by side in a 1024 px window with room to spare, and scale.
        self.left, self.right = (ChartsView(self, HALF_CHART_MINIMUM),
                                 ChartsView(self, HALF_CHART_MINIMUM))
        for side, which in ((self.left, "A"), (self.right, "B")):
            side.empty.setText(f"Run A and B to see run {which}'s charts here.")
            side.empty.setWordWrap(True)
        self.left.tabs.currentChanged.connect(self._on_left_current_changed)
        self.label_a, self.label_b = QLabel("A"), QLabel("B")
        self.table = self._build_table()
        # Runs of drawings imported from RMF: the measured figures beside both.
        self.measured_about = QLabel("")
        self.measured_about.setObjectName("compareMeasuredAbout")
        self.measured_about.setWordWrap(True)
        self.measured_table = self._build_table(5)
        self.measured_table.setObjectName("compareMeasuredTable")
        for w in (self.measured_about, self.measured_table):
            w.setVisible(False)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(self._build_bar())
        layout.addWidget(self.about)
        heads = QHBoxLayout()
        for label in (self.label_a, self.label_b):
            label.setStyleSheet("font-size: 13pt; font-weight: bold;")
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            label.setWordWrap(True)   # a run's "what changed" reads whole
            heads.addWidget(label, 1)
        layout.addLayout(heads)
        top = QHBoxLayout()
        top.addWidget(self.left)
        top.addWidget(self.right)
        layout.addLayout(top, 3)
        layout.addWidget(self.table, 2)
        layout.addWidget(self.measured_about)
        layout.addWidget(self.measured_table, 2)

    def _build_table(self, columns: int = 4) -> QTableWidget:
        t = QTableWidget(0, columns, self)
        t.setObjectName("compareTable")
        t.setHorizontalHeaderLabels(["", "Measured", "A", "B", "B / A"] if columns == 5
                                    else ["", "A", "B", "B / A"])
        t.setStyleSheet("font-size: 13pt;")
        t.verticalHeader().setVisible(False)
        t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        t.setAlternatingRowColors(True)
        t.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        return t

    def _build_bar(self) -> QHBoxLayout:
        self.param = QComboBox()
        self.param.setObjectName("compareParam")
        self.param.setToolTip("The one parameter the two runs differ in")
        # The whole title shows (a cut "Pages pe" reads as nothing).
        self.param.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.param.currentIndexChanged.connect(self._on_param_current_index_changed)
        self.value_a, self.value_b = QLineEdit(), QLineEdit()
        for field, which in ((self.value_a, "A"), (self.value_b, "B")):
            field.setMaximumWidth(100)
            field.setToolTip(f"Value of the parameter in run {which}")
        # A choice parameter is picked from its choices, never typed.
        self.choice_a, self.choice_b = QComboBox(), QComboBox()
        for box, which in ((self.choice_a, "A"), (self.choice_b, "B")):
            box.setObjectName(f"compareChoice{which}")
            box.setToolTip(f"Value of the parameter in run {which}")
        self.run_button = QPushButton("Run A and B")
        self.run_button.setToolTip(RUN_TIPS[False])
        self.run_button.clicked.connect(self._on_run_button_clicked)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop the two runs: neither is kept or recorded, and "
                                      "the charts keep what they showed")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.progress = QProgressBar()
        self.progress.setRange(0, 1000)
        self.progress.setMaximumWidth(120)
        self.progress.setVisible(False)         # shown while A and B run
        self.progress.setToolTip("How far the two runs have got: A fills the first half, "
                                 "B the second")
        self.status = QLabel("Open a case study, then pick a parameter to compare.")
        self.status.setWordWrap(True)
        bar = QHBoxLayout()
        self._variant_widgets = (QLabel("Vary:"), self.param, QLabel("A:"), self.value_a,
                                 self.choice_a, QLabel("B:"), self.value_b, self.choice_b)
        for w in (*self._variant_widgets, self.run_button, self.cancel_button, self.progress):
            bar.addWidget(w)
        bar.addWidget(self.status, 1)
        return bar

    # ---- set-up -----------------------------------------------------------
    def clear(self) -> None:
        """Show no comparison (another scenario was opened: the old runs are
        not this drawing's)."""
        self.left.set_result(None)
        self.right.set_result(None)
        self.show_stale("")
        self.table.setRowCount(0)
        self._show_measured([], "A", "B", None)
        self.label_a.setText("A")
        self.label_b.setText("B")
        self.about.setText("")
        self._set_mode(None)
        self.status.setText("Pick a parameter and its two values, then Run A and B.")

    def set_scenario(self, experiment: str | None, overrides: dict,
                     scenario: dict | None = None) -> None:
        """Offer the parameters of ``experiment``, A preset to the scenario's values.

        Another drawing of the same experiment (the canvas was edited) keeps the
        parameter the user picked and their B, so Run A and B repeats their
        comparison on the drawing as it is now.
        """
        kept = (self.param.currentData(), self._value_b()) \
            if experiment == self.experiment and self.drawings is None else (None, None)
        self._set_mode(None)
        self.experiment, self.base = experiment, dict(overrides)
        #: The drawing every run starts from (a scenario dict; None: the case study).
        self.scenario = scenario
        self.param.blockSignals(True)
        self.param.clear()
        if experiment is not None:
            for p in experiments.get(experiment).schema.params:
                if p.kind in COMPARABLE_KINDS:
                    self.param.addItem(p.title, p.name)
                    self.param.setItemData(self.param.count() - 1, p.help, Qt.ItemDataRole.ToolTipRole)
        self.param.setCurrentIndex(max(0, self.param.findData(kept[0])))
        self.param.blockSignals(False)
        self.run_button.setEnabled(self.param.count() > 0)
        self.status.setText("Pick a parameter and its two values, then Run A and B."
                            if self.param.count() else
                            "Open a case study, then pick a parameter to compare.")
        self._on_param_current_index_changed(self.param.currentIndex())
        if kept[0] is not None and kept[0] == self.param.currentData():
            if self._is_choice():
                self.choice_b.setCurrentIndex(max(0, self.choice_b.findData(kept[1])))
            else:
                self.value_b.setText(str(kept[1]))

    def _on_param_current_index_changed(self, _index: int) -> None:
        name = self.param.currentData()
        if name is None or self.experiment is None:
            return
        p = experiments.get(self.experiment).schema[name]
        a = self.base.get(name, p.default)
        b = other_value(p, a)
        self.value_a.setText(str(a))
        self.value_b.setText(str(b))
        for box, value in ((self.choice_a, a), (self.choice_b, b)):
            box.clear()
            for c in p.choices if p.kind == "choice" else ():
                box.addItem(str(words(c)), c)
            box.setCurrentIndex(max(0, box.findData(value)))
        self._show_value_fields()

    def _value_b(self):
        """B as the user set it: the choice picked, or the text typed."""
        return self.choice_b.currentData() if self._is_choice() else self.value_b.text()

    def _is_choice(self) -> bool:
        return self.choice_a.count() > 0

    def _show_value_fields(self) -> None:
        """Line edits for numbers, combos for a choice (in the variant mode only)."""
        variant = self.drawings is None
        choice = self._is_choice()
        for w in (self.value_a, self.value_b):
            w.setVisible(variant and not choice)
        for w in (self.choice_a, self.choice_b):
            w.setVisible(variant and choice)

    def set_drawings(self, experiment: str, before: dict, after: dict, title: str = "",
                     about: str = "", metric: str | None = None) -> None:
        """Compare two drawings (scenario dicts) of ``experiment``: a what-if
        study's before and after. ``about`` is shown above the charts;
        ``metric`` is the figure the study is about (first in the table)."""
        self.experiment, self.base, self.scenario = experiment, {}, None
        self.key_metric = metric
        self._set_mode((before, after))
        self.about.setText(f"<b>{title}</b><br>{about}" if title else about)
        self.run_button.setEnabled(True)

    def _set_mode(self, drawings: tuple[dict, dict] | None) -> None:
        self.drawings = drawings
        if drawings is None:
            self.key_metric = None
        for w in self._variant_widgets:
            w.setVisible(drawings is None)
        self._show_value_fields()
        self.about.setVisible(drawings is not None)
        self.run_button.setText("Run A and B" if drawings is None else "Run before and after")
        self.run_button.setToolTip(RUN_TIPS[drawings is not None])

    def _on_run_button_clicked(self) -> None:
        if self.drawings is not None:
            self.drawings_run_requested.emit()
            return
        name = self.param.currentData()
        if name is None:
            return
        if self._is_choice():
            self.run_requested.emit(name, str(self.choice_a.currentData()),
                                    str(self.choice_b.currentData()))
        else:
            self.run_requested.emit(name, self.value_a.text().strip(), self.value_b.text().strip())

    def set_running(self, running: bool, text: str = "") -> None:
        """Enable Cancel while the window runs the variants; show ``text``."""
        self.run_button.setEnabled(not running and (self.param.count() > 0
                                                    or self.drawings is not None))
        self.cancel_button.setEnabled(running)
        self.progress.setVisible(running)
        if running:
            self.progress.setValue(0)
        if text:
            self.status.setText(text)

    # ---- results ----------------------------------------------------------
    def _on_left_current_changed(self, index: int) -> None:
        # Keep both sides on the same chart.
        if 0 <= index < self.right.tabs.count():
            self.right.tabs.setCurrentIndex(index)

    def _share_scales(self) -> None:
        """The same chart on both sides gets one value scale, so 40 % slower
        looks 40 % taller (each side had fitted its own data)."""
        left, right = self.left.charts(), self.right.charts()
        for key in left.keys() & right.keys():
            a, b = left[key].getPlotItem(), right[key].getPlotItem()
            (_, (ya0, ya1)), (_, (yb0, yb1)) = a.viewRange(), b.viewRange()
            lo, hi = min(ya0, yb0), max(ya1, yb1)
            for item in (a, b):
                item.setYRange(lo, hi, padding=0)

    def set_results(self, a, b, label_a: str = "A", label_b: str = "B") -> None:
        """Show runs ``a`` and ``b`` (new runs: no banner until the window says so)."""
        self.show_stale("")
        # Each side's bars beside RMF's carry its run's name, never "model".
        measured_runs = bool(getattr(a, "measured", None) and getattr(b, "measured", None))
        self.left.set_run_name(bars_name(label_a) if measured_runs else "")
        self.right.set_run_name(bars_name(label_b) if measured_runs else "")
        self.left.set_result(a)
        self.right.set_result(b)
        self.right.align_to(self.left)
        self._share_scales()
        self.label_a.setText(label_a)
        self.label_b.setText(label_b)
        if self.key_metric in UTILISATION_METRICS:
            # A study about busy channels or engines opens on their utilisation.
            tabs = self.left.tabs
            for i in range(tabs.count()):
                if tabs.tabText(i).startswith("Utilisation"):
                    tabs.setCurrentIndex(i)
        rows = delta_rows(a, b)
        if self.drawings is not None:
            # Two drawings of a general system: leave out figures neither side has.
            rows = [r for r in rows if r[1] or r[2]]
        if self.key_metric is not None:
            # A study's figure first: the one its paragraph is about.
            rows.sort(key=lambda r: r[0] != self.key_metric)
        metrics = ({m.name: m for m in experiments.get(a.experiment).metrics}
                   if a.experiment in experiments.registry() else {})
        # Column heads stay short ("Before: random reads on SSD" → "Before") so the
        # figure names keep their room; the full labels head the charts.
        ha, hb = (x.split(":", 1)[0] if ":" in x else x for x in (label_a, label_b))
        self.table.setHorizontalHeaderLabels(["", ha, hb, f"{hb} / {ha}"])
        self.table.setRowCount(len(rows))
        for r, (name, va, vb, ratio, label) in enumerate(rows):
            # The metric's title (with its unit); the papers' name for the
            # ratio and the description go in the tooltip.
            m = metrics.get(name)
            shown = m.title if m else key_words(name)
            unit = f" ({m.unit})" if m and m.unit else ""
            cells = (shown + unit, format_number(va), format_number(vb),
                     "—" if ratio is None else format_number(float(f"{ratio:.3g}")))
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 0:
                    tip = m.help if m and m.help else shown
                    item.setToolTip(f"{tip}; After / Before is the {label}" if name in RATIO_NAMES
                                    else tip)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        if rows and rows[0][0] == self.key_metric:
            for c in range(4):
                font = self.table.item(0, c).font()
                font.setBold(True)
                self.table.item(0, c).setFont(font)
        for c in (1, 2, 3):
            self.table.resizeColumnToContents(c)
        ma, mb, tips = measured_heads(label_a, label_b, ha, hb)
        self._show_measured(measured.beside(a, b), ma, mb, a.measured.get("interval"), tips)

    def show_stale(self, text: str) -> None:
        """Say over the runs that they are not of the drawing as it is now
        (``text``, as :meth:`app.document.Document.stale_message`); "" hides it."""
        self.banner.setText(text)
        self.banner.setVisible(bool(text))

    def _show_measured(self, rows: list, ha: str, hb: str, interval: dict | None,
                       tips: tuple[str, str] = ("", "")) -> None:
        """RMF's figures beside A's and B's, one row per figure RMF gave
        (:func:`models.rmf.measured.beside`); hidden when the runs carry none."""
        t = self.measured_table
        for w in (self.measured_about, t):
            w.setVisible(bool(rows))
        t.setRowCount(len(rows))
        if not rows:
            return
        iv = interval or {}
        start = str(iv.get("start") or "").replace("T", " ")
        when = ", ".join(x for x in (iv.get("system"), start) if x) or "the interval"
        self.measured_about.setText(
            f"Measured by RMF ({when}) beside both runs: only the figures the imported "
            "reports gave. Both drawings were imported from the same reports.")
        t.setHorizontalHeaderLabels(["", "Measured", ha, hb, f"{hb} / {ha}"])
        t.horizontalHeaderItem(1).setToolTip(f"What RMF measured ({when}); not a model figure")
        for c, tip in ((2, tips[0]), (3, tips[1])):
            t.horizontalHeaderItem(c).setToolTip(tip)
        for r, (label, _key, title, m, va, vb) in enumerate(rows):
            ratio = vb / va if va else None
            cells = (f"{label}: {title}", format_number(m), format_number(va),
                     format_number(vb), "—" if ratio is None else format_number(float(f"{ratio:.3g}")))
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                t.setItem(r, c, item)
        for c in (1, 2, 3, 4):
            t.resizeColumnToContents(c)


def measured_heads(label_a: str, label_b: str, ha: str, hb: str) -> tuple[str, str, tuple]:
    """The heads of A's and B's columns beside RMF's, and their tooltips.

    A run of the calibrated baseline ("Run #3: calibrated baseline") is headed
    so, and a what-if beside it "what-if": RMF's figures, the baseline they
    were calibrated to and the what-if read as three columns. Otherwise the
    short heads (``ha``, ``hb``) stay.
    """
    def name(label: str) -> str:
        return label.split(": ", 1)[1] if ": " in label else ""
    if name(label_a) != BASELINE_CALIBRATED:
        return ha, hb, ("", "")
    head_b = WHATIF if name(label_b).startswith(f"{WHATIF}:") else hb
    return BASELINE_CALIBRATED, head_b, (label_a, label_b)
