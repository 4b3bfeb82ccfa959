"""Replay animations of a finished run: timeline, track reads, cache staging,
SRB/TCB switches and per-component activity. See docs/animation.md.

Every view draws the state of the run's recorded trace at a replay time; none
re-runs or drives a model.
"""
from app.replay.activity import Activity, activity_at
from app.replay.data import ReplayData
from ui.animation.controller import READABLE, SPEEDS, ReplayController
from ui.animation.replay_view import ReplayView

__all__ = ["Activity", "activity_at", "READABLE", "SPEEDS", "ReplayController",
           "ReplayData", "ReplayView"]
