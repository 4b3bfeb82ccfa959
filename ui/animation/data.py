"""Moved to :mod:`app.replay.data` (Qt-free); this name stays for old imports."""
from app.replay.data import *  # noqa: F401,F403
from app.replay.data import ReplayData, markers  # noqa: F401
