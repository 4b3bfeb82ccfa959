"""A/B comparison with a delta table, and the sweep view on a worker thread."""
import pytest

from app.sweep import SweepSpec
from models import experiments
from tests.ui.test_charts_support import toy_run
from ui.compare import CompareView, delta_rows
from ui.sweep_view import SweepView


def test_compare_shows_both_runs_and_published_style_ratios(qtbot):
    a, b = toy_run(overrides={"device": "HDD10K"}), toy_run(overrides={"device": "SSD"})
    rows = {r[0]: r for r in delta_rows(a, b)}
    assert rows["elapsed_s"][4] == "elapsed time ratio"
    assert rows["throughput_mb_s"][4] == "rate ratio"
    assert rows["disc_ms"][3] == pytest.approx(b.metrics["disc_ms"] / a.metrics["disc_ms"])
    assert rows["disc_ms"][3] < 1          # SSD: no seek, no rotation
    view = CompareView()
    qtbot.addWidget(view)
    view.set_results(a, b, "10K", "SSD")
    assert view.table.rowCount() == len(rows)
    assert view.table.horizontalHeaderItem(3).text() == "SSD / 10K"
    assert list(view.left.charts()) == list(view.right.charts())


def test_sweep_view_runs_on_a_worker_and_plots_one_curve_per_variant(qtbot):
    if experiments.get("db2_io").run is None:
        pytest.skip("db2_io has no model yet")
    view = SweepView(workers=2)
    qtbot.addWidget(view)
    spec = SweepSpec("db2_io", "pages", (1, 16, 32),
                     variants=(("FICON", {"protocol": "FICON"}), ("zHPF", {"protocol": "zHPF"})))
    view.start(spec)
    assert not view.run_button.isEnabled()
    qtbot.waitUntil(lambda: view.status.text() == "done", timeout=60_000)
    view.metric_box.setCurrentIndex(view.metric_box.findData("io_ms"))
    assert [s.name for s in view.chart.data.series] == ["FICON", "zHPF"]
    assert view.chart.data.y_unit == "ms"
    assert view.progress.value() == 6 and view.run_button.isEnabled()


def test_sweep_view_offers_the_papers_six_protocol_device_curves(qtbot):
    view = SweepView(workers=1)
    qtbot.addWidget(view)
    view.set_scenario("db2_runstats_sampling", {"protocol": "FICON", "device": "SSD"})
    view.param.setCurrentIndex(view.param.findData("sampling_pct"))
    view.values.setText("20, 99")
    view.curves.setCurrentIndex(view.curves.findText("Protocol × device (paper)"))
    spec = view.build_spec()
    assert [label for label, _ in spec.variants] == [
        "FICON HDD10K", "FICON HDD15K", "FICON SSD", "zHPF HDD10K", "zHPF HDD15K", "zHPF SSD"]
    assert "protocol" not in spec.base and "device" not in spec.base
    assert len(spec.points()) == 12
    view.set_scenario("vsam_rls", {})               # no protocol × device there
    assert view.curves.findText("Protocol × device (paper)") == -1


def test_published_vs_model_lists_every_target_of_a_case_study(qtbot):
    from models.studies import calibration
    from ui.charts.published import PublishedTable
    table = PublishedTable()
    qtbot.addWidget(table)
    table.show_experiment("db2_io")
    ids = [t["id"] for t in calibration.load_targets() if t["experiment"] == "db2_io"]
    assert [r[0] for r in table.rows] == ids and table.rowCount() == len(ids)
    for row in table.rows:
        if row[5] in ("PASS", "FAIL"):
            assert row[4].endswith("%") or "range" in row[4] or "outside" in row[4]


