"""Run history in the window: every run recorded, re-open, compare two, delete with undo."""
import os
from pathlib import Path
import pytest

from app import scenario_io


def run_db2(window, qtbot, **props):
    """Set workload/channel values on the db2_io case study and run it."""
    sc = window.editor.scenario
    for key, value in props.items():
        node = sc.of_category(sc.param(key).group)[0]
        assert window.editor.set_property(node.id, key, value) is None
    with qtbot.waitSignal(window.run_done, timeout=60_000):
        assert window.run()
    return window.last_result


@pytest.fixture
def db2(window):
    assert window.open_case_or_file("db2_io") is None
    return window


def panel(window):
    return window.study.history_panel


def select(window, *run_ids):
    p = panel(window)
    p.table.clearSelection()
    for r, rec in enumerate(p.records):
        if rec.id in run_ids:
            p.table.selectRow(r) if len(run_ids) == 1 else _add_row(p.table, r)


def _add_row(table, row):
    from PySide6.QtCore import QItemSelectionModel
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    table.selectionModel().select(table.model().index(row, 0), flags)


def test_a_finished_run_lands_in_history_and_shows_in_the_panel(db2, qtbot, tmp_path):
    result = run_db2(db2, qtbot, pages=8)
    hist = db2.study.history
    # the private test folder (tests/conftest.py), not the user's data
    assert hist.path.parent == Path(os.environ["ZPERFLAB_DATA_DIR"])
    rec = hist.runs()[0]
    assert rec.experiment == "db2_io" and rec.params["pages"] == 8
    assert rec.metrics == pytest.approx(dict(result.metrics))
    p = panel(db2)
    assert p.table.rowCount() == 1
    assert p.table.item(0, 2).text() == "One DB2 list-prefetch I/O"     # the scenario's title
    assert p.table.item(0, 2).toolTip().startswith("One DB2 read I/O of N pages")  # not "db2_io"
    changed = p.table.item(0, 3).text()
    assert changed.startswith("what-if: ") and "Pages per I/O: 32 pages → 8 pages" in changed
    assert p.table.item(0, 4).text().startswith("I/O response time ")     # not "io_ms"
    assert p.table.item(0, 4).text().split(",")[0].endswith(" ms")
    db2.study.a.history.trigger()
    assert db2.tab_name() == "history"


def test_reopen_restores_the_runs_scenario_and_parameters(db2, qtbot):
    run_db2(db2, qtbot, pages=8, cache="cold")
    rid = db2.study.history.runs()[0].id
    run_db2(db2, qtbot, pages=20, cache="resident")
    assert db2.editor.scenario.run_request()[1]["pages"] == 20
    select(db2, rid)
    panel(db2).reopen_button.click()
    name, overrides = db2.editor.scenario.run_request()
    assert (name, overrides["pages"], overrides["cache"]) == ("db2_io", 8, "cold")
    assert db2.tab_name() == "canvas"
    notes = [w.text() for w in db2.results.widget().findChildren(type(db2.results.headline))]
    assert any(f"from run history #{rid}" in t for t in notes)


def test_compare_two_selected_runs_shows_the_delta_table(db2, qtbot):
    a = run_db2(db2, qtbot, cache="resident")
    b = run_db2(db2, qtbot, cache="cold")
    ids = [r.id for r in db2.study.history.runs()]
    select(db2, *ids)
    p = panel(db2)
    assert p.compare_button.isEnabled()
    p.compare_button.click()
    cv = db2.study.compare_view
    assert db2.tab_name() == "compare"
    assert cv.table.rowCount() == len(a.metrics)
    assert cv.table.horizontalHeaderItem(3).text() == f"Run #{max(ids)} / Run #{min(ids)}"
    row = [cv.table.item(0, c).text() for c in range(4)]
    assert row[0] == "I/O response time (ms)"   # the title; the key is in the tooltip
    # A cold cache stages from the drives: far slower than reading from cache.
    assert float(row[3]) == pytest.approx(b.metrics["io_ms"] / a.metrics["io_ms"], rel=1e-3)
    assert float(row[3]) > 2


def test_delete_removes_a_run_and_undo_brings_it_back(db2, qtbot):
    run_db2(db2, qtbot)
    run_db2(db2, qtbot, pages=4)
    hist = db2.study.history
    keep, gone = [r.id for r in hist.runs()]
    before = hist.get(gone)
    select(db2, gone)
    db2.show_view("history")
    db2.delete_selected()                      # Del on the History tab
    assert [r.id for r in hist.runs()] == [keep]
    assert panel(db2).table.rowCount() == 1
    assert len(db2.editor.scenario.nodes) == len(scenario_io.load_case("db2_io").nodes)  # untouched
    assert "Undo delete" in panel(db2).status.text()
    panel(db2).undo_button.click()
    assert hist.get(gone) == before and panel(db2).table.rowCount() == 2


