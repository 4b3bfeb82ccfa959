"""From an empty canvas, build the DB2 list-prefetch setup with the real widgets and run it."""
from PySide6.QtCore import QPointF, Qt

from models import experiments
from tests.ui.helpers import centre, drop, link


def test_build_db2_list_prefetch_setup_and_run(window, qtbot):
    win = window
    win.new_scenario()
    assert win.canvas_stack.currentWidget() is win.view
    assert win.editor.scenario.nodes == {}

    # Drag from the palette: the payload is the registry key in our MIME type.
    ids = {}
    for key, kind, x, y in (("w", "wl_db2", 0, 0), ("ix", "ds_db2_ix", 200, 0),
                            ("vol", "vol_ssd", 400, 0), ("cu", "cu_ds8000", 400, 180),
                            ("ch1", "chan_ficon", 200, 180), ("ch2", "chan_ficon", 200, 300),
                            ("ziip", "cpu_ziip", 0, 180), ("cp", "cpu_cp", 0, 300)):
        ids[key] = drop(win, kind, x + 75, y + 46)
        assert ids[key] is not None, kind
    sc = win.editor.scenario
    assert sc.experiment == "db2_index_scan"          # the DB2 workload picked it
    assert win.actions_.experiment_combo.currentData() == "db2_index_scan"
    assert "needs a dataset" in " ".join(win.scene.issues_for(ids["w"]))

    # An illegal link is refused with the reason, in the status bar.
    link(win, ids["w"], ids["vol"])
    assert sc.links == {}
    assert "datasets, not volumes" in win.status.text()

    for a, b in (("w", "ix"), ("ix", "vol"), ("vol", "cu"), ("cu", "ch1"), ("cu", "ch2"),
                 ("ziip", "ch1"), ("ziip", "ch2"), ("cp", "ch1"), ("cp", "ch2")):
        link(win, ids[a], ids[b])
        assert sc.link_between(ids[a], ids[b]) is not None, (a, b)
    assert sc.issues() == []

    # Edit a property in the inspector: select the workload, type, press Enter.
    win.scene.select_nodes([ids["w"]])
    field = win.inspector.fields["pct_read"]
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "2.5")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert sc.nodes[ids["w"]].properties["pct_read"] == 2.5
    win.scene.select_nodes([ids["vol"]])
    # An SSD volume is an SSD: its drive is the kind, changed in place from here.
    assert win.inspector.fields["drive"].currentText() == "SSD"
    assert "device" not in win.inspector.fields
    assert sc.run_request() == ("db2_index_scan",
                                {"pct_read": 2.5, "device": "SSD", "protocol": "FICON"})

    with qtbot.waitSignal(win.run_done, timeout=60_000):
        qtbot.keyClick(win, Qt.Key.Key_F5)
    headline = win.results.headline.text()
    if experiments.get("db2_index_scan").run is None:
        assert "not implemented yet" in headline
        assert win.last_result is None
    else:
        result = win.last_result
        assert result is not None and result.params["device"] == "SSD"
        assert result.params["pct_read"] == 2.5
        assert win.results.metrics_table.rowCount() == len(result.metrics)
    assert win.actions_.run.isEnabled() and not win.progress.isVisible()


def test_drop_of_bad_payload_creates_nothing(window):
    win = window
    win.new_scenario()
    assert drop(win, "", 0, 0, raw=b"flux_capacitor") is None
    assert drop(win, "", 0, 0, raw=b"\xff\xfe") is None
    assert win.editor.scenario.nodes == {}
    assert win.editor.undo_stack.count() == 0


def test_dragging_components_is_one_snapped_undo_step(window):
    from tests.ui.helpers import drag
    win = window
    win.new_scenario()
    a = drop(win, "cpu_cp", 100, 100)
    b = drop(win, "chan_ficon", 400, 100)
    win.scene.select_nodes([a, b])
    stack = win.editor.undo_stack
    n = stack.count()
    old = {i: (win.editor.scenario.nodes[i].x, win.editor.scenario.nodes[i].y) for i in (a, b)}
    drag(win.view, centre(win, a), centre(win, a) + QPointF(93, 47))
    assert stack.count() == n + 1
    for i in (a, b):
        node = win.editor.scenario.nodes[i]
        assert (node.x % 20, node.y % 20) == (0, 0)          # snapped to the grid
        assert (node.x, node.y) != old[i]
        assert win.scene.node_items[i].pos() == QPointF(node.x, node.y)
    stack.undo()
    assert {i: (win.editor.scenario.nodes[i].x, win.editor.scenario.nodes[i].y) for i in (a, b)} == old
