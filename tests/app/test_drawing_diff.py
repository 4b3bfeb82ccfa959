"""What a drawing changed from the case as opened, in the canvas's words."""
import copy

from app import drawing_diff, scenario_io
from models.drawing import documents
from models.drawing.scenario import Link


def _case():
    sc = scenario_io.load_case("db2_io")
    return sc, copy.deepcopy(sc.to_dict())


def _id(sc, label):
    return next(n.id for n in sc.nodes.values() if n.label == label)


def test_unchanged_and_moved_drawings_are_as_opened():
    sc, opened = _case()
    sc.move_node(_id(sc, "DB2V01"), 999, 999)
    assert drawing_diff.differences(opened, documents.to_document(sc)) == []
    assert drawing_diff.describe([]) == "as opened"


def test_property_device_added_removed_and_link_changes():
    sc, opened = _case()
    sc.set_property(_id(sc, "DB2V01"), "aliases", 8)
    sc.nodes[_id(sc, "DB2V01")].kind = "vol_ssd"
    sc.remove_node(_id(sc, "CHPID 41"))
    changes = drawing_diff.differences(opened, documents.to_document(sc))
    texts = [drawing_diff.change_text(c) for c in changes]
    assert "CHPID 41 removed" in texts
    assert "DB2V01 device: 3390 on HDD 15K → 3390 on SSD" in texts
    assert any(t.startswith("DB2V01 PAV aliases: ") and t.endswith("→ 8") for t in texts)
    assert not any("link" in t for t in texts)     # the removed channel's links go with it
    lk = next(lk for lk in sc.links.values() if _id(sc, "zIIP 1") in (lk.source, lk.target))
    sc.remove_link(lk.id)
    changes = drawing_diff.differences(opened, sc.to_dict())
    assert any(c["property"] == "link" and c["new"] == "removed" for c in changes)
    sc.add_link(Link(sc.new_id("l"), lk.source, lk.target))
    line = drawing_diff.describe(drawing_diff.differences(opened, sc.to_dict()), limit=2)
    assert line.endswith("and 1 more")


def test_unreadable_documents_give_no_changes():
    assert drawing_diff.differences(None, {"nodes": 3}) == []


def test_a_property_titled_after_its_component_names_it_once():
    change = {"component": "Table space", "property": "Table space size",
              "old": "2,000,000 pages", "new": "200,000 pages"}
    assert drawing_diff.change_text(change) == "Table space size: 2,000,000 pages → 200,000 pages"
    short = {**change, "component": "Table"}          # its label is not the title's head
    assert drawing_diff.change_text(short).startswith("Table Table space size: ")
    other = {"component": "DB2V01", "property": "PAV aliases", "old": "0", "new": "8"}
    assert drawing_diff.change_text(other) == "DB2V01 PAV aliases: 0 → 8"
