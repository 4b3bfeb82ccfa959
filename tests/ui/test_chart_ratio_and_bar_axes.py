"""A ratio's axis ends at 1 and bars of values never below zero start at 0,
on screen and on an exported chart (slides).

The hit-ratio chart's axis reached 1.2 to leave the legend room, and bar
charts' axes went below 0 (pyqtgraph's padding): a ratio of 1.2 and a
negative response time are what a reader saw.
"""
import numpy as np
import pytest

from app.export import chart_image
from app.replay.series import cache_chart, measured_hit_chart, response_chart
from models.experiments import run_experiment
from tests.ui.axis_labels import drawn_tick_labels
from ui.charts.view import ChartWidget


@pytest.fixture(scope="module")
def db2_run():
    return run_experiment("db2_io", {"pages": 8}, trace=True)


def _shown(qtbot, data, size=(960, 540)) -> ChartWidget:
    chart = ChartWidget()
    qtbot.addWidget(chart)
    chart.show_data(data)
    chart.resize(*size)
    chart.show()
    qtbot.waitExposed(chart)
    return chart


def _value_labels(chart) -> list[str]:
    return drawn_tick_labels(chart, "left")


@pytest.mark.parametrize("size", [(640, 400), (960, 540), (1600, 900)])
def test_the_hit_ratio_axis_runs_from_0_to_1_and_says_so(qtbot, db2_run, size):
    chart = _shown(qtbot, cache_chart(db2_run), size)
    chart_image(chart, 2.0, (960, 540))                    # laid out as on a slide
    chart.resize(*size)
    qtbot.wait(20)
    assert chart.getPlotItem().viewRange()[1] == [0.0, 1.0]
    labels = _value_labels(chart)
    assert labels[0] == "0" or "0" in labels, labels
    assert "1.0" in labels, labels


def test_the_ratio_charts_legend_stands_above_the_plot_not_on_its_lines(qtbot, db2_run):
    chart = _shown(qtbot, cache_chart(db2_run))
    qtbot.wait(20)
    item = chart.getPlotItem()
    legend, plot = item.legend.sceneBoundingRect(), item.vb.sceneBoundingRect()
    assert item.legend.isVisible() and legend.bottom() <= plot.top() + 1, (legend, plot)
    assert legend.top() >= item.titleLabel.sceneBoundingRect().top()


def test_bars_start_at_zero_and_name_it(qtbot, db2_run):
    chart = _shown(qtbot, response_chart(db2_run))
    lo, hi = chart.getPlotItem().viewRange()[1]
    assert lo == 0.0 and hi > max(float(np.sum([s.y for s in chart.data.series], axis=0)[0]), 0)
    assert "0" in _value_labels(chart)


def test_an_exported_hit_ratio_bar_chart_ends_at_1_with_its_labels_inside(qtbot):
    from app import scenario_io

    sc = scenario_io.load_case("rmf_sysa")
    data = measured_hit_chart(run_experiment(sc.experiment, {}, scenario=sc, trace=True))
    chart = _shown(qtbot, data)
    image = chart_image(chart, 2.0, (960, 540))
    assert not image.isNull()
    assert chart.getPlotItem().viewRange()[1] == [0.0, 1.0]
    vb = chart.getPlotItem().vb
    from pyqtgraph import TextItem
    labels = [i for i in vb.addedItems if isinstance(i, TextItem)]
    assert labels and all(i.pos().y() <= 1.0 for i in labels)
    top = vb.sceneBoundingRect().top()
    assert all(i.sceneBoundingRect().top() >= top - 0.5 for i in labels)   # none above the plot
