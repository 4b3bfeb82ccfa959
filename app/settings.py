"""User settings through QSettings (QtCore only): recent files, trace size.

``ZPERFLAB_SETTINGS`` names an INI file to use instead of the user's settings
(tests point it at a temporary folder).
"""
from __future__ import annotations

import os

from PySide6.QtCore import QSettings

MAX_RECENT = 8


class SettingsError(ValueError):
    """A stored setting has a value the app cannot use."""

#: Default number of newest trace rows a GUI run keeps for replay. A row is
#: 28 bytes, so 2,000,000 rows stay under ~60 MB however large the run; the
#: replay views say how many older rows were dropped.
DEFAULT_TRACE_ROWS = 2_000_000
MIN_TRACE_ROWS = 10_000


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


def trace_rows() -> int:
    """How many trace rows a run keeps (setting ``trace_rows``).

    A stored value that is not a whole number of at least ``MIN_TRACE_ROWS``
    raises :class:`SettingsError` naming it (no silent fallback).
    """
    value = settings().value("trace_rows", DEFAULT_TRACE_ROWS)
    try:
        rows = int(value)
    except (TypeError, ValueError):
        raise SettingsError(f"setting trace_rows={value!r} is not a whole number") from None
    if rows < MIN_TRACE_ROWS:
        raise SettingsError(f"setting trace_rows={rows} is below the minimum {MIN_TRACE_ROWS}")
    return rows


def set_trace_rows(rows: int) -> None:
    """Store how many trace rows a run keeps (at least ``MIN_TRACE_ROWS``)."""
    if rows < MIN_TRACE_ROWS:
        raise ValueError(f"trace rows must be at least {MIN_TRACE_ROWS}, got {rows}")
    s = settings()
    s.setValue("trace_rows", int(rows))
    s.sync()
