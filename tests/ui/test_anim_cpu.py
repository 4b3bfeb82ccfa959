"""SRB/TCB view against a real natural_ziip trace: lane, mode, cause, counters.

The expected values are worked out here by a plain scan of the raw trace
rows (no ReplayData), so the view's binary searches are checked against an
independent reading of the same events.
"""
import numpy as np
import pytest

from models.experiments import run_experiment
from ui.animation import ReplayController, ReplayData
from ui.animation.cpu_view import CpuView


@pytest.fixture(scope="module")
def natural():
    res = run_experiment("natural_ziip", {"records": 30, "operation": "sort",
                                          "calls_3gl": 1}, trace=True)
    tr = res.trace
    rows = sorted(tr.columns().tolist(), key=lambda r: r[0])
    return res, tr, rows


def expected_at(tr, rows, t):
    """Lane, mode, cause, switch count and CPU per engine by a linear scan."""
    lane = mode = cause = None
    switches, cpu = 0, {}
    for time, comp, kind, a, b in rows:
        if time > t:
            break
        name = tr.kinds[kind]
        if name == "cpu_busy":
            lane = tr.components[comp]
            cpu[lane] = cpu.get(lane, 0) + b
        elif name in ("srb_to_tcb", "tcb_to_srb"):
            # A switch is an SRB→TCB switch (as the run's figures count it).
            switches += name == "srb_to_tcb"
            mode = "TCB" if name == "srb_to_tcb" else "SRB"
            cause = tr.meta["causes"][b]
    return lane, mode, cause, switches, cpu


def test_unit_of_work_is_in_the_lane_the_last_switch_put_it_in(qtbot, natural):
    res, tr, rows = natural
    view = CpuView()
    qtbot.addWidget(view)
    ctl = ReplayController()
    data = ReplayData(tr)
    view.set_data(data)
    ctl.time_changed.connect(view.set_time)
    ctl.set_data(data)
    checked = 0
    for _ in range(120):
        ctl.step_forward()
        lane, mode, cause, switches, cpu = expected_at(tr, rows, ctl.t)
        s = view.state
        assert s.switches == switches
        assert {k: v for k, v in s.cpu_us.items() if v} == cpu
        if lane is not None:
            (unit,) = s.units
            assert unit.lane == lane
            if mode is not None:
                assert (unit.mode, unit.cause) == (mode, cause)
                checked += 1
    assert checked > 50
    assert {u.lane for u in [view.state.units[0]]} <= set(view.state.lanes)


def test_work_goes_to_a_general_cp_in_tcb_mode_and_back_to_the_ziip(qtbot, natural):
    res, tr, rows = natural
    view = CpuView()
    qtbot.addWidget(view)
    data = ReplayData(tr)
    view.set_data(data)
    places = set()
    for i in data.rows("srb_to_tcb")[:20].tolist() + data.rows("tcb_to_srb")[:20].tolist():
        # Just after a switch, once the next CPU slice has started.
        view.set_time(data.next_time(data.t[i]))
        u = view.state.units[0]
        places.add((u.mode, u.lane.startswith("zIIP")))
    assert places == {("TCB", False), ("SRB", True)}


def test_switch_causes_are_counted_by_name(qtbot, natural):
    res, tr, rows = natural
    view = CpuView()
    qtbot.addWidget(view)
    data = ReplayData(tr)
    view.set_data(data)
    view.set_time(data.t1)
    switch = [r for r in rows if tr.kinds[r[2]] == "srb_to_tcb"]
    causes = {}
    for r in switch:
        causes[tr.meta["causes"][r[4]]] = causes.get(tr.meta["causes"][r[4]], 0) + 1
    assert view.state.causes == causes
    assert len(causes) >= 3 and "call_3gl" in causes


def test_scrubbing_back_gives_the_state_stepping_forward_gave(qtbot, natural):
    res, tr, rows = natural
    view = CpuView()
    qtbot.addWidget(view)
    data = ReplayData(tr)
    view.set_data(data)
    times = np.unique(data.t)[::7][:60]
    forward = []
    for t in times:
        view.set_time(t)
        forward.append(view.state)
    for t, state in reversed(list(zip(times, forward))):
        view.set_time(t)
        assert view.state == state


def test_view_paints_at_projector_size(qtbot, natural):
    res, tr, rows = natural
    view = CpuView()
    qtbot.addWidget(view)
    view.resize(1280, 800)
    data = ReplayData(tr)
    view.set_data(data)
    view.set_time(data.t0 + 0.4 * (data.t1 - data.t0))
    img = view.grab().toImage()
    assert img.width() == 1280
    # Something besides the white background got drawn in the lanes.
    assert len({img.pixel(x, 120) for x in range(0, 1280, 8)}) > 3


def test_at_the_end_the_panel_counts_the_switches_the_run_and_its_chart_count(qtbot):
    """The lesson's run (2,000 Adabas records, MT on): at the end of the
    replay the panel's switches and switches by cause are the run's figures
    (the srb_switches metric, the cause table) and the chart's bars; the
    switches back to SRB are counted apart, not added in."""
    from app.names import cause_title
    from app.replay.series import switch_chart
    res = run_experiment("natural_ziip", {"records": 2000}, trace=True)
    view = CpuView()
    qtbot.addWidget(view)
    data = ReplayData(res.trace)
    view.set_data(data)
    view.set_time(data.t1)
    s = view.state
    assert s.switches == res.metrics["srb_switches"] == 2001
    (causes,) = [t for t in res.reports if t.title == "SRB→TCB switches by cause"]
    shown = {cause_title(c): n for c, n in s.causes.items()}
    assert shown == dict(causes.rows) == {"Adabas call": 2000, "STIMER (timer)": 1}
    chart = switch_chart(res)
    assert shown == dict(zip(chart.categories, chart.series[0].y.astype(int).tolist()))
    assert s.back == len(data.rows("tcb_to_srb")) == 2001


@pytest.mark.parametrize("present", [False, True], ids=["desktop", "presentation"])
def test_every_line_of_the_view_is_drawn_whole_at_the_end_of_the_replay(window, present):
    """10,000 records (five-digit counts) at the end of the replay: no line of
    the SRB/TCB view is shortened ("(71 % …", "TCB→SRB…", "STIMER (ti…"),
    on the desktop at 1024×640, 1280×800 and 1920×1080, and at the
    presentation sizes of a projector (larger text) at 1024×768 and 1280×800."""
    from PySide6.QtGui import QImage
    from PySide6.QtWidgets import QApplication

    from ui.animation.replay_view import ReplayView
    assert window.open_case_or_file("natural_ziip") is None
    window.run_and_wait()
    window.show_view("animation")
    replay = window.findChild(ReplayView)
    view = replay.views["SRB/TCB switches"]
    replay.tabs.setCurrentWidget(view)
    window.lessons.presentation.set_on(present, full_screen=False)
    sizes = ((1024, 768), (1280, 800)) if present else ((1024, 640), (1280, 800), (1920, 1080))
    cut = {}
    try:
        for size in sizes:
            window.resize(*size)
            for f in (0.5, 1.0):
                replay.controller.seek(replay.data.t0 + f * (replay.data.t1 - replay.data.t0))
                QApplication.processEvents()
                view.render(QImage(view.size(), QImage.Format.Format_ARGB32))
                cut.update({(size, f, full): True for _, full in view.elided})
        assert view.state.switches == 10_001
    finally:
        window.lessons.presentation.set_on(False)
    assert sorted(cut, key=str) == [], "\n".join(map(str, cut))
