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
