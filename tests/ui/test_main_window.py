"""The main window: case studies, files, bad input, runs and extra views."""
import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGridLayout, QPushButton, QWidget

from app import scenario_io, settings
from models import experiments


def test_case_studies_menu_and_start_page_list_every_experiment(window):
    menus = {a.text().replace("&", ""): a.menu() for a in window.menuBar().actions()}
    titles = [a.text() for a in menus["Case studies"].actions()]
    n = len(experiments.registry())
    assert titles[:n] == [e.title for e in experiments.registry().values()]
    # After a separator, the built-in systems that are no experiment's case.
    assert titles[n] == "" and len(titles[n + 1:]) == len(scenario_io.example_names())
    assert set(window.start_page.buttons) == set(experiments.registry()) | set(scenario_io.example_names())
    window.show_start_page()
    window.start_page.buttons["spool_dump"].click()
    assert window.editor.scenario.experiment == "spool_dump"
    assert window.canvas_stack.currentWidget() is window.view


def test_an_example_of_a_case_stands_under_that_case_on_the_start_page(window):
    page = window.start_page
    grid = next(g for g in page.findChildren(QGridLayout)
                if g.indexOf(page.buttons["vsam_rls"]) >= 0)
    row = {name: grid.getItemPosition(grid.indexOf(b))[0] for name, b in page.buttons.items()}
    order = sorted(row, key=row.get)
    # The CICS authors' own mix is a drawing of the CICS case's experiment.
    assert order[order.index("vsam_rls") + 1] == "cics_authors_mix"
    # Drawings of no case's experiment come after every case study.
    cases = scenario_io.case_names()
    assert max(order.index(c) for c in cases) < order.index("large_shop")


@pytest.mark.parametrize("name", list(experiments.registry()))
def test_every_case_study_opens_and_runs_or_says_not_implemented(window, qtbot, name):
    assert window.open_case_or_file(name) is None
    sc = window.editor.scenario
    assert sc.experiment == name and sc.issues() == []
    assert len(window.scene.node_items) == len(sc.nodes) >= 3
    assert window.actions_.experiment_combo.currentData() == name
    with qtbot.waitSignal(window.run_done, timeout=60_000):
        assert window.run()
    if experiments.get(name).run is None:
        assert "not implemented yet" in window.results.headline.text()
    else:
        assert window.last_result is not None and window.last_result.experiment == name
        assert window.results.metrics_table.rowCount() == len(window.last_result.metrics)


def test_unknown_case_and_bad_files_open_nothing(window, tmp_path):
    window.open_case_or_file("db2_io")
    before = window.editor.scenario
    assert "no built-in case study called 'nope'" in window.open_case_or_file("nope")
    newer = tmp_path / "newer.zpl.json"
    newer.write_text(json.dumps({"format": "zperflab-scenario", "version": 7, "nodes": []}))
    assert "newer zPerfLab" in window.open_case_or_file(str(newer))
    corrupt = tmp_path / "corrupt.zpl.json"
    corrupt.write_text('{"format": "zperflab-scenario", "version": 1, "nodes": [')
    error = window.open_case_or_file(str(corrupt))
    assert "not valid JSON" in error and error in window.status.text()
    assert window.editor.scenario is before


def test_bad_value_in_the_inspector_is_refused_not_clamped(window):
    window.open_case_or_file("db2_index_scan")
    sc = window.editor.scenario
    work = sc.of_category("workload")[0]
    window.scene.select_nodes([work.id])
    field = window.inspector.fields["pct_read"]
    field.setText("250")
    field.setModified(True)
    field.editingFinished.emit()
    assert "pct_read" not in sc.nodes[work.id].properties
    assert "out of range" in window.inspector.error.text()
    assert "0.1–100" in window.inspector.error.text()
    assert window.editor.undo_stack.count() == 0
    field = window.inspector.fields["index_tracks"] if False else window.inspector.fields["pct_read"]
    field.setText("ten")
    field.setModified(True)
    field.editingFinished.emit()
    # Named by its title as the inspector shows it, never by its key.
    assert "Share of the index read: ten" in window.inspector.error.text()
    assert "pct_read" not in window.inspector.error.text()


