"""Change a component's type in place: from Properties, from the card's context
menu ("Change to ▸") and by dropping another version of it onto the card.

Each is one undo step and keeps the card's label, serials, counts, position
and links (issue 40: moving SGDB2 to SSD took about ten actions, and the
natural gesture, dropping "Storage group on SSD" onto it, hid an unlinked
card under it and changed nothing).
"""
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication

from ui.canvas import menus
from tests.ui.helpers import centre, drop


def _open_sysa(win):
    assert win.open_case_or_file("rmf_sysa") is None
    return win.editor.scenario


def _id(sc, label):
    return next(n.id for n in sc.nodes.values() if n.label == label)


def _kept(sc, node_id):
    """What a change of type must keep: label, properties, position, links."""
    n = sc.nodes[node_id]
    links = sorted((ln.source, ln.target) for ln in sc.links.values()
                   if node_id in (ln.source, ln.target))
    return n.label, dict(n.properties), (n.x, n.y), links


class Answer:
    """Stands in for the user before a menu: records its entries, picks one."""

    def __init__(self, pick):
        self.pick, self.seen, self.ticked = pick, [], []

    def __call__(self, menu, _pos):
        entries = _entries(menu)
        self.seen.append(entries)
        self.ticked.append([text for text, act in entries.items() if act.isChecked()])
        if self.pick is None:
            return None
        act = entries[self.pick]
        act.trigger()
        return act


def _entries(menu, head=""):
    out = {}
    for act in menu.actions():
        if act.menu() is not None and act.menu().actions():
            out.update(_entries(act.menu(), f"{head}{act.text()} ▸ "))
        elif act.text():
            out[f"{head}{act.text()}"] = act
    return out


def _right_click(win, node_id):
    view = win.view
    point = view.mapFromScene(centre(win, node_id))
    event = QContextMenuEvent(QContextMenuEvent.Reason.Mouse, point,
                              view.viewport().mapToGlobal(point))
    QApplication.sendEvent(view.viewport(), event)


def test_change_sgdb2_to_ssd_from_properties_is_one_undo_step(window, qtbot):
    win = window
    sc = _open_sysa(win)
    sg = _id(sc, "SGDB2")
    kept, steps = _kept(sc, sg), win.editor.undo_stack.count()
    win.scene.select_nodes([sg])
    combo = win.inspector.fields["drive"]
    assert [combo.itemText(i) for i in range(combo.count())] == ["HDD 10K", "HDD 15K", "SSD"]
    assert combo.currentText() == "HDD 15K"
    assert "device" not in win.inspector.fields       # no disabled "fixed by the kind" row
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)             # HDD 15K → SSD
    assert sc.nodes[sg].kind == "sg_ssd"
    assert _kept(sc, sg) == kept
    assert win.editor.undo_stack.count() == steps + 1
    assert win.editor.undo_stack.undoText() == "Change SGDB2 to SSD"
    assert win.inspector.fields["drive"].currentText() == "SSD"
    assert "Storage group on SSD" in win.scene.node_items[sg].toolTip()
    assert "SGDB2 on SSD" in win.status.text()
    win.editor.undo_stack.undo()
    assert sc.nodes[sg].kind == "sg_hdd15k" and _kept(sc, sg) == kept
    assert win.inspector.fields["drive"].currentText() == "HDD 15K"
    win.editor.undo_stack.redo()
    assert sc.nodes[sg].kind == "sg_ssd" and _kept(sc, sg) == kept


def test_change_a_channel_group_to_zhpf_from_properties(window, qtbot):
    win = window
    sc = _open_sysa(win)
    chg = _id(sc, "FICON CHPIDs")
    kept = _kept(sc, chg)
    win.scene.select_nodes([chg])
    combo = win.inspector.fields["protocol"]
    assert combo.currentText() == "FICON"
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert sc.nodes[chg].kind == "chg_zhpf" and _kept(sc, chg) == kept
    assert sc.nodes[chg].properties["names"] == "50,51"
    win.editor.undo_stack.undo()
    assert sc.nodes[chg].kind == "chg_ficon"


