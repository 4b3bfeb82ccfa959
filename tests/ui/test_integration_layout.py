"""Layout at a projector's 1280×800 and a laptop's 1366×768: every tab fits without
horizontal clipping; side panels follow the tab and remember the user's choice."""
import pytest
from PySide6.QtWidgets import QApplication, QScrollArea, QTableWidget

TABS = ("canvas", "charts", "animation", "history", "sweep", "compare")


@pytest.fixture
def ran(window, qtbot):
    window.open_case_or_file("db2_io")
    with qtbot.waitSignal(window.run_done, timeout=60_000):
        window.run()
    return window


@pytest.mark.parametrize("size", [(1024, 640), (1280, 800), (1366, 768)])
def test_every_tab_fits_without_horizontal_clipping(ran, size):
    ran.resize(*size)
    for name in TABS:
        ran.show_view(name)
        for _ in range(3):
            QApplication.processEvents()
        holder = ran.view_holders.get(name)
        if holder is not None:
            bar = holder.horizontalScrollBar()
            assert bar.maximum() == 0, f"{name} tab is {bar.maximum()} px too wide at {size}"
        assert ran.width() == size[0]          # no view widened the window


def test_the_window_shrinks_to_1024x640_on_the_start_page_and_every_tab(window):
    """The start page's cards and the side panels held the window at 1147x743."""
    window.show_start_page()
    window.resize(1024, 640)
    QApplication.processEvents()
    assert (window.width(), window.height()) == (1024, 640)
    window.open_case_or_file("db2_io")
    for name in TABS:
        window.show_view(name)
        window.resize(1024, 640)
        QApplication.processEvents()
        assert (window.width(), window.height()) == (1024, 640), name


def test_side_panels_follow_the_tab(ran):
    ran.show_view("canvas")
    assert ran.palette_dock.isVisible()
    assert ran.inspector_dock.isVisibleTo(ran) or ran.results_dock.isVisible()
    ran.show_view("charts")
    assert not ran.palette_dock.isVisible() and not ran.inspector_dock.isVisible()
    assert ran.results_dock.isVisible()
    for name in ("animation", "history", "sweep", "compare"):
        ran.show_view(name)
        assert not any(d.isVisible() for d in ran.docks.values()), name


def test_a_panel_shown_on_a_tab_is_remembered_for_that_tab(ran):
    ran.show_view("animation")
    ran.results_dock.toggleViewAction().trigger()      # the user asks for the results here
    assert ran.results_dock.isVisible()
    ran.show_view("history")
    assert not ran.results_dock.isVisible()
    ran.show_view("animation")
    assert ran.results_dock.isVisible()


def test_report_tables_in_the_results_dock_need_no_horizontal_scrolling(ran):
    ran.show_view("charts")
    QApplication.processEvents()
    ran.results.build_folded()      # as a user unfolding every long report
    tables = ran.results.widget().findChildren(QTableWidget)
    assert len(tables) == 1 + len(ran.last_result.reports)
    for t in tables:
        needed = sum(t.columnWidth(c) for c in range(t.columnCount()))
        assert needed <= t.viewport().width() + 1, t.horizontalHeaderItem(0).text()
    device = tables[1]          # "Device activity": turned, one column per volume
    assert device.horizontalHeaderItem(1).text() == "DB2V01"   # named as on the canvas
    assert device.item(0, 0).text() == "requests"


def test_results_scroll_vertically_only(ran):
    assert isinstance(ran.results, QScrollArea)
    ran.show_view("charts")
    QApplication.processEvents()
    assert ran.results.horizontalScrollBar().maximum() == 0


def test_a_long_cell_keeps_its_results_row_one_line_high(qtbot):
    """The analytic table's rank rows stood 200 px tall: a long note in the
    stretched last column wrapped out of sight; its tooltip holds it whole."""
    from models.core.run import Table
    from ui.docks.results import _report_table

    note = "utilisation law and M/M/c queue for the rank's drives, " * 6
    t = _report_table(Table("Analytic estimate", ("component", "kind", "rate", "note"),
                            (("SGDB2-R01", "rank", 640, note), ("CP 0", "processor", 1693, "—"))))
    qtbot.addWidget(t)
    t.resize(420, 200)
    t.show()
    line = t.fontMetrics().height()
    assert all(t.rowHeight(r) < 2 * line + 8 for r in range(t.rowCount()))
    assert note.strip() in t.item(0, 3).toolTip()
