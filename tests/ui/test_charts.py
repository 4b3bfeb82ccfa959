"""Charts of a run: each chart type from real run data, drawn readably.

Run data comes from the small engine run in ``test_charts_support`` (no
experiment model had landed when these were written) and, for every
experiment whose model has landed, from the real experiment.
"""
import numpy as np
import pytest

from models import experiments
from models.engine import Trace
from models.core.run import RunResult
from tests.ui.test_charts_support import toy_run
from app.replay.series import PAGE_BYTES, derive_charts
from ui.charts import ChartsView

ALL = ["response", "throughput", "cache", "queues", "utilisation", "switches", "cpu", "tape"]


@pytest.fixture(scope="module")
def run():
    return toy_run(seed=3)


def by_key(result):
    return {c.key: c for c in derive_charts(result)}


def test_a_traced_run_supports_every_chart_and_the_view_shows_them(qtbot, run):
    view = ChartsView()
    qtbot.addWidget(view)
    view.set_result(run)
    assert list(view.charts()) == ALL
    assert view.tabs.count() == len(ALL)
    assert not view.empty.isVisible()


def test_response_split_from_trace_adds_up_to_the_runs_mean_response(run):
    chart = by_key(run)["response"]
    assert [s.name for s in chart.series] == ["IOSQ", "PEND", "DISC", "CONN"]
    assert chart.categories == ("VOL0", "VOL1")
    per_volume = np.sum([s.y for s in chart.series], axis=0)
    # both volumes do the same number of I/Os, so the run's mean is their mean
    assert per_volume.mean() == pytest.approx(run.metrics["io_ms"], rel=1e-6)
    disc = chart.series[2].y.mean()
    assert disc == pytest.approx(run.metrics["disc_ms"], rel=1e-6)


def test_throughput_over_time_integrates_to_the_bytes_moved(run):
    chart = by_key(run)["throughput"]
    rows = run.trace.of_kind(["io_start"])
    tape = run.trace.of_kind(["tape_write"])
    width = np.diff(chart.series[0].x)[0]
    dasd = chart.series[0].y.sum() * width * 1e6
    assert dasd == pytest.approx(rows["b"].sum() * PAGE_BYTES, rel=1e-6)
    assert chart.series[1].y.sum() * width * 1e6 == pytest.approx(tape["a"].sum(), rel=1e-6)
    assert chart.y_unit == "MB/s" and chart.x_unit == "s"


def test_cumulative_hit_ratio_ends_at_the_runs_hit_ratio(run):
    chart = by_key(run)["cache"]
    cum = chart.series[1].y
    assert cum[-1] == pytest.approx(run.metrics["cache_hit_ratio"])
    assert ((0 <= cum) & (cum <= 1)).all()


def test_queue_lengths_never_exceed_the_users_of_a_volume(run):
    chart = by_key(run)["queues"]
    vols = [s for s in chart.series if s.name.startswith("VOL")]
    assert len(vols) == 2
    for s in vols:   # two users per volume in the toy run, every I/O finishes
        assert s.y.max() == 2 and s.y.min() >= 0 and s.y[-1] == 0


def test_utilisation_is_a_share_of_elapsed_time(run):
    chart = by_key(run)["utilisation"]
    busy = dict(zip(chart.categories, chart.series[0].y))
    assert set(busy) == {"VOL0", "VOL1", "CP0", "zIIP0"}
    assert all(0 < v <= 100 for v in busy.values())
    assert busy["zIIP0"] > busy["CP0"]     # SRB work runs mostly on the zIIP


def test_switches_by_cause_and_cpu_by_engine_type(run):
    charts = by_key(run)
    sw = charts["switches"]
    assert sw.categories == ("STIMER (timer)", "GETMAIN", "I/O wait")   # causes by title
    assert sw.series[0].y.sum() == run.metrics["srb_switches"]
    cpu = dict(zip(charts["cpu"].categories, charts["cpu"].series[0].y))
    assert cpu["zIIP"] == pytest.approx(run.metrics["ziip_cpu_ms"])
    assert cpu["general CP"] == pytest.approx(run.metrics["gcp_cpu_ms"])


def test_tape_activity_shows_each_cartridge_change_apart_from_transfers(run):
    chart = by_key(run)["tape"]
    spans = {s.name: s for s in chart.series}
    changes = spans["cartridge change"]
    assert len(changes.x) == len(run.trace.of_kind(["tape_change_start"]))
    moving = spans["transferring"]
    for start, end, lane in zip(changes.x, changes.y, changes.rows):
        same = moving.rows == lane
        overlap = (moving.x[same] < end) & (moving.y[same] > start)
        assert not overlap.any()


def test_a_run_without_trace_charts_what_its_metrics_say(qtbot, run):
    bare = RunResult(run.experiment, run.params, run.seed, run.metrics, run.reports, None)
    keys = [c.key for c in derive_charts(bare)]
    assert keys == ["response", "cache", "switches", "cpu"]
    view = ChartsView()
    qtbot.addWidget(view)
    view.set_result(RunResult("x", {}, 1, {"elapsed_s": 1.0}))
    assert view.charts() == {} and "no data" in view.empty.text()


