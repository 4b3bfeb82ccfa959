"""Work around a PySide6 6.12.0 reference-count bug that aborts Python 3.11 at exit.

This PySide6/shiboken build returns ``None`` from every void method, and
``True`` from ``SignalInstance.emit()``, without taking a new reference —
correct on Python 3.12+, where those singletons are immortal, wrong on the
3.11 interpreter this project runs. Measured here: 100 calls of
``QFont.setPointSize`` lower ``sys.getrefcount(None)`` by exactly 100, and
100 emits of a ``Signal()`` lower ``sys.getrefcount(True)`` by 100. A chart
redraw makes thousands of such calls; once they outnumber the singleton's
references the interpreter dies at shutdown ("Fatal Python error:
none_dealloc" / "bool_dealloc", exit status 134) after every test passed.

The fix gives ``None``, ``True`` and ``False`` a huge reference count once,
which is what Python 3.12+ does for them anyway (immortal objects). It does
nothing on Python 3.12+. It belongs with the application start-up (the
report to the lead says so); it lives here because the charts make most of
the calls.
"""
from __future__ import annotations

import ctypes
import sys

_APPLIED = False


def keep_singletons_alive() -> None:
    """Raise the reference counts of None/True/False by 2**40 (once, Python < 3.12)."""
    global _APPLIED
    if _APPLIED or sys.version_info >= (3, 12):
        return
    for obj in (None, True, False):
        # ob_refcnt is the first field of every CPython object (a Py_ssize_t).
        ctypes.c_ssize_t.from_address(id(obj)).value += 1 << 40
    _APPLIED = True
