"""User settings through QSettings (QtCore only): recent files, trace size.

``ZPERFLAB_SETTINGS`` names an INI file to use instead of the user's settings
(tests point it at a temporary folder).
"""
from __future__ import annotations

import os
from typing import Any

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
    value: Any = settings().value("recent_files", [])
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


def last_folder() -> str:
    """The folder the last file dialog chose ("" if none yet, or gone)."""
    value = settings().value("last_folder", "")
    return value if isinstance(value, str) and value and os.path.isdir(value) else ""


def remember_folder(path: str) -> None:
    """Remember the folder of ``path`` for the next file dialog."""
    if path:
        s = settings()
        s.setValue("last_folder", os.path.dirname(os.path.abspath(path)))
        s.sync()


def suggested_path(name: str) -> str:
    """``name`` in the folder the last file dialog chose (as is if none)."""
    folder = last_folder()
    return os.path.join(folder, name) if folder else name


def trace_rows() -> int:
    """How many trace rows a run keeps (setting ``trace_rows``).

    A stored value that is not a whole number of at least ``MIN_TRACE_ROWS``
    raises :class:`SettingsError` naming it (no silent fallback).
    """
    value: Any = settings().value("trace_rows", DEFAULT_TRACE_ROWS)
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


# ---- About this installation ----------------------------------------------------
def about() -> list[tuple[str, str]]:
    """What ``zperflab --version`` and Help ▸ About both show, as (label, value)
    rows: zPerfLab's version, the Python and Qt it runs on, where this user's
    run history and settings live, and where the program itself is installed."""
    import platform

    import PySide6
    from PySide6.QtCore import qVersion

    from app import __version__, history
    from models.core.resources import RESOURCES

    try:
        runs = str(history.data_dir() / history.DB_NAME)
    except history.HistoryError as exc:
        runs = str(exc)
    return [("zPerfLab", __version__),
            ("Python", platform.python_version()),
            ("Qt", f"{qVersion()} (PySide6 {PySide6.__version__})"),
            ("Run history", runs),
            ("Settings", settings().fileName()),
            ("Installed in", str(RESOURCES.parent))]


def about_text() -> str:
    """:func:`about` as the lines ``zperflab --version`` prints."""
    rows = about()
    width = max(len(label) for label, _ in rows[1:])
    return "\n".join([f"{rows[0][0]} {rows[0][1]}"]
                     + [f"{label + ':':{width + 1}} {value}" for label, value in rows[1:]])
