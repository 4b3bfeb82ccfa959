"""Chart widgets: one :class:`ChartWidget` per :class:`~app.replay.series.ChartData`,
and :class:`ChartsView`, the tabbed view the main window shows after a run.

Curves draw from preallocated numpy buffers (grown by doubling, reused from
run to run) through ``setData``, with peak downsampling and clip-to-view, so
a full-scale trace of hundreds of thousands of rows stays responsive.
"""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtGui import QFontMetricsF
from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from app.replay.series import MODELLED, ChartData, Series, align, derive_charts
from ui.charts import categories, style

#: Bars beyond this many get no value label each: past it the labels overlap
#: into a smear, and each is a graphics item whose signal connections made a
#: 20,000-volume chart take minutes to free (the values are in the tables).
MAX_BAR_LABELS = 60
#: Smallest font a crowded bar chart's names and values shrink to, and the
#: gap kept between neighbours (pixels at scale 1).
MIN_LABEL_PT = 9
LABEL_GAP_PX = 8
#: Room kept beside a legend over the lines (its offset from the plot's edge and a gap).
LEGEND_MARGIN_PX = 20
#: Pixels of a chart's width its title's text leaves free: the HTML label's
#: document margins (8) and the view's frame, with air to spare.
TITLE_AIR = 24
#: Grouped bars (measured beside model) get value labels up to this many bars.
MAX_GROUPED_LABELS = 12


class _Buffer:
    """A growable pair of x/y arrays; ``view(n)`` returns the first n of each."""

    def __init__(self, capacity: int = 1024):
        self.x = np.empty(capacity)
        self.y = np.empty(capacity)

    def fill(self, x: np.ndarray, y: np.ndarray, step: bool) -> tuple[np.ndarray, np.ndarray]:
        n = 2 * len(x) - 1 if step and len(x) > 1 else len(x)
        if n > len(self.x):
            cap = max(n, 2 * len(self.x))
            self.x, self.y = np.empty(cap), np.empty(cap)
        if n == len(x):
            self.x[:n], self.y[:n] = x, y
        else:
            # A staircase: hold each value until the next point's time.
            self.x[0:n:2], self.y[0:n:2] = x, y
            self.x[1:n:2], self.y[1:n:2] = x[1:], y[:-1]
        return self.x[:n], self.y[:n]


class ValueAxis(pg.AxisItem):
    """The value axis, whose end labels ("0" of bars from zero, "1.0" of a
    ratio) are drawn where they reach half a line past the plot.

    pyqtgraph bounds an axis with a grid by the plot alone and drops a label
    standing out of it, however ``hideOverlappingLabels`` is set."""

    def boundingRect(self):  # noqa: N802 (Qt's name)
        rect = super().boundingRect()
        reach = self.style["hideOverlappingLabels"]
        if isinstance(reach, bool) or self.grid is False:
            return rect
        return rect.adjusted(0, -reach, 0, reach)


