"""A big run's Charts and Animation tabs are drawn when opened, and say the
right thing then: the run's events, its charts, never the run before.

Every traced run counts as big here (``DEFER_TRACE_ROWS`` = 0), so a small
case study stands in for the Large shop.
"""
import pytest

from app.replay.series import derive_charts
from ui import views
from ui.canvas.activity import WHOLE_RUN_NOTE


@pytest.fixture
def big(window, monkeypatch):
    monkeypatch.setattr(views, "DEFER_TRACE_ROWS", 0)
    assert window.open_case_or_file("program_fetch") is None
    window.show_view("canvas")
    return window


def _node(window, label: str) -> str:
    return next(nid for nid, n in window.editor.scenario.nodes.items() if n.label == label)


def _chart_titles(result) -> list[str]:
    return [c.title for c in derive_charts(result)]


def test_the_tabs_opened_after_a_big_run_show_that_run(big, qtbot):
    big.run_and_wait()
    result = big.document.result
    assert len(result.trace) > 0
    big.show_view("animation")
    replay = big.views["animation"]
    assert replay.data is not None and len(replay.data) == len(result.trace)
    assert f"{len(result.trace):,} events" in replay.note.text()
    assert replay.tabs.count() > 0
    big.show_view("charts")
    charts = big.views["charts"]
    assert [c.data.title for c in charts.charts().values()] == _chart_titles(result)
    assert charts.tabs.isVisible()


def test_right_after_a_big_run_the_cards_show_the_whole_runs_figures(big, qtbot):
    big.run_and_wait()
    busy = big.document.result.components["LIBV01"]["busy_pct"]
    assert big.scene.activity_for(_node(big, "LIBV01")).badge == f"{busy:.0f} %"
    assert big.scene.activity_note == WHOLE_RUN_NOTE


def test_a_second_big_run_never_shows_the_first_runs_moment_on_the_canvas(big, qtbot):
    big.run_and_wait()
    big.show_view("animation")
    clock = big.views["animation"].controller
    d = clock.data
    clock.seek(d.t0 + 0.5 * (d.t1 - d.t0))
    assert big.scene.activity_note.startswith("at ")
    big.show_view("canvas")
    big.run_and_wait()
    # The new run, as a whole; the first run's moment is gone with it.
    assert big.scene.activity_note == WHOLE_RUN_NOTE
    big.show_view("animation")
    assert big.scene.activity_note == WHOLE_RUN_NOTE
    assert clock.data is not d and len(clock.data) == len(big.document.result.trace)


def test_a_chart_exported_right_after_a_big_run_is_that_runs(big, qtbot, tmp_path):
    big.run_and_wait()
    titles = _chart_titles(big.document.result)
    assert titles
    # Export, Charts tab never opened: the charts are this run's, all of them.
    assert [title for _name, title in big.exports.chart_names()] == titles
    out = big.exports.write_to(str(tmp_path / "chart.png"))
    assert (tmp_path / "chart.png").stat().st_size > 0 and out.endswith("chart.png")
