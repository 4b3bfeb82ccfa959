"""UI test set-up: private settings file, no blocking dialogs, a window fixture."""
import pytest
from PySide6.QtWidgets import QMessageBox


@pytest.fixture(autouse=True)
def _private_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("ZPERFLAB_SETTINGS", str(tmp_path / "settings.ini"))


@pytest.fixture(autouse=True)
def _no_blocking_questions(monkeypatch):
    """'Save changes?' would block a headless test: answer Discard, and count."""
    asked = []

    def question(*args, **kwargs):
        asked.append(args[2] if len(args) > 2 else "")
        return QMessageBox.StandardButton.Discard
    monkeypatch.setattr(QMessageBox, "question", question)
    return asked


@pytest.fixture
def window(qtbot):
    from ui.main_window import MainWindow
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    qtbot.waitExposed(win)
    yield win
    win.shutdown()


@pytest.fixture(scope="session")
def case_runs(qapp, tmp_path_factory):
    """Every case study run once in one window, read for the consistency and the
    names checks (see tests/ui/case_runs.py)."""
    from tests.ui.case_runs import run_every_case
    return run_every_case(tmp_path_factory)
