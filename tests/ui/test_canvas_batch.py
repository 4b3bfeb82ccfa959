"""A large scenario opens in one batch: every component drawn, links glued, notes right.

The scenario is the db2_io case study with extra volumes on its control unit
and one dataset that is on no volume (the only problem): 1,000 components. The
checks are what a user sees after File ▸ Open; no timings.
"""
import json

from PySide6.QtCore import QRectF

from app import scenario_io
from ui.canvas.items import NODE_H, NODE_W

COMPONENTS = 1000


def _large_document() -> dict:
    doc = scenario_io.to_document(scenario_io.load_case("db2_io"))
    cu = next(n["id"] for n in doc["nodes"] if n["kind"] == "cu_ds8000")
    work = next(n["id"] for n in doc["nodes"] if n["kind"].startswith("wl_"))
    for i in range(COMPONENTS - len(doc["nodes"]) - 1):
        nid = f"n{1000 + i}"
        doc["nodes"].append({"id": nid, "kind": "vol_hdd15k", "label": f"DB2V{i + 2:04d}",
                             "x": 600 + (i % 40) * 180, "y": (i // 40) * 200, "properties": {}})
        doc["links"].append({"id": f"l{5000 + i}", "source": nid, "target": cu})
    doc["nodes"].append({"id": "n4000", "kind": "ds_db2_ix", "label": "Lonely index",
                         "x": 200, "y": -200, "properties": {}})
    doc["links"].append({"id": "l9000", "source": work, "target": "n4000"})
    return doc


def _open_large(window, tmp_path, qtbot):
    path = tmp_path / "large.zpl.json"
    path.write_text(json.dumps(_large_document()), encoding="utf-8")
    announced = []
    window.scene.issues_changed.connect(announced.append)
    assert window.open_case_or_file(str(path)) is None
    window.scene.issues_changed.disconnect(announced.append)
    return announced


IDLE_VOLUME = "takes no part in the run: no dataset a workload uses is on it"


def _problems(scene, node_id) -> list[str]:
    """A card's notes that stop the run (not that it takes no part in it)."""
    return [m for m in scene.issues_for(node_id) if not m.startswith("takes no part")]


def _card(item) -> QRectF:
    return QRectF(item.pos().x(), item.pos().y(), NODE_W, NODE_H)


def test_large_scenario_opens_with_every_component_link_and_note(window, tmp_path, qtbot):
    announced = _open_large(window, tmp_path, qtbot)
    sc, scene = window.editor.scenario, window.scene
    assert len(sc.nodes) == COMPONENTS

    # Every component has its card where the file put it.
    assert set(scene.node_items) == set(sc.nodes)
    for nid, node in sc.nodes.items():
        item = scene.node_items[nid]
        assert item.scene() is scene
        assert (item.x(), item.y()) == (node.x, node.y)

    # Every link is drawn from one card's edge to the other's.
    assert set(scene.link_items) == set(sc.links)
    for lid, link in sc.links.items():
        drawn = scene.link_items[lid].path()
        start, end = drawn.elementAt(0), drawn.elementAt(1)
        source, target = (_card(scene.node_items[e]).adjusted(-1, -1, 1, 1)
                          for e in (link.source, link.target))
        assert source.contains(start.x, start.y) and target.contains(end.x, end.y)

    # Exactly one problem: the dataset that is on no volume. The extra
    # volumes hold no dataset: each says it takes no part in the run.
    noted = {nid for nid in sc.nodes if _problems(scene, nid)}
    assert noted == {"n4000"}
    assert "needs a volume" in scene.issues_for("n4000")[0]
    assert all(scene.issues_for(f"n{1000 + i}") == [IDLE_VOLUME] for i in range(10))
    # ... announced once for the whole scenario, not once per component.
    assert len(announced) == 1

    # Opening is not an edit.
    stack = window.editor.undo_stack
    assert stack.count() == 0 and stack.isClean()
    assert not window.windowTitle().endswith("*")

    # "Fit" shows every component: the canvas reaches past the farthest one.
    assert scene.sceneRect().contains(scene.itemsBoundingRect())


def test_moving_a_component_of_a_large_scenario_drags_only_its_links(window, tmp_path, qtbot):
    _open_large(window, tmp_path, qtbot)
    scene, cu = window.scene, window.scene.node_items["n4"]
    before = {lid: item.path().boundingRect() for lid, item in scene.link_items.items()}
    cu.setPos(cu.pos().x() + 300, cu.pos().y() + 300)
    changed = {lid for lid, item in scene.link_items.items() if item.path().boundingRect() != before[lid]}
    at_cu = {lid for lid, ln in window.editor.scenario.links.items() if "n4" in (ln.source, ln.target)}
    assert changed == at_cu


def test_large_paste_and_delete_are_one_batch_and_undo_cleanly(window, tmp_path, qtbot):
    _open_large(window, tmp_path, qtbot)
    sc, scene, editor = window.editor.scenario, window.scene, window.editor
    volumes = [nid for nid, n in sc.nodes.items() if n.kind == "vol_hdd15k"][:300]
    nodes_before, links_before = set(sc.nodes), set(sc.links)

    announced = []
    scene.issues_changed.connect(announced.append)
    pasted = editor.paste_data(editor.copy_data(volumes))
    assert len(pasted) == 300 and set(pasted) <= set(scene.node_items)
    assert len(announced) == 1

    editor.delete(list(nodes_before - {"n4000"}))
    assert set(scene.node_items) == set(pasted) | {"n4000"} and not scene.link_items
    assert len(announced) == 2

    editor.undo_stack.undo()
    editor.undo_stack.undo()
    assert set(scene.node_items) == nodes_before and set(scene.link_items) == links_before
    assert {nid for nid in sc.nodes if _problems(scene, nid)} == {"n4000"}
    assert len(announced) == 4
    assert editor.undo_stack.isClean()
