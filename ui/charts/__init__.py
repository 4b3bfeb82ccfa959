"""Charts of a run (pyqtgraph): response split, throughput, cache, queues,
utilisation, CPU modes and tape activity. See docs/charts.md."""
from ui.charts._pyside_fix import keep_singletons_alive

keep_singletons_alive()

from ui.charts.view import ChartsView, ChartWidget  # noqa: E402  (after the fix)

__all__ = ["ChartsView", "ChartWidget"]
