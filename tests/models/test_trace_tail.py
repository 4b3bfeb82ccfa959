"""A bounded trace is recorded over the end of the run only (issue 42, GUI part).

The window's trace keeps the newest rows; a long run recorded every row
and threw most away, a third of its time. Now it records the end only,
and what it keeps must be what the whole trace would have kept.
"""
import numpy as np

from models import experiments
from models.drawing import documents
from models.engine import Trace

LIMIT = 20_000


def _rows(trace):
    c = trace.columns()
    return (c["t"], np.array(trace.components, dtype=object)[c["comp"]],
            np.array(trace.kinds, dtype=object)[c["kind"]], c["a"], c["b"])


def _run(trace):
    return experiments.run_experiment("custom", {"duration_s": 0.2}, seed=1, trace=trace,
                                      scenario=documents.load_case("large_shop"))


def test_a_long_run_records_only_the_rows_its_trace_keeps_and_they_are_the_same():
    whole, tail = Trace(limit=None), Trace(limit=LIMIT)
    full, res = _run(whole), _run(tail)
    assert res.metrics == full.metrics
    # The replay gets exactly the newest rows of the whole trace, arm
    # positions (seek rows) and rounded channel-busy microseconds included.
    kept = _rows(tail)
    newest = tuple(col[-LIMIT:] for col in _rows(whole))
    assert len(kept[0]) == LIMIT
    for got, want in zip(kept, newest):
        assert np.array_equal(got, want)
    # ... for a fraction of the rows recorded, and the run says from when.
    assert len(tail) + tail.dropped < len(whole) / 2
    note = next(n for n in res.notes if n.startswith("Replay:"))
    assert f"recorded from {tail.since:.6g} s on only" in note
    assert f"the newest {LIMIT:,} of {LIMIT + tail.dropped:,} trace events" in note
    assert 0 < tail.since < kept[0].min()
