"""Labels are the keys of every report: two components never share one.

Renaming a volume to another's label in the inspector is refused on the
field; a pasted copy gets a label of its own; the aliases a volume has are
its own (the inspector no longer says every value is shared).
"""
from PySide6.QtCore import Qt


def _volumes(sc):
    return sorted((n for n in sc.nodes.values() if n.category == "volume"), key=lambda n: n.label)


def _rename_in_inspector(win, qtbot, node_id, text):
    win.scene.select_nodes([node_id])
    field = win.inspector.fields["label"]
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, text)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    return win.inspector.fields["label"]


def test_the_inspector_refuses_a_label_another_component_has(window, qtbot):
    win = window
    assert win.open_case_or_file("custom") is None
    sc = win.editor.scenario
    first, second = _volumes(sc)[:2]
    field = _rename_in_inspector(win, qtbot, second.id, first.label)
    assert sc.nodes[second.id].label != first.label
    assert f"already labelled '{first.label}'" in win.inspector.error.text()
    assert "border" in field.styleSheet()            # the refusal shows on the field
    assert [n.label for n in sc.nodes.values()].count(first.label) == 1
    # A free label is taken, and the field is clear again.
    field = _rename_in_inspector(win, qtbot, second.id, "PRDNEW")
    assert sc.nodes[second.id].label == "PRDNEW"
    assert win.inspector.error.text() == ""


def test_a_pasted_copy_gets_a_label_of_its_own(window):
    win = window
    assert win.open_case_or_file("custom") is None
    sc = win.editor.scenario
    vol = _volumes(sc)[0]
    fresh = win.editor.paste_data(win.editor.copy_data([vol.id]))
    assert len(fresh) == 1
    labels = [n.label for n in sc.nodes.values()]
    assert len(labels) == len(set(labels))
    assert sc.nodes[fresh[0]].label.startswith(vol.label.rstrip("0123456789"))


def test_aliases_are_each_volumes_own_and_the_inspector_says_which_values_are_shared(window):
    win = window
    assert win.open_case_or_file("custom") is None
    sc = win.editor.scenario
    first, second = _volumes(sc)[:2]
    before = sc.own_value(second, "aliases")
    assert win.editor.set_property(first.id, "aliases", 7) is None
    assert sc.nodes[first.id].properties["aliases"] == 7
    assert sc.own_value(sc.nodes[second.id], "aliases") == before
    win.scene.select_nodes([first.id])
    notes = [w.text() for w in win.inspector.findChildren(type(win.inspector.error))]
    assert not any("Values are shared by every component" in t for t in notes)
    shared = [t for t in notes if "Shared by every" in t]
    assert not any("PAV aliases" in t for t in shared)
