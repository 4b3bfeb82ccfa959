"""Cancelling a sweep stops the points already running, not only the queued ones."""
import threading
import time
from pathlib import Path

import pytest

from app.sweep import SweepCancelled, SweepSpec, run_sweep
from models.core.run import RunContext, RunResult

RUNNER = "tests.app.test_sweep_cancel:slow_point"


def slow_point(name, overrides, seed=1, cancel=None, **_kw):
    """A point that would take 60 s; it reports progress (and so checks cancel) often."""
    Path(overrides["marker"]).with_suffix(f".{overrides['x']}").touch()
    ctx = RunContext(seed, cancel=cancel)
    start = time.monotonic()
    while time.monotonic() - start < 60:
        ctx.progress((time.monotonic() - start) / 60)
        time.sleep(0.01)
    return RunResult(name, overrides, seed, {"y": 1.0})


def test_cancel_stops_running_points_and_frees_the_pool(tmp_path):
    spec = SweepSpec("slow", "x", (1, 2, 3, 4), base={"marker": str(tmp_path / "started")},
                     runner=RUNNER)
    cancel, outcome = threading.Event(), []

    def go():
        try:
            run_sweep(spec, workers=2, cancel=cancel)
        except SweepCancelled as exc:
            outcome.append(exc)

    thread = threading.Thread(target=go)
    thread.start()
    deadline = time.monotonic() + 30
    while len(list(tmp_path.glob("started.*"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(list(tmp_path.glob("started.*"))) == 2      # both workers are inside a point
    cancel.set()
    t0 = time.monotonic()
    thread.join(20)
    assert not thread.is_alive()
    assert time.monotonic() - t0 < 5          # not the 60 s a running point would take
    assert outcome and isinstance(outcome[0], SweepCancelled)
    # The pool hands one spare point to a freed worker (it stops at once);
    # the rest of the queue is dropped.
    assert len(list(tmp_path.glob("started.*"))) < 4


def test_a_failing_point_fails_the_sweep_with_its_message():
    spec = SweepSpec("db2_io", "pages", (1, 10_000_000))
    from models.core.params import ParamError
    with pytest.raises(ParamError):
        run_sweep(spec, workers=1)
