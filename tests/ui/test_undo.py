"""Undo/redo round-trips every kind of edit, each one step on the QUndoStack."""
import pytest

from ui.editor import Editor


def _state(editor):
    return editor.scenario.to_dict()


def _edits():
    """(name, function(editor, ids)) for every edit type the editor offers."""
    return [
        ("add", lambda e, ids: e.add_component("vol_raid", 300, 300)),
        ("delete link", lambda e, ids: e.delete([], [e.scenario.link_between(ids["w"], ids["d"]).id])),
        ("link", lambda e, ids: e.link(ids["extra_cp"], ids["h0"])),
        ("move", lambda e, ids: e.move({ids["w"]: (500, 520), ids["d"]: (40, 80)})),
        ("property", lambda e, ids: e.set_property(ids["w"], "pct_read", 42)),
        ("shared property", lambda e, ids: e.set_property(ids["cu"], "cache", "warm")),
        ("rename", lambda e, ids: e.rename(ids["cu"], "DS8950F")),
        ("experiment", lambda e, ids: e.set_experiment("db2_io")),
        ("paste", lambda e, ids: e.paste_data(e.copy_data([ids["w"], ids["d"]]))),
        ("delete node", lambda e, ids: e.delete([ids["cu"]])),
    ]


@pytest.fixture
def built(qtbot):
    from app import scenario_io
    e = Editor()
    e.replace(scenario_io.load_case("db2_index_scan"))
    sc = e.scenario
    ids = {"w": sc.of_category("workload")[0].id, "d": sc.of_category("dataset")[0].id,
           "cu": sc.of_category("control_unit")[0].id, "h0": sc.of_category("channel")[0].id}
    ids["extra_cp"] = e.add_component("cpu_cp", 600, 600)
    e.undo_stack.clear()
    return e, ids


@pytest.mark.parametrize("name, edit", _edits(), ids=[n for n, _ in _edits()])
def test_every_edit_is_one_undoable_step(built, name, edit):
    e, ids = built
    before = _state(e)
    edit(e, ids)
    after = _state(e)
    assert after != before, f"{name} changed nothing"
    assert e.undo_stack.count() == 1
    e.undo_stack.undo()
    assert _state(e) == before
    e.undo_stack.redo()
    assert _state(e) == after
    e.undo_stack.undo()
    assert _state(e) == before


def test_the_whole_history_unwinds_and_replays(built):
    e, ids = built
    before = _state(e)
    for _, edit in _edits():
        edit(e, ids)
    final = _state(e)
    while e.undo_stack.canUndo():
        e.undo_stack.undo()
    assert _state(e) == before
    while e.undo_stack.canRedo():
        e.undo_stack.redo()
    assert _state(e) == final


def test_refused_edits_push_nothing(built):
    e, ids = built
    assert "datasets, not volumes" in e.link(ids["w"], e.scenario.of_category("volume")[0].id)
    assert "out of range" in e.set_property(ids["w"], "pct_read", 0)
    assert "fixes 'Drives'" in e.set_property(e.scenario.of_category("volume")[0].id, "device", "SSD")
    assert "needs a label" in e.rename(ids["w"], "   ")
    assert e.undo_stack.count() == 0
