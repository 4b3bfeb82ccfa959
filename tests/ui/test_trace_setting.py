"""The replay trace size is a setting the user changes from the Run menu."""
from app import settings


def test_trace_size_is_set_from_the_run_menu(window, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    monkeypatch.setattr(QInputDialog, "getInt", lambda *a, **k: (250_000, True))
    act = next(x for x in window.run_menu.actions() if "trace size" in x.text())
    act.trigger()
    assert settings.trace_rows() == 250_000
