"""File ▸ Import RMF reports… and the Imported from RMF panel.

The import reads on a worker thread, says what was read, opens the drawing
unsaved, and the panel lists every assumption with its line; a bad file is
one message and the drawing on the canvas stays.
"""
import threading
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QPushButton

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "rmf" / "sysa-0900-full.txt"


def _file_menu_texts(win):
    bar = win.menuBar()
    menu = next(a.menu() for a in bar.actions() if a.text() == "&File")
    return [a.text() for a in menu.actions()]


def test_import_opens_the_drawing_and_the_panel_lists_the_assumptions(window, qtbot):
    texts = _file_menu_texts(window)
    assert texts.index("&Import RMF reports…") == texts.index("&Open…") + 1
    assert not window.rmf_import.dock.isVisible()          # a drawn scenario: no panel
    with qtbot.waitSignal(window.rmf_import.runner.done, timeout=60_000):
        assert window.rmf_import.start([str(SAMPLE)])
    sc = window.editor.scenario
    assert sc.imported["interval"]["system"] == "SYSA"
    assert {n.label for n in sc.nodes.values()} >= {"SGDB2", "SSID 0006", "zHPF CHPIDs"}
    assert window.path is None                               # not saved yet
    box = window.rmf_import.summary_box
    assert "6 volumes" in box.text() and "assumed" in box.text()
    box.close()
    assert window.rmf_import.dock.isVisible()
    text = window.rmf_import.panel.text.toPlainText()
    assert "which CHPIDs reach which control unit" in text
    assert f"{SAMPLE.name}, line " in text
    assert "SYSA" in text


def test_a_file_of_many_intervals_offers_another_and_imports_it(window, qtbot, monkeypatch):
    many = SAMPLE.parent / "sysa-many-intervals.xml"
    with qtbot.waitSignal(window.rmf_import.runner.done, timeout=60_000):
        assert window.rmf_import.start([str(many)])
    busiest = window.editor.scenario.imported["interval"]
    status = window.status.text()
    assert status.startswith("Imported from RMF:") and "Imported Imported" not in status
    box = window.rmf_import.summary_box
    assert "--interval" not in box.text()               # no command-line advice in the window
    pick = box.findChild(QPushButton, "pickInterval")
    offered = []

    def choose(_parent, _title, _label, items, current, _editable):
        offered.extend(items)
        return items[0], True                            # the first interval
    monkeypatch.setattr("ui.rmf_import.QInputDialog.getItem", choose)
    with qtbot.waitSignal(window.rmf_import.runner.done, timeout=60_000):
        pick.click()
    assert len(offered) == 4 and all("DASD I/O per second" in o for o in offered)
    chosen = window.editor.scenario.imported["interval"]
    assert chosen["number"] == 1 != busiest["number"]


def test_the_refine_option_fits_on_the_models_own_runs_and_the_panel_says_so(window, qtbot):
    excerpt = Path(__file__).resolve().parents[2].parent / "shared" / "rmf" / \
        "redp4862-fig09-runstats50-ficon.txt"
    texts = _file_menu_texts(window)
    assert texts.index("Fit imported workloads on the model's own runs") == \
        texts.index("&Import RMF reports…") + 1
    window.rmf_import.refine_action.setChecked(True)
    with qtbot.waitSignal(window.rmf_import.runner.done, timeout=180_000):
        assert window.rmf_import.start([str(excerpt)])
    window.rmf_import.summary_box.close()
    text = window.rmf_import.panel.text.toPlainText()
    assert "working set of" in text and "model's own 2 s runs" in text


def test_a_bad_file_is_one_message_and_the_canvas_keeps_its_drawing(window, qtbot, tmp_path,
                                                                    monkeypatch):
    shown = []
    monkeypatch.setattr(window, "report_failure", shown.append)
    bad = tmp_path / "notrmf.txt"
    bad.write_text("hello\n")
    before = window.editor.scenario
    with qtbot.waitSignal(window.rmf_import.runner.done, timeout=30_000):
        window.rmf_import.start([str(bad)])
    assert len(shown) == 1 and str(bad) in shown[0]
    assert window.editor.scenario is before
    assert not any(isinstance(w, QMessageBox) and w.objectName() == "rmfImportSummary"
                   and w.isVisible() for w in window.findChildren(QMessageBox))


