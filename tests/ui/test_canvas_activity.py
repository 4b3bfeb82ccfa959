"""The canvas shows the run: during a replay, cards are tinted by how busy their component is.

Trace component names are canvas labels. The synthetic run below keeps the
volume labelled DB2V01 busy with one I/O from 0.2 s to 0.8 s of a 10 s run,
and traces a "VOL7" that is on no card.
"""
import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, QRectF
from PySide6.QtGui import QColor, QImage, QPainter

from models.engine import Trace
from models.core.run import RunResult
from ui.canvas.activity import WINDOW_SHARE
from ui.canvas.items import NODE_H, NODE_W


def _synthetic_run(experiment: str) -> RunResult:
    tr = Trace()
    vol, other = tr.component("DB2V01", role="VOL"), tr.component("VOL7", role="VOL")
    start, phase, end = tr.kind("io_start"), tr.kind("io_phase"), tr.kind("io_end")
    tr.record(0.0, other, start, 1, 1)
    tr.record(0.2, vol, start, 2, 8)
    tr.record(0.2, vol, phase, 2, 1)
    tr.record(0.8, vol, end, 2, 0)
    tr.record(10.0, other, end, 1, 0)
    return RunResult(experiment=experiment, params={}, seed=1, metrics={}, trace=tr)


def _node(window, label: str) -> str:
    return next(nid for nid, n in window.editor.scenario.nodes.items() if n.label == label)


def _replay(window, result):
    # A run reaches the replay (and the tint) through the document, which
    # remembers the drawing it ran from.
    window.document.set_result(result, window.document.snapshot())
    return window.views["animation"].controller