def test_save_open_and_recent_files(window, tmp_path, _no_blocking_questions):
    window.open_case_or_file("vsam_rls")
    cu = window.editor.scenario.of_category("control_unit")[0]
    window.editor.rename(cu.id, "DS8886")
    assert window.windowTitle().endswith("*")
    path = str(tmp_path / "rls.zpl.json")
    assert window.save_to(path)
    assert not window.windowTitle().endswith("*")
    assert settings.recent_files() == [path]
    assert [a.text() for a in window.recent_menu.actions()] == ["rls.zpl.json"]
    window.new_scenario()
    assert window.open_case_or_file(path) is None
    assert window.editor.scenario.nodes[cu.id].label == "DS8886"
    assert _no_blocking_questions == []   # nothing unsaved, nothing asked


def test_failed_save_reports_and_keeps_the_old_file(window, tmp_path, monkeypatch):
    window.open_case_or_file("db2_io")
    path = tmp_path / "db2.zpl.json"
    assert window.save_to(str(path))
    before = path.read_bytes()
    window.editor.rename(window.editor.scenario.of_category("workload")[0].id, "Renamed")

    def disk_full(*a, **k):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(scenario_io.os, "replace", disk_full)
    assert not window.save_to(str(path))
    assert "the disk is full" in window.status.text()
    assert "the disk is full" in window.alert_box.text()
    assert path.read_bytes() == before
    assert window.windowTitle().endswith("*")


def test_scenario_that_cannot_run_says_why(window):
    window.new_scenario()
    assert not window.run()
    assert "Cannot run yet" in window.results.headline.text()


class _FakeView(QWidget):
    def __init__(self):
        super().__init__()
        self.results = []

    def set_result(self, result):
        self.results.append(result)


def test_add_view_and_show_view(window):
    view = _FakeView()
    window.add_view("charts", view)
    assert window.show_view("charts") is None
    assert window.tabs.currentWidget().widget() is view
    assert "no 'nonsense' view" in window.show_view("nonsense")
    assert window.show_view("canvas") is None
    assert window.tabs.currentIndex() == 0


def test_window_renders_at_laptop_size(window):
    window.open_case_or_file("db2_io")
    window.resize(1280, 800)
    img = window.grab().toImage()
    assert (img.width(), img.height()) == (1280, 800)


def test_escape_cancels_nothing_when_idle(window, qtbot):
    qtbot.keyClick(window, Qt.Key.Key_Escape)
    assert not window.runner.running


