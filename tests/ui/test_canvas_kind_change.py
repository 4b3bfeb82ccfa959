"""A kind changed in place (models.drawing.variants) shows on the canvas at once:
the card's tooltip names the new kind, the drawing's notes are checked again
and the document announces the edit."""
from models.drawing import variants
from models.drawing.scenario import Link


def _id(sc, label):
    return next(n.id for n in sc.nodes.values() if n.label == label)


def test_changing_a_kind_redraws_the_card_and_rechecks_the_drawing(window, qtbot):
    assert window.open_case_or_file("rmf_sysa") is None
    sc, scene = window.editor.scenario, window.scene
    sg = _id(sc, "SGDB2")
    # SGTSO shares SGDB2's rank: one rank, one type of drive.
    rank = _id(sc, "Rank 0000")
    sc.add_link(Link(sc.new_id("l"), _id(sc, "SGTSO"), rank))
    assert scene.issues_for(rank) == []
    heard = []
    window.editor.document.changed.connect(heard.append)
    variants.change(sc, sg, "drive", "SSD")
    assert [c.scenario for c in heard] == [True]
    assert "Storage group on SSD" in scene.node_items[sg].toolTip()
    assert any("one rank holds one type of drive" in m for m in scene.issues_for(rank))