def test_compare_draws_both_sides_on_one_scale_and_names_figures_by_title(qtbot):
    """A and B share each chart's value scale (40 % slower looks 40 % taller),
    and the table names figures by their titles, never their keys."""
    from models.experiments import run_experiment

    a = run_experiment("db2_io", {"cache": "cold", "device": "HDD10K"}, trace=True)
    b = run_experiment("db2_io", {"cache": "cold", "device": "SSD"}, trace=True)
    view = CompareView()
    qtbot.addWidget(view)
    view.set_results(a, b, "10K", "SSD")
    left, right = view.left.charts(), view.right.charts()
    assert left
    for key in left:
        ya = left[key].getPlotItem().viewRange()[1]
        yb = right[key].getPlotItem().viewRange()[1]
        assert ya == pytest.approx(yb), key
    names = [view.table.item(r, 0).text() for r in range(view.table.rowCount())]
    assert "I/O response time (ms)" in names
    assert not any("_" in n for n in names), names


def test_the_sweep_metric_combo_lists_the_metrics_by_title_before_any_sweep(qtbot):
    view = SweepView(workers=1)
    qtbot.addWidget(view)
    assert view.metric_box.count() == 0
    assert view.metric_box.placeholderText() == "open a scenario first"
    view.set_scenario("db2_io", {})
    metrics = experiments.get("db2_io").metrics
    assert [view.metric_box.itemData(i) for i in range(view.metric_box.count())] == \
        [m.name for m in metrics]
    assert view.metric_box.currentText() == "I/O response time (ms)"
    assert not any("_" in view.metric_box.itemText(i) for i in range(view.metric_box.count()))
    # The choice made before the sweep is the one plotted after it.
    view.metric_box.setCurrentIndex(view.metric_box.findData("disc_ms"))
    view.start(SweepSpec("db2_io", "pages", (1, 32)))
    qtbot.waitUntil(lambda: view.status.text() == "done", timeout=60_000)
    assert view.metric_box.currentData() == "disc_ms"
    assert view.chart.data.y_label == "DISC time"


def test_compare_bar_reads_whole_at_1024(qtbot):
    """At 1024 px the Vary list shows the parameter's whole title, no empty
    progress box stands in the bar, and the hint says what to do next."""
    view = CompareView()
    qtbot.addWidget(view)
    view.resize(1024, 560)
    view.set_scenario("db2_io", {})
    view.show()
    qtbot.waitExposed(view)
    title = view.param.currentText()
    assert title == "Pages per I/O"
    assert view.param.width() > view.param.fontMetrics().horizontalAdvance(title) + 20
    assert not view.progress.isVisible()
    assert "Run A and B" in view.status.text()
    assert view.status.geometry().right() <= view.width()


def test_published_vs_model_shows_its_key_columns_and_closes_with_escape(qtbot):
    """At the dialog's own size the verdict column is in view (the long
    figure description wraps instead), and Escape closes the window."""
    from PySide6.QtCore import Qt
    from models.studies import calibration
    from ui.charts.published import PublishedDialog, published_rows

    dialog = PublishedDialog()
    qtbot.addWidget(dialog)
    # Its worker thread must end before the dialog goes (a QThread destroyed
    # while running aborts the process).
    try:
        dialog.show()
        dialog.table.show_rows(published_rows("db2_skip_sequential", calibration.Evaluator()))
        qtbot.wait(20)
        table = dialog.table
        right = table.horizontalHeader().sectionViewportPosition(5) + table.columnWidth(5)
        assert right <= table.viewport().width()
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
        assert not dialog.isVisible()
    finally:
        dialog.runner.stop()


def test_published_vs_model_with_no_figures_offers_close_not_a_dead_cancel(qtbot):
    """A case without published figures ("Your own system"): the window said
    so with one disabled Cancel as its only button."""
    from ui.charts.published import PublishedDialog

    dialog = PublishedDialog()
    qtbot.addWidget(dialog)
    try:
        dialog.show()
        with qtbot.waitSignal(dialog.runner.done, timeout=30_000):
            assert dialog.compute("custom")
        assert "no published figures" in dialog.heading.text()
        assert not dialog.cancel_button.isVisible()
        assert dialog.close_button.isVisible() and dialog.close_button.isEnabled()
        dialog.close_button.click()
        assert not dialog.isVisible()
    finally:
        dialog.runner.stop()


