"""Replay timeline: the clock steps, plays and scrubs over a real run's trace.

Traces come from landed models (natural_ziip for SRB/TCB, db2_io for I/O);
the marker test records a small hand-made trace because no landed model has a
burst the size the scrubber marks.
"""
import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt

from app.replay.data import markers
from models.engine import Trace
from models.experiments import run_experiment
from ui.animation import READABLE, ReplayController, ReplayData, ReplayView
from ui.animation.controller import READABLE_MS
from ui.animation.timeline import TimelineWidget


@pytest.fixture(scope="module")
def natural():
    return run_experiment("natural_ziip", {"records": 40}, trace=True)


@pytest.fixture(scope="module")
def db2():
    return run_experiment("db2_io", {"cache": "cold", "protocol": "FICON"}, trace=True)


def test_replay_data_is_time_ordered_even_when_the_model_records_out_of_order(db2):
    cols = db2.trace.columns()
    assert np.any(np.diff(cols["t"]) < 0), "db2_io books drives ahead: rows are not in time order"
    data = ReplayData(db2.trace)
    assert np.all(np.diff(data.t) >= 0)
    assert len(data) == len(cols)
    # Same multiset of rows: nothing lost or invented by sorting.
    assert sorted(zip(cols["t"], cols["kind"], cols["a"])) == \
        sorted(zip(data.t, data.kind, data.a))


def test_step_forward_visits_every_event_time_and_back_returns(qtbot, natural):
    ctl = ReplayController()
    data = ReplayData(natural.trace)
    ctl.set_data(data)
    seen = [ctl.t]
    while ctl.t < data.t1:
        ctl.step_forward()
        seen.append(ctl.t)
    assert seen == sorted(set(data.t.tolist()))
    for expected in reversed(seen[:-1]):
        ctl.step_back()
        assert ctl.t == expected


def test_speed_scales_simulated_time_per_wall_second(qtbot, db2):
    ctl = ReplayController()
    ctl.set_data(ReplayData(db2.trace))
    ctl.set_speed(0.01)
    start = ctl.t
    ctl.advance(0.5)
    assert ctl.t == pytest.approx(start + 0.005)
    ctl.set_speed(1000.0)
    ctl.advance(10.0)               # far past the end: clamped, and playback stops
    assert ctl.t == ctl.data.t1


def test_readable_speed_shows_one_event_time_per_step(qtbot, natural):
    ctl = ReplayController()
    data = ReplayData(natural.trace)
    ctl.set_data(data)
    ctl.set_speed(READABLE)
    ctl.advance(READABLE_MS / 1000 * 0.5)
    assert ctl.t == data.t0
    ctl.advance(READABLE_MS / 1000 * 0.6)
    assert ctl.t == data.next_time(data.t0)


def test_play_runs_on_the_timer_and_pause_stops_it(qtbot, natural):
    ctl = ReplayController()
    ctl.set_data(ReplayData(natural.trace))
    ctl.set_speed(0.01)             # 10 ms of simulated time per wall second
    with qtbot.waitSignal(ctl.time_changed, timeout=2000):
        ctl.play()
    assert ctl.playing
    ctl.pause()
    t = ctl.t
    qtbot.wait(60)
    assert not ctl.playing and ctl.t == t


def test_scrubber_click_moves_time_and_buttons_step(qtbot, natural):
    ctl = ReplayController()
    data = ReplayData(natural.trace)
    ctl.set_data(data)
    tl = TimelineWidget(ctl)
    qtbot.addWidget(tl)
    tl.resize(1000, 120)
    tl.show()
    bar = tl.scrub
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=QPointF(bar.width() / 2, 20).toPoint())
    assert ctl.t == pytest.approx(data.t0 + (data.t1 - data.t0) / 2, rel=0.02)
    before = ctl.t
    qtbot.mouseClick(tl.forward, Qt.MouseButton.LeftButton)
    assert ctl.t == data.next_time(before)
    qtbot.mouseClick(tl.back, Qt.MouseButton.LeftButton)
    assert ctl.t == data.prev_time(data.next_time(before))
    assert f"of {len(data):,}" in tl.readout.text()


def test_markers_find_a_switch_burst_and_tape_changes():
    """A hand-made trace: switches at a steady trickle, then a burst; two tape changes."""
    tr = Trace()
    ziip, to_tcb = tr.component("zIIP0"), tr.kind("srb_to_tcb")
    tape, change = tr.component("TAPE0"), tr.kind("tape_change_start")
    for i in range(300):
        tr.record(i * 1.0, ziip, to_tcb, 1, 0)
    for i in range(200):
        tr.record(150.0 + i * 0.001, ziip, to_tcb, 1, 0)
    tr.record(40.0, tape, change, 1, 0)
    tr.record(250.0, tape, change, 2, 0)
    found = markers(ReplayData(tr))
    assert [m.t for m in found if m.kind == "tape"] == [40.0, 250.0]
    bursts = [m.t for m in found if m.kind == "switch"]
    assert bursts and all(149.0 <= t <= 150.5 for t in bursts)


def test_replay_view_offers_the_views_the_trace_supports(qtbot, natural, db2):
    view = ReplayView()
    qtbot.addWidget(view)
    view.set_result(natural)
    assert list(view.views) == ["SRB/TCB switches", "Activity"]
    assert "zIIP" in view.caption.text()
    view.set_result(db2)
    assert list(view.views) == ["Track reads", "Cache staging", "Activity"]
    view.set_result(run_experiment("natural_ziip", {"records": 5}))   # no trace
    assert view.views == {} and "no trace" in view.note.text()


def test_replay_view_recomputes_the_view_in_front_on_scrub(qtbot, natural):
    view = ReplayView()
    qtbot.addWidget(view)
    view.set_result(natural)
    front = view.current_view()
    t = view.data.t0 + 0.5 * (view.data.t1 - view.data.t0)
    view.controller.seek(t)
    assert front.t == t and front.state == front.compute(view.data, t)
