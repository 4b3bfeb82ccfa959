"""Published vs model: the bundled targets of one case study beside the model's
figures, with the deviation (for the results dock)."""
from __future__ import annotations

from PySide6.QtWidgets import QTableWidget, QTableWidgetItem

from models import calibration

HEADER = ("Target", "Metric", "Published", "Model", "Deviation", "Verdict")


def _expected(exp: dict) -> str:
    if "value" not in exp:
        return f"{exp.get('min', '−∞')} – {exp.get('max', '∞')}"
    if "rel_tol" in exp:
        return f"{exp['value']:g} ± {exp['rel_tol'] * 100:g}%"
    return f"{exp['value']:g} ± {exp['abs_tol']:g}"


def _deviation(model: float, exp: dict) -> str:
    if "value" in exp:
        if exp["value"] and "rel_tol" in exp:
            return f"{(model / exp['value'] - 1) * 100:+.1f}%"
        return f"{model - exp['value']:+.3g}"
    lo, hi = exp.get("min", float("-inf")), exp.get("max", float("inf"))
    return "in range" if lo <= model <= hi else f"{model - (lo if model < lo else hi):+.3g} outside"


def published_rows(experiment: str, evaluator: calibration.Evaluator | None = None) -> list[tuple]:
    """One row per bundled target of ``experiment`` (runs the model as validate does)."""
    ev = evaluator or calibration.Evaluator()
    rows = []
    for t in calibration.load_targets():
        if t["experiment"] != experiment:
            continue
        v = ev.evaluate(t)
        metric = t["metric"] + (" ratio" if t.get("baseline") else "")
        if v.model is None:
            rows.append((t["id"], metric, _expected(t["expect"]), "—", v.error or "", "not run"))
        else:
            rows.append((t["id"], metric, _expected(t["expect"]), f"{v.model:.4g}",
                         _deviation(v.model, t["expect"]), "PASS" if v.ok else "FAIL"))
    return rows


class PublishedTable(QTableWidget):
    """The published-vs-model table of one case study."""

    def __init__(self, parent=None):
        super().__init__(0, len(HEADER), parent)
        self.setHorizontalHeaderLabels(HEADER)
        self.setStyleSheet("font-size: 13pt;")
        self.rows: list[tuple] = []

    def show_experiment(self, experiment: str, evaluator: calibration.Evaluator | None = None) -> None:
        """Evaluate and show the targets of ``experiment``."""
        self.rows = published_rows(experiment, evaluator)
        self.setRowCount(len(self.rows))
        for r, row in enumerate(self.rows):
            for c, text in enumerate(row):
                self.setItem(r, c, QTableWidgetItem(str(text)))
        self.resizeColumnsToContents()
