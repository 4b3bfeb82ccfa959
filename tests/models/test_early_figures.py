"""A long run gives its figures so far once, mid-run, and goes on unchanged (issue 42).

The window shows them first on a long run (tests/ui/test_preliminary_results.py);
here: what they are, and that reading them changes nothing in the run.
"""
import hashlib

from app import scenario_io
from models.engine import Trace
from models.experiments import run_experiment


def _digest(trace: Trace) -> str:
    return hashlib.sha256(b"".join(bytes(getattr(trace, c)) for c in
                                   ("_t", "_c", "_k", "_a", "_b"))).hexdigest()


def test_early_figures_cover_the_run_so_far_and_leave_the_run_as_it_was():
    shop = scenario_io.load_case("large_shop")
    plain_trace, early_trace = Trace(limit=50_000), Trace(limit=50_000)
    plain = run_experiment("custom", {"duration_s": 0.1}, seed=3, scenario=shop,
                           trace=plain_trace)
    got = []
    final = run_experiment("custom", {"duration_s": 0.1}, seed=3, scenario=shop,
                           trace=early_trace, early=lambda r, s: got.append((r, s)),
                           early_after_s=0.025)
    # Once, at the first progress step past 0.025 s (steps of 0.002 s), of the
    # whole run's parameters, with the component figures a whole run has.
    assert len(got) == 1
    first, seconds = got[0]
    assert abs(seconds - 0.026) < 1e-9
    assert first.params == final.params and first.trace is None
    assert 150_000 < first.metrics["io_rate"] < 250_000
    assert set(first.components) == set(final.components)
    assert first.metrics != final.metrics
    # The run went on as if nobody had looked.
    assert final.metrics == plain.metrics and final.components == plain.components
    assert _digest(early_trace) == _digest(plain_trace)


def test_a_run_whose_early_time_is_past_its_end_gives_no_early_figures():
    got = []
    run_experiment("custom", {"duration_s": 0.05}, seed=1, early=lambda r, s: got.append(s),
                   early_after_s=1.0)
    assert got == []


def test_a_failure_working_out_the_early_figures_leaves_the_run_to_its_end(monkeypatch, capsys):
    """The figures so far are a preview: a bug in them is said on stderr and
    the run still gives its own figures, the same as without early figures."""
    import models.workloads.system as ws

    def broken(run, t):
        raise ZeroDivisionError("figures so far")

    plain = run_experiment("custom", {"duration_s": 0.05}, seed=2)
    monkeypatch.setattr(ws, "so_far", broken)
    got = []
    final = run_experiment("custom", {"duration_s": 0.05}, seed=2,
                           early=lambda r, s: got.append(s), early_after_s=0.01)
    assert got == [] and final.metrics == plain.metrics
    assert "ZeroDivisionError: figures so far" in capsys.readouterr().err


def test_cancel_while_the_early_figures_are_given_stops_the_run():
    import threading

    import pytest

    from models.core.run import Cancelled
    stop = threading.Event()

    def early(result, seconds):
        stop.set()          # the user presses Cancel as the first figures show

    with pytest.raises(Cancelled):
        run_experiment("custom", {"duration_s": 0.05}, seed=2, cancel=stop, early=early,
                       early_after_s=0.01)
