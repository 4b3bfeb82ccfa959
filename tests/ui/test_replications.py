"""Run ▸ Replications…: N seeds on the worker, progress and Cancel in the status
bar, mean ± 95 % interval in the results dock."""
from PySide6.QtWidgets import QInputDialog


def _menu_texts(menu):
    return [a.text().replace("&", "") for a in menu.actions()]


def test_replications_show_mean_and_interval_in_the_results_dock(window, qtbot, monkeypatch):
    assert "Replications…" in _menu_texts(window.run_menu)
    window.open_case_or_file("program_fetch")
    monkeypatch.setattr(QInputDialog, "getInt", lambda *a, **k: (4, True))
    with qtbot.waitSignal(window.replications.runner.done, timeout=60_000):
        window.actions_.replications.trigger()
        assert window.task_cancel.isVisible()
    assert "4 replications, seeds 1–4" in window.results.headline.text()
    table = window.results.metrics_table
    assert table.horizontalHeaderItem(1).text() == "Mean ± 95 % CI"
    values = [table.item(r, 1).text() for r in range(table.rowCount())]
    assert all(" ± " in v for v in values)
    assert any(v.split(" ± ")[1].split()[0] != "0" for v in values)   # elapsed time varies
    components = window.results.report_tables[-1]
    assert components.horizontalHeaderItem(3).text() == "± 95 % CI"
    assert not window.task_cancel.isVisible()


def test_cancel_stops_the_replications(window, qtbot):
    window.open_case_or_file("spool_dump")
    with qtbot.waitSignal(window.replications.runner.done, timeout=60_000):
        window.replications.start(50)
        window.task_cancel.click()
    assert "cancelled" in window.status.text()


def test_replications_chart_each_component_with_its_interval(window, qtbot, monkeypatch):
    """After replications the Charts tab shows each component's mean busy %
    with its 95 % interval as an error bar (the same numbers as the results
    dock's component table), and the replay shows no older run."""
    import pyqtgraph as pg

    window.open_case_or_file("natural_ziip")
    monkeypatch.setattr(QInputDialog, "getInt", lambda *a, **k: (3, True))
    with qtbot.waitSignal(window.replications.runner.done, timeout=60_000):
        window.actions_.replications.trigger()
    charts = window.views["charts"].charts()
    chart = charts["utilisation"]
    assert "mean of 3 runs" in chart.data.scope
    bars = [i for i in chart.getPlotItem().items if isinstance(i, pg.ErrorBarItem)]
    assert len(bars) == 1
    rows = chart.data.csv_rows()
    assert rows[0][-1].startswith("95 % CI half-width")
    assert window.views["animation"].data is None
