"""A long report in the Results panel is folded under its title and shown on a
click; its table is made then, not with the run (issue 42: a shop's long
reports were most of the panel's time after each run)."""
from PySide6.QtWidgets import QTableWidget, QToolButton

from models.core.run import RunResult, Table
from ui.docks.results import ResultsPanel


def _result(rows: int) -> RunResult:
    long = Table("Device activity", ("volume", "I/O rate /s"),
                 tuple((f"DB2V{i:04d}", float(i)) for i in range(rows)))
    short = Table("Channel path activity", ("channel", "utilisation %"), (("CHP 40", 12.5),))
    return RunResult("custom", {}, 1, {"io_rate": 10.0}, reports=(short, long))


def test_a_long_report_is_folded_and_its_rows_show_when_unfolded(qtbot):
    panel = ResultsPanel()
    qtbot.addWidget(panel)
    panel.resize(600, 800)
    panel.show()
    panel.show_result(_result(1000))
    # Folded: its title with its row count, no table of it yet on the page.
    button = next(b for b in panel.widget().findChildren(QToolButton)
                  if b.text().startswith("Device activity"))
    assert button.text() == "Device activity: 1,000 rows (show)"
    shown = panel.widget().findChildren(QTableWidget)
    assert all(t.rowCount() < 1000 for t in shown)
    # Unfolded: the whole table, in view; folded again: hidden.
    button.click()
    table = next(t for t in panel.widget().findChildren(QTableWidget) if t.rowCount() == 1000)
    assert table.isVisible() and table.item(999, 0).text() == "DB2V0999"
    assert button.text() == "Device activity: 1,000 rows (hide)"
    button.click()
    assert not table.isVisible()


def test_every_report_table_is_there_for_whoever_asks_for_it(qtbot):
    """``report_tables`` (and build_folded) make a folded report's table, still folded."""
    panel = ResultsPanel()
    qtbot.addWidget(panel)
    panel.show()
    panel.show_result(_result(100))
    tables = panel.report_tables
    assert [t.rowCount() for t in tables] == [1, 100]
    assert tables[0].isVisible() and not tables[1].isVisible()
