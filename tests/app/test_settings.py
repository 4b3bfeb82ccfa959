"""Trace size setting: bounded by default, refused when unusable."""
import pytest

from app import settings


@pytest.fixture(autouse=True)
def _ini(tmp_path, monkeypatch):
    monkeypatch.setenv("ZPERFLAB_SETTINGS", str(tmp_path / "s.ini"))


def test_trace_rows_default_and_round_trip():
    assert settings.trace_rows() == settings.DEFAULT_TRACE_ROWS
    settings.set_trace_rows(50_000)
    assert settings.trace_rows() == 50_000


def test_unusable_trace_rows_are_refused_with_the_value():
    with pytest.raises(ValueError, match="at least"):
        settings.set_trace_rows(5)
    s = settings.settings()
    s.setValue("trace_rows", "lots")
    s.sync()
    with pytest.raises(settings.SettingsError, match="lots"):
        settings.trace_rows()


def test_gui_runs_keep_a_bounded_trace(qtbot):
    from app.worker import RunThread

    settings.set_trace_rows(10_000)
    runner = RunThread()
    try:
        with qtbot.waitSignal(runner.worker.succeeded, timeout=60_000) as got:
            runner.start("natural_ziip", {"records": 20_000}, 1)
        trace = got.args[0].trace
        assert trace.limit == 10_000
        assert len(trace.columns()) == 10_000 and trace.dropped > 0
    finally:
        runner.stop()


def test_a_bad_trace_setting_fails_the_run_with_one_message(qtbot):
    from app.worker import RunThread

    s = settings.settings()
    s.setValue("trace_rows", "lots")
    s.sync()
    runner = RunThread()
    try:
        with qtbot.waitSignal(runner.worker.failed, timeout=60_000) as got:
            runner.start("natural_ziip", {"records": 10}, 1)
        assert "trace_rows" in got.args[0] and "\n" not in got.args[0]
    finally:
        runner.stop()

