"""User settings through QSettings (QtCore only): the recent-files list.

``ZPERFLAB_SETTINGS`` names an INI file to use instead of the user's settings
(tests point it at a temporary folder).
"""
from __future__ import annotations

import os

from PySide6.QtCore import QSettings

MAX_RECENT = 8


def settings() -> QSettings:
    path = os.environ.get("ZPERFLAB_SETTINGS")
    if path:
        return QSettings(path, QSettings.Format.IniFormat)
    return QSettings("zPerfLab", "zPerfLab")


def recent_files() -> list[str]:
    """Recently opened or saved scenario files, newest first, existing ones only."""
    value = settings().value("recent_files", [])
    if isinstance(value, str):
        value = [value]
    return [p for p in (value or []) if isinstance(p, str) and os.path.exists(p)]


def add_recent(path: str) -> list[str]:
    """Put ``path`` at the top of the recent files; returns the new list."""
    path = os.path.abspath(path)
    files = [path] + [p for p in recent_files() if p != path]
    files = files[:MAX_RECENT]
    s = settings()
    s.setValue("recent_files", files)
    s.sync()
    return files
