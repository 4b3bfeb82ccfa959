"""Test set-up: Qt runs headless (offscreen platform) everywhere."""
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _private_data_dir(tmp_path_factory, monkeypatch):
    """Run history and other user data go to a temporary folder, never the user's
    (a folder of its own, so tests that inspect tmp_path see only their files)."""
    monkeypatch.setenv("ZPERFLAB_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(autouse=True)
def _gui_thread_gc(request):
    """Qt tests collect cycles on the GUI thread only (app.collector), as the
    app does: a collection on a worker thread can destroy earlier tests'
    widgets from that thread and deadlock."""
    if "qtbot" not in request.fixturenames and "qapp" not in request.fixturenames:
        yield
        return
    request.getfixturevalue("qapp")
    from app import collector

    collector.hold()
    yield
    collector.release()


def pytest_sessionfinish(session, exitstatus):
    """Clear what the tests copied (see app.gui.release_clipboard): left to
    Qt's exit handlers, it segfaults the process after every test passed."""
    import sys

    if "PySide6.QtWidgets" in sys.modules:
        from app.gui import release_clipboard

        release_clipboard()


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """With pytest-xdist (``-n``): a test module runs whole on one worker
    (tests/xdist_by_module.py says how, and how it survives a crashed worker)."""
    from tests.xdist_by_module import make_scheduler

    return make_scheduler(config, log)
