"""What-if studies ▸ any study opens Compare and runs both drawings, whichever tab is in front."""
from PySide6.QtGui import QAction

from models.studies import whatif


def menu_action(win, menu_text: str, action_text: str) -> QAction:
    """The action ``action_text`` of the menu bar's menu ``menu_text`` (as a user finds it)."""
    for top in win.menuBar().actions():
        if top.text().replace("&", "") == menu_text:
            for act in top.menu().actions():
                if act.text() == action_text:
                    return act
    raise AssertionError(f"no {menu_text} ▸ {action_text} in the menu bar")


def test_a_what_if_study_from_the_menu_runs_with_the_canvas_in_front(window, qtbot):
    win = window
    assert win.open_case_or_file("db2_io") is None
    assert win.tab_name() == "canvas"
    st = whatif.study("hdd_to_ssd")
    before, after = st.documents()
    act = menu_action(win, "What-if studies", st.title)
    with qtbot.waitSignal(win.study.compare_runner.done, timeout=120_000):
        act.trigger()
        # Bringing Compare forward must not swap the study for the canvas's
        # parameter bar: both drawings are running.
        assert win.study.compare_runner.running
    cv = win.study.compare_view
    assert win.tab_name() == "compare"
    assert cv.drawings is not None and cv.run_button.text() == "Run before and after"
    assert cv.about.isVisibleTo(cv) and st.title in cv.about.text()
    titles = [d["title"].split(": ", 1)[-1] for d in (before, after)]
    assert cv.label_a.text() == f"Before: {titles[0]}"
    assert cv.label_b.text() == f"After: {titles[1]}"
    assert cv.table.rowCount() > 0 and "Done" in cv.status.text()
    history = win.study.history
    assert [r.label for r in history.runs()] == [f"compare: After: {titles[1]}",
                                                 f"compare: Before: {titles[0]}"]
    # Back to the canvas and to Compare again: the study stays, ready to run again.
    win.show_view("canvas")
    win.show_view("compare")
    assert cv.drawings is not None and cv.label_a.text() == f"Before: {titles[0]}"
    assert cv.run_button.isEnabled()
