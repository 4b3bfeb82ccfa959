"""The calibrated quantities of a storage group act on the run as a user reads
them in Measured vs model (issue 41): each one set on the drawing's card moves
the figure it names, and only that one."""
from pathlib import Path

import pytest

from app import scenario_io
from models import experiments
from models.workloads.system import warm_limits, warm_share, warm_shares

ROOT = Path(__file__).resolve().parents[2]


def _sysa(**props):
    sc = scenario_io.load(ROOT / "resources" / "scenarios" / "rmf_sysa.json")
    for n in sc.nodes.values():
        if n.label == "SGTSO":
            n.properties.update(props)
    return experiments.run_experiment(sc.experiment, {}, seed=1, scenario=sc).components["SGTSO"]


@pytest.fixture(scope="module")
def bare():
    return _sysa()


def test_the_start_of_an_io_replaces_the_idle_path_pend(bare):
    assert bare["pend_ms"] == pytest.approx(0.12, abs=0.005)
    got = _sysa(start_ms=0.177)
    assert got["pend_ms"] == pytest.approx(0.177, abs=0.005)
    assert got["conn_ms"] == pytest.approx(bare["conn_ms"], rel=0.02)


def test_remote_copy_adds_to_each_write_s_disc_and_keeps_the_volume_busy(bare):
    got = _sysa(write_disc_ms=2.0)
    writes = 1 - 0.748            # SGTSO's read share (cache report, 74.8 % reads)
    assert got["disc_ms"] - bare["disc_ms"] == pytest.approx(2.0 * writes, rel=0.1)
    # each of its 2 volumes busy that much longer per write (% = I/O/s x ms / 10)
    per_volume = got["io_rate"] / 2 * 2.0 * writes / 10
    assert got["busy_pct"] - bare["busy_pct"] == pytest.approx(per_volume, rel=0.15)
    assert got["pend_ms"] == pytest.approx(bare["pend_ms"], abs=0.005)


def test_busy_is_per_exposure_in_use_and_counts_the_reserve(bare):
    per_io = bare["io_rate"] / 2 * (bare["disc_ms"] + bare["conn_ms"]) / 10   # % per volume
    assert bare["busy_pct"] == pytest.approx(per_io, rel=0.02)      # no aliases drawn
    assert _sysa(aliases_in_use=1.0)["busy_pct"] == pytest.approx(per_io / 2, rel=0.02)
    reserved = _sysa(reserved_pct=16.7)["busy_pct"]
    assert reserved == pytest.approx(per_io + 16.7 * (1 - per_io / 100), rel=0.02)


def test_warm_shares_are_equal_unless_a_workload_needs_less():
    cap, limit = 1_000_000, 600_000
    equal = warm_share(cap, limit, 3)
    assert warm_shares(cap, limit, [10**7] * 3) == [equal] * 3          # as before
    small = warm_shares(cap, limit, [256, 10**7, 10**7])
    assert small[0] == 256 and small[1] == small[2] > equal             # the rest shared
    assert warm_limits({"A": 100, "B": 100}) == {"A": 1_000_000, "B": 1_000_000}
    assert warm_limits({"A": 100, "B": 100}, {"A": 500, "B": 10**9}) == \
        {"A": 500, "B": 1_999_500}


def test_counted_arrivals_make_exactly_rate_times_run_requests():
    sc = scenario_io.load(ROOT / "resources" / "scenarios" / "rmf_sysa.json")
    for n in sc.nodes.values():
        if n.kind == "wl_io":
            n.properties.update(arrival="counted", io_rate=0.7, duration_s=10.0)
    got = experiments.run_experiment(sc.experiment, {}, seed=3, scenario=sc).components
    assert got["SGTSO"]["io_rate"] * 10.0 == pytest.approx(7, abs=1e-9)
    assert got["SGDB2"]["io_rate"] * 10.0 == pytest.approx(7, abs=1e-9)
