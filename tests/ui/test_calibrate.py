"""File ▸ Calibrate to RMF… and the panel's button (issue 41).

On a drawing imported from RMF it fits the quantities the drawing lacks on a
worker thread, applies them as one undo step (Ctrl+Z gives back the drawing
as imported), lists them in the panel by name and says in the status bar
how many were set and refused. On a drawn scenario it is off, and its
tooltip says why. A drawing it cannot calibrate is one message.
"""
import pytest
from PySide6.QtWidgets import QMessageBox

from models.rmf import calibrate as cal


def _file_menu(win):
    return next(a.menu() for a in win.menuBar().actions() if a.text() == "&File")


def _calibrate(window, qtbot):
    c = window.calibration
    with qtbot.waitSignal(c.runner.done, timeout=60_000):
        c.button.click()
    return window.editor.scenario


@pytest.fixture
def sysa(window):
    assert window.open_case_or_file("rmf_sysa") is None
    return window


def test_off_for_a_drawn_scenario_and_the_tooltip_says_why(window):
    assert window.open_case_or_file("db2_io") is None
    c = window.calibration
    assert c.action in _file_menu(window).actions()
    assert not c.action.isEnabled() and not c.button.isEnabled()
    assert "needs a drawing imported from RMF reports" in c.action.toolTip()
    assert "Import RMF reports" in c.button.toolTip()


def test_on_for_an_imported_drawing_beside_the_import(sysa):
    c = sysa.calibration
    actions = _file_menu(sysa).actions()
    assert actions.index(c.action) == actions.index(sysa.rmf_import.refine_action) + 1
    assert c.action.isEnabled() and c.button.isEnabled()
    assert "Ctrl+Z" in c.action.toolTip()


def test_calibrating_sets_named_quantities_as_one_undo_step(sysa, qtbot):
    before = {n.label: dict(n.properties) for n in sysa.editor.scenario.nodes.values()}
    sc = _calibrate(sysa, qtbot)
    done = sc.imported["calibrated"]
    used = [e for e in done if not e.get("refused")]
    assert used
    cards = {n.label: n for n in sc.nodes.values()}
    for e in used:
        prop = cal.QUANTITIES[e["quantity"]][1]
        assert cards[e["component"]].properties[prop] == e["value"]
    # the panel names each by its title, never by its key
    text = sysa.rmf_import.panel.text.toPlainText()
    assert f"Calibrated to RMF ({len(done)})" in text
    for e in done:
        assert f"{cal.title(e)} of {e['component']}" in text
        assert e["quantity"] not in text
    status = sysa.status.text()
    refused = len(done) - len(used)
    assert status.startswith(f"Calibrated to RMF: {len(used)} quantities set")
    assert ("refused" in status) == bool(refused)
    # one Ctrl+Z: the drawing and its import as imported
    stack = sysa.editor.undo_stack
    assert stack.undoText() == "Calibrate to RMF"
    stack.undo()
    assert {n.label: dict(n.properties) for n in sc.nodes.values()} == before
    assert "calibrated" not in sc.imported
    assert "Calibrated to RMF" not in sysa.rmf_import.panel.text.toPlainText()
    stack.redo()
    assert sc.imported["calibrated"] == done
    assert "Calibrated to RMF" in sysa.rmf_import.panel.text.toPlainText()


def test_it_runs_off_the_gui_thread_and_cancel_leaves_the_drawing(sysa, qtbot):
    c = sysa.calibration
    before = sysa.editor.scenario.to_dict()
    with qtbot.waitSignal(c.runner.cancelled, timeout=60_000):
        assert c.start()
        assert c.runner.running and not c.action.isEnabled()     # it returned at once
        assert sysa.task_cancel.isVisible()
        sysa.task_cancel.click()
    qtbot.waitUntil(lambda: not c.runner.running)
    assert sysa.editor.scenario.to_dict() == before
    assert sysa.editor.undo_stack.count() == 0
    assert "cancelled" in sysa.status.text()
    assert c.action.isEnabled()


def test_a_drawing_it_cannot_calibrate_is_one_message_and_the_app_goes_on(sysa, qtbot):
    sc = sysa.editor.scenario
    sc.imported["measured"] = {k: v for k, v in sc.imported["measured"].items()
                               if k.startswith("CP ")}      # engines only: nothing to fit
    _calibrate(sysa, qtbot)
    box = sysa.alert_box
    assert box.icon() == QMessageBox.Icon.Warning
    assert box.text().startswith("Calibrate to RMF: nothing in the drawing has a figure")
    assert "Traceback" not in box.text()
    box.close()
    assert sysa.editor.undo_stack.count() == 0 and "calibrated" not in sc.imported
    assert sysa.calibration.action.isEnabled()


def test_measured_vs_model_marks_the_calibrated_figures_and_says_how_many_agree(sysa, qtbot):
    """After calibrating and running, the dock says which figures a quantity
    was set from (the rest are the model's answers), how many of the cards'
    figures are within tolerance, and names the run the calibrated baseline."""
    from models.rmf.fitted import by_title
    from models.rmf.measured import figure_title
    from ui.docks.measured_table import CALIBRATED

    sc = _calibrate(sysa, qtbot)
    marked = by_title(sc.imported, figure_title)
    assert marked
    sysa.run_and_wait(120)
    assert sysa.document.run_name().label == "calibrated baseline"
    assert "calibrated baseline" in sysa.results.headline.text()
    view = sysa.results.measured_view
    t = view.table
    seen = set()
    for r, row in enumerate(view._row_of):
        if row is None:
            continue
        item = t.item(r, 0)
        if (row[0], row[1]) in marked:
            seen.add((row[0], row[1]))
            assert item.text().endswith("(calibrated)")
            assert "Calibrated:" in item.toolTip()
            assert item.background().color() == CALIBRATED
        else:
            assert "calibrated" not in item.text()
    assert seen == set(marked)
    assert " figures within tolerance (" in view.summary.text()
    assert view.summary.text().endswith(f"; {len(marked)} calibrated")
    assert "Blue: calibrated" in view.legend.text()
    assert "_ms" not in view.legend.text() and "_pct" not in view.summary.text()
    panel = sysa.rmf_import.panel.text.toPlainText()
    assert "Last run against RMF:" in panel and " figures within tolerance (" in panel


def test_before_calibration_nothing_is_marked(sysa):
    sysa.run_and_wait(120)
    view = sysa.results.measured_view
    assert sysa.document.run_name().label == "baseline as imported"
    assert not any("calibrated" in (view.table.item(r, 0).text() if view.table.item(r, 0)
                                    else "") for r in range(view.table.rowCount()))
    assert "calibrated" not in view.summary.text() and "Blue" not in view.legend.text()
