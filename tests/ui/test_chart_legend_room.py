"""A line chart's legend sits over empty room, never over its lines.

The Large shop's queue-length chart (eight volumes) had its legend drawn
over the highest lines on the slide: the room kept for it was a fixed
quarter of the range, whatever the legend's height.
"""
import numpy as np
import pytest
from PySide6.QtCore import QPointF

from app.export import chart_image
from app.replay.series import ChartData, Series
from ui.charts.view import ChartWidget


@pytest.mark.parametrize("n", [2, 8])
def test_the_legend_stays_above_the_highest_line_on_a_slide(qtbot, n):
    chart = ChartWidget()
    qtbot.addWidget(chart)
    t = np.linspace(0.0, 1.0, 200)
    series = tuple(Series(f"DB2A00{i + 1} (mean per interval)", t, 8 + np.sin(9 * t + i))
                   for i in range(n))
    chart.show_data(ChartData("queues", "Queue lengths", "Time", "s", "Outstanding I/Os", "",
                              series))
    chart.resize(960, 540)
    chart.show()
    qtbot.waitExposed(chart)
    chart_image(chart, 2.0, (960, 540))                    # laid out as on a slide
    chart.resize(960, 540)
    qtbot.wait(50)
    item = chart.getPlotItem()
    top_value = max(float(s.y.max()) for s in series)
    line_top = item.vb.mapViewToScene(QPointF(0.0, top_value)).y()
    legend_bottom = item.legend.sceneBoundingRect().bottom()
    assert legend_bottom < line_top, (legend_bottom, line_top)
