"""A long run shows preliminary figures first, said so, replaced by the run's (issue 42)."""
from models.core.run import RunResult


def _header(window) -> str:
    return window.results.metrics_table.horizontalHeaderItem(1).text()


def test_the_large_shop_shows_preliminary_figures_first_then_the_runs(window, qtbot):
    assert window.open_case_or_file("resources/scenarios/large_shop.json") is None
    seen = []
    window.run_previewed.connect(lambda r: seen.append((
        r, window.results.preliminary.text() if window.results.preliminary else "",
        _header(window), window.results.headline.text(), window.document.result,
        len(window.results.report_tables))))
    with qtbot.waitSignal(window.run_done, timeout=120_000):
        window.run()
    assert len(seen) == 1
    first, notice, header, headline, doc_result, tables = seen[0]
    # While the run goes on: the Results panel says its figures are preliminary,
    # of which part of the run; no other view has taken them.
    # The run's own figures so far: its first progress step past 10,000 I/Os
    # (0.06 s of the Large shop's 200,000 I/O/s), not a run of its own.
    assert isinstance(first, RunResult) and first.params["duration_s"] == 1.0
    assert 150_000 < first.metrics["io_rate"] < 250_000
    assert first.trace is None
    assert notice.startswith("Preliminary figures: the first 0.06 s of the run only"), notice
    assert "whole 1 s goes on" in notice and "replaced when it ends" in notice
    assert header == "Preliminary value" and "preliminary" in headline
    assert doc_result is None
    # The headline figures only: the shop's report tables wait for the run's end.
    assert tables == 0
    # Then the run's own figures replace them, with nothing preliminary left.
    assert window.results.preliminary is None
    assert _header(window) == "Value" and "preliminary" not in window.results.headline.text()
    assert window.document.result.params["duration_s"] == 1.0
    assert len(window.results.report_tables) == len(window.document.result.reports)


def test_a_short_run_shows_no_preliminary_figures(window, qtbot):
    assert window.open_case_or_file("custom") is None
    seen = []
    window.run_previewed.connect(seen.append)
    with qtbot.waitSignal(window.run_done, timeout=120_000):
        window.run()
    assert seen == [] and window.results.preliminary is None


def test_preliminary_figures_of_an_edited_drawing_are_not_called_stale(window, qtbot):
    """After an edit the panel says its run is of the drawing before it; the
    preliminary figures of the next run are of the drawing as it is."""
    assert window.open_case_or_file("resources/scenarios/large_shop.json") is None
    with qtbot.waitSignal(window.run_done, timeout=120_000):
        window.run()
    node = next(iter(window.editor.scenario.nodes.values()))
    window.editor.rename(node.id, "Renamed")
    banner = window.results_page.banner
    assert not banner.isHidden() and "before your last edit" in banner.text()
    seen = []
    window.run_previewed.connect(lambda r: seen.append(banner.isHidden()))
    with qtbot.waitSignal(window.run_done, timeout=120_000):
        window.run()
    assert seen == [True]
    assert banner.isHidden()            # the run's own figures, of the drawing as it is
