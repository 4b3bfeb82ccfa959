"""The window's autosave timer (QtCore only); the files are :mod:`app.recovery`'s.

:class:`Autosaver` writes the canvas to this process's recovery file every
:func:`app.recovery.interval_s` seconds while it has unsaved changes, and
removes the file once there is nothing left to lose (saved, discarded, or
the window closed normally). :func:`pending_recovery` finds what a crashed or
killed instance left behind, for the window to offer.
"""
from __future__ import annotations

import sys
from typing import Callable

from PySide6.QtCore import QObject, QTimer, Signal

from app import atomic, recovery
from models.drawing.documents import ScenarioFileError


class Autosaver(QObject):
    """Autosave while ``dirty()``; ``failed(str)`` says once why it could not.

    Parameters
    ----------
    dirty : callable
        True while the canvas has unsaved changes.
    document : callable
        The scenario document to save.
    source : callable
        The scenario's own file, or ``None``.
    """

    failed = Signal(str)

    def __init__(self, parent: QObject, dirty: Callable[[], bool], document: Callable[[], dict],
                 source: Callable[[], str | None]) -> None:
        super().__init__(parent)
        self._dirty, self._document, self._source = dirty, document, source
        self._complained = False
        self.timer = QTimer(self)
        self.timer.setInterval(int(recovery.interval_s() * 1000))
        self.timer.timeout.connect(self.save_now)
        self.timer.start()

    def save_now(self) -> bool:
        """Write the recovery file if there are unsaved changes; True if written."""
        if not self._dirty():
            return False
        try:
            recovery.save(self._document(), self._source())
        except (atomic.WriteError, OSError) as exc:
            if not self._complained:
                self._complained = True
                self.failed.emit(f"Autosave failed: {exc}")
            return False
        return True

    def discard(self) -> None:
        """Nothing to lose any more: remove the recovery file."""
        recovery.discard()

    def stop(self) -> None:
        """The window closes normally: stop and remove the recovery file."""
        self.timer.stop()
        recovery.discard()


def pending_recovery() -> tuple[recovery.Recovered | None, str]:
    """The newest recovery file a gone process left, and a problem line.

    Damaged files are removed (and said so), so they are offered only once.
    """
    problems = []
    for file in recovery.orphans():
        try:
            return recovery.read(file), ""
        except ScenarioFileError as exc:
            problems.append(str(exc))
            print(f"zperflab: {exc}", file=sys.stderr)
            recovery.discard(file)
    return None, problems[0] if problems else ""