class ChartWidget(pg.PlotWidget):
    """One chart, redrawn by :meth:`show_data`. ``data`` is what it shows."""

    def __init__(self, parent: QWidget | None = None, minimum: tuple[int, int] = (480, 320)):
        super().__init__(parent, background=style.BACKGROUND,
                         axisItems={"left": ValueAxis("left")})
        self.data: ChartData | None = None
        self._buffers: list[_Buffer] = []
        self._curves: list[pg.PlotDataItem] = []
        self._title_shown = True
        self.setMinimumSize(*minimum)
        item = self.getPlotItem()
        item.setClipToView(True)
        item.setDownsampling(auto=True, mode="peak")
        # A line chart's value range keeps room for the legend at any size
        # (a slide lays the chart out again), until the user zooms or pans.
        self._y_span: tuple[float, float] | None = None
        item.vb.sigResized.connect(self._on_view_resized)
        item.vb.sigRangeChangedManually.connect(self._on_range_changed_manually)

    def show_data(self, data: ChartData) -> None:
        """Draw ``data``, replacing whatever the chart showed."""
        item = self.getPlotItem()
        item.clear()
        if item.legend is not None:
            item.legend.scene().removeItem(item.legend)
            item.legend = None
        self.data = data
        self._bar_labels: list = []
        #: Grouped bars' own values (measured beside model), and a bar's width.
        self._group_labels: list = []
        self._group_width = 0.0
        self._title_shown = True
        style.style_plot(item, data.title, _label(data.x_label, data.x_unit),
                         _label(data.y_label, data.y_unit), data.scope)
        self._fit_title()
        legend = item.addLegend(offset=(-10, 10), labelTextSize=style.pt(style.LEGEND_PT),
                                brush=pg.mkBrush(255, 255, 255, 220), pen=pg.mkPen("#888888"))
        legend.setLabelTextColor(style.FOREGROUND)
        kinds = {s.kind for s in data.series}
        if kinds & {"bar", "stack"}:
            self._draw_bars(item, data)
        elif "span" in kinds:
            self._draw_spans(item, data)
        else:
            item.enableAutoRange()
            self._draw_lines(item, data)
        if len(data.series) < 2 and "span" not in kinds:
            item.legend.hide()
        elif len(data.series) > LEGEND_ROWS:       # two columns: half as tall over the lines
            item.legend.setColumnCount(2)
        self._y_span = None
        self._legend_above = False
        item.layout.setRowFixedHeight(1, 0)
        if not kinds & {"bar", "stack", "span"}:
            if data.y_max is None:
                self._y_from_zero(item, data)
            else:
                self._y_to_end(item, data)
        elif _stacked(data):
            # Stacked bars: the legend in its band above, so the bars have
            # the chart's whole width (ten storage groups' names and values
            # overlapped at 1024 px with a third of it kept for the legend).
            self._legend_band(item, min(len(data.series), 4))
        elif _grouped(data):
            # Grouped bars too: on a ratio's scale (ending at 1) the legend
            # covered the last group's bars and values, and bars named by
            # their runs ("what-if: SGDB2 on SSD") make a legend too wide to
            # sit beside them.
            self._legend_band(item, len(data.series))
        self._fit_bar_labels()
        # Bars and spans keep the ranges they set: room above for the value labels.

    def clear_data(self) -> None:
        """Show nothing and let go of the data (a run it no longer shows)."""
        item = self.getPlotItem()
        item.clear()
        if item.legend is not None:
            item.legend.scene().removeItem(item.legend)
            item.legend = None
        self.data = None
        self._curves = []
        self._buffers = []

    def _y_from_zero(self, item: pg.PlotItem, data: ChartData) -> None:
        """A line chart's value axis from zero (or the lowest value, if below),
        with headroom above the highest line for the legend."""
        ys = [np.asarray(s.y, dtype=float) for s in data.series if len(s.y)]
        ys = [y[np.isfinite(y)] for y in ys]
        ys = [y for y in ys if len(y)]
        if not ys:
            item.enableAutoRange(axis="y")
            return
        lo = min(0.0, min(float(y.min()) for y in ys))
        hi = max(float(y.max()) for y in ys)
        if hi <= lo:
            hi = lo + 1.0
        self._y_span = (lo, hi)
        self._apply_headroom()

    def _y_to_end(self, item: pg.PlotItem, data: ChartData) -> None:
        """A line chart of a quantity that cannot pass ``data.y_max`` (a
        ratio): the value axis from zero to that end, and the legend in a
        band of its own above the plot, where it covers no line."""
        item.setYRange(0.0, float(data.y_max), padding=0)
        self._legend_band(item, max(1, len(data.series)))

    def _legend_band(self, item: pg.PlotItem, columns: int) -> None:
        """The legend in ``columns`` columns in a band of its own above the
        plot, where it covers nothing drawn."""
        legend = item.legend
        if legend is None or not legend.isVisible():
            return
        legend.setParentItem(item)          # the view box clips what it holds
        self._legend_columns = columns
        self._legend_above = True
        self._place_legend_above()

    def _place_legend_above(self) -> None:
        """The legend's band: as tall as the legend, between the title and
        the plot, the legend at its right."""
        item = self.getPlotItem()
        legend = item.legend
        if not self._legend_above or legend is None:
            return
        # Side by side while they fit, else one a row: a what-if named by
        # two changes ("what-if: SGDB2 on SSD; SSID 0006 Cache size: …")
        # beside "measured (RMF)" ran off the chart's left edge at 1024 px.
        _legend_columns(legend, self._legend_columns)
        if self._legend_columns > 1 and legend.width() > item.vb.geometry().right():
            _legend_columns(legend, 1)
        height = legend.boundingRect().height()
        item.layout.setRowFixedHeight(1, height + 4)
        top = item.titleLabel.maximumHeight() if item.titleLabel.isVisible() else 0.0
        right = item.boundingRect().width() - item.vb.geometry().right()
        legend.anchor(itemPos=(1, 0), parentPos=(1, 0), offset=(-right, top))

    def _apply_headroom(self) -> None:
        """Set the value range so the highest line stays under the legend: at
        least ``HEADROOM`` of the range above it, more when the legend is
        taller than that share of the plot (eight volumes' queue lengths)."""
        if self._y_span is None:
            return
        lo, hi = self._y_span
        item = self.getPlotItem()
        share = HEADROOM
        legend = item.legend
        view_h = item.vb.height()
        if legend is not None and legend.isVisible() and view_h > 50:
            # The legend's share of the plot's height, with its offset and a gap.
            f = min(0.6, (legend.boundingRect().height() + 16) / view_h)
            share = max(share, f / (1.0 - f))
        item.setYRange(lo, hi + share * (hi - lo), padding=0)

    def _on_view_resized(self) -> None:
        self._fit_legend_columns()
        self._apply_headroom()
        if self.__dict__.get("_legend_above"):
            self._place_legend_above()
        self._fit_bar_labels()

    def _fit_legend_columns(self) -> None:
        """A legend over the lines in two columns where it fits the plot's
        width, else one: at half a slide's width the queue lengths' two
        columns ran past the plot's left edge ("B2001 (mean per interval)")."""
        item = self.getPlotItem()
        legend = item.legend
        data = self.__dict__.get("data")
        if (legend is None or data is None or self.__dict__.get("_legend_above")
                or len(data.series) <= LEGEND_ROWS):
            return
        legend.setColumnCount(2)
        if legend.boundingRect().width() + LEGEND_MARGIN_PX > item.vb.width():
            legend.setColumnCount(1)

    def _fit_bar_labels(self) -> None:
        """Category names and bar values that would touch their neighbours at
        this width get a smaller font, down to ``MIN_LABEL_PT``; values that
        still cannot fit are left out (they are in the results and the CSV)."""
        data = self.__dict__.get("data")
        if data is None or not data.categories or not {s.kind for s in data.series} & {"bar", "stack"}:
            return
        if not self.isVisible():
            return      # a chart on a tab not shown is not laid out: fitted once shown
        item = self.getPlotItem()
        lo, hi = item.vb.viewRange()[0]
        if hi <= lo or item.vb.width() < 10:
            return
        room = item.vb.width() / (hi - lo) - LABEL_GAP_PX * style.SCALE   # px per category
        # Smaller, over two lines, staggered, else every n-th (ui/charts/categories.py).
        full = [str(c) for c in data.categories]
        names, ticks, thinned = categories.fit(full, room, LABEL_GAP_PX * style.SCALE,
                                               style.TICK_PT, MIN_LABEL_PT)
        axis = item.getAxis("bottom")
        axis.setTicks([list(enumerate(names))])
        axis.setStyle(tickFont=style.font(ticks))
        axis.setToolTip("\n".join(full) if thinned else "")
        # pyqtgraph sizes the axis to 0.8 of its names' height: past one line
        # the lowest row of names was cut (two-line "SGDB2 / RMF" in a lesson
        # at 1024x768) or ran under the axis title.
        tall = categories.lines(names)
        axis.setHeight(None if tall <= 1 else math.ceil(
            tall * QFontMetricsF(style.font(ticks)).lineSpacing()
            + axis.style["tickTextOffset"][1] + max(0, axis.style["tickLength"])
            + (axis.label.boundingRect().height() if axis.label.isVisible() else 0)))
        labels = self.__dict__.get("_bar_labels") or []
        texts = [lab.textItem.toPlainText() for lab in labels]
        size = _shrunk(style.TICK_PT, texts, room, bold=True) if texts else style.TICK_PT
        fits = not texts or _widest(texts, size, True) <= room
        for lab in labels:
            lab.setFont(style.font(size, bold=True))
            lab.setVisible(fits)
        self._fit_group_labels(room + LABEL_GAP_PX * style.SCALE)
        if data.y_max is None:
            self._room_above(labels + (self.__dict__.get("_group_labels") or []))

    def _room_above(self, labels: list) -> None:
        """The value axis ends high enough for the values over the tallest bars:
        a fixed 18 % was less than a label's height on a short chart (Compare's
        halves at 1280×800 hid RMF's "1.14" under the legend band)."""
        item = self.getPlotItem()
        (lo, hi), height = item.vb.viewRange()[1], item.vb.height()
        shown = [lab for lab in labels if lab.isVisible() and lab.anchor.y() == 1.0]
        px = max((lab.boundingRect().height() + 2 for lab in shown), default=0.0)
        if shown and hi > lo and 0 < px < 0.8 * height:
            top = max(lab.pos().y() for lab in shown)
            end = (top - lo * px / height) / (1.0 - px / height)   # px above top in view
            if end > hi:
                item.setYRange(lo, end, padding=0)

    def _fit_group_labels(self, per_category: float) -> None:
        """Grouped bars' values side by side (0.894 beside 0.904): each within
        its own bar's width and a gap, smaller down to ``MIN_LABEL_PT``, else
        none (at 1024 px they ran into each other: "0.8940.904")."""
        labels = self.__dict__.get("_group_labels") or []
        if not labels:
            return
        room = per_category * self._group_width - LABEL_GAP_PX / 2 * style.SCALE
        texts = [lab.textItem.toPlainText() for lab in labels]
        size = _shrunk(style.TICK_PT - 2, texts, room, bold=True)
        fits = _widest(texts, size, True) <= room
        for lab in labels:
            lab.setFont(style.font(size, bold=True))
            lab.setVisible(fits)

    def _on_range_changed_manually(self, *_mask) -> None:
        self._y_span = None            # the user's own range: keep it

    def restyle(self) -> None:
        """Draw the data again at the current style scale (presentation mode on or off)."""
        if self.data is not None:
            shown = self._title_shown
            self.show_data(self.data)
            if not shown:
                self.set_title_shown(False)

    def set_title_shown(self, shown: bool) -> None:
        """Show or hide the title row (a slide carries the title itself; the
        slice of the run a chart shows stays under it either way)."""
        self._title_shown = shown
        self._fit_title()

    def _fit_title(self) -> None:
        """The title at the width it has: a little smaller, or on two lines,
        never cut off (half a Compare tab, a projector).

        The title sits over the plot area only, right of the value axis, and
        pyqtgraph makes a title's text width the least width of the whole
        chart: a title fitted to the widget's width pushed the plot past the
        widget's right edge, clipping the title's end and the legend (Compare
        at 1024 px)."""
        plot = self.getPlotItem()
        if self.data is not None and plot is not None:     # (None once closed)
            style.set_title(plot, self.data.title if self._title_shown else "",
                            self.data.scope, width=self.title_width())

    def title_width(self) -> float:
        """Pixels the title's text may take: the widget less the value axis,
        the label's own text margins and a little air."""
        axis = self.getPlotItem().getAxis("left")
        beside = axis.minimumWidth() if axis.isVisible() else 0.0
        return self.width() - beside - TITLE_AIR

    def showEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().showEvent(event)
        self._fit_bar_labels()

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        # (Called while pyqtgraph builds the widget, before ``data`` exists.)
        if self.__dict__.get("data") is not None \
                and self.__dict__.get("_fitted_width") != self.width():
            self._fitted_width = self.width()
            self._fit_title()

    def _draw_lines(self, item: pg.PlotItem, data: ChartData) -> None:
        while len(self._buffers) < len(data.series):
            self._buffers.append(_Buffer())
        self._curves = []
        for i, s in enumerate(data.series):
            x, y = self._buffers[i].fill(s.x, s.y, s.kind == "step")
            curve = pg.PlotDataItem(pen=style.pen(i), name=s.name)
            curve.setDownsampling(auto=True, method="peak")
            curve.setClipToView(True)
            item.addItem(curve)
            curve.setData(x, y)
            self._curves.append(curve)
        item.setXRange(*_x_range(data.series), padding=0.02)

    def _draw_bars(self, item: pg.PlotItem, data: ChartData) -> None:
        n = len(data.categories)
        base = np.zeros(n)
        stacked = sum(s.kind == "stack" for s in data.series) > 1
        # Several bar series side by side in each category (measured beside model).
        grouped = not stacked and len(data.series) > 1
        width = 0.8 / len(data.series) if grouped else 0.6
        for i, s in enumerate(data.series):
            y0 = base.copy() if stacked else np.zeros(n)
            x = s.x + (i - (len(data.series) - 1) / 2) * width if grouped else s.x
            bars = pg.BarGraphItem(x=x, y0=y0, height=s.y, width=width, name=s.name,
                                   brush=style.colour(i, s.name),
                                   pen=pg.mkPen("w", width=style.line_px(1)))
            item.addItem(bars)
            base = base + s.y if stacked else base
        if grouped:
            self._label_groups(item, data, width)
        top = base if stacked else np.max([s.y for s in data.series], axis=0)
        ci = data.extra.get("ci95")
        if ci is not None and not stacked:
            # Replications: each bar's 95 % interval, and the label says it.
            half = np.nan_to_num(np.asarray(ci, dtype=float))
            item.addItem(pg.ErrorBarItem(x=np.arange(n, dtype=float), y=top, top=half,
                                         bottom=half, beam=0.25,
                                         pen=pg.mkPen(style.FOREGROUND, width=style.line_px(2))))
            texts = [f"{_short(v)}\n± {h:.2g}" for v, h in zip(top, half)]
            top = top + half
        else:
            texts = [_short(v) for v in top]
        if n > MAX_BAR_LABELS or grouped:
            texts = []      # grouped bars carry a label each (_label_groups)
        self._bar_labels = [_value_label(text, x, v, data.y_max, style.TICK_PT)
                            for x, (v, text) in enumerate(zip(top, texts))]
        for label in self._bar_labels:
            item.addItem(label)
        item.getAxis("bottom").setTicks([list(enumerate(data.categories))])
        right = n - 0.4
        if len(data.series) > 1 and not stacked and not grouped:
            # Room on the right for the legend (larger in presentation mode),
            # so it does not cover the last bar's top and value label.
            # (Grouped bars have theirs in a band above the plot.)
            right += (n + 0.2) * 0.3 * style.SCALE
        item.setXRange(-0.6, right, padding=0)
        # From zero (bars of values that are never below it), to the end of a
        # ratio's scale or with room above the highest bar for its label.
        highest = float(np.max(top)) if len(top) else 0.0
        end = data.y_max if data.y_max is not None else highest * 1.18 if highest > 0 else 1.0
        lowest = min([0.0] + [float(np.min(s.y)) for s in data.series if len(s.y)])
        item.setYRange(lowest, end, padding=0)
        item.getViewBox().setMouseEnabled(x=False, y=True)

    def _label_groups(self, item: pg.PlotItem, data: ChartData, width: float) -> None:
        """A value over each bar of grouped bars; none past MAX_GROUPED_LABELS
        bars, where a label is wider than its bar and neighbours overlap (the
        values are in the chart's CSV). :meth:`_fit_group_labels` keeps them
        within their bars at the chart's width."""
        k = len(data.series)
        self._group_width = width
        if k * len(data.categories) > MAX_GROUPED_LABELS:
            return
        for i, s in enumerate(data.series):
            for x, v in zip(s.x.tolist(), s.y.tolist()):
                label = _value_label(_short(v), x + (i - (k - 1) / 2) * width, v,
                                     data.y_max, style.TICK_PT - (2 if k > 1 else 0))
                self._group_labels.append(label)
                item.addItem(label)

    def _draw_spans(self, item: pg.PlotItem, data: ChartData) -> None:
        for i, s in enumerate(data.series):
            bars = pg.BarGraphItem(x0=s.x, x1=np.maximum(s.y, s.x), y=s.rows.astype(float),
                                   height=0.6, name=s.name, brush=style.colour(i + 2),
                                   pen=pg.mkPen(None))
            item.addItem(bars)
        item.getAxis("left").setTicks([list(enumerate(data.categories))])
        item.setYRange(-0.6, len(data.categories) - 0.1, padding=0)
        item.setXRange(*_x_range(data.series, spans=True), padding=0.02)


