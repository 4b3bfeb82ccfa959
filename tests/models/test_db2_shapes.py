"""Published shapes and figures of case study E, from the DB2 experiments.

Runs use the published table and index sizes with a small I/O budget
(``runs.IO_BUDGET`` = 1500, shown equivalent to whole runs in
test_db2_scale.py) or, where a metric does not depend on the table size
(hit ratio and disk bytes per request of skip-sequential access), a
300,000-page table instead of 2,000,000. Figures are compared with the
published values and tolerances of targets.json (REDP-4862).
"""
import math

import pytest

from models.db2 import runs
from models.studies.sweep import SweepSpec, run_serial
from models.experiments import run_experiment


@pytest.fixture(autouse=True)
def small_budget(monkeypatch):
    monkeypatch.setattr(runs, "IO_BUDGET", 1500)


def m(exp, **params):
    return run_experiment(exp, params).metrics


def curve(exp, param, values, fixed, metric):
    """One metric along a sweep (models.studies.sweep, the GUI's sweep points run here)."""
    spec = SweepSpec(exp, param, tuple(values), base=fixed)
    return list(run_serial(spec).metric(metric)[0])


# -- skip-sequential (E6, E7) ---------------------------------------------------
def test_ficon_skip_sequential_stages_full_tracks_and_never_hits():
    r = m("db2_skip_sequential", device="HDD15K", protocol="FICON", skip=17, table_pages=300_000)
    assert r["cache_hit_ratio"] == pytest.approx(0.001, abs=0.05)          # E7
    assert r["disk_bytes_per_req"] == pytest.approx(55200, rel=0.10)        # E7


def test_lpo_stages_records_and_lifts_the_hit_ratio():
    ficon = m("db2_skip_sequential", device="HDD15K", protocol="FICON", skip=17, table_pages=300_000)
    lpo = m("db2_skip_sequential", device="HDD15K", protocol="zHPF", skip=17, table_pages=300_000)
    assert lpo["disk_bytes_per_req"] == pytest.approx(4700, rel=0.20)       # E7
    assert lpo["cache_hit_ratio"] > 0.6 > ficon["cache_hit_ratio"] + 0.5


def test_ficon_skip65_on_10k_throughput():
    r = m("db2_skip_sequential", device="HDD10K", protocol="FICON", skip=65)
    assert r["throughput_mb_s"] == pytest.approx(2.7, rel=0.30)             # E6


def test_lpo_multiplies_sparse_skip_sequential_throughput_and_ssd_more():
    f = m("db2_skip_sequential", device="HDD10K", protocol="FICON", skip=65)
    z = m("db2_skip_sequential", device="HDD10K", protocol="zHPF", skip=65)
    s = m("db2_skip_sequential", device="SSD", protocol="zHPF", skip=65)
    assert z["throughput_mb_s"] > 2.5 * f["throughput_mb_s"]
    assert s["throughput_mb_s"] > 3 * z["throughput_mb_s"]


def test_skip_sequential_elapsed_falls_as_pages_get_sparser():
    el = curve("db2_skip_sequential", "skip", [2, 17, 65, 300, 1000],
               {"device": "HDD15K", "protocol": "FICON", "table_pages": 200_000}, "elapsed_s")
    assert all(a > b for a, b in zip(el, el[1:]))


def test_ficon_skip_sequential_throughput_falls_as_pages_get_sparser():
    """Denser lists read more per second: a full-track stage of the next track
    finds it in the drive's read look-ahead; sparse ones pay a positioning
    per page."""
    mb_s = curve("db2_skip_sequential", "skip", [5, 17, 65, 300],
                 {"device": "HDD10K", "protocol": "FICON", "table_pages": 300_000},
                 "throughput_mb_s")
    assert all(a > b for a, b in zip(mb_s, mb_s[1:])), mb_s


# -- RUNSTATS sampling (E8) -------------------------------------------------------
def test_ficon_sampling_fewer_pages_can_take_longer_than_nearly_all():
    el = curve("db2_runstats_sampling", "sampling_pct", [99, 50, 20],
               {"device": "HDD10K", "protocol": "FICON"}, "elapsed_s")
    assert el[1] > el[0] and el[2] > el[0]


def test_zhpf_ssd_runstats_99_elapsed():
    r = m("db2_runstats_sampling", device="SSD", protocol="zHPF", sampling_pct=99)
    assert r["elapsed_s"] == pytest.approx(100, rel=0.30)                   # E8


def test_dense_sampling_is_prestaged_sequentially_and_sparse_is_not():
    dense = m("db2_runstats_sampling", device="HDD15K", protocol="FICON", sampling_pct=99)
    sparse = m("db2_runstats_sampling", device="HDD15K", protocol="FICON", sampling_pct=5)
    assert dense["seq_staged_track_pct"] > 90 > 10 > sparse["seq_staged_track_pct"]


def test_dense_lists_cost_ficon_twice_what_they_cost_zhpf():
    """E8's spread (FICON 10K 200 s, zHPF 15K and SSD 100 s) at 95 % sampling:
    FICON's Locate Record per page makes it channel bound on any device. Over
    zHPF 15K is a little ahead of SSD (the DS8800's SSD rank holds it back;
    REDP-4862: 15K beats SSD over most of the sampling range)."""
    el = {(p, d): m("db2_runstats_sampling", device=d, protocol=p, sampling_pct=95)["elapsed_s"]
          for p, d in (("FICON", "HDD10K"), ("FICON", "SSD"), ("zHPF", "HDD15K"), ("zHPF", "SSD"))}
    assert el["zHPF", "HDD15K"] < el["zHPF", "SSD"] < 1.4 * el["zHPF", "HDD15K"]
    assert el["FICON", "HDD10K"] == pytest.approx(el["FICON", "SSD"], rel=0.2)
    assert 1.6 < el["FICON", "HDD10K"] / el["zHPF", "HDD15K"] < 3.5


