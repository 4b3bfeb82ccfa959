"""Track-read and cache-staging views against real db2_io traces.

Expected values come from plain scans of the raw trace rows, independent of
the views' binary searches: the records lit on a drive are those it read
since its last seek; the hit ratio is hits / (hits + misses) so far; staged
slots are the records the drives read, coloured by the staging mode.
"""
import numpy as np
import pytest

from models.engine import Trace
from models.experiments import run_experiment
from ui.animation import ReplayData
from ui.animation.cache_view import CacheView
from ui.animation.track_view import TrackView


def _run(protocol, **extra):
    res = run_experiment("db2_io", {"cache": "cold", "protocol": protocol, **extra}, trace=True)
    tr = res.trace
    return tr, ReplayData(tr), sorted(tr.columns().tolist(), key=lambda r: r[0])


@pytest.fixture(scope="module")
def ficon():
    return _run("FICON")


@pytest.fixture(scope="module")
def lpo():
    """A dense list (every third page): partial-track staging."""
    return _run("zHPF", stride=3)


@pytest.fixture(scope="module")
def lpo_sparse():
    """Pages at random over the table space: record staging, spread over drives."""
    return _run("zHPF")


def lit_by_scan(tr, rows, drive, t):
    """Records of the drive's latest track read since its latest seek (linear scan)."""
    cid = tr.components.index(drive)
    seek, read, track = tr.kinds.index("seek"), tr.kinds.index("track_read"), None
    lit = []
    for time, comp, kind, a, b in rows:
        if time > t:
            break
        if comp != cid:
            continue
        if kind == seek:
            lit, track = [], None
        elif kind == read:
            if a != track:
                lit, track = [], a
            lit.append(b)
    return tuple(lit)


def test_lit_records_match_the_trace_while_stepping(qtbot, ficon):
    tr, data, rows = ficon
    view = TrackView()
    qtbot.addWidget(view)
    view.set_data(data)
    reads = data.rows("track_read")[:400:7]
    for i in reads:
        t = float(data.t[i])
        view.set_time(t)
        for d in view.state.drives:
            assert d.lit == lit_by_scan(tr, rows, d.name, t), (d.name, t)
        drive = tr.components[data.comp[i]]
        (d,) = [d for d in view.state.drives if d.name == drive]
        assert d.track == data.a[i] and d.lit[-1] == data.b[i]


def test_seek_moves_the_arm_from_old_to_new_cylinder(qtbot, ficon):
    tr, data, rows = ficon
    view = TrackView()
    qtbot.addWidget(view)
    view.set_data(data)
    i = int(data.rows("seek")[5])
    drive = tr.components[data.comp[i]]
    nxt = data.next_of(drive, "track_read", float(data.t[i]))
    t0, t1 = float(data.t[i]), float(data.t[nxt])
    cyls = []
    for f in (0.0, 0.5, 0.99):
        view.set_time(t0 + f * (t1 - t0))
        (d,) = [d for d in view.state.drives if d.name == drive]
        assert d.state == "positioning" and d.target == data.b[nxt]
        cyls.append(d.cylinder)
    lo, hi = sorted((data.a[i], data.b[i]))
    assert cyls[0] == data.a[i] and all(lo <= c <= hi for c in cyls)
    assert abs(cyls[2] - data.b[i]) < abs(cyls[0] - data.b[i]) or data.a[i] == data.b[i]


def _most_drives_busy_at_once(qtbot, data):
    view = TrackView()
    qtbot.addWidget(view)
    view.set_data(data)
    io_end = float(data.t[data.rows("io_end")[3]])
    most = 0
    for t in np.linspace(data.t0, io_end, 300):
        view.set_time(float(t))
        most = max(most, sum(d.state != "idle" for d in view.state.drives))
    return most


def test_ficon_uses_one_drive_at_a_time_lpo_many(qtbot, ficon, lpo_sparse):
    assert _most_drives_busy_at_once(qtbot, ficon[1]) == 1
    assert _most_drives_busy_at_once(qtbot, lpo_sparse[1]) >= 4


def test_page_list_follows_the_control_unit_rows_in_order(qtbot, ficon):
    tr, data, rows = ficon
    view = TrackView()
    qtbot.addWidget(view)
    view.set_data(data)
    start, end = data.rows("io_start")[2], data.rows("io_end")[2]
    t_mid = float(data.t[start] + data.t[end]) / 2
    view.set_time(t_mid)
    s = view.state
    assert s.io_id == data.a[start] and len(s.pages) == data.b[start] == 32
    asked = [p for p in s.pages if p.status != "waiting"]
    assert 0 < len(asked) < 32
    # FICON: every earlier page has been staged; only the newest one waits.
    assert [p.status for p in asked[:-1]] == ["staged"] * (len(asked) - 1)


