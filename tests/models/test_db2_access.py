"""DB2 prefetch decisions and page lists (models.db2.access, dataset, bufmgr).

These tests use small objects and, for the buffer manager, a stand-in I/O
subsystem with fixed response times, so they check DB2's own decisions and
overlap independently of the control unit model.
"""
import numpy as np
import pytest

from models.db2 import access, cpu
from models.db2.access import DYNAMIC, LIST, SEQUENTIAL, SYNC
from models.db2.bufmgr import BufferManager
from models.db2.dataset import PAGES_PER_TRACK, DataSet, leaf_key_order
from models.engine import Engine


def test_twelve_pages_per_track_and_volume_spill():
    assert PAGES_PER_TRACK == 12
    ds = DataSet("TS", 8_000_000)
    vol, trk, rec = ds.locate(np.array([0, 11, 12, 7_999_999]))
    assert list(trk[:3]) == [0, 0, 1] and list(rec[:3]) == [1, 12, 1]
    assert ds.volumes == 1                    # 8M pages fit one 3390-54
    big = DataSet("TS", 100_000_000)
    assert big.volumes > 1
    v, t, _ = big.locate(np.array([big.tracks_per_volume * 12]))
    assert v[0] == 1 and t[0] == 0


def test_skip_sequential_is_sorted_list_prefetch_of_32():
    plan = access.skip_sequential(10_000, 17)
    assert set(plan.modes.tolist()) == {LIST}
    assert plan.read(0).tolist() == [17 * i for i in range(32)]
    assert int(plan.getpages.sum()) == len(range(0, 10_000, 17))
    assert np.all(np.diff(plan.pages) > 0)


def test_list_prefetch_sorts_rids_and_drops_duplicate_pages():
    plan = access.list_prefetch(np.array([90, 3, 3, 40, 7]))
    assert plan.pages.tolist() == [3, 7, 40, 90] and plan.reads == 1


def test_runstats_samples_the_share_asked_and_scans_sequentially_at_100():
    rng = np.random.default_rng(5)
    plans = list(access.runstats_plans(200_000, 20, rng))
    pages = np.concatenate([p.pages for p in plans])
    assert abs(len(pages) / 200_000 - 0.20) < 0.01
    assert all(set(p.modes.tolist()) == {LIST} for p in plans)
    full = list(access.runstats_plans(1000, 100, rng))
    assert set(full[0].modes.tolist()) == {SEQUENTIAL}
    assert full[0].read(1).tolist() == list(range(32, 64))


def test_sequential_detector_needs_five_of_eight():
    det = access.SequentialDetector()
    on = [det.getpage(p) for p in range(0, 8)]
    assert on.index(True) == 5          # getpages 1..5 are page-sequential
    det = access.SequentialDetector()
    assert not any(det.getpage(p) for p in range(0, 800, 100))   # jumps > 16 pages


def test_row_level_detection_keeps_prefetch_on_when_rows_share_pages():
    """A clustered range scan, three rows a page: DB2 9 counts getpages and
    sees a return to the same page as non-sequential; DB2 10 counts rows."""
    rows = [p for p in range(0, 40) for _ in range(3)]        # pages 0,0,0,1,1,1,...
    v9, v10 = access.SequentialDetector(), access.SequentialDetector(row_level=True)
    on9 = [v9.getpage(p) for p in rows]
    on10 = [v10.getpage(p) for p in rows]
    assert not any(on9)
    assert all(on10[8:])
    # Both stop for rows scattered over the table (cluster ratio near 0).
    far = access.SequentialDetector(row_level=True)
    assert not any(far.getpage(p) for p in range(0, 8000, 997))


def test_db2_9_reads_a_disorganized_index_synchronously_and_an_organized_one_by_prefetch():
    rng = np.random.default_rng(3)
    leaf = 5000
    messy = access.index_scan_v9(leaf_key_order(leaf, 1.0, rng), leaf)
    assert messy.count(SYNC) > 0.98 * messy.reads
    tidy = access.index_scan_v9(leaf_key_order(leaf, 0.0, rng), leaf)
    assert tidy.count(DYNAMIC) > 100 and tidy.count(SYNC) < 10
    assert int(tidy.getpages.sum()) == leaf


def test_db2_10_uses_list_prefetch_for_a_disorganized_index():
    rng = np.random.default_rng(3)
    plan = access.index_scan_v10(leaf_key_order(3200, 1.0, rng))
    assert plan.count(LIST) == plan.reads == 100
    # each list is the next 32 leaves in key order, sorted by page number
    assert np.all(np.diff(plan.read(0)) > 0)
    tidy = access.index_scan_v10(leaf_key_order(3200, 0.0, rng))
    assert tidy.count(DYNAMIC) == tidy.reads


def test_leaf_order_disorganization_is_a_share():
    rng = np.random.default_rng(9)
    order = leaf_key_order(100_000, 0.3, rng)
    moved = np.count_nonzero(order != np.arange(100_000))
    assert 0.25 < moved / 100_000 < 0.31
    assert sorted(order.tolist()) == list(range(100_000))


class FixedIO:
    """Stand-in I/O subsystem: every I/O takes ``ms`` (all of it DISC)."""

    def __init__(self, engine, ms=1.0):
        self.engine, self.s = engine, ms / 1000.0
        self.busy_now = 0
        self.peak = 0

    def read(self, pages, mode):
        self.busy_now += 1
        self.peak = max(self.peak, self.busy_now)
        yield self.s
        self.busy_now -= 1
        return 0.0, 0.0, self.s, 0.0


def _scan(plan, engines=2):
    eng = Engine(1)
    io = FixedIO(eng)
    bm = BufferManager(eng, io, prefetch_engines=engines)
    bm.scan([plan])
    eng.run()
    return bm.stats, io


def test_two_prefetch_engines_overlap_list_prefetch_io():
    plan = access.skip_sequential(64_000, 20)        # 3200 pages, 100 lists
    one, _ = _scan(plan, engines=1)
    two, io = _scan(plan, engines=2)
    assert io.peak == 2
    assert two.elapsed_s < 0.6 * one.elapsed_s
    assert two.ios_by_mode[LIST] == 100 and two.getpages == 3200


def test_synchronous_reads_stop_the_application_one_at_a_time():
    plan = access.chunked(np.arange(500), 1, SYNC)
    st, io = _scan(plan)
    assert io.peak == 1
    assert st.elapsed_s == pytest.approx(500 * (0.001 + cpu.class2_cpu_s(1, 1)), rel=1e-6)


def test_list_prefetch_costs_several_times_less_cpu_than_synchronous_reads():
    list_cpu = cpu.prefetch_cpu_s(32) + cpu.class2_cpu_s(32, 0)
    sync_cpu = cpu.class2_cpu_s(32, 32)
    assert 3 < sync_cpu / list_cpu < 20
