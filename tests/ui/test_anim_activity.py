"""Overlay API and Activity strip against real traces (spool_dump, db2_io, natural_ziip).

Expected states are worked out by scanning the raw rows in the test.
"""
import numpy as np
import pytest

from models.experiments import run_experiment
from ui.animation import ReplayData, activity_at
from ui.animation.activity_view import ActivityView

#: The spool dump's staging buffer in real storage, as its trace names it.
BUF = "Real storage buffer"


@pytest.fixture(scope="module")
def spool():
    """One drive and a buffer (2.5 % of 1 GB) larger than a tape change's worth of reads."""
    return run_experiment("spool_dump", {"files": 500, "pages": 60000, "tape_drives": 1,
                                         "tape_change_s": 10, "real_storage_mb": 1024},
                          trace=True).trace


@pytest.fixture(scope="module")
def db2():
    return run_experiment("db2_io", {"cache": "cold", "protocol": "FICON"}, trace=True).trace


def _rows(tr, kind, comp=None):
    c = tr.columns()
    keep = c["kind"] == tr.kinds.index(kind)
    if comp is not None:
        keep &= c["comp"] == tr.components.index(comp)
    return c[keep]


def test_tape_drive_is_changing_between_change_start_and_end(spool):
    start = _rows(spool, "tape_change_start")[0]
    end = _rows(spool, "tape_change_end")[0]
    drive = spool.components[start["comp"]]
    before = activity_at(spool, start["t"] - 1.0)[drive]
    during = activity_at(spool, (start["t"] + end["t"]) / 2)[drive]
    after = activity_at(spool, end["t"] + 1.0)[drive]
    assert during.state == "changing" and "cartridge" in during.text
    assert before.state != "changing" and after.state != "changing"


def test_buffer_level_is_the_last_recorded_level(spool):
    levels = _rows(spool, "buffer_level")
    for row in levels[:: len(levels) // 17]:
        act = activity_at(spool, row["t"])[BUF]
        same_time = levels[levels["t"] == row["t"]][-1]
        assert act.level == pytest.approx(same_time["a"] / same_time["b"])
    # SPXTAPE keeps reading into storage while the cartridge is changed: the
    # first level recorded after the change is higher than the last before it.
    start = _rows(spool, "tape_change_start")[0]
    end = _rows(spool, "tape_change_end")[0]
    after = levels[levels["t"] > end["t"]][0]
    assert activity_at(spool, after["t"])[BUF].level > \
        activity_at(spool, start["t"])[BUF].level


def test_volume_counts_io_in_flight_and_drive_positioning(db2):
    starts, ends = _rows(db2, "io_start"), _rows(db2, "io_end")
    mid = (starts[5]["t"] + ends[5]["t"]) / 2
    gap = (ends[5]["t"] + starts[6]["t"]) / 2
    assert activity_at(db2, mid)["DB2V01"].count == 1
    idle = activity_at(db2, gap)["DB2V01"]
    assert idle.state == "idle" and "6 I/Os done" in idle.text
    seek = _rows(db2, "seek")[10]
    drive = db2.components[seek["comp"]]
    act = activity_at(db2, seek["t"] + 1e-6)[drive]
    assert act.state == "seeking" and f"{seek['a']} → {seek['b']}" in act.text


def test_engine_busy_exactly_inside_its_cpu_slices():
    tr = run_experiment("natural_ziip", {"records": 20}, trace=True).trace
    busy = _rows(tr, "cpu_busy")
    engines = [n for n in tr.components if n.startswith(("CP", "zIIP"))]
    for row in busy[:40]:
        t = row["t"] + 0.5 * row["b"] * 1e-6
        covering = {tr.components[r["comp"]] for r in busy
                    if r["t"] <= t < r["t"] + r["b"] * 1e-6}
        acts = activity_at(tr, t)
        assert {e for e in engines if acts[e].state == "busy"} == covering
        assert tr.components[row["comp"]] in covering


def test_activity_strip_shows_every_component(qtbot, spool):
    view = ActivityView()
    qtbot.addWidget(view)
    data = ReplayData(spool)
    view.set_data(data)
    start = _rows(spool, "tape_change_start")[0]
    view.set_time(float(start["t"]) + 1.0)
    names = [n for n, _ in view.state.rows]
    assert names == spool.components
    states = dict((n, a.state) for n, a in view.state.rows)
    assert "changing" in states.values()
    view.resize(1280, 800)
    assert not view.grab().isNull()


def test_spool_volumes_report_reading_progress(spool):
    t_mid = float(np.median(_rows(spool, "volume_read")["t"]))
    acts = activity_at(spool, t_mid)
    vols = [a for n, a in acts.items() if n.startswith("SPOOL")]
    assert vols and all(0.2 < a.level < 0.8 for a in vols)


@pytest.mark.parametrize("program", ["SPTAPE", "SPXTAPE"])
def test_a_load_writes_its_spool_pages_and_every_view_says_so(program):
    """A load writes the spool volumes: the trace records page writes, the
    Activity strip says pages written, and the throughput chart draws
    spool volume writes (all three said 'read' before)."""
    from app.replay.series import throughput_chart

    result = run_experiment("spool_load", {"files": 200, "pages": 6000, "program": program},
                            trace=True)
    tr = result.trace
    assert not len(_rows(tr, "volume_read")) and len(_rows(tr, "volume_write"))
    t_mid = float(np.median(_rows(tr, "volume_write")["t"]))
    vols = [a for n, a in activity_at(tr, t_mid).items() if n.startswith("SPOOL")]
    assert vols and all("written" in a.text and "read" not in a.text for a in vols)
    assert "writing" in {a.state for a in vols}
    names = [s.name for s in throughput_chart(result).series]
    assert "spool volume writes" in names and "spool volume reads" not in names
