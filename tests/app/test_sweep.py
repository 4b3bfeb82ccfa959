"""Sweeps: a short sweep on a process pool, deterministic whatever the pool size."""
import threading

import numpy as np
import pytest

from app.sweep import SweepCancelled, SweepSpec, run_sweep
from models import experiments

TOY = "tests.ui.test_charts_support:toy_run"


def toy_spec(**kw):
    return SweepSpec("toy", "ios", (5, 20, 60), variants=(("HDD10K", {"device": "HDD10K"}),
                                                          ("SSD", {"device": "SSD"})),
                     seed=3, runner=TOY, **kw)


def test_sweep_curves_are_the_same_with_one_or_two_workers():
    seen = []
    one = run_sweep(toy_spec(), workers=1)
    two = run_sweep(toy_spec(), workers=2, progress=lambda d, n: seen.append((d, n)))
    assert np.array_equal(one.metric("disc_ms"), two.metric("disc_ms"))
    assert seen[-1] == (6, 6) and [d for d, _ in seen] == list(range(1, 7))
    disc = two.metric("disc_ms")
    assert disc.shape == (2, 3)
    assert (disc[1] < disc[0]).all()          # SSD disconnect time below 10K HDD at every point
    assert two.labels() == ["HDD10K", "SSD"]


def test_in_process_sweep_gives_the_pools_numbers():
    """models.studies.sweep.run_serial (tests, scripts) and the GUI's pool agree point by point."""
    from models.studies.sweep import run_serial
    pooled = run_sweep(toy_spec(), workers=2)
    here = run_serial(toy_spec())
    for name in ("disc_ms", "io_ms"):
        assert np.array_equal(pooled.metric(name), here.metric(name))
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(SweepCancelled):
        run_serial(toy_spec(), cancel=cancel)


def test_cancel_stops_the_sweep():
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(SweepCancelled):
        run_sweep(toy_spec(), workers=1, cancel=cancel)


def test_a_landed_experiment_sweeps_through_run_experiment():
    if experiments.get("db2_io").run is None:
        pytest.skip("db2_io has no model yet")
    spec = SweepSpec("db2_io", "pages", (1, 8, 32),
                     variants=(("FICON", {"protocol": "FICON"}), ("zHPF", {"protocol": "zHPF"})),
                     base={"layout": "discontiguous", "cache": "resident"})
    io_ms = run_sweep(spec, workers=2).metric("io_ms")
    assert (np.diff(io_ms, axis=1) > 0).all()         # more pages, longer I/O
    assert io_ms[1, -1] < io_ms[0, -1]                # zHPF beats FICON at 32 pages (E2 vs E3)
