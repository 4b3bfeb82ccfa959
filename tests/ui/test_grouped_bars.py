"""Grouped bars (measured beside model): each series' bar sits beside the
other's in its category, never on top of it."""
import numpy as np
import pyqtgraph as pg

from app.replay.series import MEASURED, MODELLED, ChartData, Series
from ui.charts.view import ChartWidget


def test_two_bar_series_stand_side_by_side(qtbot):
    idx = np.arange(2, dtype=float)
    data = ChartData("measured_rate", "Measured vs model: I/O rate", "", "", "I/O rate", "/s",
                     (Series(MEASURED, idx, np.array([874.0, 48.1]), "bar"),
                      Series(MODELLED, idx, np.array([860.0, 47.0]), "bar")),
                     ("SGDB2", "SGTSO"))
    w = ChartWidget()
    qtbot.addWidget(w)
    w.show_data(data)
    bars = [i for i in w.getPlotItem().items if isinstance(i, pg.BarGraphItem)]
    assert len(bars) == 2
    spans = []
    for b in bars:
        x, width = np.asarray(b.opts["x"]), b.opts["width"]
        spans.append((x - width / 2, x + width / 2))
    (l0, r0), (l1, r1) = spans
    assert np.all(r0 <= l1 + 1e-9)                      # measured left of model, no overlap
    assert np.all((l0 > -0.5) & (r1 < idx + 0.5))       # both inside their category
    labels = [i.toPlainText() for i in w.getPlotItem().items if isinstance(i, pg.TextItem)]
    assert sorted(labels) == sorted(["874", "48.1", "860", "47"])   # one value per bar
