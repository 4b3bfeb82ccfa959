"""The analytic estimate: queueing formulas, and the simulation obeys the utilisation law."""
import pytest

from models import experiments

from models.core import analytic

from models.drawing import documents
from models.core.analytic import Station


def test_queueing_formulas():
    assert analytic.erlang_c(1, 0.6) == pytest.approx(0.6)        # M/M/1: P(wait) = ρ
    # M/M/1: R = S / (1 - ρ)
    assert analytic.mmc_response(600, 0.001, 1) == pytest.approx(0.001 / 0.4)
    # M/M/2 at a = 1 erlang: C = 1/3, R = S + C·S/(c − a) = S (1 + 1/3)
    assert analytic.erlang_c(2, 1.0) == pytest.approx(1 / 3)
    assert analytic.mmc_response(1000, 0.001, 2) == pytest.approx(0.001 * 4 / 3)
    assert analytic.mmc_response(1000, 0.002, 2) is None           # saturated
    e = analytic.estimate(Station("V", "volume", 500, 0.001, 1, 0.5, 0.00202))
    assert e.util == pytest.approx(0.5) and e.reason == ""          # agrees within 15 %


def test_reasons_name_the_assumption_the_run_breaks():
    closed = analytic.estimate(Station("V", "volume", 800, 0.001, 1, 0.8, 0.002, closed=True))
    assert "closed population" in closed.reason
    cached = analytic.estimate(Station("V", "volume", 500, 0.001, 1, 0.5, 0.004, cv2=9.0))
    assert "caching" in cached.reason and "CV²" in cached.reason
    bursty = analytic.estimate(Station("R", "volume", 500, 0.001, 1, 0.5, 0.004, bursty=True))
    assert "burstiness" in bursty.reason


def _run(**over):
    return experiments.run_experiment("custom", over, scenario=documents.load_case("custom"))


def _rows(result):
    table = next(t for t in result.reports if t.title == "Analytic estimate beside the simulation")
    cols = table.columns
    return [dict(zip(cols, r)) for r in table.rows]


def test_simulated_utilisation_agrees_with_the_utilisation_law():
    """U = X·S with S from the published channel costs, the workloads' own I/O
    times and the transactions' CPU: the simulation's counters must agree."""
    rows = _rows(_run())
    kinds = {r["kind"] for r in rows}
    assert {"channel", "volume", "rank", "processor"} <= kinds
    for r in rows:
        if r["kind"] in ("channel", "volume", "processor"):
            assert r["U = X·S %"] == pytest.approx(r["sim util %"], rel=0.03, abs=0.15), r
        if r["kind"] != "transaction":
            assert r["M/M/c resp ms"] == "saturated" or r["M/M/c resp ms"] > 0


def test_channel_law_holds_under_load_and_for_ficon():
    rows = _rows(_run(io_rate=6000.0, working_set_mb=200.0, protocol="FICON"))
    chans = [r for r in rows if r["kind"] == "channel"]
    assert chans and all(r["sim util %"] > 5 for r in chans)
    for r in chans:
        assert r["U = X·S %"] == pytest.approx(r["sim util %"], rel=0.03), r


def test_differences_are_explained():
    rows = _rows(_run(arrival="closed", users=30, think_ms=1.0))
    vols = [r for r in rows if r["kind"] == "volume"]
    assert any("closed population" in r["why they differ"] or "caching" in r["why they differ"]
               for r in vols)
    ranks = [r for r in rows if r["kind"] == "rank"]
    assert all(r["why they differ"].startswith("an access took") or r["why they differ"] == ""
               for r in ranks)