def test_keyboard_shortcuts_edit_through_the_undo_stack(window, qtbot):
    from tests.ui.helpers import drop
    win = window
    win.new_scenario()
    win.view.setFocus()
    a = drop(win, "cpu_ziip", 100, 100)
    sc = win.editor.scenario
    win.scene.select_nodes([a])
    qtbot.keyClick(win.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(win.view, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier)
    assert len(sc.nodes) == 2
    pasted = [n for n in sc.nodes if n != a][0]
    assert win.scene.selected_node_ids() == [pasted]
    qtbot.keyClick(win.view, Qt.Key.Key_Delete)
    assert list(sc.nodes) == [a]
    qtbot.keyClick(win.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(sc.nodes) == 2
    qtbot.keyClick(win.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert list(sc.nodes) == [a]
    qtbot.keyClick(win.view, Qt.Key.Key_Y, Qt.KeyboardModifier.ControlModifier)  # nothing left to redo
    assert list(sc.nodes) == [a]


def test_result_values_stay_in_view_at_projector_size(window, qtbot, monkeypatch):
    """1280×800: long metric descriptions are elided, never the values."""
    from models.db2 import runs
    monkeypatch.setattr(runs, "IO_BUDGET", 300)
    window.open_case_or_file("db2_runstats_sampling")
    window.run_and_wait()
    window.show_view("charts")
    qtbot.waitUntil(lambda: window.results.metrics_table is not None)
    table = window.results.metrics_table
    qtbot.waitUntil(lambda: table.width() <= window.results.viewport().width())   # laid out
    # Both columns fit the table: no sideways scrolling to reach a value.
    assert table.columnWidth(0) + table.columnWidth(1) <= table.viewport().width()
    assert not table.horizontalScrollBar().isVisible()
    for r in range(table.rowCount()):
        text = table.item(r, 1).text()
        assert table.fontMetrics().horizontalAdvance(text) <= table.columnWidth(1), text
    # Each row is named by the metric's title; its description is the tooltip.
    assert table.item(0, 0).text() == "Elapsed time"
    assert "Elapsed time of the scan" in table.item(0, 0).toolTip()


def test_start_page_buttons_use_glyphs_the_installed_fonts_have(window):
    """No button on the start page draws a missing-glyph box."""
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QPushButton

    window.show_start_page()
    missing = {}
    for button in window.start_page.findChildren(QPushButton):
        metrics = QFontMetrics(button.font())
        bad = [ch for ch in button.text() if not ch.isspace() and not metrics.inFontUcs4(ord(ch))]
        if bad:
            missing[button.text()] = bad
    assert missing == {}


def test_after_a_failed_run_the_banner_says_the_run_failed(window, qtbot, monkeypatch):
    """The views keep the run before the failure, and say so on their banner."""
    from models import experiments
    from models.core.params import ParamError

    assert window.open_case_or_file("natural_ziip") is None
    window.run_and_wait()
    assert window.document.result is not None

    def fail(*_args, **_kwargs):
        raise ParamError("records: 0 is below the minimum 1")

    monkeypatch.setattr(experiments, "run_experiment", fail)
    with qtbot.waitSignal(window.run_done, timeout=30_000):
        assert window.run()
    banner = window.view_pages["charts"].banner
    assert not banner.isHidden()
    assert banner.text().startswith("The last run failed: records: 0 is below the minimum 1.")
    assert "still shows the run before it" in banner.text()
    monkeypatch.undo()
    window.run_and_wait()                                  # a good run clears it
    assert banner.isHidden()


def test_palette_double_click_places_each_card_in_free_space(window):
    """Double-clicking a palette entry three times gives three cards side by
    side, none on another or on a card of the case."""
    from ui.canvas.items import NODE_H, NODE_W

    assert window.open_case_or_file("db2_io") is None
    before = set(window.editor.scenario.nodes)
    for _ in range(3):
        window._on_palette_kind_activated("cpu_ziip")
    nodes = list(window.editor.scenario.nodes.values())
    assert len(set(window.editor.scenario.nodes) - before) == 3
    for i, a in enumerate(nodes):
        for b in nodes[i + 1:]:
            apart = (abs(a.x - b.x) >= NODE_W or abs(a.y - b.y) >= NODE_H)
            assert apart, (a.label, b.label)


@pytest.mark.parametrize("width", [380, 900])
def test_start_page_titles_are_not_cut_at_projector_width(qtbot, width):
    """At 1024×768 with both docks open the page is about 370 px wide: every
    case's title and the tour button still read whole (they were cut to
    "Program fetch from a loa", "Start the tou")."""
    from ui.start_page import StartPage

    page = StartPage()
    qtbot.addWidget(page)
    page.resize(width, 700)
    page.show()
    qtbot.waitExposed(page)
    buttons = [*page.buttons.values(), *page.whatif_buttons.values(),
               page.findChild(QPushButton, "startTour"),
               page.findChild(QPushButton, "newScenario")]
    for b in buttons:
        room = b.contentsRect().width() - 28          # the style's 14 px padding each side
        assert b.fontMetrics().horizontalAdvance(b.text()) <= room, (b.text(), room)