def _listing(tmp_path, mb):
    """A Postprocessor listing of about ``mb`` MB (the speed bench's writer)."""
    import importlib.util
    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location("rmf_import_scale",
                                                  root / "bench" / "rmf_import_scale.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    path = tmp_path / "listing.txt"
    mod.write_listing(path, mb, 200)
    return path


def test_the_status_bar_shows_the_share_read_and_is_its_own_again_after(window, qtbot,
                                                                        tmp_path):
    bar = window.task_progress
    shown = []
    window.rmf_import.runner.progressed.connect(
        lambda f: shown.append((bar.value(), window.task_label.text())))
    with qtbot.waitSignal(window.rmf_import.runner.done, timeout=60_000):
        window.rmf_import.start([str(_listing(tmp_path, 3.0))])
    window.rmf_import.summary_box.close()
    reading = [v for v, text in shown if text.startswith("Reading 1 RMF file(s), ")]
    assert len(reading) >= 3 and reading == sorted(reading) and 0 < reading[-1] < 800
    assert shown[-1] == (1000, "Drawing the system and fitting its workloads…")
    assert bar.maximum() == 1000 and not bar.isVisible()


def test_cancel_stops_a_large_import_at_once_and_opens_nothing(window, qtbot, tmp_path):
    path = _listing(tmp_path, 10.0)
    before = window.editor.scenario
    seen = []
    clicked = threading.Event()

    def hold_reading(f):
        # On the reading thread: wait at the first progress for the click, so
        # a busy machine that delivers the signal late cannot let the reading
        # run on before Cancel is even pressed (it then measured the machine).
        if f > 0 and not clicked.is_set():
            clicked.wait(20)

    def on_progress(f):
        seen.append(f)
        if f > 0 and not window.rmf_import.runner.worker.cancel_event.is_set():
            window.task_cancel.click()              # the status bar's Cancel, while reading
            clicked.set()
    window.rmf_import.runner.worker.progressed.connect(
        hold_reading, Qt.ConnectionType.DirectConnection)
    window.rmf_import.runner.progressed.connect(on_progress)
    with qtbot.waitSignal(window.rmf_import.runner.cancelled, timeout=60_000):
        window.rmf_import.start([str(path)])
    qtbot.waitUntil(lambda: not window.rmf_import.runner.running, timeout=10_000)
    assert max(seen) < 0.3                       # the reading stopped, it did not run on
    assert window.editor.scenario is before and not window.task_progress.isVisible()


def test_after_a_run_the_panel_says_how_many_figures_agree(window, qtbot, tmp_path):
    from app.cli import main
    out = tmp_path / "sysa.zpl.json"
    assert main(["import-rmf", str(SAMPLE), "--out", str(out)]) == 0
    window.open_case_or_file(str(out))
    for n in window.editor.scenario.nodes.values():     # a short run on small caches
        if n.kind == "cu_ds8000":
            n.properties["cache_gb"] = 0.1
        if n.kind in ("wl_io", "wl_cpu"):
            n.properties["duration_s"] = 0.2
    window.run_and_wait(120)
    text = window.rmf_import.panel.text.toPlainText()
    assert "Last run against RMF:" in text and " figures within tolerance (" in text
    node = next(n for n in window.editor.scenario.nodes.values() if n.kind == "cu_ds8000")
    window.editor.set_property(node.id, "cache_gb", 2.0)            # the run is stale now
    assert "Last run against RMF:" not in window.rmf_import.panel.text.toPlainText()


def _shared_dds() -> Path:
    here = Path(__file__).resolve().parents[2].parent / "shared" / "rmf" / "dds-zos25"
    return here if here.is_dir() else Path("/work/shared/rmf/dds-zos25")


def test_the_real_dds_answers_summary_says_what_was_read_and_assumed_and_offers_to_join(
        window, qtbot):
    dds = _shared_dds()
    four = [str(dds / f"{n}.xml") for n in ("device", "cache", "chan", "cpu")]
    with qtbot.waitSignal(window.rmf_import.runner.done, timeout=60_000):
        assert window.rmf_import.start(four)
    box = window.rmf_import.summary_box
    text = box.text()
    # the channel and CPU answers were read, of other days: not '0 channels, 0 engines'
    assert text.startswith("Read 4 file(s): 97 volumes, 4 cache units, 0 ranks; read and not "
                           "used (of other intervals): 14 channels of the CHAN report")
    read, assumed = text.index("Read:\n"), text.index("Assumed (")
    assert read < assumed
    assert "• DEVICE (device.xml:18): 97 volumes, 8.515 I/O/s (busiest Z22IPL 1.999/s" in text
    assert "SSID 5000 (CU-ID 5008, 2107-983, 25152 MB cache, 2048 MB NVS" in text
    assert "• the CHAN report of interval 2 (2022-07-26 00:00:00) = not used" in text
    join = box.findChild(QPushButton, "joinIntervals")
    assert join is not None and "the CHAN report of interval 2" in join.toolTip()
    with qtbot.waitSignal(window.rmf_import.runner.done, timeout=60_000):
        join.click()
    box = window.rmf_import.summary_box
    assert "• CHAN (chan.xml:10): 14 CHPIDs" in box.text()
    assert "• CPU (cpu.xml:10): 2 engines: CP 0 1.26 % LPAR busy" in box.text()
    assert box.findChild(QPushButton, "joinIntervals") is None      # joined already
    measured = window.editor.scenario.imported["measured"]
    assert measured["CP 0"]["busy_pct"] == 1.26 and "FICON CHPIDs" in measured
    box.close()


def test_the_panel_lists_each_calibrated_quantity_and_says_a_refused_one_is_not_used():
    from ui.rmf_import import panel_html

    imported = {"interval": {"system": "SYSA"}, "assumptions": [], "calibrated": [
        {"component": "zHPF CHPIDs", "quantity": "background_pct", "value": 19.6, "unit": "%",
         "from": "RMF's total utilisation of zHPF CHPIDs, 19.98 %"},
        {"component": "FICON CHPIDs", "quantity": "background_pct", "value": -2.0, "unit": "%",
         "from": "RMF's total utilisation of FICON CHPIDs, 0.05 %"}]}
    text = panel_html(imported)
    assert "Calibrated to RMF (2)" in text
    assert "Busy with work not drawn of zHPF CHPIDs</b> = 19.6 %" in text
    assert "NOT USED: it would be -2 %, below 0 %" in text
    assert "background_pct" not in text                 # no internal name on screen
