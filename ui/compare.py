"""A/B comparison: two runs of a scenario side by side with a delta table in the
published style ("elapsed time ratio", "rate ratio")."""
from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget

from ui.charts import ChartsView

#: Metrics whose B/A ratio the case-study papers name, and the name they use.
RATIO_NAMES = {"elapsed_s": "elapsed time ratio", "throughput_mb_s": "rate ratio",
               "pages_per_s": "rate ratio", "cpu_s": "CPU time ratio", "cpu_ms": "CPU time ratio",
               "io_ms": "I/O time ratio", "srb_switches": "switch ratio"}


def delta_rows(a, b) -> list[tuple[str, float, float, float | None, str]]:
    """(metric, A, B, B/A or None, published-style name) for metrics both runs report."""
    rows = []
    for name, va in a.metrics.items():
        if name not in b.metrics:
            continue
        va, vb = float(va), float(b.metrics[name])
        ratio = vb / va if va else None
        rows.append((name, va, vb, ratio, RATIO_NAMES.get(name, f"{name} ratio")))
    return rows


class CompareView(QWidget):
    """Runs A and B: their charts side by side above the delta table."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.left, self.right = ChartsView(self), ChartsView(self)
        self.table = QTableWidget(0, 4, self)
        self.table.setHorizontalHeaderLabels(["", "A", "B", "B / A"])
        self.table.setStyleSheet("font-size: 13pt;")
        top = QHBoxLayout()
        top.addWidget(self.left)
        top.addWidget(self.right)
        layout = QVBoxLayout(self)
        layout.addLayout(top, 3)
        layout.addWidget(self.table, 1)

    def set_results(self, a, b, label_a: str = "A", label_b: str = "B") -> None:
        """Show runs ``a`` and ``b``."""
        self.left.set_result(a)
        self.right.set_result(b)
        rows = delta_rows(a, b)
        self.table.setHorizontalHeaderLabels(["", label_a, label_b, f"{label_b} / {label_a}"])
        self.table.setRowCount(len(rows))
        for r, (name, va, vb, ratio, label) in enumerate(rows):
            cells = (f"{label} ({name})", f"{va:.4g}", f"{vb:.4g}",
                     "—" if ratio is None else f"{ratio:.3g}")
            for c, text in enumerate(cells):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