def test_hit_ratio_shown_equals_hits_over_requests_so_far(qtbot, lpo):
    tr, data, rows = lpo
    view = CacheView()
    qtbot.addWidget(view)
    view.set_data(data)
    hit, miss = tr.kinds.index("cache_hit"), tr.kinds.index("cache_miss")
    # A record the same disconnect also waits for is a hit (one miss per disconnect).
    hits = {hit, tr.kinds.index("cache_wait")}
    for t in np.linspace(data.t0, data.t1, 25):
        view.set_time(float(t))
        h = sum(1 for r in rows if r[0] <= t and r[2] in hits)
        m = sum(1 for r in rows if r[0] <= t and r[2] == miss)
        assert (view.state.hits, view.state.misses) == (h, m)
        if h + m:
            assert view.state.hit_ratio == pytest.approx(h / (h + m))


@pytest.mark.parametrize("name, overrides", [
    ("db2_runstats_sampling", {"sampling_pct": 10, "protocol": "FICON"}),
    ("db2_index_scan", {"pct_read": 5}),
])
def test_cache_view_and_chart_end_on_the_runs_hit_ratio(qtbot, name, overrides):
    """One truth: at the end of the replay the Cache staging view, the hit-ratio
    chart and the run's cache hit ratio agree (the view once said 0.02 where
    the table said 0.40: misses counted per record, the run per disconnect)."""
    from app.replay.series import cache_chart

    # The whole trace (no ring): the view counts every event the run had.
    res = run_experiment(name, overrides, seed=1, trace=Trace(limit=None))
    data = ReplayData(res.trace)
    assert data.dropped == 0
    view = CacheView()
    qtbot.addWidget(view)
    view.set_data(data)
    view.set_time(data.t1)
    ratio = res.metrics["cache_hit_ratio"]
    assert 0.05 < ratio < 0.95
    assert view.state.hit_ratio == pytest.approx(ratio, abs=1e-9)
    assert cache_chart(res).series[-1].y[-1] == pytest.approx(ratio, abs=1e-9)


def test_staged_slots_are_the_records_the_drives_read_in_the_stage_mode(qtbot, ficon, lpo):
    for (tr, data, rows), mode in ((ficon, "full"), (lpo, "partial")):
        view = CacheView()
        qtbot.addWidget(view)
        view.set_data(data)
        i = int(data.rows("stage")[np.flatnonzero(
            data.b[data.rows("stage")] == ("record", "partial", "full").index(mode))[3]])
        view.set_time(float(data.t[i]))
        (row,) = [r for r in view.state.rows if r.track == data.a[i]]
        read = {b for t, c, k, a, b in rows
                if k == tr.kinds.index("track_read") and a == data.a[i] and t <= data.t[i]}
        assert {n + 1 for n, s in enumerate(row.slots) if s == mode} == read


def test_record_staging_appears_for_a_sparse_lpo_list(qtbot, lpo_sparse):
    tr, data, rows = lpo_sparse
    view = CacheView()
    qtbot.addWidget(view)
    view.set_data(data)
    view.set_time(float(data.t[data.rows("io_end")[0]]))
    kinds = {s for r in view.state.rows for s in r.slots}
    assert "record" in kinds and "full" not in kinds
    assert view.state.stages[0] > 0


def test_cache_scrub_back_equals_forward(qtbot, lpo):
    tr, data, rows = lpo
    view = CacheView()
    qtbot.addWidget(view)
    view.set_data(data)
    times = np.linspace(data.t0, data.t0 + 0.2, 40)
    forward = []
    for t in times:
        view.set_time(float(t))
        forward.append(view.state)
    for t, st in reversed(list(zip(times, forward))):
        view.set_time(float(t))
        assert view.state == st


def test_head_and_missed_page_have_different_colours():
    """The legend's "head" and "page: miss, waiting" are told apart by colour."""
    from ui.animation.track_view import TrackView

    view = TrackView.__new__(TrackView)
    view._flash = False
    colours = {text: colour.name() for colour, text, _ in TrackView._legend_items(view)}
    assert colours["head"] != colours["page: miss, waiting"]