#: On a fixed scale (a ratio's, ending at 1) a bar carries its value inside
#: its top, where a bar near the end has room for it; a bar shorter than
#: this share of the scale is too short to hold it and has it above.
LABEL_INSIDE = 0.15


def _widest(texts: list[str], points: float, bold: bool) -> float:
    metrics = QFontMetricsF(style.font(points, bold))
    return max((metrics.horizontalAdvance(line) for t in texts for line in t.split("\n")),
               default=0.0)


def _shrunk(points: float, texts: list[str], room: float, bold: bool) -> float:
    """The largest size from ``points`` down to ``MIN_LABEL_PT`` at which the
    widest of ``texts`` takes at most ``room`` pixels."""
    size = points
    while size > MIN_LABEL_PT and _widest(texts, size, bold) > room:
        size -= 1
    return size


def _grouped(data: ChartData) -> bool:
    """Several bar series side by side in each category (measured beside model)."""
    return not _stacked(data) and len(data.series) > 1 and \
        all(s.kind == "bar" for s in data.series)


def _legend_columns(legend, columns: int) -> None:
    """Lay ``legend`` out in ``columns`` columns, each entry as wide as its
    text: pyqtgraph's layout stretches a label to its column's widest, and
    keeps that width when the columns change (one long name then widened
    every entry, the legend growing past the chart)."""
    legend.setColumnCount(columns)
    for _sample, label in legend.items:
        label.resize(label.minimumWidth(), label.minimumHeight())
    legend.updateSize()


