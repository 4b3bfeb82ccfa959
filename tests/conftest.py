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


#: Test modules that read the session fixture ``case_runs`` (tests/ui/case_runs.py):
#: under pytest-xdist they run on one worker, so the case studies run once.
CASE_RUNS_READERS = ("ui/test_consistency_cases.py", "ui/test_names_cases.py")
#: Under pytest-xdist these start first (each a minute or more on one worker),
#: so that they do not run alone at the end while the other workers wait.
SLOW_FIRST = ("app/test_packaging_bundle.py", "case_runs")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """With pytest-xdist (``-n``): a test module runs whole on one worker, so its
    module fixtures are set up once (like xdist's ``loadfile``); the modules in
    ``CASE_RUNS_READERS`` run on one worker together; ``SLOW_FIRST`` go first,
    the others in the order they were collected."""
    from xdist.scheduler import LoadScopeScheduling

    config.option.loadscopereorder = False

    class ByModule(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            path = nodeid.split("::", 1)[0]
            return "case_runs" if path.endswith(CASE_RUNS_READERS) else path

        def _assign_work_unit(self, node):
            slow = [scope for scope in self.workqueue if scope.endswith(SLOW_FIRST)]
            for scope in reversed(slow):
                self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    return ByModule(config, log)
