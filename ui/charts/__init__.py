"""Charts of a run (pyqtgraph): response split, throughput, cache, queues,
utilisation, CPU modes and tape activity. See docs/charts.md."""
from ui.charts.view import ChartsView, ChartWidget

__all__ = ["ChartsView", "ChartWidget"]