def _stacked(data: ChartData) -> bool:
    """Several series stacked in each bar (the parts of a response time)."""
    return sum(s.kind == "stack" for s in data.series) > 1


def _value_label(text: str, x: float, v: float, y_max: float | None, size: float) -> pg.TextItem:
    """A bar's value over its top; on a fixed scale, in white inside it."""
    inside = y_max is not None and v > LABEL_INSIDE * y_max
    label = pg.TextItem(text, color="#ffffff" if inside else style.FOREGROUND,
                        anchor=(0.5, 0.0 if inside else 1.0))
    label.setFont(style.font(size, bold=True))
    label.setPos(x, v)
    return label


def _x_range(series: tuple[Series, ...], spans: bool = False) -> tuple[float, float]:
    lo = min(float(np.min(s.x)) for s in series if len(s.x))
    hi = max(float(np.max(s.y if spans else s.x)) for s in series if len(s.x))
    return lo, hi if hi > lo else lo + 1.0


def _label(text: str, unit: str) -> str:
    return f"{text} ({unit})" if unit else text


def _experiment_title(name: str) -> str:
    from models import experiments
    try:
        return experiments.get(name).title
    except (KeyError, ValueError):
        return "an unknown experiment"


#: Room above a line chart's highest value, as a share of its range (the legend
#: sits there): at least this, more when the legend is taller.
HEADROOM = 0.25
#: Legend entries in one column; more go in two (half as tall over the lines).
LEGEND_ROWS = 5


