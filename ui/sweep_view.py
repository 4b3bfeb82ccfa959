"""The Sweep tab: vary one parameter of the current scenario, one curve per variant,
on a worker thread with progress and Cancel (the points run on a process pool).

The set-up bar offers the numeric parameters of the scenario's experiment
(values prefilled across the parameter's range) and a choice parameter whose
every value becomes a curve, or, for the DB2 experiments, the paper's six
protocol × device curves; :meth:`SweepView.set_scenario` loads them from the
window's scenario, whose other values every point shares.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import Qt, QThread
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QLineEdit, QProgressBar,
                               QPushButton, QVBoxLayout, QWidget)

from app.names import words
from app.replay.series import ChartData, Series
from app.sweep import SweepResult, SweepSpec, SweepWorker
from models import experiments
from models.core.params import ParamError
from models.studies.sweep import PROTOCOL_DEVICE_VARIANTS
from ui.charts import ChartWidget

#: Points a prefilled sweep has (the user can type any list).
DEFAULT_POINTS = 6
#: The "Curves for" entry that draws FICON/zHPF × 10K/15K/SSD.
PAPER_CURVES = "Protocol × device (paper)"


def sweep_chart(result: SweepResult, metric: str) -> ChartData:
    """One line per variant of ``metric`` against the swept parameter."""
    spec = result.spec
    exp = experiments.get(spec.experiment)
    param = exp.schema[spec.param]
    m = next((m for m in exp.metrics if m.name == metric), None)
    y_unit = m.unit if m is not None else ""
    y_label = m.title if m is not None else str(words(metric))
    x = np.array(spec.values, dtype=float)
    ys = result.metric(metric)
    series = tuple(Series(label or y_label, x, ys[v], "line")
                   for v, label in enumerate(result.labels()))
    return ChartData("sweep", f"{exp.title}: {y_label} vs {_lower_first(param.title)}", param.title,
                     param.unit, y_label, y_unit, series)


def default_values(param, current) -> str:
    """A comma-separated spread over ``param``'s range (around ``current`` if open-ended)."""
    lo = param.min if param.min is not None else 0
    hi = param.max if param.max is not None else max(2 * (current or 1), lo + 1)
    if param.kind == "int":
        if lo >= 1 and hi / lo >= 100:
            raw = np.geomspace(lo, hi, DEFAULT_POINTS)
        else:
            raw = np.linspace(lo, hi, DEFAULT_POINTS)
        values = sorted({int(round(v)) for v in raw})
    else:
        values = [float(f"{v:.3g}") for v in np.linspace(lo, hi, DEFAULT_POINTS)]
    return ", ".join(str(v) for v in values)


