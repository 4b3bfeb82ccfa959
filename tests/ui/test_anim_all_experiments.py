"""Every built experiment's trace replays in every view it supports, start to end.

A model that records rows a view cannot handle (a new kind, a missing meta
table, an odd component name) fails here rather than in front of a class.
"""
import pytest

from models.experiments import registry, run_experiment
from ui.animation import ReplayView

BUILT = [name for name, exp in registry().items() if exp.run is not None]


@pytest.mark.parametrize("name", BUILT)
def test_replays_in_every_supported_view(qtbot, name):
    result = run_experiment(name, {}, trace=True)
    view = ReplayView()
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.set_result(result)
    if not len(result.trace):
        assert view.views == {} and "no trace" in view.note.text()
        return
    assert "Activity" in view.views
    data = view.data
    for i in range(view.tabs.count()):
        view.tabs.setCurrentIndex(i)
        for frac in (0.0, 0.37, 1.0):
            view.controller.seek(data.t0 + frac * (data.t1 - data.t0))
            assert view.current_view().state is not None
            assert not view.grab().isNull()
