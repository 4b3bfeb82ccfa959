"""The sweep view: vary one parameter, one curve per variant, on a worker thread
with progress and Cancel (the points themselves run on a process pool)."""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QThread
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QProgressBar, QPushButton,
                               QVBoxLayout, QWidget)

from app.sweep import SweepResult, SweepSpec, SweepWorker
from models import experiments
from ui.charts import ChartWidget
from ui.charts.series import ChartData, Series


def sweep_chart(result: SweepResult, metric: str) -> ChartData:
    """One line per variant of ``metric`` against the swept parameter."""
    spec = result.spec
    exp = experiments.get(spec.experiment)
    x_unit = next((p.unit for p in exp.schema.params if p.name == spec.param), "")
    y_unit = next((m.unit for m in exp.metrics if m.name == metric), "")
    x = np.array(spec.values, dtype=float)
    ys = result.metric(metric)
    series = tuple(Series(label or metric, x, ys[v], "line")
                   for v, label in enumerate(result.labels()))
    return ChartData("sweep", f"{exp.title}: {metric} vs {spec.param}", spec.param, x_unit,
                     metric, y_unit, series)


class SweepView(QWidget):
    """Run a :class:`~app.sweep.SweepSpec` and plot one metric's curves."""

    def __init__(self, parent: QWidget | None = None, workers: int | None = None):
        super().__init__(parent)
        self.workers = workers
        self.chart = ChartWidget(self)
        self.metric = QComboBox(self)
        self.metric.currentTextChanged.connect(self._on_metric_changed)
        self.progress = QProgressBar(self)
        self.run_button = QPushButton("Run sweep", self)
        self.cancel_button = QPushButton("Cancel", self)
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.status = QLabel("", self)
        bar = QHBoxLayout()
        for w in (QLabel("Metric:"), self.metric, self.run_button, self.cancel_button,
                  self.progress, self.status):
            bar.addWidget(w)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.chart, 1)
        self.spec: SweepSpec | None = None
        self.result: SweepResult | None = None
        self._thread: QThread | None = None
        self._worker = None
        self.run_button.clicked.connect(lambda: self.spec and self.start(self.spec))

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

    def cancel(self) -> None:
        """Stop the running sweep (points already running finish in their processes)."""
        if self._worker is not None:
            self._worker.cancel()

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
        names = [m.name for m in experiments.get(result.spec.experiment).metrics]
        current = self.metric.currentText()
        self.metric.blockSignals(True)
        self.metric.clear()
        self.metric.addItems(names)
        self.metric.setCurrentText(current if current in names else names[0])
        self.metric.blockSignals(False)
        self._on_metric_changed(self.metric.currentText())
        self._done("done")

    def _on_worker_failed(self, message: str) -> None:
        self._done(f"failed: {message}")

    def _on_worker_cancelled(self) -> None:
        self._done("cancelled")

    def _on_metric_changed(self, metric: str) -> None:
        if self.result is not None and metric:
            self.chart.show_data(sweep_chart(self.result, metric))
