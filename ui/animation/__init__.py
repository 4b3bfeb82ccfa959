"""Replay animations of a finished run: timeline, track reads, cache staging,
SRB/TCB switches and per-component activity. See docs/animation.md.

Every view draws the state of the run's recorded trace at a replay time; none
re-runs or drives a model.
"""
from ui.charts._pyside_fix import keep_singletons_alive

# Painting makes thousands of void Qt calls per second: the same PySide6 /
# Python 3.11 reference-count bug the charts work around applies here.
keep_singletons_alive()

from ui.animation.activity import Activity, activity_at  # noqa: E402
from ui.animation.controller import READABLE, SPEEDS, ReplayController  # noqa: E402
from ui.animation.data import ReplayData  # noqa: E402
from ui.animation.replay_view import ReplayView  # noqa: E402

__all__ = ["Activity", "activity_at", "READABLE", "SPEEDS", "ReplayController",
           "ReplayData", "ReplayView"]
