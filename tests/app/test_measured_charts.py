"""Measured vs model as charts (issue 31): per storage group and control unit,
what RMF measured beside what the model gave, for runs of imported drawings only."""
from pathlib import Path

import numpy as np
import pytest

from app.replay.series import (MEASURED, MODELLED, derive_charts, measured_hit_chart,
                               measured_rate_chart, measured_response_chart)
from models import experiments
from models.rmf import read_reports
from models.rmf.drawing import build

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "rmf" / "sysa-0900-full.txt"


@pytest.fixture(scope="module")
def imported_run():
    """The sample on small units (fitted to them), a short run."""
    system = read_reports([SAMPLE])
    for unit in system.interval.cache_units.values():
        unit.cache_mb = 256.0
    sc = build(system)
    for n in sc.nodes.values():
        if n.kind in ("wl_io", "wl_cpu"):
            n.properties["duration_s"] = 0.5
    return experiments.run_experiment("custom", scenario=sc)


def _bars(chart):
    assert [s.name for s in chart.series] == [MEASURED, MODELLED]
    return {c: (m, g) for c, m, g in zip(chart.categories, chart.series[0].y.tolist(),
                                         chart.series[1].y.tolist())}


def test_the_rate_chart_is_rmf_beside_the_models_component_figures(imported_run):
    bars = _bars(measured_rate_chart(imported_run))
    measured = imported_run.measured["measured"]
    assert set(bars) == {"SGDB2", "SGTSO"}          # storage groups, canvas labels
    for group, (m, got) in bars.items():
        assert m == measured[group]["io_rate"]
        assert got == imported_run.components[group]["io_rate"]


def test_the_response_chart_stacks_rmfs_parts_beside_the_models(imported_run):
    chart = measured_response_chart(imported_run)
    assert [s.name for s in chart.series] == ["IOSQ", "PEND", "DISC", "CONN"]
    assert all(s.kind == "stack" for s in chart.series)
    assert chart.categories == ("SGDB2\nRMF", "SGDB2\nmodel", "SGTSO\nRMF", "SGTSO\nmodel")
    measured = imported_run.measured["measured"]
    for s, key in zip(chart.series, ("iosq_ms", "pend_ms", "disc_ms", "conn_ms")):
        for k, group in enumerate(("SGDB2", "SGTSO")):
            assert s.y[2 * k] == measured[group][key]
            assert s.y[2 * k + 1] == imported_run.components[group][key]
    # The stack's top is the response time RMF printed (its four parts add up).
    total = sum(s.y[0] for s in chart.series)
    assert total == pytest.approx(measured["SGDB2"]["resp_ms"], abs=0.002)


def test_the_hit_chart_compares_request_hit_ratios_of_groups_and_units(imported_run):
    bars = _bars(measured_hit_chart(imported_run))
    measured = imported_run.measured["measured"]
    assert list(bars) == ["SGDB2", "SGTSO", "SSID 0006", "SSID 0007"]
    assert bars["SSID 0006"] == (measured["SSID 0006"]["read_hit_ratio"],
                                 imported_run.components["SSID 0006"]["req_read_hit_ratio"])
    # A group's model ratio is its volumes' request ratio, weighted by their reads.
    vols = imported_run.members["SGDB2"].values()
    reads = sum(v["read_rate"] for v in vols)
    want = sum(v["read_rate"] * v["req_read_hit_ratio"] for v in vols) / reads
    assert bars["SGDB2"][1] == pytest.approx(want)
    assert abs(bars["SGDB2"][0] - bars["SGDB2"][1]) < 0.1


def test_the_csv_names_each_bar_on_one_line(imported_run):
    rows = measured_response_chart(imported_run).csv_rows()
    assert rows[0][:3] == ["series", "", "Response time (ms)"]
    assert ["IOSQ", "SGDB2 RMF"] == rows[1][:2]
    assert not any("\n" in str(cell) for row in rows for cell in row)


def test_a_run_without_measurements_has_no_such_chart():
    result = experiments.run_experiment("custom", {"duration_s": 0.2})
    assert result.components                   # a storage run, but drawn by hand
    keys = [c.key for c in derive_charts(result)]
    assert not [k for k in keys if k.startswith("measured")]
    assert measured_rate_chart(result) is None


def test_the_charts_come_with_the_run(imported_run):
    keys = [c.key for c in derive_charts(imported_run)]
    assert keys[-3:] == ["measured_rate", "measured_response", "measured_hit"]
    assert all(np.isfinite(s.y).all() for c in derive_charts(imported_run)
               if c.key.startswith("measured") for s in c.series)


def test_the_response_charts_axis_names_storage_groups_as_groups():
    """The Large shop's bars are its storage groups (100 volumes each), not volumes."""
    from app.replay.series import response_chart
    from models.drawing import documents
    from models.experiments import run_experiment

    shop = run_experiment("custom", {"duration_s": 0.01}, scenario=documents.load_case("large_shop"))
    assert response_chart(shop).x_label == "Storage group"
    one = run_experiment("custom", {"duration_s": 0.05})
    assert response_chart(one).x_label == "Volume"
