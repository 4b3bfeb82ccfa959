"""How the animation views look: projector-sized text and a colour-blind-safe palette.

Sizes match the charts (ui/charts/style.py): body text 13 pt, headings 16 pt,
big counters 20 pt, for a 1280×800 projector image read from the back of a
room. Colours are Okabe–Ito, each with one fixed meaning in every view:
blue = data moving / CONN, orange = positioning or staging in progress,
vermillion = miss, bluish green = hit, sky blue = record staging,
yellow = partial-track staging, reddish purple = full-track staging.
"""
from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPen

TEXT_PT = 13
HEAD_PT = 16
BIG_PT = 20
INK = QColor("#222222")
MUTED = QColor("#666666")
BACKGROUND = QColor("#FFFFFF")
PANEL = QColor("#F3F3F3")
EMPTY = QColor("#DDDDDD")

BLUE = QColor("#0072B2")
ORANGE = QColor("#E69F00")
VERMILLION = QColor("#D55E00")
GREEN = QColor("#009E73")
SKY = QColor("#56B4E9")
YELLOW = QColor("#F0E442")
PURPLE = QColor("#CC79A7")

#: Staging modes of ``stage`` rows (docs/trace.md): record, partial, full.
STAGE_COLOURS = (SKY, YELLOW, PURPLE)
STAGE_NAMES = ("record staged", "partial track staged", "full track staged")

#: Presentation mode (ui/presentation.py) multiplies every size the views
#: paint with (text, strokes, the offsets that leave room for text) by this, so
#: a 1024×768 projector image reads from the back of a room; 1.0 on the desktop.
#: The views read it at paint time through :func:`font`, :func:`px` and
#: :func:`swatch`; :func:`set_scale` changes it, then the views repaint.
SCALE = 1.0
#: The scale presentation mode sets.
PRESENT_SCALE = 1.4


def set_scale(scale: float) -> None:
    """Paint every view's text and lines ``scale`` times their desktop size."""
    global SCALE
    SCALE = float(scale)


def px(v: float) -> float:
    """A length in pixels (a line's width, room left for a line of text) at the current scale."""
    return v * SCALE


def font(points: int, bold: bool = False) -> QFont:
    """A sans font of ``points`` size."""
    f = QFont()
    f.setPointSizeF(points * SCALE)
    f.setBold(bold)
    return f


#: Where :func:`text` notes the lines it shortened, as (rect, full text), while
#: a view paints (:meth:`ReplayViewBase.paintEvent` sets it; the view shows
#: the full text as the tooltip of that rectangle). None: nobody listens.
elided: list[tuple[QRectF, str]] | None = None


def text(p: QPainter, x: float, y: float, s: str, points: int = TEXT_PT,
         bold: bool = False, colour: QColor = INK, w: float = 2000,
         align=Qt.AlignmentFlag.AlignLeft,
         elide: Qt.TextElideMode = Qt.TextElideMode.ElideRight) -> float:
    """Draw one line with its top-left at (x, y), at most ``w`` wide; returns the line height.

    A line wider than ``w`` is shortened with "…" (at the end, or where
    ``elide`` says; never cut mid-letter at the edge) and
    the whole line becomes the tooltip of its rectangle.
    """
    p.setFont(font(points, bold))
    p.setPen(colour)
    fm = p.fontMetrics()
    h = fm.height()
    rect = QRectF(x, y, w, h)
    shown = s
    if fm.horizontalAdvance(s) > w:
        shown = fm.elidedText(s, elide, int(max(0.0, w)))
        if elided is not None:
            elided.append((rect, s))
    p.drawText(rect, int(align | Qt.AlignmentFlag.AlignVCenter), shown)
    return h


def line_height(points: int = TEXT_PT) -> float:
    """The height of one line of :func:`text`."""
    from PySide6.QtGui import QFontMetricsF
    return QFontMetricsF(font(points)).height()


def width(s: str, points: int = TEXT_PT, bold: bool = False) -> float:
    """How wide :func:`text` draws ``s``."""
    from PySide6.QtGui import QFontMetricsF
    return QFontMetricsF(font(points, bold)).horizontalAdvance(s)


def legend(p: QPainter, x: float, y: float, items, w: float = 1200) -> float:
    """A row of colour swatches with labels; wraps at ``w``; returns its height."""
    p.setFont(font(TEXT_PT))
    fm = p.fontMetrics()
    h = fm.height()
    cx, cy = x, y
    for colour, label, outline in items:
        width = h + 8 + fm.horizontalAdvance(label) + px(22)
        if cx + width > x + w and cx > x:
            cx, cy = x, cy + h + px(6)
        swatch(p, QRectF(cx + 1, cy + 3, h - 6, h - 6), colour, outline, 3 if outline else 1)
        text(p, cx + h + 4, cy, label)
        cx += width
    return cy + h - y


def legend_height(items, w: float = 1200) -> float:
    """The height :func:`legend` will take for ``items`` wrapped at ``w``."""
    from PySide6.QtGui import QFontMetricsF
    fm = QFontMetricsF(font(TEXT_PT))
    h = fm.height()
    cx, rows = 0.0, 1
    for _colour, label, _outline in items:
        width = h + 8 + fm.horizontalAdvance(label) + px(22)
        if cx + width > w and cx > 0:
            cx, rows = 0.0, rows + 1
        cx += width
    return rows * (h + px(6))


def swatch(p: QPainter, r: QRectF, colour: QColor | None, outline: QColor | None = None,
           width: float = 1.0) -> None:
    """A filled rectangle with an outline (``outline`` None: thin grey), ``width`` at the scale."""
    p.setPen(QPen(outline if outline is not None else MUTED, width * SCALE))
    p.setBrush(colour if colour is not None else Qt.BrushStyle.NoBrush)
    p.drawRect(r)


def fmt_time(t: float) -> str:
    """A time in the unit that reads best: µs, ms or s."""
    if abs(t) < 1e-3:
        return f"{t * 1e6:.1f} µs"
    if abs(t) < 1:
        return f"{t * 1e3:.3f} ms"
    return f"{t:.3f} s"
