"""A simulated slice stands for the whole scan (models.db2.runs).

Full-scale DB2 runs (RUNSTATS over 8 million pages) simulate a leading slice
of a table scan, or a proportionally smaller index read to the same share,
when they would exceed ``runs.IO_BUDGET`` I/Os. These tests run moderate
sizes both ways, I/O by I/O over the whole object and sliced, and require
the same metrics.
"""
import pytest

from models.db2 import runs
from models.experiments import run_experiment

CASES = [
    ("db2_runstats_sampling", dict(sampling_pct=50, table_pages=400_000, device="HDD10K", protocol="FICON")),
    ("db2_runstats_sampling", dict(sampling_pct=99, table_pages=400_000, device="HDD15K", protocol="zHPF")),
    ("db2_runstats_sampling", dict(sampling_pct=20, table_pages=400_000, device="SSD", protocol="zHPF")),
    ("db2_skip_sequential", dict(skip=5, table_pages=400_000, device="HDD15K", protocol="zHPF")),
    ("db2_index_scan", dict(pct_read=100, index_tracks=8000, device="HDD10K", protocol="FICON")),
    ("db2_index_scan", dict(pct_read=60, index_tracks=8000, device="HDD15K", protocol="zHPF")),
    ("db2_index_scan", dict(pct_read=30, index_tracks=2000, device="SSD", protocol="FICON",
                            db2_version=9)),
]
#: The slice's first I/Os (arms at random positions, sequential detection
#: ramping up) weigh 1/1500 here, 1/8000 at the real budget.
EXTENSIVE_TOL = 0.03     # elapsed time, counts
RATIO_TOL = 0.02         # hit ratio (absolute)
#: Cache misses of a dense LPO list are ~5 % of its pages (one disconnect
#: per drive run): a count of rare events, held to 8 % of itself (0.4 % of
#: the pages; the slice's start-up reads weigh in).
MISSES_TOL = 0.08
#: A sliced index scan reads a k-times smaller index, so its full-track
#: stages seek over a k-times shorter span: on 10K drives over FICON the
#: slice runs 2-4 % faster (measured at seeds 1, 7, 42 before and after the
#: I/O model was built from the drawing). Until the slice keeps the whole
#: index's seek span, that case is held to 4.5 %.
SEEK_SPAN_TOL = 0.045

@pytest.mark.parametrize("exp,params", CASES, ids=[f"{e}-{i}" for i, (e, _) in enumerate(CASES)])
def test_slice_gives_the_same_answer_as_the_whole(monkeypatch, exp, params):
    monkeypatch.setattr(runs, "IO_BUDGET", 10 ** 9)
    whole = run_experiment(exp, params).metrics
    monkeypatch.setattr(runs, "IO_BUDGET", 1500)
    part = run_experiment(exp, params)
    assert "Simulated 1/" in part.reports[0].note      # it really was sliced
    for name, value in whole.items():
        got = part.metrics[name]
        if name in ("cache_hit_ratio",):
            assert got == pytest.approx(value, abs=RATIO_TOL), name
        elif name == "seq_staged_track_pct":
            # Near 0 or 100 % the share is exact; at mid-range sampling over
            # FICON (issue 32: detection by degree) it comes from runs of
            # tracks a stream prestages, ~500 of them in a slice: a sample
            # whose spread is ~2 points (34.6 against 32.6 % at 50 %).
            assert got == pytest.approx(value, abs=3.0), name
        else:
            tol = MISSES_TOL if name == "cache_misses" else EXTENSIVE_TOL
            if exp == "db2_index_scan" and params.get("device") == "HDD10K":
                tol = max(tol, SEEK_SPAN_TOL)
            assert got == pytest.approx(value, rel=tol, abs=1e-9), name