def test_charts_render_with_large_labels(qtbot, run):
    view = ChartsView()
    qtbot.addWidget(view)
    view.resize(1280, 800)
    view.show()
    view.set_result(run)
    for chart in view.charts().values():
        view.tabs.setCurrentWidget(chart)
        img = chart.grab().toImage()
        assert img.width() > 1000 and img.height() > 600
        axis = chart.getPlotItem().getAxis("bottom")
        assert axis.style["tickFont"].pointSize() >= 12
        assert "(" in axis.labelText or chart.data.categories   # units or categories
    # a second run reuses the same chart widgets and their buffers
    before = dict(view.charts())
    view.set_result(toy_run(seed=4))
    assert all(view.charts()[k] is w for k, w in before.items())


CHART_KINDS = {"io_phase", "io_start", "cache_hit", "cpu_busy", "srb_to_tcb", "tape_write",
               "tape_read", "tape_change_start", "buffer_level", "volume_read"}
CHART_METRICS = {"pend_ms", "disc_ms", "conn_ms", "cache_hit_ratio", "srb_switches",
                 "ziip_cpu_ms", "gcp_cpu_ms"}
#: Report tables drawn as charts (issue 21: library space, LSR and RLS side by side).
CHART_REPORTS = {"Tracks used by block size", "LSR and RLS side by side"}


#: Small but valid settings (EXPERIMENTS.md ranges) so each run takes well under a second.
SMALL = {"spool_dump": {"files": 200, "pages": 2000}, "spool_load": {"files": 200, "pages": 2000},
         "db2_runstats_sampling": {"table_pages": 20000}, "db2_skip_sequential": {"table_pages": 20000},
         "db2_index_scan": {"index_tracks": 200}, "program_fetch": {"iterations": 50},
         "natural_ziip": {"records": 1000}, "vsam_rls": {"transactions": 500}}


@pytest.mark.parametrize("name", list(experiments.registry()))
def test_every_landed_experiment_is_charted_from_what_it_records(qtbot, name):
    if experiments.get(name).run is None:
        pytest.skip(f"{name} has no model yet")
    result = experiments.run_experiment(name, SMALL.get(name), trace=Trace(limit=200_000))
    view = ChartsView()
    qtbot.addWidget(view)
    view.set_result(result)
    kinds = set(result.trace.kinds) if result.trace is not None else set()
    chartable = (kinds & CHART_KINDS or set(result.metrics) & CHART_METRICS
                 or {t.title for t in result.reports} & CHART_REPORTS)
    if chartable:
        assert view.charts(), f"{name} records {chartable} but shows no chart"
    else:
        assert "no data" in view.empty.text()


def test_device_busy_never_exceeds_100_percent_with_overlapping_ios():
    """PAV aliases overlap I/Os on one volume: busy is time covered, as RMF shows it."""
    from models.experiments import run_experiment
    from app.replay.series import utilisation_chart

    result = run_experiment("db2_skip_sequential", {"table_pages": 20_000}, trace=True)
    chart = utilisation_chart(result)
    busy = dict(zip(chart.categories, chart.series[0].y))
    assert busy["DB2V01"] <= 100.0 + 1e-9
    assert busy["DB2V01"] > 50.0   # a prefetch-bound scan keeps its volume busy


def test_line_charts_start_at_zero_with_headroom(qtbot):
    """A throughput between 60 and 90 MB/s is drawn from 0, with room above
    the highest value for the legend (a quantity with no end of its own)."""
    import numpy as np

    from app.replay.series import ChartData, Series
    from ui.charts.view import ChartWidget

    w = ChartWidget()
    qtbot.addWidget(w)
    x = np.linspace(0, 1, 50)
    w.show_data(ChartData("throughput", "Throughput over time", "Time", "s", "Throughput", "MB/s",
                          (Series("DB2V01", x, 60 + 30 * x, "step"),
                           Series("DB2V02", x, 70 + 10 * x))))
    lo, hi = w.getPlotItem().viewRange()[1]
    assert lo == 0 and hi >= 90 * 1.2


def test_a_long_chart_title_wraps_or_shrinks_to_the_charts_width(qtbot):
    """Half a Compare tab at 1024 px: the title is never wider than the chart."""
    import numpy as np
    from PySide6.QtGui import QFontMetricsF

    from app.replay.series import ChartData, Series
    from ui.charts import style
    from ui.charts.view import ChartWidget

    w = ChartWidget()
    qtbot.addWidget(w)
    w.resize(480, 360)
    w.show()
    title = "I/O response time by component"
    w.show_data(ChartData("resp", title, "Volume", "", "Response time", "ms",
                          (Series("DISC", np.arange(1.0), np.ones(1), "bar"),), ("V1",)))
    qtbot.wait(10)
    lines, size = style.fit_title(title, w.width() - 24)
    f = style.font(size, bold=True)
    assert max(QFontMetricsF(f).horizontalAdvance(x) for x in lines) <= w.width() - 24
    shown = w.getPlotItem().titleLabel.text
    assert all(part in shown for part in lines)
    lines, size = style.fit_title(title, 2000)
    assert lines == [title] and size == style.TITLE_PT
