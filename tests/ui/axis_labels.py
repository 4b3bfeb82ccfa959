"""The tick labels pyqtgraph draws on a chart's axis (shared by chart tests)."""
from PySide6.QtGui import QImage, QPainter


def drawn_tick_labels(chart, side: str) -> list[str]:
    """The labels of axis ``side`` ("left", "bottom") as pyqtgraph draws them:
    it leaves out those it has no room for or thinks stand outside the axis."""
    axis = chart.getPlotItem().getAxis(side)
    canvas = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(canvas)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [text for _rect, _flags, text in specs[2]]