def test_change_to_from_the_context_menu_and_the_run_follows(window, qtbot, monkeypatch):
    win = window
    sc = _open_sysa(win)
    sg = _id(sc, "SGDB2")
    with qtbot.waitSignal(win.run_done, timeout=120_000):
        win.run()
    before = win.last_result.components["SGDB2"]["resp_ms"]
    kept = _kept(sc, sg)
    answer = Answer("Change to ▸ SSD")
    monkeypatch.setattr(menus, "popup", answer)
    _right_click(win, sg)
    assert set(answer.seen[0]) == {"Change to ▸ HDD 10K", "Change to ▸ HDD 15K",
                                   "Change to ▸ SSD"}
    assert answer.ticked[0] == ["Change to ▸ HDD 15K"]
    assert sc.nodes[sg].kind == "sg_ssd" and _kept(sc, sg) == kept
    assert win.scene.selected_node_ids() == [sg]
    assert win.editor.undo_stack.undoText() == "Change SGDB2 to SSD"
    with qtbot.waitSignal(win.run_done, timeout=120_000):
        win.run()
    after = win.last_result.components["SGDB2"]["resp_ms"]
    assert after < 0.5 * before                     # 0.61 → 0.21 ms: no seek, no rotation
    # The channel group's protocol the same way; then undo each, one step each.
    chg = _id(sc, "FICON CHPIDs")
    monkeypatch.setattr(menus, "popup", Answer("Change to ▸ zHPF"))
    _right_click(win, chg)
    assert sc.nodes[chg].kind == "chg_zhpf"
    win.editor.undo_stack.undo()
    assert sc.nodes[chg].kind == "chg_ficon" and sc.nodes[sg].kind == "sg_ssd"
    win.editor.undo_stack.undo()
    assert sc.nodes[sg].kind == "sg_hdd15k"


def test_a_card_with_one_version_offers_no_change(window, monkeypatch):
    win = window
    sc = _open_sysa(win)
    answer = Answer(None)
    monkeypatch.setattr(menus, "popup", answer)
    cu = _id(sc, "SSID 0006")
    _right_click(win, cu)
    assert list(answer.seen[0]) == ["Change to"]
    assert not answer.seen[0]["Change to"].isEnabled()


def test_a_ranks_drive_changes_the_volumes_on_it_in_one_step(window, qtbot):
    win = window
    sc = _open_sysa(win)
    rank, sg = _id(sc, "Rank 0000"), _id(sc, "SGDB2")
    win.scene.select_nodes([rank])
    combo = win.inspector.fields["drive"]
    assert combo.currentText() == "HDD 15K"
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert sc.nodes[sg].kind == "sg_ssd"
    assert win.inspector.fields["drive"].currentText() == "SSD"
    win.editor.undo_stack.undo()
    assert sc.nodes[sg].kind == "sg_hdd15k"


@pytest.mark.parametrize("pick, kind, added", [
    ("Change SGDB2 to SSD", "sg_ssd", False),
    ("Add beside (a new storage group on SSD, not linked)", "sg_hdd15k", True),
    (None, "sg_hdd15k", False),
])
def test_dropping_another_version_onto_a_card_offers_the_change(window, monkeypatch,
                                                                pick, kind, added):
    win = window
    sc = _open_sysa(win)
    sg = _id(sc, "SGDB2")
    kept, count, steps = _kept(sc, sg), len(sc.nodes), win.editor.undo_stack.count()
    answer = Answer(pick)
    monkeypatch.setattr(menus, "popup", answer)
    at = centre(win, sg)
    new = drop(win, "sg_ssd", at.x(), at.y())
    assert set(answer.seen[0]) == {"Change SGDB2 to SSD",
                                   "Add beside (a new storage group on SSD, not linked)"}
    assert sc.nodes[sg].kind == kind and _kept(sc, sg) == kept
    assert len(sc.nodes) == count + added and (new is not None) == added
    assert win.editor.undo_stack.count() == steps + (pick is not None)
    if added:
        n = sc.nodes[new]
        assert abs(n.x - sc.nodes[sg].x) >= 150 or abs(n.y - sc.nodes[sg].y) >= 92


