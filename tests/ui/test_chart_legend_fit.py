"""A legend over the lines stays within the plot at half a slide's width.

The queue lengths of rmf_sysa (six volumes, "DB2001 (mean per interval)")
had a two-column legend wider than the plot at 640 px, the half of a
before/after picture: it ran past the plot's left edge and read
"B2001 (mean per interval)"."""
import numpy as np
import pytest

from app.replay.series import ChartData, Series
from ui.charts.view import ChartWidget

NAMES = ("DB2001 (mean per interval)", "DB2002 (mean per interval)",
         "DB2003 (mean per interval)", "DB2004 (mean per interval)", "TSO001", "TSO002")


def _chart(qtbot, width):
    chart = ChartWidget(minimum=(300, 200))
    qtbot.addWidget(chart)
    t = np.linspace(0, 10, 50)
    lines = tuple(Series(n, t, np.abs(np.sin(t + i)), "step") for i, n in enumerate(NAMES))
    chart.show_data(ChartData("queues", "Queue lengths", "Time", "s", "Outstanding I/Os", "",
                              lines))
    chart.resize(width, 686)
    chart.show()
    qtbot.waitExposed(chart)
    qtbot.wait(20)
    return chart


@pytest.mark.parametrize("width", [560, 640])
def test_the_legend_is_no_wider_than_the_plot(qtbot, width):
    chart = _chart(qtbot, width)
    item = chart.getPlotItem()
    legend = item.legend
    left = legend.mapRectToItem(item, legend.boundingRect()).left()
    assert left >= item.vb.geometry().left(), (left, item.vb.geometry().left())
    assert legend.columnCount == 1


def test_a_wide_plot_keeps_two_columns(qtbot):
    chart = _chart(qtbot, 1600)
    assert chart.getPlotItem().legend.columnCount == 2