def test_history_and_compare_say_what_each_run_changed(window, qtbot):
    """Three runs of "Your own system" that differ in cache size, aliases and
    device read as three different runs, in History and in Compare two."""
    assert window.open_case_or_file("custom") is None
    ed, sc = window.editor, window.editor.scenario
    label = {n.label: nid for nid, n in sc.nodes.items()}

    def run():
        with qtbot.waitSignal(window.run_done, timeout=120_000):
            assert window.run()

    assert ed.set_property(label["DS8K-1"], "cache_gb", 64) is None
    run()
    ed.undo_stack.undo()
    assert ed.set_property(label["PRD001"], "aliases", 8) is None
    run()
    ed.undo_stack.undo()
    # Another device: Rank R1's volumes replaced by SSD volumes of the same
    # names and links (one rank holds one type of drive).
    for name in ("PRD001", "PRD002"):
        old = sc.nodes[label[name]]
        ends = [(sc.nodes[lk.source].label, sc.nodes[lk.target].label)
                for lk in sc.links.values() if old.id in (lk.source, lk.target)]
        ed.delete([old.id])
        label[name] = ed.add_component("vol_ssd", old.x, old.y)
        assert ed.rename(label[name], name) is None
        for a, b in ends:
            assert ed.link(label[a], label[b]) is None
    run()

    p = panel(window)
    texts = [p.table.item(r, 3).text() for r in range(3)]       # newest first
    assert len(set(texts)) == 3
    device, aliases, cache = texts
    # A control unit's cache is its own: the edit changed DS8K-1 alone.
    assert "DS8K-1 Cache size: 1 GB → 64 GB" in cache and "DS8K-2" not in cache
    assert "PAV aliases:" in aliases and "→ 8" in aliases and "Cache" not in aliases
    # Each run is a what-if against the case as opened and names its change;
    # the tooltip has the change in full.
    assert all(t.startswith("what-if: ") for t in texts)
    assert "PRD001, PRD002 on SSD" in device
    assert "PRD001, PRD002 device: 3390 on HDD 15K → 3390 on SSD" in p.table.item(0, 3).toolTip()
    ids = [rec.id for rec in p.records]
    select(window, ids[2], ids[0])
    p.compare_selected()
    view = window.study.compare_view
    assert view.label_a.text() == f"Run #{ids[2]}: {cache}"
    assert view.label_b.text() == f"Run #{ids[0]}: {device}"
    assert "PRD001, PRD002 device" in view.about.text()
    assert "Cache size: 64 GB → 1 GB" in view.about.text()


def test_the_compare_tab_clears_when_another_case_opens(db2, qtbot):
    ids = [run_db2(db2, qtbot, pages=8) and db2.study.history.runs()[0].id,
           run_db2(db2, qtbot, pages=16) and db2.study.history.runs()[0].id]
    select(db2, *ids)
    panel(db2).compare_selected()
    view = db2.study.compare_view
    assert view.table.rowCount() > 0 and view.label_a.text().startswith("Run #")
    assert db2.open_case_or_file("natural_ziip") is None
    assert view.table.rowCount() == 0 and view.label_a.text() == "A"
    assert not view.left.charts() and not view.about.isVisible()


def test_a_compare_export_gives_both_halves_labelled(db2, qtbot, tmp_path, monkeypatch):
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QFileDialog

    run_db2(db2, qtbot, pages=8)
    run_db2(db2, qtbot, pages=16)
    ids = [rec.id for rec in db2.study.history.runs()]
    select(db2, *ids)
    panel(db2).compare_selected()
    assert db2.tab_name() == "compare"
    out = iter([tmp_path / "both.png", tmp_path / "both.csv"])
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(next(out)), ""))
    db2.exports.a.png.trigger()
    db2.exports.a.csv.trigger()
    view = db2.study.compare_view
    one = view.left.current_chart()
    image = QImage(str(tmp_path / "both.png"))
    assert image.width() >= 2 * one.width() - 4
    text = (tmp_path / "both.csv").read_text(encoding="utf-8")
    assert view.label_a.text() in text and view.label_b.text() in text
