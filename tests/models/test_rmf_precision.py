"""The model's CPU busy is printed to RMF's precision (two decimals) beside
RMF's own: rmf_sysa's CP 0 read 45.12 measured beside 45.053 (and 45.1 in
CPU activity)."""
from pathlib import Path

from app import scenario_io
from models import experiments

ROOT = Path(__file__).resolve().parents[1].parent


def _decimals(x) -> int:
    text = f"{x}"
    return len(text.split(".")[1]) if "." in text else 0


def test_cpu_busy_has_rmfs_two_decimals_in_both_tables():
    sc = scenario_io.load(ROOT / "resources" / "scenarios" / "rmf_sysa.json")
    result = experiments.run_experiment("custom", scenario=sc)
    tables = {t.title: t for t in result.reports}
    cpu = tables["CPU activity"]
    busy = [row[cpu.columns.index("busy %")] for row in cpu.rows]
    assert busy and all(_decimals(b) <= 2 for b in busy)
    assert any(_decimals(b) == 2 for b in busy)          # not cut to one (45.1)
    beside = [row for row in tables["Measured vs model"].rows
              if row[0].startswith(("CP ", "zIIP ")) and row[1] == "busy %"]
    assert beside
    for label, _, measured, model, diff, _ in beside:
        assert _decimals(measured) <= 2 and _decimals(model) <= 2 and _decimals(diff) <= 2, label
