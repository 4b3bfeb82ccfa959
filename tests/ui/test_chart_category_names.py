"""Category names under a bar chart never collide, however many there are.

The real z/OS 2.5 answers drawn together have 14 storage groups: at 1280x800
"I/O response time by component" read "SSID 5002STGWORKFTPSMF/5000", and
Measured vs model's "SSID 5000 volumes / model" lost its second line.
"""
import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QFontMetricsF

from app.replay.series import ChartData, Series
from ui.charts.view import ChartWidget

GROUPS = ("SSID 5000 volumes", "SSID 5001 volumes", "SSID 5002 volumes", "SSID 5003 volumes",
          "STGWORK", "FTPSMF/5000", "FTPSMF/5001", "DVMGRP", "STGGRP", "DB2STG/5000",
          "DB2STG/5001", "LOGR", "DVMCOPY", "STGWORK2")


def _chart(qtbot, names, width: int) -> ChartWidget:
    chart = ChartWidget(minimum=(300, 200))
    qtbot.addWidget(chart)
    x = np.arange(len(names), dtype=float)
    parts = (Series("PEND", x, np.full(len(names), 0.12), "stack"),
             Series("CONN", x, np.full(len(names), 0.1), "stack"))
    chart.show_data(ChartData("response", "I/O response time by component", "Storage group",
                              "", "Response time", "ms", parts, tuple(names)))
    chart.resize(width, 560)
    chart.show()
    qtbot.waitExposed(chart)
    qtbot.wait(50)
    return chart


def _boxes(chart):
    """Each written line of the names as (left, right, line number), in pixels."""
    axis = chart.getPlotItem().getAxis("bottom")
    metrics = QFontMetricsF(axis.style["tickFont"])
    vb = chart.getPlotItem().vb
    out = []
    for x, text in axis._tickLevels[0]:
        middle = vb.mapViewToScene(QPointF(x, 0)).x()
        lines = text.split("\n")
        # pyqtgraph centres the whole text on its tick, by its widest line
        half = max(metrics.horizontalAdvance(s) for s in lines) / 2
        out += [(middle - half, middle + half, k) for k, s in enumerate(lines) if s]
    return out, axis, metrics


@pytest.mark.parametrize("width", [600, 850, 1400])
def test_fourteen_storage_groups_names_never_touch(qtbot, width):
    chart = _chart(qtbot, GROUPS, width)
    boxes, axis, metrics = _boxes(chart)
    for i, (l1, r1, k1) in enumerate(boxes):
        for l2, r2, k2 in boxes[i + 1:]:
            assert k1 != k2 or r1 <= l2 or r2 <= l1, (width, (l1, r1, k1), (l2, r2, k2))
    # every name is written whole, and the axis title stands below the lowest line
    texts = [t for _, t in axis._tickLevels[0]]
    assert [" ".join(t.split()) for t in texts] == list(GROUPS)
    lowest = max(k for _, _, k in boxes) + 1
    names_bottom = (axis.sceneBoundingRect().top() + axis.style["tickTextOffset"][1]
                    + max(0, axis.style["tickLength"]) + lowest * metrics.lineSpacing())
    assert axis.label.sceneBoundingRect().top() + 5 >= names_bottom - 1


def test_a_measured_vs_model_name_keeps_all_its_lines(qtbot):
    names = [f"{g}\n{who}" for g in GROUPS[:2] + ("STGWORK",) for who in ("RMF", "model")]
    chart = _chart(qtbot, names, 600)
    texts = [t for _, t in chart.getPlotItem().getAxis("bottom")._tickLevels[0]]
    assert [t.split("\n")[-1] for t in texts] == ["RMF", "model"] * 3
    boxes, _, _ = _boxes(chart)
    for i, (l1, r1, k1) in enumerate(boxes):
        for l2, r2, k2 in boxes[i + 1:]:
            assert k1 != k2 or r1 <= l2 or r2 <= l1


def test_too_many_names_for_three_rows_write_every_nth_and_list_all_in_the_tooltip(qtbot):
    names = [f"STORAGE{i:02d}" for i in range(60)]
    chart = _chart(qtbot, names, 600)
    boxes, axis, _ = _boxes(chart)
    for i, (l1, r1, k1) in enumerate(boxes):
        for l2, r2, k2 in boxes[i + 1:]:
            assert k1 != k2 or r1 <= l2 or r2 <= l1
    written = [t for _, t in axis._tickLevels[0] if t]
    assert 2 <= len(written) < 60 and written[0] == "STORAGE00"
    assert axis.toolTip().split("\n") == names