def _short(v: float) -> str:
    """A value label: 3 significant digits, thousands separated."""
    if abs(v) >= 1000:
        return f"{v:,.0f}"
    if v and abs(v) < 1e-4:        # a decimal, never "1.73e-05"
        digits = 2 - math.floor(math.log10(abs(v)))
        return f"{v:.{digits}f}".rstrip("0").rstrip(".")
    return f"{v:.3g}"


class ChartsView(QWidget):
    """The charts of the latest run, one tab each, only those its data supports.

    The main window calls :meth:`set_result` after every run.
    """

    #: Emitted with the chart keys shown after :meth:`set_result`.
    charts_changed = Signal(list)

    def __init__(self, parent: QWidget | None = None, chart_minimum: tuple[int, int] = (480, 320)):
        super().__init__(parent)
        #: Least size of each chart (half a Compare tab asks for less).
        self.chart_minimum = chart_minimum
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.setStyleSheet(f"QTabBar::tab {{ font-size: {style.TICK_PT}pt; padding: 6px 14px; }}")
        self.empty = QLabel("Run a case study to see its charts.", self)
        self.empty.setFont(style.font(style.LABEL_PT))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.empty)
        layout.addWidget(self.tabs)
        self.tabs.hide()
        self._widgets: dict[str, ChartWidget] = {}
        self.result = None
        #: What the measured-vs-model charts call the run's bars: "model", or
        #: a what-if's name (:meth:`app.run_names.RunName.beside_rmf`).
        self.run_name = MODELLED

    def set_run_name(self, name: str) -> None:
        """Name the run's bars beside RMF's in the next :meth:`set_result`."""
        self.run_name = name or MODELLED

    def set_result(self, result) -> None:
        """Show the charts ``result`` supports (reusing each chart's buffers)."""
        self.result = result
        charts = derive_charts(result, self.run_name) if result is not None else []
        self.tabs.clear()
        for data in charts:
            widget = self._widgets.get(data.key)
            if widget is None:
                widget = self._widgets[data.key] = ChartWidget(self, self.chart_minimum)
            widget.show_data(data)
            self.tabs.addTab(widget, data.title)
        # A chart this run does not have keeps its widget (and the tab comes
        # back the next time a run has it), not the data of an older run.
        shown = {data.key for data in charts}
        for key, widget in self._widgets.items():
            if key not in shown and widget.data is not None:
                widget.clear_data()
        self.tabs.setVisible(bool(charts))
        self.empty.setVisible(not charts)
        if result is not None and not charts:
            self.empty.setText(f"This run ({_experiment_title(result.experiment)}) carries no "
                               "data these charts can show.")
        self.charts_changed.emit([c.key for c in charts])

    def align_to(self, other: "ChartsView") -> None:
        """Put each bar chart's groups in the order ``other``'s same chart has
        them (the two sides of Compare read group by group)."""
        theirs = other.charts()
        for key, widget in self.charts().items():
            there = theirs.get(key)
            if widget.data is None or there is None or there.data is None:
                continue
            aligned = align(widget.data, there.data.categories)
            if aligned is not widget.data:
                widget.show_data(aligned)

    def charts(self) -> dict[str, ChartWidget]:
        """The chart widgets now shown, by key, in display order."""
        return {self.tabs.widget(i).data.key: self.tabs.widget(i) for i in range(self.tabs.count())}

    def current_chart(self) -> ChartWidget | None:
        """The chart in the front tab (for export and copy)."""
        w = self.tabs.currentWidget()
        return w if isinstance(w, ChartWidget) else None
