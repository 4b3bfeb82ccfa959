"""Properties shows the selected card's own values, never another card's.

On the imported system a storage group dropped beside SGDB2 showed SGDB2's
serials, count and aliases (later SGTSO's) while its badge said ×10: the
inspector filled every unset field from the first card of the category that
set it, whether or not the value is shared by the category.
"""
from PySide6.QtCore import Qt

from models.drawing import config
from tests.ui.helpers import drop


def _open_sysa(win):
    assert win.open_case_or_file("rmf_sysa") is None
    return win.editor.scenario


def _by_label(sc, label):
    return next(n for n in sc.nodes.values() if n.label == label)


def _shown(win, name):
    w = win.inspector.fields[name]
    return w.text() if hasattr(w, "text") else w.currentText()


def _check_own_values(win, node_id):
    """Select the card: each field says what the card itself holds."""
    sc = win.editor.scenario
    win.scene.select_nodes([node_id])
    assert win.inspector.node_id == node_id
    node = sc.nodes[node_id]
    assert _shown(win, "label") == node.label
    # The count is the badge's: the members the run simulates.
    assert _shown(win, "count") == str(len(config.members_of(node)))
    assert _shown(win, "names") == str(node.properties.get("names") or "")
    assert _shown(win, "aliases") == str(node.properties.get("aliases", 0))


def test_a_new_group_shows_its_own_values_after_a_drop_and_after_a_delete(window, qtbot):
    win = window
    sc = _open_sysa(win)
    sgdb2, sgtso = _by_label(sc, "SGDB2"), _by_label(sc, "SGTSO")
    first = drop(win, "sg_ssd", 500, 700)
    assert first is not None
    _check_own_values(win, first)
    assert _shown(win, "names") == ""              # not SGDB2's DB2001,…
    assert _shown(win, "count") == "10"            # the ×10 on its badge, not SGDB2's 4
    assert _shown(win, "aliases") == "0"
    # The old cards still show theirs.
    _check_own_values(win, sgdb2.id)
    assert _shown(win, "names") == "DB2001,DB2002,DB2003,DB2004"
    _check_own_values(win, sgtso.id)
    # Delete SGDB2: nothing of SGTSO's leaks into a new card either.
    win.scene.select_nodes([sgdb2.id])
    qtbot.keyClick(win.view, Qt.Key.Key_Delete)
    assert sgdb2.id not in sc.nodes
    second = drop(win, "sg_hdd15k", 900, 700)
    assert second is not None
    for nid in (second, first, sgtso.id):
        _check_own_values(win, nid)
    win.scene.select_nodes([second])
    assert _shown(win, "names") == "" and _shown(win, "count") == "10"
    # Undo the delete: SGDB2 is back and shows its own serials again.
    while sgdb2.id not in sc.nodes:
        win.editor.undo_stack.undo()
    _check_own_values(win, sgdb2.id)
    assert _shown(win, "names") == "DB2001,DB2002,DB2003,DB2004"


def test_typing_a_count_on_a_new_group_changes_that_group_only(window, qtbot):
    win = window
    sc = _open_sysa(win)
    new = drop(win, "sg_ssd", 500, 700)
    win.scene.select_nodes([new])
    field = win.inspector.fields["count"]
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "4")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert sc.nodes[new].properties == {"count": 4}
    win.scene.select_nodes([new])
    assert _shown(win, "count") == "4" and _shown(win, "names") == ""
    assert _by_label(sc, "SGDB2").properties["names"] == "DB2001,DB2002,DB2003,DB2004"
