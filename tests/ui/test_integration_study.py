"""Run ▸ Compare… and Sweep… on the current scenario, through the window."""
import pytest


@pytest.fixture
def db2(window):
    window.open_case_or_file("db2_io")
    return window


def test_compare_runs_two_variants_side_by_side_and_records_both(db2, qtbot):
    db2.study.a.compare.trigger()
    assert db2.tab_name() == "compare"
    cv = db2.study.compare_view
    cv.param.setCurrentIndex(cv.param.findData("cache"))
    # The case opens cold (issue 21): A is its cache, B the other choice,
    # picked from the parameter's choices, not typed into a free-text field.
    assert (cv.choice_a.currentData(), cv.choice_b.currentData()) == ("cold", "resident")
    assert cv.choice_a.isVisibleTo(cv) and not cv.value_a.isVisibleTo(cv)
    assert [cv.choice_a.itemData(i) for i in range(cv.choice_a.count())] == \
        list(db2.editor.scenario.param("cache").choices)
    with qtbot.waitSignal(db2.study.compare_runner.done, timeout=60_000):
        cv.run_button.click()
        assert cv.cancel_button.isEnabled()
    assert cv.label_a.text() == "Cache at the start = cold"
    assert cv.label_b.text() == "Cache at the start = resident"
    rows = {cv.table.item(r, 0).text(): cv.table.item(r, 3).text()
            for r in range(cv.table.rowCount())}
    assert float(rows["I/O response time (ms)"]) < 0.5        # staging from the drives is slow
    assert list(cv.left.charts()) and list(cv.left.charts()) == list(cv.right.charts())
    labels = [r.label for r in db2.study.history.runs()]
    assert labels == ["compare: Cache at the start = resident",
                      "compare: Cache at the start = cold"]


def test_compare_refuses_a_bad_value_with_its_reason(db2):
    db2.study.show_compare()
    cv = db2.study.compare_view
    cv.param.setCurrentIndex(cv.param.findData("pages"))
    cv.value_b.setText("999")
    cv.run_button.click()
    assert "out of range" in cv.status.text() and not db2.study.compare_runner.running


def test_compare_of_a_scenario_that_cannot_run_says_why(window, monkeypatch):
    seen = []
    monkeypatch.setattr(window, "alert", lambda title, text: seen.append(title))
    window.new_scenario()
    window.study.a.compare.trigger()
    assert seen == ["The scenario cannot run yet"]


def test_sweep_from_the_run_menu_plots_one_curve_per_choice(db2, qtbot):
    db2.study.a.sweep.trigger()
    sv = db2.study.sweep_view
    assert db2.tab_name() == "sweep" and sv.param.currentData() == "pages"
    sv.values.setText("1, 32")
    sv.curves.setCurrentIndex(sv.curves.findData("layout"))
    sv.run_button.click()
    qtbot.waitUntil(lambda: sv.status.text() == "done", timeout=60_000)
    sv.metric_box.setCurrentIndex(sv.metric_box.findData("io_ms"))
    assert [s.name for s in sv.chart.data.series] == ["contiguous", "discontiguous"]
    assert sv.chart.data.x_label == "Pages per I/O"         # the parameter's title
    assert sv.chart.data.y_label == "I/O response time"     # the metric's title
    assert sv.chart.data.title == "One DB2 I/O: I/O response time vs pages per I/O"
    io = sv.result.metric("io_ms")
    assert (io[:, 1] > io[:, 0]).all()                 # 32 pages take longer than 1
    assert db2.current_chart() is sv.chart             # Export acts on the sweep chart


def test_a_bad_sweep_value_is_refused(db2):
    db2.study.show_sweep()
    sv = db2.study.sweep_view
    sv.values.setText("1, lots")
    sv.run_button.click()
    assert "lots" in sv.status.text() and not sv.running


def test_clicking_the_sweep_tab_loads_the_scenario_and_keeps_the_set_up(db2):
    """The Sweep tab brought forward by its tab, not the menu, offers the
    scenario's parameters; coming back to it keeps what the user typed."""
    db2.show_view("sweep")
    sv = db2.study.sweep_view
    assert sv.experiment == "db2_io" and sv.param.currentData() == "pages"
    sv.values.setText("1, 8")
    db2.show_view("canvas")
    db2.show_view("sweep")
    assert sv.values.text() == "1, 8"
    db2.open_case_or_file("db2_runstats_sampling")
    db2.show_view("compare")
    assert db2.study.compare_view.experiment == "db2_runstats_sampling"
    db2.show_view("sweep")
    assert sv.experiment == "db2_runstats_sampling"
    assert sv.curves.findText("Protocol × device (paper)") >= 0


def test_compare_two_stored_runs_of_an_imported_drawing_runs_them_again_beside_rmf(window,
                                                                                   qtbot):
    """History keeps run-wide metrics only: two stored runs of drawings imported
    from the same RMF reports offer "Run before and after", which runs both
    drawings again and sets RMF's measured figures beside them."""
    import json
    from pathlib import Path

    from app.history import RunRecord
    from models import experiments
    from models.rmf import read_reports
    from models.rmf.drawing import build

    sample = Path(__file__).resolve().parents[1] / "data" / "rmf" / "sysa-0900-full.txt"
    base = build(read_reports([sample]))
    for n in base.nodes.values():
        if "duration_s" in n.properties:
            n.properties["duration_s"] = 0.1
        if "cache_gb" in n.properties:
            n.properties["cache_gb"] = 0.1
    ssd = json.loads(json.dumps(base.to_dict()))
    for n in ssd["nodes"]:                  # the storage groups' volumes on SSD
        if n["kind"] == "sg_hdd15k":
            n["kind"] = "sg_ssd"
    records = []
    for rid, drawing in ((1, base.to_dict()), (2, ssd)):
        run = experiments.run_experiment("custom", scenario=drawing)
        records.append(RunRecord(rid, 0.0, "custom", json.dumps(drawing), "", dict(run.params),
                                 run.seed, dict(run.metrics)))
    study = window.study
    study.compare_records(*records)
    cv = study.compare_view
    assert not cv.measured_table.isVisible()          # stored metrics: nothing to set beside
    assert cv.run_button.text() == "Run before and after" and "RMF" in cv.status.text()
    with qtbot.waitSignal(study.compare_runner.done, timeout=60_000):
        cv.run_button.click()
    qtbot.waitUntil(lambda: cv.measured_table.isVisible(), timeout=5_000)
    assert cv.label_a.text().startswith("Run #1") and cv.label_b.text().startswith("Run #2")
    rows = {cv.measured_table.item(r, 0).text(): r for r in range(cv.measured_table.rowCount())}
    r = rows["SGDB2: DISC ms"]
    before, after = (float(cv.measured_table.item(r, c).text()) for c in (2, 3))
    assert after < before                              # SSD: no seek, no rotation
