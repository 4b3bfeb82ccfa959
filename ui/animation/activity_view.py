"""Activity strip: one row per traced component with its state at replay time t.

A row shows a coloured state lamp, the component's name and role, a bar
(buffer fill, hit ratio, or I/Os in flight) and one line of text, all from
:func:`app.replay.activity.activity_at` — the same answers the canvas can
use to colour its items during a replay.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter

from app.replay.activity import Activity, component_activity
from app.replay.data import ReplayData
from ui.animation import style
from ui.animation.base import ReplayViewBase

#: Rows drawn at most (a big run may trace dozens of volumes).
MAX_ROWS = 24
#: Lamp colour per state word.
STATE_COLOURS = {"idle": style.EMPTY, "busy": style.BLUE, "reading": style.BLUE,
                 "writing": style.BLUE, "seeking": style.ORANGE, "changing": style.VERMILLION}


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

    LEGEND = [(style.EMPTY, "idle", None), (style.BLUE, "busy, reading, writing", None),
              (style.ORANGE, "seeking", None), (style.VERMILLION, "changing cartridge", None),
              (style.PURPLE, "I/O queued (IOSQ)", None),
              (style.GREEN, "level (buffer fill, hit ratio)", None)]

    MIN_ROW_PX = 24

    def min_height(self) -> float:
        """One column of up to eight rows, each a line high, and the legend
        (two columns cut every state line short: a smaller scale reads better)."""
        rows = min(8, len(self.state.rows))
        return (style.px(48) + rows * max(self.MIN_ROW_PX, style.line_height() + 2)
                + style.legend_height(self.LEGEND, self.width() - 32) + 8)

    def draw(self, p: QPainter) -> None:
        s = self.state
        w, h = self.width(), self.height()
        style.text(p, 16, 8, self.TITLE + " — every component at this moment",
                   style.HEAD_PT, bold=True, w=w - 32)
        top = style.px(48)
        legend_h = style.legend_height(self.LEGEND, w - 32) + 8
        rows, more = list(s.rows), s.more
        room = h - top - legend_h
        min_row = max(self.MIN_ROW_PX, style.line_height() + 2)
        # One column while every row gets a readable line; else two columns
        # side by side; rows that still do not fit are counted on a last line.
        cols = 1 if len(rows) * min_row <= room or w < 900 else 2
        per_col = math.ceil(len(rows) / cols)
        if per_col * min_row > room:
            per_col = max(1, int((room - min_row) // min_row))
            more += len(rows) - per_col * cols
            rows = rows[:per_col * cols]
        row_h = min(style.px(44.0), (room - (min_row if more else 0)) / max(1, per_col))
        col_w = (w - 32 - 24 * (cols - 1)) / cols
        # Columns as wide as the longest name and role (at most a third and a
        # sixth of the column), the bar, then the state line takes the rest.
        name_w = min(max((style.width(n, bold=True) for n, _ in rows), default=0) + 16,
                     0.34 * col_w)
        role_w = min(max((style.width(a.role) for _, a in rows), default=0) + 16, col_w / 6)
        if cols == 2:
            role_w = 0      # two columns: the role is the name's tooltip, the state gets the room
        for i, (name, act) in enumerate(rows):
            col, row = divmod(i, per_col)
            self._draw_row(p, name, act, 16 + col * (col_w + 24), top + row * row_h, col_w,
                           row_h, name_w, role_w)
        if more:
            style.text(p, 16, top + per_col * row_h, f"… and {more} more components",
                       colour=style.MUTED, w=w - 32)
        style.legend(p, 16, h - legend_h, self.LEGEND, w=w - 32)

    def _draw_row(self, p: QPainter, name: str, act: Activity, x: float, y: float,
                  w: float, row_h: float, name_w: float = 110, role_w: float = 150) -> None:
        lamp = STATE_COLOURS.get(act.state, style.BLUE)
        ty = y + (row_h - style.line_height()) / 2
        lamp_px = min(row_h - 8, 30.0)
        style.swatch(p, QRectF(x, y + (row_h - lamp_px) / 2, lamp_px, lamp_px), lamp)
        # "Rank R1 drive 3" shortened keeps its end: "Rank…drive 3".
        style.text(p, x + row_h, ty, name, bold=True, w=name_w - 8,
                   elide=Qt.TextElideMode.ElideMiddle)
        if role_w:
            style.text(p, x + row_h + name_w, ty, act.role, colour=style.MUTED, w=role_w - 8)
        elif style.elided is not None:
            style.elided.append((QRectF(x, y, row_h + name_w, row_h), f"{name}: {act.role}"))
        bar = QRectF(x + row_h + name_w + role_w, y + min(8.0, row_h * 0.2),
                     min(160.0, 0.15 * w), row_h - 2 * min(8.0, row_h * 0.2) - 2)
        style.swatch(p, bar, style.BACKGROUND)
        if act.level is not None:
            style.swatch(p, QRectF(bar.x(), bar.y(), bar.width() * act.level, bar.height()),
                         style.GREEN)
        elif act.count:
            for k in range(min(act.count, 16, int((bar.width() - 4) // 10))):
                style.swatch(p, QRectF(bar.x() + 2 + k * 10, bar.y() + 2, 7,
                                       bar.height() - 4),
                             style.PURPLE if k < act.queued else style.BLUE)
        style.text(p, bar.right() + 10, ty, act.text, w=w - bar.right() - 10 + x,
                   points=style.TEXT_PT if role_w else style.TEXT_PT - 1)
