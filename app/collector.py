"""Python's cyclic garbage collector, run on the GUI thread only (QtCore only).

CPython collects cycles in whichever thread trips the allocation threshold.
When that is a model run's worker thread, the collection can free wrappers of
widgets from closed windows or replaced result pages, and PySide then
destroys their Qt objects from the wrong thread. Seen here as a deadlock: the
worker, inside ``~QObject`` holding a Qt mutex, waited for the GIL while the
GUI thread, holding the GIL, waited for that mutex (gdb, 2026-11-22; one run
in ten of the test suite).

So while a window is open automatic collection is off and a timer on the GUI
thread collects instead, generation by generation with the interpreter's own
thresholds (the pattern of pyqtgraph's ``GarbageCollector``). Reference
counting still frees everything that is not in a cycle at once.
"""
from __future__ import annotations

import gc

from PySide6.QtCore import QCoreApplication, QObject, QThread, QTimer

#: How often the GUI thread looks at the collector's counts.
INTERVAL_MS = 250

_collector: "MainThreadCollector | None" = None
_holders = 0


class MainThreadCollector(QObject):
    """Collects on a GUI-thread timer while automatic collection is off."""

    def __init__(self, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__()
        self.thresholds = gc.get_threshold()
        self.collections = 0
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.collect_if_due)

    def start(self) -> None:
        gc.disable()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()
        gc.enable()
        gc.collect()

    def collect_if_due(self) -> None:
        """Collect the oldest generation whose count passed its threshold."""
        counts = gc.get_count()
        gen = -1
        for g in range(3):
            if counts[g] > self.thresholds[g]:
                gen = g
            else:
                break
        if gen >= 0:
            gc.collect(gen)
            self.collections += 1


def hold() -> MainThreadCollector:
    """A window opens: collect on the GUI thread from now on (nested holds count)."""
    global _collector, _holders
    app = QCoreApplication.instance()
    if app is None or QThread.currentThread() is not app.thread():
        raise RuntimeError("the GUI-thread collector must be started on the GUI thread")
    if _collector is None:
        _collector = MainThreadCollector()
        _collector.start()
    _holders += 1
    return _collector


def release() -> None:
    """A window closed: with none left, automatic collection comes back."""
    global _collector, _holders
    if _holders == 0:
        return
    _holders -= 1
    if _holders == 0 and _collector is not None:
        _collector.stop()
        _collector.deleteLater()
        _collector = None
