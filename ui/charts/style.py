"""How charts look: projector-sized fonts, thick lines, a colour-blind-safe palette.

Sizes are chosen for a 1280×800 projector image viewed from the back of a
room: tick labels 13 pt, axis labels 15 pt, titles 17 pt, lines 3 px. The
palette is Okabe–Ito, which stays distinguishable for the common forms of
colour blindness and in greyscale print.
"""
from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QColor, QFont, QFontMetricsF

TICK_PT = 13
LABEL_PT = 15
TITLE_PT = 17
LEGEND_PT = 13
LINE_PX = 3
BACKGROUND = "w"
FOREGROUND = "#222222"

#: Presentation mode (ui/presentation.py) multiplies the fonts, line widths and
#: the axis and title room of every chart styled after it by this (1.0 on the
#: desktop); :meth:`ui.charts.view.ChartWidget.restyle` redraws a chart shown before.
SCALE = 1.0
#: The scale presentation mode sets.
PRESENT_SCALE = 1.4


def set_scale(scale: float) -> None:
    """Style charts from now on with fonts and lines ``scale`` times their desktop size."""
    global SCALE
    SCALE = float(scale)


def pt(points: float) -> str:
    """A font size at the current scale, for pyqtgraph's text options ("18.2pt")."""
    return f"{points * SCALE:.1f}pt"


def line_px(width: float = LINE_PX) -> float:
    """A line width at the current scale."""
    return width * SCALE


#: Okabe–Ito colours, most distinct first.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
           "#F0E442", "#000000")

#: Fixed colours for the four I/O response components, so every chart and
#: slide shows IOSQ, PEND, DISC and CONN the same way.
PHASE_COLOURS = {"IOSQ": "#999999", "PEND": "#E69F00", "DISC": "#D55E00", "CONN": "#0072B2"}


def colour(i: int, name: str = "") -> QColor:
    """Colour of series ``i`` (or the fixed colour of a named I/O phase)."""
    return QColor(PHASE_COLOURS.get(name, PALETTE[i % len(PALETTE)]))


def pen(i: int, name: str = "") -> pg.mkPen:
    """A thick pen for series ``i``."""
    return pg.mkPen(colour(i, name), width=line_px())


def font(points: int, bold: bool = False) -> QFont:
    """A sans font of ``points`` size."""
    f = QFont()
    f.setPointSizeF(points * SCALE)
    f.setBold(bold)
    return f


def no_si_prefix(axis: pg.AxisItem) -> None:
    """Tick values as they are: units are part of the label text.

    pyqtgraph's ``enableAutoSIPrefix(False)`` still computes a prefix from
    the range the axis had *before* (0.55 s of a program-fetch run gave a
    ×1000 "m" scale) and keeps it for every later range, so a 1,576 s spool
    run read 1.4e+06 on its time axis. Reset the scale as well.
    """
    axis.enableAutoSIPrefix(False)
    axis.autoSIPrefixScale = 1.0
    axis.labelUnitPrefix = ""
    axis.picture = None


def fit_title(title: str, width: float | None) -> tuple[list[str], float]:
    """The title's lines and point size to fit ``width`` pixels: one line,
    a smaller size down to 80 %, else two lines (broken at the middle word)."""
    size = TITLE_PT
    if not title or not width or width <= 0:
        return [title], size
    full = QFontMetricsF(font(TITLE_PT, bold=True)).horizontalAdvance(title)
    if full <= width:
        return [title], size
    if full * 0.8 <= width:
        return [title], TITLE_PT * width / full
    words = title.split(" ")
    best = min(range(1, len(words)), default=0,
               key=lambda i: abs(len(" ".join(words[:i])) - len(" ".join(words[i:]))))
    if not best:
        return [title], TITLE_PT * 0.8
    lines = [" ".join(words[:best]), " ".join(words[best:])]
    widest = max(QFontMetricsF(font(TITLE_PT, bold=True)).horizontalAdvance(x) for x in lines)
    return lines, min(TITLE_PT, TITLE_PT * width / widest) if widest > width else TITLE_PT


def set_title(plot: pg.PlotItem, title: str, scope: str = "", width: float | None = None) -> None:
    """The chart's title, and under it in smaller type the slice of the run
    it shows (``scope``); an empty title with no scope hides the title row.
    Given the ``width`` it has, a long title shrinks a little or wraps onto a
    second line rather than being cut off."""
    if not title and not scope:
        plot.setTitle(None)
        return
    lines, size = fit_title(title, width)
    text = "<br>".join(f"<b>{line}</b>" for line in lines) if title else ""
    if scope:
        text += ("<br>" if title else "") + f"<span style='font-size:{pt(TICK_PT)};'>{scope}</span>"
    plot.setTitle(text, size=pt(size), color=FOREGROUND)
    # pyqtgraph gives the title row 30 px: room for one line only.
    rows = (len(lines) if title else 0) + (1 if scope else 0)
    height = round(SCALE * (34 if rows == 1 and title
                            else 28 + 24 * (rows - 1) + (0 if title else 6)))
    plot.titleLabel.setMaximumHeight(height)
    plot.layout.setRowFixedHeight(0, height)


def style_plot(plot: pg.PlotItem, title: str, x_label: str, y_label: str,
               scope: str = "") -> None:
    """Title (and the run slice it shows), axis labels and tick fonts on a PlotItem."""
    set_title(plot, title, scope)
    for side, text in (("bottom", x_label), ("left", y_label)):
        axis = plot.getAxis(side)
        axis.setPen(pg.mkPen(FOREGROUND, width=line_px(1.5)))
        axis.setTextPen(pg.mkPen(FOREGROUND))
        axis.setStyle(tickFont=font(TICK_PT), tickTextOffset=round(6 * SCALE))
        no_si_prefix(axis)
        axis.setLabel(text, color=FOREGROUND, **{"font-size": pt(LABEL_PT)})
    plot.getAxis("left").setWidth(round(90 * SCALE))
    plot.getAxis("bottom").setHeight(round(70 * SCALE))
    # The first and last x tick labels ("0", "100") stand half outside the
    # axis: let them reach into the margins beside it rather than vanish.
    plot.getAxis("bottom").setStyle(hideOverlappingLabels=round(24 * SCALE))
    # The same for the value axis's ends: a scale that starts at 0 or ends at a
    # ratio's 1 names its ends ("0", "1.0") rather than leave them unlabelled.
    plot.getAxis("left").setStyle(hideOverlappingLabels=round(24 * SCALE))
    # Room under the x-axis title: a lesson's highlight frame (6 px) drew over it.
    # Room on the right for half of the last x tick label ("100"), which the
    # edge of the image cut off or pyqtgraph hid for want of space.
    plot.setContentsMargins(0, 0, round(24 * SCALE), 10)
    plot.showGrid(x=False, y=True, alpha=0.25)
