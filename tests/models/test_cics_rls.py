"""CICS VSAM under LSR and RLS: the behaviour case study B describes.

Calibration (B1) compares with the published 1.0–1.3 band; the other tests
pin mechanisms a user would notice: locks and CF calls for updates, logging
for LOG(ALL), threadsafe hiding RLS file wait, contention, MRO shipping.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from models.engine import Trace
from models.experiments import run_experiment
from models.core.params import ParamError

TARGETS = Path(__file__).resolve().parents[2] / "resources/calibration/targets.json"
READ_ONLY = {"read": 100}
UPDATE_HEAVY = {"read_update": 50, "update": 50}


def run(**kw) -> dict:
    kw.setdefault("transactions", 1500)
    return dict(run_experiment("vsam_rls", kw).metrics)


def test_b1_rls_over_lsr_file_response_within_published_band():
    target = next(t for t in json.loads(TARGETS.read_text())["targets"] if t["id"].startswith("B1"))
    rls = run_experiment("vsam_rls", target["params"]).metrics["file_resp_ms"]
    lsr = run_experiment("vsam_rls", {**target["params"], **target["baseline"]}).metrics["file_resp_ms"]
    assert target["expect"]["min"] <= rls / lsr <= target["expect"]["max"]


def test_published_mix_keeps_its_ratio_at_another_seed():
    rls = run_experiment("vsam_rls", {"mode": "RLS"}, seed=7).metrics["file_resp_ms"]
    lsr = run_experiment("vsam_rls", {"mode": "LSR"}, seed=7).metrics["file_resp_ms"]
    assert 1.0 <= rls / lsr <= 1.3


def test_transaction_response_barely_moves_under_rls():
    rls, lsr = run(mode="RLS"), run(mode="LSR")
    assert abs(rls["tran_resp_ms"] / lsr["tran_resp_ms"] - 1) < 0.15


def test_read_only_file_barely_changes_update_heavy_pays_locks_and_cf():
    ro_r, ro_l = run(mode="RLS", mix=READ_ONLY), run(mode="LSR", mix=READ_ONLY)
    up_r, up_l = run(mode="RLS", mix=UPDATE_HEAVY), run(mode="LSR", mix=UPDATE_HEAVY)
    ro_delta_us = 1000 * (ro_r["file_resp_ms"] - ro_l["file_resp_ms"])
    up_delta_us = 1000 * (up_r["file_resp_ms"] - up_l["file_resp_ms"])
    assert 0 < ro_delta_us < 30                # tens of microseconds at most
    assert up_delta_us > ro_delta_us           # locks, CF writes, cross-invalidation
    # update-heavy transactions make several times the CF requests of read-only ones
    assert up_r["cf_requests_per_tran"] > 2.5 * ro_r["cf_requests_per_tran"]
    assert ro_l["cf_requests"] == 0            # LSR without logging: no CF at all


def test_log_all_makes_logging_dominate_update_transactions():
    none, undo, full = (run(mode="RLS", mix=UPDATE_HEAVY, log=log) for log in ("NONE", "UNDO", "ALL"))
    assert none["log_ms"] == 0
    assert undo["log_ms"] < full["log_ms"]
    assert none["tran_resp_ms"] < undo["tran_resp_ms"] < full["tran_resp_ms"]
    assert full["log_ms"] > 0.5 * full["tran_resp_ms"]
    mixed = run(mode="RLS", log="ALL")
    assert mixed["log_ms"] > 0.4 * mixed["tran_resp_ms"]


def test_threadsafe_hides_rls_file_wait_but_not_the_time():
    qr, ts = run(mode="RLS"), run(mode="RLS", threadsafe=True)
    assert qr["file_wait_ms"] > 0 and ts["file_wait_ms"] == 0
    assert ts["file_wait_true_ms"] == pytest.approx(qr["file_wait_true_ms"], rel=0.05)
    assert ts["file_resp_ms"] == pytest.approx(qr["file_resp_ms"], rel=0.05)
    lsr_ts = run(mode="LSR", threadsafe=True)
    assert lsr_ts["file_wait_ms"] > 0          # LSR I/O waits are still recorded


def test_hot_records_shared_by_regions_wait_for_locks():
    hot = dict(mode="RLS", records=2000, mix=UPDATE_HEAVY, tran_rate=300, transactions=2000)
    one, four = run(regions=1, **hot), run(regions=4, **hot)
    assert four["lock_wait_ms"] > one["lock_wait_ms"] > 0
    trace = Trace()
    run_experiment("vsam_rls", {**hot, "regions": 4}, trace=trace)
    waits = trace.of_kind(["lock_wait"])
    assert len(waits) > 0 and (waits["b"] > 0).all()


def test_lsr_function_ships_from_other_regions_rls_does_not():
    # Without recovery logging, so the figures show the shipping alone (a
    # LOG(ALL) after image waits out the 5 ms log defer interval in the request).
    lsr1, lsr4 = run(mode="LSR", regions=1, log="NONE"), run(mode="LSR", regions=4, log="NONE")
    rls1, rls4 = run(mode="RLS", regions=1, log="NONE"), run(mode="RLS", regions=4, log="NONE")
    assert lsr4["file_resp_ms"] > 1.1 * lsr1["file_resp_ms"]     # MRO to the file-owning region
    # One region, nothing to ship: RLS pays its locks and CF calls and is the
    # slower; with four, LSR's shipping makes RLS the faster (model-vsam.md).
    assert rls1["file_resp_ms"] > lsr1["file_resp_ms"]
    assert rls4["file_resp_ms"] < lsr4["file_resp_ms"]


UPDATES = {"mode": "RLS", "mix": {"update": 100}, "requests_per_tran": 2, "transactions": 1000}


def test_a_quiet_region_waits_the_log_defer_interval_for_each_force(monkeypatch):
    """CICS defers a forced log write by LGDFINT (5 ms by default, CICS TS
    Performance Guide): in a quiet region nobody else's force is under way,
    so each commit's force waits about the whole interval. Writing at once, the same
    transactions spend well under a millisecond on their logs."""
    from models.cics import logger
    quiet = run(tran_rate=2, **UPDATES)
    monkeypatch.setattr(logger, "LGDFINT_MS", 0.0)
    at_once = run(tran_rate=2, **UPDATES)
    assert at_once["log_ms"] < 1.0
    assert quiet["log_ms"] > at_once["log_ms"] + 4.0


def test_update_requests_do_not_wait_for_the_system_log():
    """CICS's REWRITE calls VSAM PUT(UPDATE) with no system log force before
    it (CICS TS "REWRITE request processing"): under LOG(UNDO) an update
    request takes a fraction of a millisecond, and the transaction's wait
    for the log (the commit's deferred force) comes at syncpoint."""
    m = run(tran_rate=2, log="UNDO", **UPDATES)
    assert m["file_resp_ms"] < 1.0
    assert m["log_ms"] > 4.0


def test_busy_stream_shares_the_defer_interval():
    """"When a CICS system has many tasks issuing forced log write requests,
    these tasks will not be delayed for periods close to the LGDFINT
    parameter value" (CICS TS SIT LGDFINT): a force that arrives while
    another's interval runs joins it, so log time per transaction falls as
    the rate rises."""
    quiet = run(tran_rate=2, **UPDATES)
    busy = run(tran_rate=1000, **UPDATES)
    assert busy["log_ms"] < 0.9 * quiet["log_ms"]


def _cf_log_writes_and_stream_writes(**kw):
    """The CF table's log_write count, and the writes each log stream made."""
    from models.cics import simulate, tables
    from models.experiments import registry
    params = registry()["vsam_rls"].resolve({"transactions": 600, "mix": UPDATE_HEAVY,
                                                     "mode": "RLS", "log": "ALL", **kw})
    sp = simulate(params, seed=1)
    cf_rows = {row[0]: row[1] for row in next(t for t in tables(sp) if "Coupling" in t.title).rows}
    return cf_rows["log_write"], sum(d.writes for d in sp.fc.dfhlogs), sp.fc.frlog.writes


def test_shared_forward_recovery_log_is_a_cf_stream_under_rls():
    """Regions on several images share the forward recovery log, which must
    then be a coupling facility log stream (CICS TS "Coupling facility or
    DASD-only?"): its writes show in the CF report. One region's is
    DASD-only: only DFHLOG writes reach the CF."""
    cf1, dfh1, fr1 = _cf_log_writes_and_stream_writes(regions=1)
    cf2, dfh2, fr2 = _cf_log_writes_and_stream_writes(regions=2)
    assert fr1 > 0 and fr2 > 0
    assert cf1 == dfh1
    assert cf2 == dfh2 + fr2


def test_more_buffers_fewer_ios_faster_requests():
    small, big = run(mode="LSR", buffers=500), run(mode="LSR", buffers=8000)
    assert big["buffer_hit_pct"] > small["buffer_hit_pct"]
    assert big["dasd_ios_per_tran"] < small["dasd_ios_per_tran"]
    assert big["file_resp_ms"] < small["file_resp_ms"]


def test_busier_region_responds_no_faster():
    # Without logging: with it, a busier region shares each 5 ms log defer
    # interval among more forces and responds faster (LGDFINT tests above).
    rates = [run(mode="RLS", tran_rate=r, transactions=2000, log="NONE")["tran_resp_ms"]
             for r in (10, 1000, 5000)]
    assert rates[0] <= rates[1] * 1.02 and rates[1] < rates[2]


def test_trace_has_ios_and_cf_requests():
    trace = Trace()
    r = run_experiment("vsam_rls", {"transactions": 200}, trace=trace)
    kinds = {k: len(trace.of_kind([k])) for k in ("io_start", "io_end", "cf_request")}
    assert kinds["io_start"] == kinds["io_end"] > 0
    assert kinds["cf_request"] == r.metrics["cf_requests"]
    assert trace.meta["cf_requests"][0] == "lock"


@pytest.mark.parametrize("extreme", [
    {"transactions": 1}, {"records": 1, "transactions": 300}, {"buffers": 1, "transactions": 300},
    {"key_skew": 10.0, "transactions": 300}, {"cf_cache_mb": 0.004, "transactions": 300},
    {"requests_per_tran": 1000, "transactions": 5}, {"record_bytes": 4086, "transactions": 300},
    {"regions": 32, "transactions": 300}, {"tran_rate": 100000, "transactions": 300},
    {"mix": {"browse": 1}, "transactions": 300},
])
@pytest.mark.parametrize("mode", ["LSR", "RLS"])
def test_extremes_run_and_give_finite_metrics(extreme, mode):
    m = run(mode=mode, **extreme)
    assert all(math.isfinite(v) and v >= 0 for v in m.values())
    assert m["file_resp_ms"] > 0 and m["tran_resp_ms"] > m["file_resp_ms"]


def test_same_seed_same_numbers_and_reports_have_tables():
    a = run_experiment("vsam_rls", {"transactions": 300})
    b = run_experiment("vsam_rls", {"transactions": 300})
    assert a.metrics == b.metrics
    titles = [t.title for t in a.reports]
    assert any("file" in t.lower() for t in titles) and any("coupling" in t.lower() for t in titles)


def test_too_many_requests_is_one_clear_error():
    with pytest.raises(ParamError, match="requests"):
        run_experiment("vsam_rls", {"transactions": 10_000_000, "requests_per_tran": 1000})


def test_long_transactions_still_report_progress_often_enough_to_cancel():
    """1,000 requests a transaction: progress (and the cancel check) comes
    about every 1,500 requests, not every 256 transactions."""
    from models.experiments import run_experiment

    seen = []
    run_experiment("vsam_rls", {"requests_per_tran": 1000, "transactions": 60},
                   progress=seen.append)
    assert len([f for f in seen if f < 1.0]) >= 10
