"""The x axis's end labels stay on an exported chart.

A curve over 0–100 % of an index lost its "100" on slides: the image's edge
cut it (960×540 at 2×), and at a small size pyqtgraph hid it (and "0") for
want of room beside the axis.
"""
import numpy as np
import pytest

from app.export import chart_image
from app.replay.series import ChartData, Series
from tests.ui.axis_labels import drawn_tick_labels
from ui.charts.view import ChartWidget


def _chart(qtbot, size) -> ChartWidget:
    chart = ChartWidget()
    qtbot.addWidget(chart)
    x = np.array([1, 5, 10, 20, 40, 60, 80, 100.0])
    chart.show_data(ChartData("io", "Time per list prefetch I/O", "Index read", "%",
                              "Time", "ms", (Series("zHPF, SSD", x, 2 + np.sin(x / 30)),)))
    chart.resize(*size)
    chart.show()
    qtbot.waitExposed(chart)
    return chart


def _drawn_x_labels(chart) -> list[str]:
    return drawn_tick_labels(chart, "bottom")


@pytest.mark.parametrize("size", [(640, 400), (960, 540)])
def test_the_first_and_last_x_labels_are_drawn(qtbot, size):
    texts = _drawn_x_labels(_chart(qtbot, size))
    assert "0" in texts and "100" in texts, texts


def test_nothing_touches_the_right_edge_of_a_slide_image(qtbot):
    chart = _chart(qtbot, (960, 540))
    image = chart_image(chart, 2.0, (960, 540))          # as a slide renders it
    w, h = image.width(), image.height()
    ink = [(x, y) for x in range(w - 6, w) for y in range(h)
           if image.pixelColor(x, y).lightness() < 128]
    assert not ink, f"{len(ink)} dark pixels in the last 6 columns, e.g. {ink[:3]}"
