"""The window keeps no run it no longer shows (issue #29).

A user runs case study after case study in one window and looks at the
Charts, the Animation and the Canvas after each. Once a run is replaced (the
next run, or another scenario opened), nothing of it may stay: not the
result, its trace, the replay's index of it, the replay views drawn from it,
nor the charts' data. Checked with weak references and a garbage collection,
after Qt has deleted what was scheduled for deletion (as the event loop would
when idle). bench/window_memory.py measures what that means in megabytes.
"""
from __future__ import annotations

import gc
import weakref

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

CASE, OTHER = "natural_ziip", "program_fetch"


def look(win) -> None:
    """Charts, every replay tab, then the Canvas, each painted."""
    for name in ("charts", "animation"):
        assert win.show_view(name) is None
        QApplication.processEvents()
        win.grab()
    replay = win.replay_view()
    for i in range(replay.tabs.count()):
        replay.tabs.setCurrentIndex(i)
        QApplication.processEvents()
        win.grab()
    win.show_canvas()
    QApplication.processEvents()
    win.grab()


def settle() -> None:
    """What an idle event loop does: deferred deletes, then a collection."""
    for _ in range(3):
        QApplication.processEvents()
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    gc.collect()


def run_case(win, case: str):
    assert win.open_case_or_file(case) is None
    win.run_and_wait()
    result = win.document.result
    assert result is not None and result.experiment == case, win.status.text()
    look(win)
    return result


def run_objects(win) -> dict[str, weakref.ref]:
    """Weak references to what the window made of the run it shows now."""
    result = win.document.result
    replay, charts = win.replay_view(), win.charts_view()
    refs = {"result": weakref.ref(result), "trace": weakref.ref(result.trace),
            "replay data": weakref.ref(replay.data)}
    refs.update({f"replay view {title}": weakref.ref(view)
                 for title, view in replay.views.items()})
    refs.update({f"chart data {key}": weakref.ref(chart.data)
                 for key, chart in charts.charts().items()})
    return refs


def alive(refs: dict[str, weakref.ref]) -> list[str]:
    return [name for name, ref in refs.items() if ref() is not None]


@pytest.mark.parametrize("replace", ["run again", "run another case study",
                                     "open another scenario"])
def test_a_replaced_run_leaves_nothing_in_the_window(window, replace):
    run_case(window, CASE)
    old = run_objects(window)
    # The run shown is the run held: a replay and charts of it exist.
    assert any(name.startswith("replay view") for name in old)
    assert any(name.startswith("chart data") for name in old)
    if replace == "run again":
        window.run_and_wait()
        assert window.document.result is not None
        look(window)
    elif replace == "run another case study":
        run_case(window, OTHER)
    else:
        assert window.open_case_or_file(OTHER) is None
        look(window)
    settle()
    assert alive(old) == []
    if replace != "open another scenario":
        # The run now shown is still there (the check above is not vacuous).
        assert "result" in alive(run_objects(window))


def test_many_runs_hold_the_last_one_only(window):
    """Runs of different case studies in turn: each one's objects go when the
    next is shown (what a window holds does not grow with the runs)."""
    runs = []
    for case in (CASE, OTHER, "db2_io", CASE):
        run_case(window, case)
        runs.append((case, run_objects(window)))
    settle()
    assert [(case, alive(refs)) for case, refs in runs[:-1]] == [
        (case, []) for case, _ in runs[:-1]]
    assert "result" in alive(runs[-1][1])


def test_a_closed_window_frees_its_run(qtbot):
    """Closing the window lets its run go with it (nothing global holds either)."""
    from ui.main_window import MainWindow

    win = MainWindow()
    try:
        win.resize(1280, 800)
        win.show()
        qtbot.waitExposed(win)
        run_case(win, CASE)
        refs = run_objects(win)
        refs["window"] = weakref.ref(win)
    finally:
        win.shutdown()
        win.close()
        win.deleteLater()
    del win
    settle()
    assert alive(refs) == []


def _active_timers() -> int:
    import shiboken6
    from PySide6.QtCore import QTimer
    return sum(1 for o in gc.get_objects()
               if isinstance(o, QTimer) and shiboken6.isValid(o) and o.isActive())


def test_waiting_for_runs_leaves_no_timer_behind(window):
    """Run-and-wait (lessons, scripted runs) stops its time-out when the run
    ends: no timer, holding its event loop, outlives each run."""
    run_case(window, OTHER)
    before = _active_timers()
    for _ in range(3):
        window.run_and_wait()
    assert _active_timers() == before


def test_a_lesson_goes_on_after_a_run_replaces_the_replay_view_it_framed(window):
    """A lesson step frames a replay tab; the student presses Run (F5), which
    replaces that view (and the frame with it): Next still works, and nothing
    claims to be highlighted in between."""
    from app import lessons

    lesson = lessons.get("db2_index_scan")
    index = next(i for i, step in enumerate(lesson.steps)
                 if lesson.view_at(i) == "animation" and (step.highlight or {}).get("part"))
    window.lessons.start(lesson.name)
    player = window.lessons.player
    player.go(index)
    part = lesson.steps[index].highlight["part"]
    assert player.state()["highlight"] == part
    window.run_and_wait()
    settle()
    assert player.state()["highlight"] is None
    player.next()
    state = player.state()
    assert state["step"] == index + 1 and state["problem"] == ""
