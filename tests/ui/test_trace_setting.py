"""The replay trace size is a setting the user changes from the Run menu."""
from app import settings


def test_trace_size_is_set_from_the_run_menu(window, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    monkeypatch.setattr(QInputDialog, "getInt", lambda *a, **k: (250_000, True))
    act = next(x for x in window.run_menu.actions() if "trace size" in x.text())
    act.trigger()
    assert settings.trace_rows() == 250_000


def test_a_bounded_trace_says_which_part_of_the_run_the_replay_shows(window, qtbot):
    """A run longer than the trace keeps the newest events; the Animation tab says
    which ones, from when to when, while the results cover the whole run."""
    settings.set_trace_rows(10_000)
    assert window.open_case_or_file("custom") is None
    with qtbot.waitSignal(window.run_done, timeout=120_000):
        window.run()
    note = window.views["animation"].note.text()
    assert "The replay shows the newest 10,000 of " in note, note
    assert " from " in note and "oldest were dropped to bound memory" in note
    assert "results cover the whole run" in note


def test_a_long_run_of_a_big_shop_replays_its_end_and_says_from_when_it_was_traced(window, qtbot):
    """The Large shop records its trace over the end of the run only (the part
    the trace keeps): the replay still reaches the run's end and the
    Animation tab says from when the run was traced."""
    settings.set_trace_rows(10_000)
    assert window.open_case_or_file("resources/scenarios/large_shop.json") is None
    with qtbot.waitSignal(window.run_done, timeout=120_000):
        window.run()
    view = window.views["animation"]
    end = window.document.result.params["duration_s"]
    assert len(view.data) == 10_000 and view.data.t1 >= 0.99 * end
    note = view.note.text()
    assert "The replay shows the newest 10,000 events of " in note, note
    assert "the run recorded its trace from " in note and " on only" in note, note
    assert "results cover the whole run" in note
