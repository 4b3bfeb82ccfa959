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
    assert charts.result is None
    assert charts.tabs.count() == 0 or not charts.tabs.isVisible()
    assert anim.data is None and anim.tabs.count() == 0
    assert win.last_result is None


def test_after_an_edit_every_view_of_the_run_says_it_is_of_the_old_drawing(window, qtbot):
    win = window
    assert win.open_case_or_file("db2_io") is None
    win.run_and_wait()
    banners = {name: win.view_pages[name].banner for name in ("charts", "animation")}
    results_banner = win.results_dock.findChild(type(banners["charts"]), "staleBanner")
    assert not any(not b.isHidden() for b in banners.values())
    # Moving a card changes nothing the run depends on.
    node = next(iter(win.editor.scenario.nodes.values()))
    win.editor.move({node.id: (node.x + 60, node.y)})
    assert not any(not b.isHidden() for b in banners.values())
    # Renaming a component does: each view says its run is of the drawing
    # before, by the title the scenario had when the run started (not the
    # title it has now).
    win.editor.scenario.title = "A copy for tomorrow"
    win.editor.rename(node.id, "Renamed")
    for name, b in {**banners, "results": results_banner}.items():
        assert not b.isHidden(), name
        assert "before your last edit" in b.text(), name
        assert "“One DB2 list-prefetch I/O”" in b.text() and "tomorrow" not in b.text(), name
    # Undo brings the drawing back to the one that ran: the banners go.
    win.editor.undo_stack.undo()
    assert not any(not b.isHidden() for b in (*banners.values(), results_banner))
    # Export ▸ Slides would take the charts only of a run of the drawing.
    win.editor.rename(node.id, "Renamed again")
    assert win.document.run_is_stale()


def test_a_run_reopened_from_the_history_is_the_documents(window, qtbot):
    win = window
    assert win.open_case_or_file("natural_ziip") is None
    win.run_and_wait()
    history = win.study.history
    assert history is not None and history.flush(10)
    record = history.runs("natural_ziip")[0]
    assert win.open_case_or_file("db2_io") is None
    win.study.reopen(record)
    # The stored run is what every view and export now shows, as Natural's.
    assert win.document.result is not None and win.document.result.experiment == "natural_ziip"
    assert win.editor.scenario.experiment == "natural_ziip"
    assert not win.document.run_is_stale()
    assert len(history.runs("natural_ziip")) == 1      # re-opening records nothing new