def test_the_same_version_or_another_family_dropped_onto_a_card_asks_nothing(window,
                                                                           monkeypatch):
    win = window
    sc = _open_sysa(win)
    answer = Answer(None)
    monkeypatch.setattr(menus, "popup", answer)
    at = centre(win, _id(sc, "SGDB2"))
    assert drop(win, "sg_hdd15k", at.x(), at.y()) is not None
    assert drop(win, "vol_ssd", at.x(), at.y()) is not None      # a volume, not a group
    assert answer.seen == []


def test_a_fixed_value_refusal_says_how_to_change_it(window):
    win = window
    assert win.open_case_or_file("db2_io") is None
    sc = win.editor.scenario
    vol = next(n for n in sc.nodes.values() if n.category == "volume")
    why = win.editor.set_property(vol.id, "device", "SSD")
    assert "change its drive instead" in why and "Change to" in why
    sc = _open_sysa(win)
    assert win.editor.change_kind(_id(sc, "SGDB2"), "drive", "floppy") is not None
    assert "allowed: HDD 10K, HDD 15K, SSD" in win.status.text()
    assert sc.nodes[_id(sc, "SGDB2")].kind == "sg_hdd15k"


@pytest.mark.parametrize("label, entry, kind", [
    ("STEPLIB", "Change to ▸ PDSE", "ds_pdse"),
    ("LIBV01", "Change to ▸ SSD", "vol_ssd"),
    ("CHPID 20", "Change to ▸ FICON", "chan_ficon"),
    ("CP 1", "Change to ▸ zIIP", "cpu_ziip"),
])
def test_every_kind_with_versions_changes_from_its_menu(window, monkeypatch, label, entry, kind):
    win = window
    assert win.open_case_or_file("program_fetch") is None
    sc = win.editor.scenario
    node = _id(sc, label)
    old, kept = sc.nodes[node].kind, _kept(sc, node)
    monkeypatch.setattr(menus, "popup", Answer(entry))
    _right_click(win, node)
    assert sc.nodes[node].kind == kind and _kept(sc, node) == kept
    win.scene.select_nodes([node])
    assert entry.split("▸ ")[1] in [w.currentText() for w in win.inspector.fields.values()
                                    if hasattr(w, "currentText")]
    win.editor.undo_stack.undo()
    assert sc.nodes[node].kind == old


def test_change_every_selected_card_of_a_sort_in_one_step(window, monkeypatch):
    win = window
    assert win.open_case_or_file("large_shop") is None
    sc = win.editor.scenario
    picked = [_id(sc, lb) for lb in ("DB2A", "DB2B", "DB2C", "DB2D", "CHP40")]
    win.scene.select_nodes(picked)
    steps = win.editor.undo_stack.count()
    answer = Answer("Change 4 cards to ▸ SSD")
    monkeypatch.setattr(menus, "popup", answer)
    _right_click(win, picked[0])
    # The four storage groups, not the channel group; no version ticked (they differ).
    assert answer.ticked[0] == []
    assert [sc.nodes[n].kind for n in picked] == ["sg_ssd"] * 4 + ["chg_zhpf"]
    assert win.editor.undo_stack.count() == steps + 1
    assert win.editor.undo_stack.undoText() == "Change 3 cards to SSD"
    assert "What-if: DB2A, DB2B, DB2C on SSD" in win.status.text()
    assert sorted(win.scene.selected_node_ids()) == sorted(picked)
    win.editor.undo_stack.undo()
    assert [sc.nodes[n].kind for n in picked] == ["sg_hdd15k"] * 3 + ["sg_ssd", "chg_zhpf"]


def test_the_menu_key_opens_the_selected_cards_menu(window, monkeypatch):
    win = window
    sc = _open_sysa(win)
    sg = _id(sc, "SGDB2")
    win.scene.select_nodes([sg])
    monkeypatch.setattr(menus, "popup", Answer("Change to ▸ SSD"))
    view = win.view
    # From the keyboard the event comes at a point where no card is.
    empty = view.mapFromScene(centre(win, sg)) + QPoint(0, 400)
    event = QContextMenuEvent(QContextMenuEvent.Reason.Keyboard, empty,
                              view.viewport().mapToGlobal(empty))
    QApplication.sendEvent(view.viewport(), event)
    assert sc.nodes[sg].kind == "sg_ssd"
