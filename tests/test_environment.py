"""The installed Qt binding keeps Python's singletons intact (see setup.cfg)."""
import sys


def test_void_qt_calls_do_not_leak_references_to_none(qapp):
    from PySide6.QtGui import QFont

    font = QFont()
    before = sys.getrefcount(None)
    for _ in range(200):
        font.setPointSize(12)
    # A broken binding (PySide6 6.12.0 on 3.11) loses one reference per call,
    # and the interpreter aborts at exit once None's count runs out.
    assert sys.getrefcount(None) >= before - 5


def test_signal_emits_do_not_leak_references_to_true(qapp):
    from PySide6.QtCore import QObject, Signal

    class Emitter(QObject):
        fired = Signal()

    e = Emitter()
    before = sys.getrefcount(True)
    for _ in range(200):
        e.fired.emit()
    assert sys.getrefcount(True) >= before - 5