def test_compare_writes_tiny_values_as_decimals(qtbot):
    from models.core.run import RunResult

    view = CompareView()
    qtbot.addWidget(view)
    a = RunResult("db2_io", {}, 1, {"io_ms": 1.731e-05})
    b = RunResult("db2_io", {}, 1, {"io_ms": 2.0e-05})
    view.set_results(a, b)
    assert view.table.item(0, 1).text() == "0.00001731"


@pytest.mark.parametrize("width", [1010, 820])
def test_compare_halves_fit_a_1024_window_with_titles_and_legends_whole(qtbot, width):
    """In a 1024 px window (less the scroll bar) and narrower, both halves
    fit: no chart is laid out wider than its view, so neither half's title
    nor its legend's IOSQ/PEND/DISC/CONN is cut at the right."""
    a, b = toy_run(overrides={"device": "HDD10K"}), toy_run(overrides={"device": "SSD"})
    view = CompareView()
    qtbot.addWidget(view)
    view.set_results(a, b, "Run #1: cache size 1 GB → 64 GB", "Run #3: device HDD 15K → SSD")
    view.resize(width, 640)
    view.show()
    qtbot.waitExposed(view)
    qtbot.wait(20)
    assert view.minimumSizeHint().width() <= width
    for side in (view.left, view.right):
        assert side.geometry().right() <= view.width()
        chart = side.current_chart()
        plot = chart.getPlotItem()
        inside = chart.viewport().width()
        assert plot.geometry().width() <= inside
        title = plot.titleLabel
        assert title.item.mapRectToScene(title.item.boundingRect()).right() <= inside
        assert plot.legend.sceneBoundingRect().right() <= inside


def test_compare_of_two_imported_runs_shows_rmf_measured_beside_both(qtbot):
    """A baseline and a what-if of a drawing imported from RMF: a table puts
    what RMF measured beside run A and run B, one row per figure RMF gave,
    labelled by canvas name; runs of other drawings show no such table."""
    from pathlib import Path

    from models.rmf import read_reports
    from models.rmf.drawing import build

    sample = Path(__file__).resolve().parents[1] / "data" / "rmf" / "sysa-0900-full.txt"
    sc = build(read_reports([sample])).to_dict()
    quick = {"duration_s": 0.1, "cache_gb": 0.1}
    base = experiments.run_experiment("custom", quick, scenario=sc)
    ssd = experiments.run_experiment("custom", {**quick, "device": "SSD"}, scenario=sc)
    view = CompareView()
    qtbot.addWidget(view)
    view.show()
    view.set_results(base, ssd, "Before: as imported", "After: SSD")
    t = view.measured_table
    assert t.isVisible() and "SYSA" in view.measured_about.text()
    heads = [t.horizontalHeaderItem(c).text() for c in range(5)]
    assert heads == ["", "Measured", "Before", "After", "After / Before"]
    rows = {t.item(r, 0).text(): [t.item(r, c).text() for c in range(1, 5)]
            for r in range(t.rowCount())}
    measured, before, after, _ = rows["SGDB2: DISC ms"]
    assert float(measured) == pytest.approx(base.measured["measured"]["SGDB2"]["disc_ms"],
                                            rel=1e-3)
    assert float(after) < float(before)
    assert "SSID 0007: sequential request hit ratio" not in rows       # RMF gave none
    view.set_results(*(toy_run(overrides={"device": d}) for d in ("HDD10K", "SSD")))
    assert not t.isVisible() and not view.measured_about.isVisible()


def test_published_vs_model_shows_each_figure_name_whole_on_a_small_window(qtbot):
    """At 1024 px the case's long description wraps; the figure's name
    ("Throughput", "Disk bytes per request") is never cut to "Thro…"."""
    from ui.charts.published import PublishedTable, published_rows
    table = PublishedTable()
    qtbot.addWidget(table)
    table.resize(1000, 500)
    table.show()
    table.show_rows(published_rows("db2_skip_sequential"))
    fm = table.fontMetrics()
    for r in range(table.rowCount()):
        name = table.item(r, 1).text()
        assert table.columnWidth(1) >= fm.horizontalAdvance(name), name
