"""Bar value labels: one per bar up to a readable count, none past it.

A drawing with thousands of volumes made a bar per volume each with its
own label item: unreadable, and those items took minutes to free at exit.
"""
import numpy as np
import pyqtgraph as pg
import pytest

from app.replay.series import ChartData, Series
from ui.charts.view import MAX_BAR_LABELS, ChartWidget


def _bars(n: int) -> ChartData:
    y = np.linspace(1.0, 2.0, n)
    return ChartData("busy", "Volume busy", "Volume", "", "Busy", "%",
                     (Series("busy", np.arange(n, dtype=float), y, "bar"),),
                     tuple(f"VOL{i}" for i in range(n)))


@pytest.mark.parametrize("n, labels", [(3, 3), (MAX_BAR_LABELS, MAX_BAR_LABELS),
                                       (MAX_BAR_LABELS + 1, 0), (2000, 0)])
def test_bars_are_labelled_only_while_the_labels_can_be_read(qtbot, n, labels):
    chart = ChartWidget()
    qtbot.addWidget(chart)
    chart.show_data(_bars(n))
    texts = [i for i in chart.getPlotItem().items if isinstance(i, pg.TextItem)]
    assert len(texts) == labels
    assert len(chart.getPlotItem().getAxis("bottom")._tickLevels[0]) == n   # every bar named
