"""The Compare tab from any tab: a what-if study opened from the menu runs,
and runs of an edited drawing say they are of the drawing before the edit."""
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


def run_compare(win, qtbot, param: str = "cache") -> None:
    """Run ▸ Compare… and Run A and B of ``param`` on the drawing, as drawn."""
    win.study.a.compare.trigger()
    cv = win.study.compare_view
    cv.param.setCurrentIndex(cv.param.findData(param))
    with qtbot.waitSignal(win.study.compare_runner.done, timeout=60_000):
        win.study.compare_view.run_button.click()


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


def test_runs_of_a_drawing_edited_since_say_so_on_the_compare_tab(window, qtbot):
    win = window
    assert win.open_case_or_file("db2_io") is None
    title = win.editor.scenario.title
    run_compare(win, qtbot)
    cv = win.study.compare_view
    banner = cv.banner
    assert banner.objectName() == "staleBanner" and banner.isHidden()
    shown = (cv.label_a.text(), cv.label_b.text(), cv.table.rowCount())
    assert shown[2] > 0
    # Moving a card changes nothing the runs depend on.
    win.show_view("canvas")
    node = next(iter(win.editor.scenario.nodes.values()))
    win.editor.move({node.id: (node.x + 60, node.y)})
    win.show_view("compare")
    assert banner.isHidden()
    # Deleting a channel does: A and B stay on show, saying they are of the
    # drawing before the edit, by the title it had when they ran.
    win.show_view("canvas")
    chpid = next(n.id for n in win.editor.scenario.nodes.values() if n.label == "CHPID 41")
    win.editor.scenario.title = "A copy for tomorrow"
    win.editor.delete([chpid])
    win.show_view("compare")
    assert not banner.isHidden() and banner.isVisibleTo(cv)
    assert "before your last edit" in banner.text()
    assert f"“{title}”" in banner.text() and "tomorrow" not in banner.text()
    assert "Run A and B" in banner.text()
    assert (cv.label_a.text(), cv.label_b.text(), cv.table.rowCount()) == shown
    # Undo brings back the drawing that ran: the banner goes.
    win.editor.undo_stack.undo()
    assert banner.isHidden()
    win.editor.undo_stack.redo()
    assert not banner.isHidden()
    # The bar kept the comparison the user set up, so Run A and B repeats it
    # on the drawing as it is now: those runs are of the drawing, no banner.
    assert (cv.param.currentData(), cv.choice_b.currentData()) == ("cache", "resident")
    with qtbot.waitSignal(win.study.compare_runner.done, timeout=60_000):
        cv.run_button.click()
    assert banner.isHidden()
    assert (cv.label_a.text(), cv.label_b.text()) == shown[:2]


def test_a_what_if_study_is_not_made_stale_by_an_edit_of_the_canvas(window, qtbot):
    """The study's drawings are its own, not the canvas's: editing the canvas
    leaves them as they ran; another case clears the tab and its banner."""
    win = window
    assert win.open_case_or_file("db2_io") is None
    run_compare(win, qtbot)
    cv = win.study.compare_view
    win.editor.delete([next(n.id for n in win.editor.scenario.nodes.values()
                            if n.label == "CHPID 41")])
    assert not cv.banner.isHidden()
    with qtbot.waitSignal(win.study.compare_runner.done, timeout=120_000):
        assert win.study.open_whatif("hdd_to_ssd")
    assert cv.banner.isHidden()
    win.editor.undo_stack.undo()
    assert cv.banner.isHidden()
    run_compare(win, qtbot)
    win.editor.delete([next(n.id for n in win.editor.scenario.nodes.values()
                            if n.label == "CHPID 41")])
    assert not cv.banner.isHidden()
    assert win.open_case_or_file("natural_ziip") is None
    assert cv.banner.isHidden() and cv.table.rowCount() == 0


def test_two_stored_runs_compared_from_the_history_tab_after_a_study(window, qtbot):
    """The History tab's Compare shows the two stored runs with what B changed
    from A, whichever comparison the Compare tab held before (a study's
    drawings are not these runs' and are not run again)."""
    win = window
    assert win.open_case_or_file("db2_io") is None
    with qtbot.waitSignal(win.study.compare_runner.done, timeout=120_000):
        assert win.study.open_whatif("hdd_to_ssd")
    history = win.study.history
    assert history.flush(10)
    after, before = history.runs()[:2]
    win.show_view("history")
    win.study.compare_records(before, after)
    cv = win.study.compare_view
    assert win.tab_name() == "compare"
    assert cv.label_a.text().startswith(f"Run #{before.id}")
    assert cv.about.isVisibleTo(cv) and f"against run #{before.id}" in cv.about.text()
    assert f"Runs #{before.id} and #{after.id} from the history" in cv.status.text()
    assert cv.drawings is None and cv.run_button.text() == "Run A and B"
    assert cv.param.isVisibleTo(cv)
    # While a comparison runs, its view is not swapped for stored runs.
    with qtbot.waitSignal(win.study.compare_runner.done, timeout=120_000):
        assert win.study.open_whatif("hdd_to_ssd")
        win.study.compare_records(before, after)
        assert cv.drawings is not None and "running" in win.status.text()
    assert cv.label_a.text().startswith("Before")


def test_the_compare_controls_teach_what_they_do(window):
    cv = window.study.compare_view
    assert "neither is kept" in cv.cancel_button.toolTip()
    assert cv.progress.toolTip()
    assert "A's value" in cv.run_button.toolTip()
    st = whatif.study("hdd_to_ssd")
    cv.set_drawings("custom", *st.documents(), st.title, st.about, st.metric)
    assert "two drawings" in cv.run_button.toolTip()
