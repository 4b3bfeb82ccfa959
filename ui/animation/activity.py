"""Moved to :mod:`app.replay.activity` (Qt-free); this name stays for old imports."""
from app.replay.activity import *  # noqa: F401,F403
from app.replay.activity import Activity, activity_at, component_activity  # noqa: F401