class SweepView(QWidget):
    """Set up, run a :class:`~app.sweep.SweepSpec` and plot one metric's curves."""

    def __init__(self, parent: QWidget | None = None, workers: int | None = None):
        super().__init__(parent)
        self.workers = workers
        self.experiment: str | None = None
        self.base: dict = {}
        self.scenario: dict | None = None
        self.chart = ChartWidget(self)
        self.metric_box = QComboBox(self)
        self.metric_box.setToolTip("The metric plotted on the y axis")
        self.metric_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.metric_box.setPlaceholderText("open a scenario first")
        self.metric_box.currentIndexChanged.connect(self._on_metric_index_changed)
        self.progress = QProgressBar(self)
        self.progress.setMaximumWidth(220)
        self.run_button = QPushButton("Run sweep", self)
        self.run_button.setToolTip("Run every point on all cores (a process pool)")
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setToolTip("Stop the sweep, including the points already running")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.status = QLabel("", self)
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(self._build_setup())
        bar = QHBoxLayout()
        for w in (QLabel("Metric:"), self.metric_box, self.run_button, self.cancel_button,
                  self.progress):
            bar.addWidget(w)
        bar.addWidget(self.status, 1)
        layout.addLayout(bar)
        layout.addWidget(self.chart, 1)
        self.spec: SweepSpec | None = None
        self.result: SweepResult | None = None
        self._metrics_of: str | None = None
        self._thread: QThread | None = None
        self._worker = None
        self.run_button.clicked.connect(self._on_run_button_clicked)

    def _build_setup(self) -> QHBoxLayout:
        self.param = QComboBox(self)
        self.param.setObjectName("sweepParam")
        self.param.setToolTip("The parameter on the x axis")
        self.param.currentIndexChanged.connect(self._on_param_current_index_changed)
        self.values = QLineEdit(self)
        self.values.setObjectName("sweepValues")
        self.values.setToolTip("Values of the swept parameter, comma separated, in plot order")
        self.curves = QComboBox(self)
        self.curves.setObjectName("sweepCurves")
        self.curves.setToolTip("One curve for every value of this parameter")
        row = QHBoxLayout()
        row.addWidget(QLabel("Sweep:"))
        row.addWidget(self.param)
        row.addWidget(QLabel("over"))
        row.addWidget(self.values, 1)
        row.addWidget(QLabel("Curves for:"))
        row.addWidget(self.curves)
        return row

    # ---- set-up -----------------------------------------------------------
    def set_scenario(self, experiment: str | None, overrides: dict,
                     scenario: dict | None = None) -> None:
        """Offer the parameters of ``experiment``; ``overrides`` are shared by every point."""
        self.experiment, self.base = experiment, dict(overrides)
        #: The drawing every run starts from (a scenario dict; None: the case study).
        self.scenario = scenario
        for combo in (self.param, self.curves):
            combo.blockSignals(True)
            combo.clear()
        self._offer_metrics(experiment)
        self.curves.addItem("— one curve —", None)
        if experiment is not None:
            names = {p.name for p in experiments.get(experiment).schema.params}
            if {"protocol", "device"} <= names:
                self.curves.addItem(PAPER_CURVES, PAPER_CURVES)
                self.curves.setItemData(
                    self.curves.count() - 1,
                    "REDP-4862's six curves: FICON and zHPF, each on 10K, 15K and SSD drives",
                    Qt.ToolTipRole)
            for p in experiments.get(experiment).schema.params:
                if p.kind in ("int", "float"):
                    self.param.addItem(p.title, p.name)
                elif p.kind in ("choice", "bool"):
                    self.curves.addItem(p.title, p.name)
        for combo in (self.param, self.curves):
            combo.blockSignals(False)
        self._on_param_current_index_changed(self.param.currentIndex())
        self.run_button.setEnabled(self.param.count() > 0)
        title = experiments.get(experiment).title if experiment else "no experiment"
        self.status.setText(f"{title}: pick a parameter and press Run sweep.")

    def _on_param_current_index_changed(self, _index: int) -> None:
        name = self.param.currentData()
        if name is not None and self.experiment is not None:
            p = experiments.get(self.experiment).schema[name]
            self.values.setText(default_values(p, self.base.get(name, p.default)))

    def build_spec(self) -> SweepSpec:
        """The sweep the set-up bar describes; ParamError with one line if it is bad."""
        if self.experiment is None or self.param.currentData() is None:
            raise ParamError("open a scenario whose experiment has a numeric parameter first")
        schema = experiments.get(self.experiment).schema
        p = schema[self.param.currentData()]
        texts = [t.strip() for t in self.values.text().split(",") if t.strip()]
        if not texts:
            raise ParamError(f"type the values of '{p.title}' to sweep, e.g. 1, 10, 100")
        values = tuple(p.coerce(t) for t in texts)
        base = {k: v for k, v in self.base.items() if k != p.name}
        variants: tuple = (("", {}),)
        curve = self.curves.currentData()
        if curve == PAPER_CURVES:
            variants = PROTOCOL_DEVICE_VARIANTS
            base.pop("protocol", None)
            base.pop("device", None)
        elif curve is not None:
            cp = schema[curve]
            options = cp.choices if cp.kind == "choice" else (False, True)
            # Curve labels in words: "List prefetch", "on"/"off" (not list_prefetch, True).
            variants = tuple(((("on" if c else "off") if isinstance(c, bool) else str(words(c))),
                              {curve: c}) for c in options)
            base.pop(curve, None)
        return SweepSpec(self.experiment, p.name, values, variants, base,
                         scenario=self.scenario)

    def _on_run_button_clicked(self) -> None:
        try:
            spec = self.build_spec()
        except ParamError as exc:
            self.status.setText(exc.human)
            return
        self.start(spec)

    # ---- running ----------------------------------------------------------
    def start(self, spec: SweepSpec) -> None:
        """Run ``spec`` on a worker thread; the chart updates when it finishes."""
        self.spec = spec
        self._thread = QThread(self)
        self._worker = SweepWorker(spec, self.workers)
        self._worker.moveToThread(self._thread)
        self._thread.started.connect(self._worker.run)
        self._worker.progressed.connect(self._on_worker_progressed)
        self._worker.finished.connect(self._on_worker_finished)
        self._worker.failed.connect(self._on_worker_failed)
        self._worker.cancelled.connect(self._on_worker_cancelled)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setRange(0, len(spec.values) * len(spec.variants))
        self.progress.setValue(0)
        self.status.setText("running…")
        self._thread.start()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.isRunning()

    def cancel(self) -> None:
        """Stop the running sweep, the points already running included."""
        if self._worker is not None:
            self._worker.cancel()
            self.status.setText("cancelling…")

    def shutdown(self) -> None:
        """Cancel and wait for the sweep (window closing)."""
        self.cancel()
        if self._thread is not None:
            self._thread.quit()
            self._thread.wait(30_000)

    def _done(self, text: str) -> None:
        self.status.setText(text)
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self._thread.quit()
        self._thread.wait()

    def _on_worker_progressed(self, done: int, total: int) -> None:
        self.progress.setValue(done)

    def _on_worker_finished(self, result: SweepResult) -> None:
        self.result = result
        if self.metric_box.currentData() is None or result.spec.experiment != self._metrics_of:
            self._offer_metrics(result.spec.experiment)
        self._on_metric_index_changed(self.metric_box.currentIndex())
        self._done("done")

    def _on_worker_failed(self, message: str) -> None:
        self._done(f"failed: {message}")

    def _on_worker_cancelled(self) -> None:
        self._done("cancelled")

    def _offer_metrics(self, experiment: str | None) -> None:
        """The experiment's metrics by title (the key is the item's data), before
        any sweep runs, so the choice can be made first; the choice is kept."""
        current = self.metric_box.currentData()
        self._metrics_of = experiment
        self.metric_box.blockSignals(True)
        self.metric_box.clear()
        for m in experiments.get(experiment).metrics if experiment else ():
            self.metric_box.addItem(f"{m.title} ({m.unit})" if m.unit else m.title, m.name)
            self.metric_box.setItemData(self.metric_box.count() - 1, m.help or m.title,
                                        Qt.ToolTipRole)
        index = self.metric_box.findData(current)
        self.metric_box.setCurrentIndex(index if index >= 0 else
                                        (0 if self.metric_box.count() else -1))
        self.metric_box.blockSignals(False)

    def _on_metric_index_changed(self, index: int) -> None:
        metric = self.metric_box.itemData(index) if index >= 0 else None
        if self.result is not None and metric:
            self.chart.show_data(sweep_chart(self.result, metric))


def _lower_first(title: str) -> str:
    """"Pages per I/O" → "pages per I/O" (an acronym such as "IOSQ time" stays)."""
    if len(title) > 1 and title[1].isupper():
        return title
    return title[:1].lower() + title[1:]
