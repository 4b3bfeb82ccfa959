"""Grouped bars' values never run into each other or under the legend.

rmf_sysa's "Measured vs model: request hit ratio" at 1024×768: the values
of a group's two bars were drawn at a fixed size wider than the bars
("0.8940.904"), and the legend stood over SSID 0007's bars and values.
"""
import pyqtgraph as pg
import pytest
from PySide6.QtGui import QFontMetricsF

from app.replay.series import _pairs
from ui.charts.view import ChartWidget

ROWS = [("SGDB2", 0.894, 0.904), ("SGTSO", 0.953, 0.963), ("SSID 0006", 0.87, 0.911),
        ("SSID 0007", 0.953, 0.963)]


def _chart(qtbot, width: int) -> ChartWidget:
    chart = ChartWidget(minimum=(300, 200))
    qtbot.addWidget(chart)
    chart.show_data(_pairs("measured_hit", "Measured vs model: request hit ratio",
                           "Request hit ratio", "", ROWS, "", y_max=1.0))
    chart.resize(width, 420)
    chart.show()
    qtbot.waitExposed(chart)
    return chart


@pytest.mark.parametrize("width", [380, 560, 900])
def test_grouped_values_never_collide(qtbot, width):
    chart = _chart(qtbot, width)
    shown = [i for i in chart.getPlotItem().items
             if isinstance(i, pg.TextItem) and i.isVisible()]
    boxes = []
    for lab in shown:
        metrics = QFontMetricsF(lab.textItem.font())
        w = metrics.horizontalAdvance(lab.textItem.toPlainText())
        centre = chart.getPlotItem().vb.mapViewToScene(lab.pos()).x()
        boxes.append((centre - w / 2, centre + w / 2))
    boxes.sort()
    assert all(a[1] < b[0] for a, b in zip(boxes, boxes[1:])), boxes
    legend = chart.getPlotItem().legend.sceneBoundingRect()
    for lab in shown:
        assert not legend.intersects(lab.sceneBoundingRect())
    if width >= 560:
        assert len(shown) == 2 * len(ROWS)      # room enough: every value shown


@pytest.mark.parametrize("width, columns", [(700, 1), (1000, 2)])
def test_a_long_run_name_keeps_every_legend_entry_on_the_chart(qtbot, width, columns):
    """A what-if of two changes names its bars at length: the legend puts its
    entries one a row rather than run off the chart's left edge (at 1024x768
    rmf_whatif_baseline's cache step showed neither 'measured (RMF)' nor the
    start of the what-if's name)."""
    chart = ChartWidget(minimum=(300, 200))
    qtbot.addWidget(chart)
    name = "what-if: SGDB2 on SSD; SSID 0006 Cache size: 0.25 GB → 0.375 GB"
    chart.show_data(_pairs("measured_hit", "Measured vs model: request hit ratio",
                           "Request hit ratio", "", ROWS, "", y_max=1.0, model=name))
    chart.resize(width, 420)
    chart.show()
    qtbot.waitExposed(chart)
    legend = chart.getPlotItem().legend
    shown = chart.mapFromScene(legend.sceneBoundingRect()).boundingRect()
    assert shown.left() >= 0 and shown.right() <= chart.width()
    texts = [label.text for _, label in legend.items]
    assert texts == ["measured (RMF)", name]
    assert legend.columnCount == columns          # side by side where they fit
