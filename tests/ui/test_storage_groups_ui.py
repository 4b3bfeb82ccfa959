"""Expand a storage group into its volumes and collapse them again, each one undo step."""
from PySide6.QtCore import Qt

from models.drawing.config import from_scenario
from tests.models.test_storage_groups import small_shop


def _open(win, sc):
    assert win.open_scenario(sc, "small shop")
    return win.editor.scenario


def _run_config(sc):
    cfg = from_scenario(sc)
    return sorted((v.name, v.ranks, v.control_unit, v.aliases) for v in cfg.volumes), \
        [d.volumes for d in cfg.datasets]


def test_expand_draws_every_volume_wired_as_the_group_and_undo_gives_it_back(window, qtbot):
    win = window
    sc = _open(win, small_shop(count=6, ranks=2))
    before = sc.to_dict()
    simulated = _run_config(sc)
    win.scene.select_nodes(["n3"])
    qtbot.keyClick(win.view, Qt.Key.Key_U, Qt.KeyboardModifier.ControlModifier)
    assert "n3" not in sc.nodes
    vols = [n for n in sc.nodes.values() if n.kind == "vol_hdd15k"]
    ranks = [n for n in sc.nodes.values() if n.kind == "vol_raid"]
    assert len(vols) == 6 and [r.label for r in ranks] == ["PRDSG-R01", "PRDSG-R02"]
    assert all(sc.link_between(v.id, "n2") and sc.link_between(v.id, "n4") for v in vols)
    assert sc.issues() == []
    # What is simulated is the same, volume by volume (names, ranks, unit, aliases).
    assert _run_config(sc)[0] == simulated[0]
    assert sorted(_run_config(sc)[1][0]) == sorted(simulated[1][0])
    win.editor.undo_stack.undo()
    assert sc.to_dict() == before
    win.editor.undo_stack.redo()
    assert len([n for n in sc.nodes.values() if n.kind == "vol_hdd15k"]) == 6


def test_collapse_draws_volumes_alike_as_one_group_with_their_serials(window):
    win = window
    sc = _open(win, small_shop(count=4))
    win.editor.expand_group("n3")
    vols = sorted((n for n in sc.nodes.values() if n.kind == "vol_hdd15k"), key=lambda n: n.label)
    expanded = sc.to_dict()
    win.scene.select_nodes([v.id for v in vols])
    win.collapse_selection()
    groups = [n for n in sc.nodes.values() if n.kind == "sg_hdd15k"]
    assert len(groups) == 1 and groups[0].properties["count"] == 4
    assert [v.name for v in from_scenario(sc).volumes] == [v.label for v in vols]
    assert sc.issues() == []
    win.editor.undo_stack.undo()
    assert sc.to_dict() == expanded


def test_collapse_refuses_volumes_that_are_not_alike(window):
    win = window
    sc = _open(win, small_shop(count=2))
    win.editor.expand_group("n3")
    vols = [n for n in sc.nodes.values() if n.kind == "vol_hdd15k"]
    win.editor.set_property(vols[0].id, "aliases", 5)
    why = win.editor.collapse_group([v.id for v in vols])
    assert why is not None and "properties differ" in why
    assert len([n for n in sc.nodes.values() if n.kind == "vol_hdd15k"]) == 2
