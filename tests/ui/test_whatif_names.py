"""An imported system's runs in the window: the baseline as imported, then a
what-if made on the canvas, each named so in History and in the charts that
set RMF's measured bars beside them (issue 40, items 4 and 6)."""


def run(window, qtbot):
    with qtbot.waitSignal(window.run_done, timeout=120_000):
        assert window.run()


def node_id(window, label: str) -> str:
    return next(nid for nid, n in window.editor.scenario.nodes.items() if n.label == label)


def test_history_and_charts_name_the_baseline_and_the_what_if(window, qtbot):
    assert window.open_case_or_file("rmf_sysa") is None
    run(window, qtbot)
    # An edit after import makes the next run a what-if against the import.
    assert window.editor.set_property(node_id(window, "SSID 0006"), "cache_gb", 4) is None
    run(window, qtbot)

    table = window.study.history_panel.table
    whatif, baseline = (table.item(r, 3).text() for r in range(2))     # newest first
    assert baseline == "baseline as imported"
    assert whatif.startswith("what-if: SSID 0006 Cache size:") and "→ 4 GB" in whatif
    for r in range(2):           # the scenario's title, not "Your own system"
        assert table.item(r, 2).text().startswith("Imported from RMF: SYSA")

    charts = window.charts_view().charts()
    rate = charts["measured_rate"].data
    assert [s.name for s in rate.series] == ["measured (RMF)", whatif]
    assert "model" not in rate.title and rate.title.startswith("Measured vs what-if (SSID 0006")


def test_results_headline_and_status_name_the_run_not_your_own_system(window, qtbot):
    assert window.open_case_or_file("rmf_sysa") is None
    run(window, qtbot)
    head = window.results.headline.text()
    assert head.startswith("<b>Imported from RMF: SYSA")
    assert "— baseline as imported, seed 1" in head and "Your own system" not in head
    assert window.status.text().startswith("Finished the baseline as imported.")
    # SGDB2 moved to SSD (Properties' drive field): the run is a what-if.
    assert window.editor.change_kind(node_id(window, "SGDB2"), "drive", "SSD") is None
    run(window, qtbot)
    head = window.results.headline.text()
    assert "— what-if: SGDB2 on SSD, seed 1" in head and "Your own system" not in head
    assert window.status.text().startswith("Finished the what-if: SGDB2 on SSD.")


def test_a_case_study_keeps_its_title_in_the_headline_and_status(window, qtbot):
    from models import experiments
    assert window.open_case_or_file("db2_io") is None
    run(window, qtbot)
    title = experiments.get("db2_io").title
    assert title in window.results.headline.text()
    assert window.status.text().startswith(f"Finished {title}.")
