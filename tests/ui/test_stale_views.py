"""Opening another scenario never leaves the previous run on screen as its own."""


def test_opening_another_scenario_clears_every_view_of_the_old_run(window, qtbot):
    win = window
    assert win.open_case_or_file("natural_ziip") is None
    win.run_and_wait()
    assert win.last_result is not None
    charts, anim = win.views["charts"], win.views["animation"]
    assert charts.result is not None and anim.data is not None
    assert win.open_case_or_file("db2_io") is None
    # The Natural run is gone from the charts and the replay: nothing there
    # could be exported or read as the DB2 scenario's.
    assert charts.result is None and not charts.tabs.isVisible() or charts.tabs.count() == 0
    assert anim.data is None
    assert win.last_result is None
