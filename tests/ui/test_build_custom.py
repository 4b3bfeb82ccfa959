"""From an empty canvas, draw a two-control-unit, eight-volume configuration with an
I/O workload through the real widgets, run it and read the per-component reports;
open a what-if study from the start page and from its menu."""
from PySide6.QtCore import Qt

from models.studies import whatif
from tests.ui.helpers import drop, link


def test_build_two_units_eight_volumes_with_an_io_workload_and_run(window, qtbot):
    win = window
    win.new_scenario()
    ids = {}
    layout = [("w", "wl_io", 0, 380), ("ds1", "ds_vsam_ksds", 200, 160),
              ("ds2", "ds_vsam_ksds", 200, 600), ("cu1", "cu_ds8000", 620, 160),
              ("cu2", "cu_ds8000", 620, 600), ("ch1", "chan_zhpf", 840, 280),
              ("ch2", "chan_zhpf", 840, 500), ("cp", "cpu_cp", 1060, 380)]
    layout += [(f"v{i}", "vol_hdd15k", 400, 110 * i) for i in range(8)]
    for key, kind, x, y in layout:
        ids[key] = drop(win, kind, x + 75, y + 46)
        assert ids[key] is not None, kind
    sc = win.editor.scenario
    assert sc.experiment == "custom"                   # the I/O workload picked it
    pairs = [("w", "ds1"), ("w", "ds2"), ("cu1", "ch1"), ("cu1", "ch2"), ("cu2", "ch1"),
             ("cu2", "ch2"), ("cp", "ch1"), ("cp", "ch2")]
    pairs += [("ds1" if i < 4 else "ds2", f"v{i}") for i in range(8)]
    pairs += [(f"v{i}", "cu1" if i < 4 else "cu2") for i in range(8)]
    for a, b in pairs:
        link(win, ids[a], ids[b])
        assert sc.link_between(ids[a], ids[b]) is not None, (a, b)
    assert sc.issues() == []

    # The inspector shows the I/O workload's own parameters; type a rate.
    win.scene.select_nodes([ids["w"]])
    assert "cpu_demand" not in win.inspector.fields
    field = win.inspector.fields["io_rate"]
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "1600")
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert sc.nodes[ids["w"]].properties["io_rate"] == 1600.0

    with qtbot.waitSignal(win.run_done, timeout=120_000):
        qtbot.keyClick(win, Qt.Key.Key_F5)
    result = win.last_result
    assert result is not None and result.experiment == "custom"
    vols = [sc.nodes[ids[f"v{i}"]].label for i in range(8)]
    for v in vols:
        assert result.components[v]["io_rate"] > 100          # the load spreads over all eight
    for key in ("cu1", "cu2"):
        assert 0 < result.components[sc.nodes[ids[key]].label]["read_hit_ratio"] <= 1
    for key in ("ch1", "ch2"):
        assert result.components[sc.nodes[ids[key]].label]["utilization_pct"] > 0
    # The results dock shows the RMF-style reports, one table each.
    titles = [r.title for r in result.reports]
    assert len(win.results.report_tables) == len(titles)
    device = win.results.report_tables[titles.index("Device activity")]
    shown = {device.item(r, 0).text() for r in range(device.rowCount())}
    assert set(vols) <= shown
    assert "Analytic estimate beside the simulation" in titles


def test_what_if_studies_open_compare_with_both_sides_run(window, qtbot):
    win = window
    names = whatif.names()
    menu = [a.text() for a in win.whatif_menu.actions()]
    assert menu == [whatif.study(n).title for n in names]
    win.show_start_page()
    button = win.start_page.whatif_buttons["hyperpav_aliases"]
    with qtbot.waitSignal(win.study.compare_runner.done, timeout=120_000):
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert win.tab_name() == "compare"
    cv = win.study.compare_view
    assert cv.drawings is not None and cv.about.isVisible()
    assert "HyperPAV" in cv.about.text()
    assert cv.table.item(0, 0).text() == "IOSQ time (ms)"   # the study's figure first
    before, after = (float(cv.table.item(0, c).text()) for c in (1, 2))
    assert after < 0.1 * before
    assert cv.label_a.text().startswith("Before") and cv.label_b.text().startswith("After")
    # Run again from the view's own button; a parameter compare resets the view.
    with qtbot.waitSignal(win.study.compare_runner.done, timeout=120_000):
        cv.run_button.click()
    assert "Done" in cv.status.text()
