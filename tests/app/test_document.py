"""The document layer: one scenario, one batched ``changed``, and a run that knows
whether it is still the drawing's. Plain Python: no Qt anywhere."""
import subprocess
import sys

from app import scenario_io
from app.document import Document
from models.drawing.scenario import Node


def _opened(name="db2_io"):
    doc = Document()
    doc.replace(scenario_io.load_case(name))
    heard = []
    doc.changed.connect(heard.append)
    return doc, heard


def test_a_batch_of_edits_is_announced_once():
    doc, heard = _opened()
    sc = doc.scenario
    with doc.batch():
        for i in range(5):
            sc.add_node(Node(sc.new_id(), "cu_ds8000", f"CU {i}", 40.0 * i, 400.0))
    assert len(heard) == 1 and heard[0].scenario and not heard[0].run
    # One edit outside a batch is one announcement too.
    sc.set_label(next(iter(sc.nodes)), "Renamed")
    assert len(heard) == 2


def test_issues_are_checked_once_per_batch_and_follow_the_edits(monkeypatch):
    doc, _ = _opened()
    calls = []
    real = doc.scenario.issues
    monkeypatch.setattr(doc.scenario, "issues", lambda: calls.append(1) or real())
    assert doc.issues() == doc.issues()
    assert len(calls) == 1
    work = doc.scenario.of_category("workload")[0]
    doc.scenario.remove_node(work.id)
    assert any("workload" in i.message for i in doc.issues())
    assert len(calls) == 2


def test_a_run_goes_stale_when_the_drawing_changes_but_not_when_a_card_moves():
    doc, heard = _opened()
    started = doc.snapshot()
    doc.set_result(object(), started)
    assert heard[-1].run and not doc.run_is_stale() and doc.stale_message() == ""
    node = next(iter(doc.scenario.nodes.values()))
    doc.scenario.move_node(node.id, node.x + 100, node.y)
    assert heard[-1].moved_only and not doc.run_is_stale()
    doc.scenario.set_label(node.id, "Another name")
    assert doc.run_is_stale()
    assert "before your last edit" in doc.stale_message()


def test_an_edit_made_while_the_run_was_going_makes_it_stale():
    doc, _ = _opened()
    started = doc.snapshot()                       # the run starts from this drawing
    node = next(iter(doc.scenario.nodes.values()))
    doc.scenario.set_label(node.id, "Edited meanwhile")
    doc.set_result(object(), started)              # ... and finishes after the edit
    assert doc.run_is_stale()


def test_opening_another_scenario_drops_the_run():
    doc, heard = _opened()
    doc.set_result(object(), doc.snapshot())
    doc.replace(scenario_io.load_case("natural_ziip"), None)
    assert doc.result is None and doc.run_document is None and not doc.run_is_stale()
    assert heard[-1].replaced and heard[-1].run


def test_the_document_layer_and_the_replay_analysis_import_no_qt():
    code = ("import sys, app.document, app.replay.data, app.replay.activity, app.replay.series; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('PySide6', 'shiboken6', 'pyqtgraph')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