def test_a_full_table_scan_is_faster_than_sampling_99_pct_over_ficon():
    """At 100 % DB2 reads the table with sequential prefetch (one domain per
    I/O); at 99 % it reads lists, a Locate Record per page."""
    scan = m("db2_runstats_sampling", device="HDD10K", protocol="FICON", sampling_pct=100)
    lists = m("db2_runstats_sampling", device="HDD10K", protocol="FICON", sampling_pct=99)
    assert scan["elapsed_s"] < 0.6 * lists["elapsed_s"]
    assert scan["seq_staged_track_pct"] > 90


def test_dense_sampling_on_ssd_is_prestaged_despite_two_interleaved_engines():
    """The two prefetch engines' I/Os reach the unit interleaved, each waiting
    at its own tracks on a fast SSD; the unit still follows both streams."""
    r = m("db2_runstats_sampling", device="SSD", protocol="FICON", sampling_pct=99,
          table_pages=50_000)
    assert r["seq_staged_track_pct"] > 90
    assert r["cache_hit_ratio"] > 0.98


# (zHPF on SSD flat from 99 % and then falling: tests/models/test_db2_lpo_shapes.py)


# -- index scans (E9) -----------------------------------------------------------------
def test_lpo_ssd_short_index_scan_io_time():
    r = m("db2_index_scan", db2_version=10, device="SSD", protocol="zHPF", pct_read=5)
    assert r["io_ms"] == pytest.approx(1.66, rel=0.30)                      # E9


def test_ssd_db2_10_and_zhpf_compound_to_tens_of_times_faster_short_scans():
    base = m("db2_index_scan", db2_version=9, device="HDD10K", protocol="FICON", pct_read=5)
    best = m("db2_index_scan", db2_version=10, device="SSD", protocol="zHPF", pct_read=5)
    ssd = m("db2_index_scan", db2_version=10, device="SSD", protocol="FICON", pct_read=5)
    v9ssd = m("db2_index_scan", db2_version=9, device="SSD", protocol="FICON", pct_read=5)
    assert best["throughput_mb_s"] > 20 * base["throughput_mb_s"]
    assert ssd["throughput_mb_s"] > v9ssd["throughput_mb_s"] > base["throughput_mb_s"]


@pytest.mark.xfail(strict=True, reason="open: the LPO on 10K leads FICON until late in the "
                   "scan (40 %: 11.4 against 7.8 MB/s) and is a little slower only at 100 % "
                   "(17.3 against 17.6); published: a little slower beyond a third. "
                   "docs/model-db2.md")
def test_lpo_on_10k_is_a_little_slower_than_ficon_beyond_a_third_of_the_index():
    for pct in (40, 100):
        f = m("db2_index_scan", db2_version=10, device="HDD10K", protocol="FICON", pct_read=pct)
        z = m("db2_index_scan", db2_version=10, device="HDD10K", protocol="zHPF", pct_read=pct)
        assert 0.7 * f["throughput_mb_s"] < z["throughput_mb_s"] < f["throughput_mb_s"]


def test_lpo_on_10k_leads_ficon_on_a_short_scan():
    f5 = m("db2_index_scan", db2_version=10, device="HDD10K", protocol="FICON", pct_read=5)
    z5 = m("db2_index_scan", db2_version=10, device="HDD10K", protocol="zHPF", pct_read=5)
    assert z5["throughput_mb_s"] > f5["throughput_mb_s"]


def test_warm_index_scan_hits_and_beats_cold():
    cold = m("db2_index_scan", device="HDD15K", pct_read=5)
    warm = m("db2_index_scan", device="HDD15K", pct_read=5, cache="warm")
    assert warm["cache_hit_ratio"] == pytest.approx(1.0)
    assert warm["elapsed_s"] < cold["elapsed_s"] / 5


def test_organized_index_needs_no_list_prefetch_and_is_fast_even_in_db2_9():
    messy = m("db2_index_scan", db2_version=9, device="HDD15K", pct_read=5)
    tidy = m("db2_index_scan", db2_version=9, device="HDD15K", pct_read=5, disorganization=0)
    assert tidy["throughput_mb_s"] > 10 * messy["throughput_mb_s"]


# -- every parameter over its whole range --------------------------------------------
@pytest.mark.parametrize("exp,params", [
    ("db2_skip_sequential", dict(skip=2, table_pages=1000)),
    ("db2_skip_sequential", dict(skip=1000, table_pages=100_000_000, device="SSD")),
    ("db2_runstats_sampling", dict(sampling_pct=1, table_pages=1000, protocol="FICON")),
    ("db2_runstats_sampling", dict(sampling_pct=100, table_pages=100_000_000)),
    ("db2_runstats_sampling", dict(sampling_pct=99.9, table_pages=100_000_000, device="HDD10K")),
    ("db2_index_scan", dict(pct_read=0.1, index_tracks=10, db2_version=9)),
    ("db2_index_scan", dict(pct_read=100, index_tracks=10_000_000, device="SSD")),
])
def test_extremes_run_and_give_finite_metrics(exp, params):
    r = m(exp, **params)
    assert all(math.isfinite(v) and v >= 0 for v in r.values())
    assert r["elapsed_s"] > 0