def _pixel(window, node_id: str) -> QColor:
    """The colour of a plain stretch of the card, as drawn on screen."""
    item = window.scene.node_items[node_id]
    image = QImage(int(NODE_W), int(NODE_H), QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    window.scene.render(painter, QRectF(0, 0, NODE_W, NODE_H),
                        QRectF(item.pos(), QPointF(item.x() + NODE_W, item.y() + NODE_H)))
    painter.end()
    return image.pixelColor(QPoint(12, 30))


def _opened(window, qtbot):
    assert window.open_case_or_file("db2_io") is None
    return _node(window, "DB2V01"), _node(window, "DS8000 CU")


def test_replay_tints_the_busy_component_and_only_traced_ones(window, qtbot):
    vol, cu = _opened(window, qtbot)
    plain = _pixel(window, vol)
    clock = _replay(window, _synthetic_run(window.editor.scenario.experiment))

    clock.seek(0.5)
    tint = window.scene.activity_for(vol)
    assert tint is not None and tint.level == 1.0
    assert window.scene.node_items[vol].toolTip().count("busy 100 % at t=500.000 ms")
    assert window.scene.activity_for(cu) is None          # "DS8000 CU" is not in the trace
    assert all(window.scene.activity_for(n) is None
               for n in window.editor.scenario.nodes if n != vol)
    hot = _pixel(window, vol)
    assert hot.red() > plain.red() + 20 or hot.green() < plain.green() - 40

    # Just after the I/O ended, the last 0.2 s were half busy: a weaker tint.
    clock.seek(0.9)
    assert 0.4 < window.scene.activity_for(vol).level < 0.6
    half = _pixel(window, vol)
    assert plain.green() > half.green() > hot.green()

    # Scrubbing back before the I/O: traced, but idle, so no tint.
    clock.seek(0.1)
    assert window.scene.activity_for(vol).level == 0.0
    assert _pixel(window, vol) == plain


def test_tint_goes_when_the_scenario_changes_after_the_run(window, qtbot):
    vol, cu = _opened(window, qtbot)
    clock = _replay(window, _synthetic_run(window.editor.scenario.experiment))
    clock.seek(0.5)
    assert window.scene.activity_for(vol).level == 1.0

    # Moving a card does not change what the run did.
    node = window.editor.scenario.nodes[cu]
    window.editor.move({cu: (node.x + 100, node.y)})
    assert window.scene.activity_for(vol).level == 1.0

    # A rename does: the replay no longer describes this scenario.
    window.editor.rename(cu, "DS8000 CU 2")
    assert window.scene.activity_for(vol) is None
    window.editor.undo_stack.undo()
    assert window.scene.activity_for(vol).level == 1.0

    # Another scenario: nothing of the old run is shown.
    assert window.open_case_or_file("natural_ziip") is None
    assert not any(window.scene.activity_for(n) for n in window.editor.scenario.nodes)


def test_a_real_run_tints_each_processor_by_its_share_of_cpu_time(window, qtbot):
    """natural_ziip traces its engines under their canvas labels (CP 1, zIIP 1 …)."""
    assert window.open_case_or_file("natural_ziip") is None
    sc = window.editor.scenario
    assert not any(window.scene.activity_for(n) for n in sc.nodes)   # no run yet

    window.run_and_wait()
    assert window.last_result is not None and window.last_result.trace is not None
    clock = window.views["animation"].controller
    data = clock.data
    t = (data.t0 + data.t1) / 2
    clock.seek(t)
    window_s = WINDOW_SHARE * (data.t1 - data.t0)
    traced = set(data.components)
    tinted = {sc.nodes[n].label for n in sc.nodes if window.scene.activity_for(n) is not None}
    assert tinted and tinted <= traced
    assert "Natural batch" not in tinted                                # the workload is not traced
    for nid, node in sc.nodes.items():
        if node.category != "processor":
            continue
        # Independent scan: the share of the window covered by the engine's CPU slices.
        rows = data.rows_of(node.label, "cpu_busy")
        start, end = data.t[rows], data.t[rows] + data.b[rows] * 1e-6
        covered = np.clip(np.minimum(end, t) - np.maximum(start, t - window_s), 0, None).sum()
        assert window.scene.activity_for(nid).level == pytest.approx(covered / window_s, abs=0.07)


def test_a_db2_run_tints_its_volume_channels_and_rank(window, qtbot):
    """The I/O model traces DB2V01, CHPID 40/41 and the rank's drives under
    their canvas names: mid-scan the volume and the rank show work."""
    assert window.open_case_or_file("db2_index_scan") is None
    sc = window.editor.scenario
    wl = next(n for n in sc.nodes.values() if n.category == "workload")
    window.editor.set_property(wl.id, "pct_read", 2.0)
    window.run_and_wait()
    clock = window.views["animation"].controller
    clock.seek((clock.data.t0 + clock.data.t1) / 2)
    level = {n.label: window.scene.activity_for(nid) for nid, n in sc.nodes.items()}
    assert level["DB2V01"] is not None and level["DB2V01"].level > 0.5
    assert level["Rank R1"] is not None and level["Rank R1"].level > 0.05
    assert "drives" in level["Rank R1"].text
    assert level["CHPID 40"] is not None and level["CHPID 41"] is not None
    assert level["DS8000 CU"] is None and level["Customer index"] is None


def test_after_a_run_the_canvas_shows_the_whole_run_and_says_which_moment_on_a_replay(
        window, qtbot, monkeypatch):
    """Program fetch: right after the run the volume's badge is the results
    table's busy figure (not the replay's first moment); scrubbed, the canvas
    says which moment it shows; the slide picture keeps the whole run."""
    from ui.canvas_picture import canvas_image
    from ui.canvas.activity import WHOLE_RUN_NOTE

    assert window.open_case_or_file("program_fetch") is None
    window.run_and_wait()
    result = window.document.result
    lib, cp = _node(window, "LIBV01"), _node(window, "CP 1")
    busy = result.components["LIBV01"]["busy_pct"]
    assert busy > 30            # RMF's % DEV UTIL: DISC + CONN, about 41 %
    assert window.scene.activity_for(lib).badge == f"{busy:.0f} %"
    assert window.scene.activity_for(cp) is None          # no whole-run figure: no 100 %
    assert window.scene.activity_note == WHOLE_RUN_NOTE

    clock = window.views["animation"].controller
    d = clock.data
    clock.seek(d.t0 + 0.25 * (d.t1 - d.t0))
    note = window.scene.activity_note
    assert note.startswith("at ") and " of " in note and "busy over the last" in note
    assert window.scene.activity_for(lib).whole is False

    seen = {}
    real = window.scene.render

    def render(*args):
        seen["badge"] = window.scene.activity_for(lib).badge
        seen["note"] = window.scene.activity_note
        return real(*args)

    monkeypatch.setattr(window.scene, "render", render)
    canvas_image(window.scene)
    assert seen["badge"] == f"{busy:.0f} %"
    assert window.scene.activity_note == note            # the screen keeps its moment

    clock.seek(d.t0)                                     # back at the start: the whole run
    assert window.scene.activity_note == WHOLE_RUN_NOTE
