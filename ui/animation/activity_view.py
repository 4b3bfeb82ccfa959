"""Activity strip: one row per traced component with its state at replay time t.

A row shows a coloured state lamp, the component's name and role, a bar
(buffer fill, hit ratio, or I/Os in flight) and one line of text, all from
:func:`app.replay.activity.activity_at` — the same answers the canvas can
use to colour its items during a replay.
"""
from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QRectF
from PySide6.QtGui import QPainter

from app.replay.activity import Activity, component_activity
from app.replay.data import ReplayData
from ui.animation import style
from ui.animation.base import ReplayViewBase

#: Rows drawn at most (a big run may trace dozens of volumes).
MAX_ROWS = 24
#: Lamp colour per state word.
STATE_COLOURS = {"idle": style.EMPTY, "busy": style.BLUE, "reading": style.BLUE,
                 "seeking": style.ORANGE, "changing": style.VERMILLION}


@dataclass
class ActivityState:
    """What the strip shows: (component, activity) rows in trace order."""

    rows: list[tuple[str, Activity]]
    more: int


class ActivityView(ReplayViewBase):
    """Every component's state at the replay time, one row each."""

    TITLE = "Activity"
    CAPTION = ("Each line is one piece of hardware at this moment of the run: what it "
               "is doing, how much work is queued on it and how full it is.")

    @classmethod
    def supports(cls, data: ReplayData) -> bool:
        return len(data) > 0

    def compute(self, data: ReplayData, t: float) -> ActivityState:
        names = data.components[:MAX_ROWS]
        return ActivityState([(n, component_activity(data, n, t)) for n in names],
                             max(0, len(data.components) - MAX_ROWS))

    def draw(self, p: QPainter) -> None:
        s = self.state
        w, h = self.width(), self.height()
        style.text(p, 16, 8, self.TITLE + " — every component at this moment",
                   style.HEAD_PT, bold=True)
        top, legend_h = 48, 44
        row_h = min(44.0, (h - top - legend_h) / max(1, len(s.rows)))
        for i, (name, act) in enumerate(s.rows):
            self._draw_row(p, name, act, 16, top + i * row_h, w - 32, row_h)
        if s.more:
            style.text(p, 16, h - legend_h - 20, f"… and {s.more} more components",
                       colour=style.MUTED)
        style.legend(p, 16, h - legend_h + 8, [
            (style.EMPTY, "idle", None), (style.BLUE, "busy / reading", None),
            (style.ORANGE, "seeking", None), (style.VERMILLION, "changing cartridge", None),
            (style.PURPLE, "I/O queued (IOSQ)", None),
            (style.GREEN, "level (buffer fill, hit ratio)", None)], w=w - 32)

    def _draw_row(self, p: QPainter, name: str, act: Activity, x: float, y: float,
                  w: float, row_h: float) -> None:
        lamp = STATE_COLOURS.get(act.state, style.BLUE)
        style.swatch(p, QRectF(x, y + 6, row_h - 14, row_h - 14), lamp)
        style.text(p, x + row_h, y + (row_h - 24) / 2, name, bold=True, w=110)
        style.text(p, x + row_h + 110, y + (row_h - 24) / 2, act.role, colour=style.MUTED,
                   w=150)
        bar = QRectF(x + row_h + 270, y + 8, 160, row_h - 18)
        style.swatch(p, bar, style.BACKGROUND)
        if act.level is not None:
            style.swatch(p, QRectF(bar.x(), bar.y(), bar.width() * act.level, bar.height()),
                         style.GREEN)
        elif act.count:
            for k in range(min(act.count, 16)):
                style.swatch(p, QRectF(bar.x() + 2 + k * 10, bar.y() + 2, 7,
                                       bar.height() - 4),
                             style.PURPLE if k < act.queued else style.BLUE)
        style.text(p, bar.right() + 14, y + (row_h - 24) / 2, act.text,
                   w=w - bar.right() - 14 + x)
