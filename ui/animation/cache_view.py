"""Cache-staging view: control-unit cache slots as a grid, filled as records are staged.

Each row is one 3390 track in the cache (12 slots of 4 KB for DB2 pages), for
the tracks the control unit touched most recently. A slot fills when a drive
reads its record (``track_read``) and takes the colour of the staging that
read belonged to (the ``stage`` row that completes it: record, partial track
or full track). Slots hit before any staging in view were already resident.
Recent hits flash green; misses wait, outlined red, until their staging
completes; an ``evict`` row empties the track. The hit ratio is
hits / (hits + misses) over every request up to the replay time.

The real cache holds millions of slots; the grid shows the working set the
replay is passing through, which is what a student needs to see.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter

from app.replay.data import ReplayData
from models.engine import trace_vocab as V
from ui.animation import style
from ui.animation.base import ReplayViewBase

#: Tracks (grid rows) shown.
TRACKS_SHOWN = 14
#: Control-unit rows looked back over to choose the tracks shown.
RECENT_ROWS = 2048
#: The last this many hits flash (counted in events, so it reads at any speed).
FLASH_HITS = 6
CU_KINDS = (V.CACHE_HIT, V.CACHE_MISS, V.CACHE_WAIT, V.STAGE, V.EVICT)


@dataclass
class TrackSlots:
    """One grid row: a track and what each of its slots holds."""

    track: int
    slots: list[str]            # empty | resident | staging | record | partial | full
    flash: set[int] = field(default_factory=set)     # records hit just now
    waiting: set[int] = field(default_factory=set)   # records missed, not yet staged
    evicted: bool = False


@dataclass
class CacheState:
    """What the cache view shows at one time."""

    rows: list[TrackSlots]
    hits: int
    misses: int
    stages: tuple[int, int, int]
    evictions: int

    @property
    def hit_ratio(self) -> float | None:
        n = self.hits + self.misses
        return self.hits / n if n else None


class _ByTrack:
    """Rows of one kind grouped by track (``a``), time-ordered within a track."""

    def __init__(self, data: ReplayData, kind: str, component: str | None = None):
        rows = data.rows_of(component, kind)
        order = np.lexsort((data.t[rows], data.a[rows]))
        self.rows = rows[order]
        self.track = data.a[self.rows]
        self.t = data.t[self.rows]

    def of(self, track: int, after: float, t: float) -> np.ndarray:
        """Rows of ``track`` with ``after`` < time ≤ ``t``."""
        lo, hi = np.searchsorted(self.track, [track, track + 1])
        times = self.t[lo:hi]
        i, j = np.searchsorted(times, [after, t], side="right")
        return self.rows[lo + i:lo + j]


class CacheView(ReplayViewBase):
    """A grid of cache slots per track; staging modes in colour; hit ratio."""

    TITLE = "Cache staging"
    CAPTION = ("The control unit answers a read from cache when it can (a hit); on a "
               "miss a drive reads the record, the rest of the track or the whole track "
               "into cache first, and later requests for those records become hits.")

    @classmethod
    def supports(cls, data: ReplayData) -> bool:
        return data.has(V.CACHE_HIT, V.CACHE_MISS)

    def prepare(self, data: ReplayData | None) -> None:
        if data is None:
            return
        # The control unit as the model named it (its canvas label).
        self._cu = data.first_of_role("CU", "CU")
        self._reads = _ByTrack(data, V.TRACK_READ)
        self._by = {k: _ByTrack(data, k, self._cu) for k in CU_KINDS}
        rows = np.sort(np.concatenate([data.rows_of(self._cu, k) for k in CU_KINDS]))
        self._cu_rows, self._cu_t = rows, data.t[rows]
        self._stage_t = [data.times_of(self._cu, V.STAGE)[data.b[data.rows_of(self._cu, V.STAGE)] == m]
                         for m in range(3)]

    def compute(self, data: ReplayData, t: float) -> CacheState:
        n = int(np.searchsorted(self._cu_t, t, side="right"))
        tracks = self._tracks_shown(data, self._cu_rows[max(0, n - RECENT_ROWS):n])
        rows = [self._track_at(data, tr, t) for tr in tracks]
        stages = tuple(int(np.searchsorted(st, t, side="right")) for st in self._stage_t)
        # Counted as the run's statistics count (docs/trace.md): a record the
        # same disconnect also waits for is a hit when it transfers.
        return CacheState(rows, data.count_of(self._cu, V.CACHE_HIT, t)
                          + data.count_of(self._cu, V.CACHE_WAIT, t),
                          data.count_of(self._cu, V.CACHE_MISS, t), stages,
                          data.count_of(self._cu, V.EVICT, t))

    @staticmethod
    def _tracks_shown(data: ReplayData, recent: np.ndarray) -> list[int]:
        """The last-touched tracks, listed in the order they were first touched."""
        tracks = data.a[recent]
        uniq, first = np.unique(tracks, return_index=True)
        _, last_rev = np.unique(tracks[::-1], return_index=True)   # same order as uniq
        keep = np.argsort(last_rev, kind="stable")[:TRACKS_SHOWN]  # most recent first
        return [int(tr) for tr in uniq[keep][np.argsort(first[keep], kind="stable")]]

    def _track_at(self, data: ReplayData, track: int, t: float) -> TrackSlots:
        per = int(data.meta.get("records_per_track", 12))
        ev = self._by[V.EVICT].of(track, -np.inf, t)
        since = float(data.t[ev[-1]]) if len(ev) else -np.inf
        slots = ["empty"] * per
        stage_rows = self._by[V.STAGE].of(track, since, np.inf)
        stage_t = data.t[stage_rows]
        for r in self._reads.of(track, since, t):
            k = int(np.searchsorted(stage_t, data.t[r], side="left"))
            if 1 <= data.b[r] <= per:
                done = k < len(stage_rows) and stage_t[k] <= t
                slots[data.b[r] - 1] = (("record", "partial", "full")[data.b[stage_rows[k]]]
                                        if done else "staging")
        hits = self._by[V.CACHE_HIT].of(track, since, t)
        for r in hits:
            if 1 <= data.b[r] <= per and slots[data.b[r] - 1] == "empty":
                slots[data.b[r] - 1] = "resident"
        flash_from = self._flash_start(data, t)
        flash = {int(data.b[r]) for r in hits if data.t[r] > flash_from}
        asked = np.concatenate([self._by[V.CACHE_MISS].of(track, since, t),
                                self._by[V.CACHE_WAIT].of(track, since, t)])
        waiting = {int(data.b[r]) for r in asked
                   if data.b[r] >= 1 and not (len(stage_t) and ((stage_t >= data.t[r]) & (stage_t <= t)).any())}
        return TrackSlots(track, slots, flash, waiting, bool(len(ev)) and not any(
            s != "empty" for s in slots))

    def _flash_start(self, data: ReplayData, t: float) -> float:
        n = data.count_of(self._cu, V.CACHE_HIT, t)
        if n <= FLASH_HITS:
            return -np.inf
        return float(data.times_of(self._cu, V.CACHE_HIT)[n - FLASH_HITS - 1])

    # ---- drawing --------------------------------------------------------------
    SLOT_COLOURS = {"empty": style.BACKGROUND, "resident": style.EMPTY,
                    "staging": style.ORANGE, "record": style.STAGE_COLOURS[0],
                    "partial": style.STAGE_COLOURS[1], "full": style.STAGE_COLOURS[2]}

    def draw(self, p: QPainter) -> None:
        s = self.state
        w, h = self.width(), self.height()
        style.text(p, 16, 8, self.TITLE + " — 4 KB cache slots of the tracks in use",
                   style.HEAD_PT, bold=True)
        panel_x = w - 380
        per = len(s.rows[0].slots) if s.rows else 12
        items = [
            (self.SLOT_COLOURS["resident"], "already in cache", None),
            (self.SLOT_COLOURS["staging"], "being staged", None),
            (style.STAGE_COLOURS[0], "staged: record", None),
            (style.STAGE_COLOURS[1], "staged: partial track", None),
            (style.STAGE_COLOURS[2], "staged: full track", None),
            (None, "hit just now", style.GREEN),
            (None, "miss, waiting", style.VERMILLION)]
        # The legend stays left of the side panel, wrapping onto as many rows
        # as it needs (at 2x scale it ran under the panel's text).
        legend_w = panel_x - 32
        top, legend_h = style.px(48), max(70.0, style.legend_height(items, legend_w) + 10)
        room = h - top - legend_h
        # Rows at least a line of small text high; when not all fit (1024×640,
        # 2× scale), the most recently first-touched tracks (the last rows).
        fit = max(1, int(room // style.px(self.MIN_ROW_PX)))
        rows = s.rows[-fit:]
        row_h = min(style.px(40.0), room / max(TRACKS_SHOWN, len(rows)) if fit >= TRACKS_SHOWN
                    else room / max(1, len(rows)))
        label_w = style.px(150)
        slot_w = min(52.0, (panel_x - 20 - label_w) / per)
        for i, row in enumerate(rows):
            self._draw_row(p, row, 16, top + i * row_h, slot_w, row_h, label_w)
        self._draw_panel(p, s, panel_x, top)
        style.legend(p, 16, h - legend_h + 6, items, w=legend_w)

    MIN_ROW_PX = 18

    def _draw_row(self, p: QPainter, row: TrackSlots, x: float, y: float,
                  slot_w: float, row_h: float, label_w: float = 150) -> None:
        label = f"track {row.track}" + (" evicted" if row.evicted else "")
        pt = style.TEXT_PT if row_h >= style.px(24) else style.TEXT_PT - 3
        style.text(p, x, y + (row_h - style.line_height(pt)) / 2, label, points=pt, w=label_w - 4,
                   colour=style.MUTED if row.evicted else style.INK)
        for i, kind in enumerate(row.slots):
            r = QRectF(x + label_w + i * slot_w, y + 3, slot_w - 4, row_h - 6)
            rec = i + 1
            outline = style.GREEN if rec in row.flash else (
                style.VERMILLION if rec in row.waiting else None)
            style.swatch(p, r, self.SLOT_COLOURS[kind], outline, 5 if outline else 1)

    #: Height of the side panel laid out in full (headings, a big ratio, a line per mode).
    PANEL_FULL_PX = 300

    def _draw_panel(self, p: QPainter, s: CacheState, x: float, y: float) -> None:
        room = self.height() - y - 16
        if room < self.PANEL_FULL_PX:
            # Short (1024×640, 2× scale): the same figures, in fewer lines.
            self._draw_panel_short(p, s, x, y, max(0.0, room))
            return
        style.swatch(p, QRectF(x, y, 364, min(420.0, room)), style.PANEL)
        x += 12
        ratio = s.hit_ratio
        y += style.text(p, x, y + 6, "Hit ratio so far", style.HEAD_PT, bold=True) + 6
        y += style.text(p, x, y, "—" if ratio is None else f"{ratio:.2f}", 34, bold=True)
        self._ratio_bar(p, ratio, x, y)
        y += 32
        y += style.text(p, x, y, f"hits {s.hits:,}   misses {s.misses:,}")
        y += 10 + style.text(p, x, y + 10, "Stagings completed", style.HEAD_PT, bold=True)
        for colour, name, n in zip(style.STAGE_COLOURS, ("record", "partial track",
                                                         "full track"), s.stages):
            style.swatch(p, QRectF(x, y + 4, 16, 16), colour)
            y += style.text(p, x + 24, y, f"{name}: {n:,}")
        y += 10 + style.text(p, x, y + 10, f"Evictions: {s.evictions:,}", style.HEAD_PT,
                             bold=True)

    @staticmethod
    def _ratio_bar(p: QPainter, ratio, x: float, y: float) -> None:
        bar = QRectF(x, y + 4, 330, 18)
        style.swatch(p, bar, style.BACKGROUND)
        if ratio:
            style.swatch(p, QRectF(x, y + 4, 330 * ratio, 18), style.GREEN)

    def _draw_panel_short(self, p: QPainter, s: CacheState, x: float, y: float,
                          room: float) -> None:
        style.swatch(p, QRectF(x, y, 364, room), style.PANEL)
        x += 12
        ratio = s.hit_ratio
        value = "—" if ratio is None else f"{ratio:.2f}"
        value_w = style.width("0.00", style.HEAD_PT, bold=True) + 12
        label = "Hit ratio so far"
        if style.width(label, style.HEAD_PT, bold=True) > 330 - value_w:
            label = "Hit ratio"      # presentation sizes: the short form, whole
        head = style.text(p, x, y + 4, label, style.HEAD_PT, bold=True, w=330 - value_w)
        style.text(p, x + 330 - value_w, y + 4, value, style.HEAD_PT,
                   bold=True, w=value_w, align=Qt.AlignmentFlag.AlignRight)
        y += 4 + head
        self._ratio_bar(p, ratio, x, y - 2)
        y += 24
        y += style.text(p, x, y, f"hits {s.hits:,}   misses {s.misses:,}", w=340)
        y += 4 + style.text(p, x, y + 4, "Stagings completed", bold=True, w=340)
        cx = x
        for colour, name, n in zip(style.STAGE_COLOURS, ("record", "partial", "full"), s.stages):
            label = f"{name} {n:,}"
            step = style.px(18) + style.width(label) + 14
            if cx > x and cx - x + step - 14 > 340:     # wrap, as a legend does
                cx, y = x, y + style.line_height()
            style.swatch(p, QRectF(cx, y + style.px(4), style.px(14), style.px(14)), colour)
            style.text(p, cx + style.px(18), y, label, w=340 - (cx - x) - style.px(18))
            cx += step
        y += style.line_height() + 4
        style.text(p, x, y, f"Evictions: {s.evictions:,}", bold=True, w=340)
