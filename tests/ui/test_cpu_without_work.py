"""The Large shop's CP 1 drives its channels (without it the drawing cannot
run) but no CPU workload runs on it, and the model counts no CPU time for
starting I/O: its 0 % busy is said to be so under the Results' metrics,
and no "zIIPs busy" is shown for a drawing without a zIIP (issue 40 QA walk)."""
from models.drawing import config


def test_large_shop_results_say_why_the_cps_are_0_percent_busy(window, qtbot):
    assert window.open_case_or_file("large_shop") is None
    sc = window.editor.scenario
    # CP 1 takes part (it drives the channels), so it is no idle card...
    assert config.idle_cards(sc) == {}
    for nid, node in sc.nodes.items():
        if node.category == "workload":
            assert window.editor.set_property(nid, "duration_s", 0.01) is None
    with qtbot.waitSignal(window.run_done, timeout=120_000):
        assert window.run()
    # ...but its 0 % is not an idle CP: the Results say why.
    page = window.results.widget()
    texts = [w.text() for w in page.findChildren(type(window.results.headline))]
    assert any("No CPU workload is drawn" in t and "0 % busy" in t for t in texts), texts
    table = window.results.metrics_table
    rows = [table.item(r, 0).text() for r in range(table.rowCount())]
    assert "General CPs busy" in rows and "zIIPs busy" not in rows
