"""run_experiment hands the model what the caller asked for."""
import threading

import pytest

from models import experiments
from models.engine import Trace
from models.core.run import Cancelled, RunResult


def _implemented():
    return [n for n, e in experiments.registry().items() if e.run is not None]


def test_trace_true_reaches_the_model():
    names = _implemented()
    if not names:
        pytest.skip("no experiment implemented yet")
    seen = {}
    exp = experiments.get(names[0])

    def spy(params, ctx):
        seen["trace"] = ctx.trace
        return RunResult(exp.name, params, ctx.seed, {})

    fake = experiments.Experiment(exp.name, exp.title, exp.description, exp.schema, exp.metrics, spy)
    reg = experiments.registry()
    real = reg[exp.name]
    reg[exp.name] = fake
    try:
        experiments.run_experiment(exp.name, {}, trace=True)
        assert isinstance(seen["trace"], Trace)
        mine = Trace()
        experiments.run_experiment(exp.name, {}, trace=mine)
        assert seen["trace"] is mine
        experiments.run_experiment(exp.name, {})
        assert seen["trace"] is None
    finally:
        reg[exp.name] = real


def test_a_set_cancel_flag_stops_the_run():
    names = _implemented()
    if not names:
        pytest.skip("no experiment implemented yet")
    cancel = threading.Event()
    cancel.set()
    exp = experiments.get(names[0])

    def honest(params, ctx):
        ctx.progress(0.1)
        return RunResult(exp.name, params, ctx.seed, {})

    reg = experiments.registry()
    real = reg[exp.name]
    reg[exp.name] = experiments.Experiment(exp.name, exp.title, exp.description,
                                           exp.schema, exp.metrics, honest)
    try:
        with pytest.raises(Cancelled):
            experiments.run_experiment(exp.name, {}, cancel=cancel)
    finally:
        reg[exp.name] = real


# -- long runs of big systems (issue 29) ------------------------------------------------
def test_a_long_run_keeps_a_bounded_trace_and_says_which_part():
    """The replay's trace keeps the newest events only, and the run's notes say so."""
    trace = Trace(limit=5_000)
    res = experiments.run_experiment("custom", {"duration_s": 1.0}, trace=trace)
    assert len(res.trace.columns()) == 5_000 and res.trace.dropped > 5_000
    note = next(n for n in res.notes if n.startswith("Replay:"))
    assert f"the newest 5,000 of {5_000 + trace.dropped:,} trace events" in note
    assert res.trace.meta["kept"] in note
    # What it kept is the end of the run, not its start.
    assert res.trace.columns()["t"].min() > 0.5
    short = experiments.run_experiment("custom", {"duration_s": 0.2}, trace=Trace(limit=5_000))
    assert not any(n.startswith("Replay:") for n in short.notes)


def test_progress_and_cancel_work_on_a_long_traced_run():
    cancel = threading.Event()
    seen = []

    def progress(f):
        seen.append(f)
        if f >= 0.02:
            cancel.set()

    with pytest.raises(Cancelled):
        experiments.run_experiment("custom", {"duration_s": 200.0}, trace=True,
                                   progress=progress, cancel=cancel)
    assert seen == sorted(seen) and 0.02 <= seen[-1] < 0.03
