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


COMPONENTS = ("CP 0", "CP 1", "CP 2", "CP 3", "FICON CHPIDs", "Rank 0000", "Rank 0001",
              "SGDB2", "SGTSO", "zHPF CHPIDs", "zIIP 4", "zIIP 5")


@pytest.mark.parametrize("width", [760, 960])
def test_long_names_too_wide_at_the_smallest_size_take_two_lines(qtbot, width):
    """rmf_sysa's Utilisation per component read 'FICON CHPIDsRank 0000' in the
    GUI and on each half of a before/after slide: twelve names shrunk to 9 pt
    and still ran together."""
    chart = ChartWidget(minimum=(300, 200))
    qtbot.addWidget(chart)
    x = np.arange(len(COMPONENTS), dtype=float)
    busy = np.array([45.1, 44.8, 45.0, 45.0, 0.8, 26.5, 2.3, 3.2, 0.3, 0.4, 27.2, 27.2])
    chart.show_data(ChartData("utilisation", "Utilisation per component", "Component", "",
                              "Busy", "%", (Series("busy", x, busy, "bar"),), COMPONENTS))
    chart.resize(width, 420)
    chart.show()
    qtbot.waitExposed(chart)
    axis = chart.getPlotItem().getAxis("bottom")
    names = [text for _, text in axis._tickLevels[0]]
    assert "FICON\nCHPIDs" in names and "CP 0" in names     # short names stay whole
    metrics = QFontMetricsF(axis.style["tickFont"])
    room = _room(chart) - view.LABEL_GAP_PX * view.style.SCALE
    assert max(metrics.horizontalAdvance(line) for n in names for line in n.split("\n")) <= room
    # Wide again: the names are whole on one line.
    chart.resize(2400, 420)
    qtbot.wait(50)
    assert [text for _, text in axis._tickLevels[0]] == list(COMPONENTS)


@pytest.mark.parametrize("height", [240, 300])
def test_the_value_over_the_tallest_bar_stays_in_view_on_a_short_chart(qtbot, height):
    """Compare's halves at 1280x800 are about 280 px tall: RMF's 1.14 ms bar
    had its value cut off under the legend's band (18 % headroom is less
    than a label's height there)."""
    chart = ChartWidget(minimum=(300, 200))
    qtbot.addWidget(chart)
    x = np.arange(4, dtype=float)
    parts = [Series(name, x, np.array(v), "stack") for name, v in (
        ("IOSQ", [0.005, 0.0, 0.18, 0.0]), ("PEND", [0.145, 0.12, 0.18, 0.12]),
        ("DISC", [0.25, 0.03, 0.52, 0.07]), ("CONN", [0.25, 0.06, 0.26, 0.06]))]
    chart.show_data(ChartData("measured_response", "Measured vs what-if: I/O response time",
                              "", "", "Response time", "ms", tuple(parts),
                              ("SGDB2\nRMF", "SGDB2\nwhat-if", "SGTSO\nRMF", "SGTSO\nwhat-if")))
    chart.resize(620, height)
    chart.show()
    qtbot.waitExposed(chart)
    qtbot.wait(20)
    item = chart.getPlotItem()
    tallest = max(chart._bar_labels, key=lambda lab: lab.pos().y())
    assert tallest.isVisible() and tallest.textItem.toPlainText() == "1.14"
    top = tallest.mapRectToItem(item, tallest.boundingRect()).top()
    assert top >= item.vb.geometry().top() - 0.5, (top, item.vb.geometry().top())
