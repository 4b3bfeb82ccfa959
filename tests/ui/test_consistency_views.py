"""The replay and the window say what the run did, in words that fit (issue 20, 4/5/9).

* the index-scan replay counts the pages of the I/O in front (it counted
  the other list prefetch's requests too: "64 pages" for 32-page I/Os);
* a 3390 on SSD is drawn as flash: no arm, no platter;
* the Pause button draws no missing glyph, Undo/Redo keep short texts, and a
  status-bar message clears.
"""
from __future__ import annotations

import pytest

from models import experiments
from ui.animation.replay_view import ReplayView


def _replay(qtbot, result):
    view = ReplayView()
    qtbot.addWidget(view)
    view.resize(1024, 520)
    view.set_result(result)
    return view


@pytest.fixture(scope="module")
def index_scan():
    return experiments.run_experiment("db2_index_scan", trace=True)


def test_index_scan_replay_counts_the_pages_of_the_io_in_front(qtbot, index_scan):
    view = _replay(qtbot, index_scan)
    track = view.views["Track reads"]
    data = view.data
    starts = data.rows_of(next(v for v in data.component_names("VOL")
                               if len(data.rows_of(v, "io_start"))), "io_start")
    for row in starts[len(starts) // 2: len(starts) // 2 + 20]:
        t = float(data.t[row]) + 1e-9
        state = track.compute(data, t)
        # The page list never holds more than the I/O's own pages (io_start's b).
        io_row = next(r for r in starts if int(data.a[r]) == state.io_id)
        assert len(state.pages) <= int(data.b[io_row]) <= 32


def test_ssd_track_view_draws_flash_not_arms(qtbot):
    result = experiments.run_experiment("db2_index_scan", {"device": "SSD"}, trace=True)
    view = _replay(qtbot, result)
    track = view.views["Track reads"]
    reads = view.data.rows_of(view.data.component_names("DRV")[0], "track_read")
    track.set_time(float(view.data.t[reads[len(reads) // 2]]))
    assert all(d.flash for d in track.state.drives)
    assert not any(d.state == "positioning" for d in track.state.drives)
    assert "no arm and no platter" in view.caption.text()
    assert track.grab().width() > 0            # draws without an arm gauge
    disk = _replay(qtbot, experiments.run_experiment("db2_index_scan", trace=True))
    assert not any(d.flash for d in disk.views["Track reads"].state.drives)
    assert "arm seeks" in disk.caption.text()


def test_play_and_pause_use_icons_not_glyphs_missing_from_dejavu(qtbot):
    from ui.animation.controller import ReplayController
    from ui.animation.timeline import TimelineWidget
    w = TimelineWidget(ReplayController())
    qtbot.addWidget(w)
    w._on_controller_playing_changed(True)
    assert w.play.text() == "Pause" and not w.play.icon().isNull()
    for b in (w.back, w.play, w.forward):
        assert not set(b.text()) & set("⏸⏯⏮⏭⏹")


def test_undo_redo_keep_short_texts_and_status_messages_clear(window, qtbot, monkeypatch):
    win = window
    assert win.open_case_or_file("program_fetch") is None
    node = next(iter(win.editor.scenario.nodes))
    win.editor.rename(node, "A long new name for the library volume") \
        if hasattr(win.editor, "rename") else None
    a = win.actions_
    for act in (a.undo, a.redo):
        assert act.text().replace("&", "") in ("Undo", "Redo")
    if win.editor.undo_stack.canUndo():
        assert a.undo.toolTip().startswith("Undo ") and len(a.undo.toolTip()) > 5
    monkeypatch.setattr(type(win), "STATUS_MS", 30)
    win.say("Run refused: something went wrong")
    qtbot.waitUntil(lambda: win.status.text() == "Ready", timeout=2000)
