"""A stacked bar chart of many categories stays readable at a projector's width.

The Large shop's ten storage groups ran together at 1024 px ("DB2ADB2BDB2C",
"0.2120.2140.218"): a third of the width was kept for the legend, and names
and values kept their full size.
"""
import numpy as np
import pytest
from PySide6.QtGui import QFontMetricsF

from app.replay.series import ChartData, Series
from ui.charts import view
from ui.charts.view import ChartWidget

GROUPS = ("DB2A", "DB2B", "DB2C", "DB2D", "DB2E", "DB2F", "BAT1", "BAT2", "BAT3", "BAT4")


def _chart(qtbot, width: int) -> ChartWidget:
    chart = ChartWidget(minimum=(300, 200))
    qtbot.addWidget(chart)
    x = np.arange(10, dtype=float)
    disc = np.array([3.0, 3.3, 3.3, 0.05, 0.05, 0.05, 17.4, 19.2, 12.1, 12.7])
    parts = (Series("PEND", x, np.full(10, 0.12), "stack"), Series("DISC", x, disc, "stack"),
             Series("CONN", x, np.full(10, 0.045), "stack"))
    chart.show_data(ChartData("response", "I/O response time by component", "Storage group", "",
                              "Response time", "ms", parts, GROUPS))
    chart.resize(width, 420)
    chart.show()
    qtbot.waitExposed(chart)
    return chart


def _room(chart) -> float:
    vb = chart.getPlotItem().vb
    lo, hi = vb.viewRange()[0]
    return vb.width() / (hi - lo)


@pytest.mark.parametrize("width", [620, 900])
def test_group_names_and_values_do_not_run_together(qtbot, width):
    chart = _chart(qtbot, width)
    room = _room(chart)
    tick_font = chart.getPlotItem().getAxis("bottom").style["tickFont"]
    assert max(QFontMetricsF(tick_font).horizontalAdvance(g) for g in GROUPS) < room
    for label in chart._bar_labels:
        if label.isVisible():
            text = label.textItem.toPlainText()
            assert QFontMetricsF(label.textItem.font()).horizontalAdvance(text) < room, text
    assert any(label.isVisible() for label in chart._bar_labels)
    assert chart._legend_above            # the legend takes no bar's width


def test_a_roomy_chart_keeps_full_size_names(qtbot):
    chart = _chart(qtbot, 1400)
    assert chart.getPlotItem().getAxis("bottom").style["tickFont"].pointSizeF() == \
        pytest.approx(view.style.font(view.style.TICK_PT).pointSizeF())
