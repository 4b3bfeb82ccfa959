"""The Measured-vs-model table reads in the narrow Results dock: four columns
under each component, the likely reason under a picked row, members on
demand and the whole six-column table in a window of its own."""
import pytest
from PySide6.QtWidgets import QApplication, QLabel, QTableWidget

from app.names import format_number
from models.rmf.measured import TABLE_TITLE
from ui.docks.measured_table import OUTSIDE


@pytest.fixture
def imported_run(window, qtbot):
    window.open_case_or_file("rmf_sysa")
    with qtbot.waitSignal(window.run_done, timeout=120_000):
        window.run()
    window.show_view("charts")
    QApplication.processEvents()
    return window


def _cells(table, row):
    return [table.item(row, c).text() if table.item(row, c) else ""
            for c in range(table.columnCount())]


@pytest.mark.parametrize("size", [(1024, 768), (1280, 800)])
def test_every_column_reads_in_the_dock_without_scrolling_sideways(imported_run, size):
    imported_run.resize(*size)
    for _ in range(3):
        QApplication.processEvents()
    view = imported_run.results.measured_view
    t = view.table
    assert [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())] == \
        ["figure", "measured", "model", "Δ"]
    needed = sum(t.columnWidth(c) for c in range(t.columnCount()))
    assert needed <= t.viewport().width() + 1
    # The figures' names and the numbers are not cut: each column is at least
    # as wide as its widest text.
    metrics = t.fontMetrics()
    for r in range(t.rowCount()):
        if t.columnSpan(r, 0) == 1:
            for c in range(1, 4):
                assert metrics.horizontalAdvance(t.item(r, c).text()) <= t.columnWidth(c), \
                    (_cells(t, r), c)
    assert imported_run.results.horizontalScrollBar().maximum() == 0


def test_each_card_figure_is_a_row_under_its_component_and_a_reason_shows_when_picked(
        imported_run):
    result = imported_run.last_result
    report = next(r for r in result.reports if r.title == TABLE_TITLE)
    view = imported_run.results.measured_view
    t = view.table
    cards = [r for r in report.rows if " / " not in r[0]]
    sections = [_cells(t, r)[0] for r in range(t.rowCount()) if t.columnSpan(r, 0) == 4]
    assert sections == list(dict.fromkeys(r[0] for r in cards))
    assert t.rowCount() == len(cards) + len(sections)
    # SGDB2's I/O rate: the row reads as the report's
    first = next(r for r in cards if r[0] == "SGDB2" and r[1] == "I/O rate /s")
    row = next(r for r in range(t.rowCount()) if _cells(t, r)[0].strip() == "I/O rate /s")
    assert _cells(t, row)[1:] == [format_number(v) for v in first[2:5]]
    # a figure outside its band: picking it shows its reason beneath, in the table
    outside = next(r for r in cards if r[5] and r[3] != "—")
    row = next(r for r in range(t.rowCount()) if view._row_of[r] == outside)
    t.selectRow(row)
    assert view.reason_row == row + 1
    assert outside[5] in _cells(t, row + 1)[0]
    t.clearSelection()
    assert view.reason_row is None and t.rowCount() == len(cards) + len(sections)


def test_members_on_demand_and_the_whole_table_in_a_window(imported_run):
    result = imported_run.last_result
    report = next(r for r in result.reports if r.title == TABLE_TITLE)
    view = imported_run.results.measured_view
    before = view.table.rowCount()
    members = [r for r in report.rows if " / " in r[0]]
    assert members
    view.members_box.setChecked(True)
    sections = len({r[0] for r in members})
    assert view.table.rowCount() == before + len(members) + sections
    dialog = view.open_full()
    full = dialog.findChild(type(view.table), "measuredFullTable")
    assert full.columnCount() == 6 and full.rowCount() == len(report.rows)
    assert full.horizontalHeaderItem(5).text() == "likely reason"
    dialog.close()


def test_a_what_if_is_named_as_one_in_the_dock_never_model_beside_rmf(window, qtbot):
    """SGDB2 on SSD, run: the dock set RMF's 0.649 ms beside a column called
    "model" holding the what-if's 0.207 ms, with "57 of 103 figures outside
    their band" in amber (issue 40), while the charts beside it said
    "Measured vs what-if (SGDB2 on SSD)"."""
    window.open_case_or_file("rmf_sysa")
    sc = window.editor.scenario
    window.editor.change_kind(next(n.id for n in sc.nodes.values() if n.label == "SGDB2"),
                              "drive", "SSD")
    with qtbot.waitSignal(window.run_done, timeout=120_000):
        window.run()
    QApplication.processEvents()
    view = window.results.measured_view
    t = view.table
    heads = [t.horizontalHeaderItem(c).text() for c in range(t.columnCount())]
    assert heads == ["figure", "RMF measured", "what-if", "Δ"]
    assert "outside their band" not in view.summary.text()
    assert "what-if: SGDB2 on SSD" in view.summary.text()
    labels = [w.text() for w in window.results.widget().findChildren(QLabel)]
    assert "<b>Measured vs what-if: SGDB2 on SSD</b>" in labels
    assert not any("Measured vs model" in text or "model − measured" in text
                   for text in labels)
    # No amber and no "likely reason": a what-if's gap to RMF is its change.
    for r in range(t.rowCount()):
        for c in range(t.columnCount()):
            item = t.item(r, c)
            assert item is None or item.background().color() != OUTSIDE, _cells(t, r)
            assert item is None or "Likely reason" not in item.toolTip()
    row = next(r for r in range(t.rowCount()) if _cells(t, r)[0].strip() == "resp ms")
    assert _cells(t, row)[1:3] == ["0.649", format_number(
        window.last_result.components["SGDB2"]["resp_ms"])]
    full = view.open_full()
    table = full.findChild(QTableWidget, "measuredFullTable")
    heads = [table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]
    assert heads == ["component", "figure", "RMF measured", "what-if: SGDB2 on SSD",
                     "what-if − measured"]
    assert full.windowTitle().startswith("Measured vs what-if: SGDB2 on SSD")
    full.close()
