"""A scripted --set (export, gui) edits every component that carries the key."""


def test_set_parameter_edits_every_carrier_in_one_undo_step(window):
    win = window
    assert win.open_case_or_file("custom") is None
    sc = win.editor.scenario
    units = [n for n in sc.nodes.values() if n.category == "control_unit"]
    loads = [n for n in sc.nodes.values() if n.category == "workload"]
    assert len(units) == 2 and len(loads) == 2
    assert win.editor.set_parameter("cache_gb", 8) is None
    assert [sc.nodes[u.id].properties["cache_gb"] for u in units] == [8.0, 8.0]
    assert win.editor.set_parameter("duration_s", 0.5) is None
    assert [sc.nodes[w.id].properties["duration_s"] for w in loads] == [0.5, 0.5]
    win.editor.undo_stack.undo()          # one step gives back both run lengths
    assert all(sc.nodes[w.id].properties.get("duration_s") != 0.5 for w in loads)
    assert "no component" in win.editor.set_parameter("nosuch", 1)
