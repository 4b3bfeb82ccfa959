"""A palette card dropped onto a card: never hidden under it.

Issue 40: "Storage group on SSD" dropped onto SGDB2 stacked an unlinked card
exactly on top of it; the run then silently left the new card out.
"""
from ui.canvas.items import ISSUE_H, NODE_H, NODE_W, NodeItem
from tests.ui.helpers import centre, drop


def _open_sysa(win):
    assert win.open_case_or_file("rmf_sysa") is None
    return win.editor.scenario


def _by_label(sc, label):
    return next(n for n in sc.nodes.values() if n.label == label)


def _covers(a, b) -> bool:
    """Whether card ``a`` or the note under it covers card ``b`` or its note."""
    h = NODE_H + ISSUE_H
    return not (a.x + NODE_W <= b.x or b.x + NODE_W <= a.x
                or a.y + h <= b.y or b.y + h <= a.y)


def _top_card_at(win, point):
    return next(i.node_id for i in win.scene.items(point) if isinstance(i, NodeItem))


def test_a_card_of_another_family_dropped_onto_a_card_lands_beside_it(window):
    win = window
    sc = _open_sysa(win)
    sgdb2 = _by_label(sc, "SGDB2")
    at = centre(win, sgdb2.id)
    for kind in ("cu_ds8000", "ds_vsam_ksds", "vol_raid"):
        new = drop(win, kind, at.x(), at.y())
        assert new is not None, kind
        placed = sc.nodes[new]
        assert not any(_covers(placed, n) for n in sc.nodes.values() if n.id != new), kind
        # Near SGDB2: the nearest free spot, within two cards' steps of it.
        assert abs(placed.x - sgdb2.x) <= 2 * (NODE_W + 40)
        assert abs(placed.y - sgdb2.y) <= 2 * (NODE_H + ISSUE_H + 40)
        assert _top_card_at(win, at) == sgdb2.id       # SGDB2 still shows
    win.editor.undo_stack.undo()
    assert len([n for n in sc.nodes.values() if n.kind == "vol_raid"]) == 2


def test_a_drop_on_empty_canvas_lands_where_it_is_dropped(window):
    win = window
    sc = _open_sysa(win)
    new = drop(win, "cu_ds8000", 500 + NODE_W / 2, 900 + NODE_H / 2)
    assert (sc.nodes[new].x, sc.nodes[new].y) == (500, 900)
