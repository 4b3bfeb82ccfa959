"""Track-read view: each drive's current track as a ring of records, the head, the arm.

One ring per drive (the one 3390 device, or the drives of a RAID rank). A
ring is the logical 3390 track the drive is on, its records as arcs with
gaps; records read in the current pass light up as the trace says they
pass under the head (``track_read`` rows), and the head marker moves from
record to record between those times. A ``seek`` row starts a positioning
phase: the arm gauge under the ring moves from the old to the new cylinder
until the first record after it is read (the trace does not split seek from
rotational delay, so the view labels the two together).

Above the rings, the pages of the current I/O (``cache_hit``/``cache_miss``
rows of the control unit between its ``io_start`` and ``io_end``) are shown
in list order: with FICON they are handled one at a time, with the List
Prefetch Optimizer many drives work at once.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath, QPen, QPolygonF

from ui.animation import style
from ui.animation.base import ReplayViewBase
from ui.animation.data import ReplayData

#: Drives drawn at most (a RAID-5 rank has 8).
MAX_DRIVES = 8
#: Pages of the current I/O drawn at most (a list prefetch has up to 32; utilities 64).
MAX_PAGES = 64
#: Reads looked back over to find the records lit in the current pass.
PASS_WINDOW = 128


@dataclass
class DriveState:
    """What one drive shows: its track, lit records, head and arm."""

    name: str
    state: str              # idle | positioning | reading
    track: int              # -1 before the drive's first record
    records: int            # records on the ring
    lit: tuple[int, ...]    # 1-based records read in the current pass, in order
    head: float             # head position in records (0 = start of record 1)
    cylinder: float
    max_cylinder: int
    wait_s: float = 0.0     # time left positioning
    target: int = 0         # record the drive is positioning to (0: none)


@dataclass
class Page:
    """One page of the current I/O: where it is and how it is being served."""

    track: int
    record: int
    status: str             # waiting | hit | miss | staged


@dataclass
class TrackState:
    """What the track-read view shows at one time."""

    drives: list[DriveState]
    io_id: int
    io_done: bool
    pages: list[Page]


class TrackView(ReplayViewBase):
    """Rings of records per drive, lit as they pass under the head."""

    TITLE = "Track reads"
    CAPTION = ("A disk reads a record only when it passes under the head: first the arm "
               "seeks to the cylinder, then the platter turns to the record, then the "
               "records of the I/O light up one by one as they are read.")

    @classmethod
    def supports(cls, data: ReplayData) -> bool:
        return data.has("track_read", "seek")

    def prepare(self, data: ReplayData | None) -> None:
        self._max_cyl: dict[str, int] = {}
        self._rpt: dict[str, int] = {}
        if data is None:
            return
        # The control unit as the model named it (its canvas label).
        self._cu = data.first_of_role("CU", "CU")
        for drv in self._drives(data):
            seeks = data.rows_of(drv, "seek")
            self._max_cyl[drv] = int(max(data.a[seeks].max(initial=0), data.b[seeks].max(initial=0), 1))
            reads = data.rows_of(drv, "track_read")
            self._rpt[drv] = int(data.b[reads].max(initial=1))
        self._volume = next((v for v in data.component_names("VOL")
                             if len(data.rows_of(v, "io_start"))), None)

    @staticmethod
    def _drives(data: ReplayData) -> list[str]:
        return data.component_names("DRV")[:MAX_DRIVES]

    def compute(self, data: ReplayData, t: float) -> TrackState:
        drives = [self._drive_at(data, d, t) for d in self._drives(data)]
        io_id, done, pages = self._pages_at(data, t)
        return TrackState(drives, io_id, done, pages)

    def _records_on(self, data: ReplayData, drv: str) -> int:
        per = data.meta.get("records_per_track")
        return int(per) if isinstance(per, int) and per >= self._rpt[drv] else self._rpt[drv]

    def _drive_at(self, data: ReplayData, drv: str, t: float) -> DriveState:
        n = self._records_on(data, drv)
        seek = data.last_of(drv, "seek", t)
        read = data.last_of(drv, "track_read", t)
        nxt = data.next_of(drv, "track_read", t)
        if seek > read and nxt >= 0:
            return self._positioning(data, drv, seek, nxt, t, n)
        if seek >= 0:
            cyl = float(data.b[seek])
        else:   # before its first seek the arm rests where that seek starts
            first = data.next_of(drv, "seek", t)
            cyl = float(data.a[first]) if first >= 0 else 0.0
        if read < 0:
            return DriveState(drv, "idle", -1, n, (), 0.0, cyl, self._max_cyl[drv])
        track = int(data.a[read])
        lit = self._lit(data, drv, track, max(seek, 0), t)
        head, state = float(data.b[read]), "idle"
        next_seek = data.next_of(drv, "seek", t)
        if nxt >= 0 and data.a[nxt] == track and not 0 <= next_seek < nxt:
            # Between two records of one pass the head moves on at the
            # rotation rate the two read times imply.
            frac = (t - data.t[read]) / max(data.t[nxt] - data.t[read], 1e-12)
            head = float(data.b[read]) + frac * float(data.b[nxt] - data.b[read])
            state = "reading"
        return DriveState(drv, state, track, n, lit, head, cyl, self._max_cyl[drv])

    def _positioning(self, data, drv, seek, nxt, t, n) -> DriveState:
        t0, t1 = data.t[seek], data.t[nxt]
        frac = min(1.0, (t - t0) / max(t1 - t0, 1e-12))
        cyl = data.a[seek] + frac * (data.b[seek] - data.a[seek])
        target = int(data.b[nxt])
        return DriveState(drv, "positioning", int(data.a[nxt]), n, (), target - 1.0,
                          float(cyl), self._max_cyl[drv], float(t1 - t), target)

    @staticmethod
    def _lit(data: ReplayData, drv: str, track: int, seek_row: int, t: float) -> tuple[int, ...]:
        """Records of ``track`` read by ``drv`` since its last seek, up to ``t``."""
        rows = data.rows_of(drv, "track_read")
        n = data.count_of(drv, "track_read", t)
        recent = rows[max(0, n - PASS_WINDOW):n]
        recent = recent[(recent > seek_row) & (data.a[recent] == track)]
        return tuple(int(r) for r in data.b[recent])

    def _pages_at(self, data: ReplayData, t: float) -> tuple[int, bool, list[Page]]:
        vol = self._volume
        start = data.last_of(vol, "io_start", t) if vol else -1
        if start < 0:
            return -1, False, []
        io_id, t_start = int(data.a[start]), data.t[start]
        end = self._end_of(data, vol, io_id, t_start)
        t_end = data.t[end] if end >= 0 else data.t1
        rows = []
        for kind in ("cache_hit", "cache_miss"):
            times = data.times_of(self._cu, kind)
            lo = int(np.searchsorted(times, t_start, side="left"))
            hi = int(np.searchsorted(times, t_end, side="right"))
            rows.append(data.rows_of(self._cu, kind)[lo:min(hi, lo + MAX_PAGES)])
        rows = np.sort(np.concatenate(rows))[:MAX_PAGES]
        staged = data.rows_of(self._cu, "stage")
        stage_t = data.times_of(self._cu, "stage")
        s_lo = int(np.searchsorted(stage_t, t_start, side="left"))
        s_hi = int(np.searchsorted(stage_t, t, side="right"))
        staged_tracks = set(data.a[staged[s_lo:s_hi]].tolist())
        hit = data.kinds.index("cache_hit") if "cache_hit" in data.kinds else -1
        pages = []
        for r in rows:
            if data.t[r] > t:
                status = "waiting"
            elif data.kind[r] == hit:
                status = "hit"
            else:
                status = "staged" if int(data.a[r]) in staged_tracks else "miss"
            pages.append(Page(int(data.a[r]), int(data.b[r]), status))
        return io_id, bool(end >= 0 and data.t[end] <= t), pages

    @staticmethod
    def _end_of(data: ReplayData, vol: str, io_id: int, t_start: float) -> int:
        """Row of the ``io_end`` of I/O ``io_id`` (looked for among the next 64)."""
        rows = data.rows_of(vol, "io_end")
        i = int(np.searchsorted(data.times_of(vol, "io_end"), t_start, side="left"))
        for r in rows[i:i + 64]:
            if data.a[r] == io_id:
                return int(r)
        return -1

    # ---- drawing --------------------------------------------------------------
    def draw(self, p: QPainter) -> None:
        s = self.state
        w, h = self.width(), self.height()
        style.text(p, 16, 8, self.TITLE + " — records light up as they pass under the head",
                   style.HEAD_PT, bold=True)
        y = 40 + self._draw_pages(p, s, 16, 40, w - 32)
        legend_h = 60
        n = max(1, len(s.drives))
        cols = min(4, n)
        rows = math.ceil(n / cols)
        cw, ch = (w - 32) / cols, (h - y - legend_h) / rows
        for i, d in enumerate(s.drives):
            self._draw_drive(p, d, QRectF(16 + (i % cols) * cw, y + (i // cols) * ch, cw, ch))
        style.legend(p, 16, h - legend_h + 6, [
            (style.BLUE, "record read in this pass", None),
            (style.ORANGE, "record the drive is positioning to (seek + rotation)", None),
            (style.VERMILLION, "head", None),
            (style.GREEN, "page: cache hit", None),
            (style.VERMILLION, "page: miss, waiting for a drive", None),
            (style.SKY, "page: miss, now staged", None),
            (style.EMPTY, "not read yet", None)], w=w - 32)

    def _draw_pages(self, p: QPainter, s: TrackState, x: float, y: float, w: float) -> float:
        if s.io_id < 0:
            return 0.0
        done = "done" if s.io_done else "in progress"
        counts = {k: sum(pg.status == k for pg in s.pages) for k in ("hit", "miss", "staged")}
        n = len(s.pages)
        pages = f"{n} page{'' if n == 1 else 's'}"
        style.text(p, x, y, f"I/O {s.io_id} ({done}): {pages} in list order —"
                   f" {counts['hit']} hits, {counts['miss']} waiting for a drive, "
                   f"{counts['staged']} staged after a miss", w=w)
        colours = {"waiting": style.EMPTY, "hit": style.GREEN, "miss": style.VERMILLION,
                   "staged": style.SKY}
        bw = min(36.0, w / max(1, len(s.pages)))
        for i, pg in enumerate(s.pages):
            style.swatch(p, QRectF(x + i * bw, y + 26, bw - 3, 22), colours[pg.status])
        return 58.0

    def _draw_drive(self, p: QPainter, d: DriveState, box: QRectF) -> None:
        # Room from the top: title (26), head marker (20), half the ring's
        # width (0.12 r); below: the arm gauge and its label (40).
        r = max(10.0, min(box.width() * 0.3, (box.height() - 112) / 2.24))
        c = QPointF(box.center().x(), box.y() + 68 + 1.12 * r)
        style.text(p, box.x(), box.y() + 2, f"{d.name}: {d.state}", bold=True,
                   w=box.width(), align=Qt.AlignmentFlag.AlignHCenter,
                   colour=style.ORANGE if d.state == "positioning" else style.INK)
        where = "no record read yet" if d.track < 0 else f"track {d.track}"
        if d.state == "positioning":
            where += f" · record {d.target} in {style.fmt_time(d.wait_s)}"
        style.text(p, box.x(), box.y() + 24, where, style.TEXT_PT - 1, w=box.width(),
                   align=Qt.AlignmentFlag.AlignHCenter, colour=style.MUTED)
        lit = set(d.lit)
        slot = 360.0 / max(1, d.records)
        pen_w = max(6.0, r * 0.24)
        ring = QRectF(c.x() - r, c.y() - r, 2 * r, 2 * r)
        for rec in range(1, d.records + 1):
            colour = style.BLUE if rec in lit else style.EMPTY
            colour = style.ORANGE if rec == d.target else colour
            p.setPen(QPen(colour, pen_w, Qt.PenStyle.SolidLine, Qt.PenCapStyle.FlatCap))
            start = 90 - (rec - 1) * slot - slot * 0.1
            p.drawArc(ring, int(start * 16), int(-slot * 0.8 * 16))
        if d.records <= 24 and pen_w >= 18:
            for rec in range(1, d.records + 1):
                ang = math.radians(90 - (rec - 0.5) * slot)
                ink = style.BACKGROUND if rec in lit else style.INK
                style.text(p, c.x() + r * math.cos(ang) - 15, c.y() - r * math.sin(ang) - 10,
                           str(rec), style.TEXT_PT - 3, colour=ink, w=30,
                           align=Qt.AlignmentFlag.AlignHCenter)
        self._draw_head(p, c, r + pen_w / 2 + 2, 90 - d.head * slot)
        self._draw_arm(p, d, QRectF(box.x() + 20, c.y() + r + pen_w / 2 + 8,
                                    box.width() - 40, 10))

    @staticmethod
    def _draw_head(p: QPainter, c: QPointF, radius: float, deg: float) -> None:
        ang = math.radians(deg)
        tip = QPointF(c.x() + radius * math.cos(ang), c.y() - radius * math.sin(ang))
        out = QPointF(c.x() + (radius + 18) * math.cos(ang), c.y() - (radius + 18) * math.sin(ang))
        side = QPointF(-7 * math.sin(ang), -7 * math.cos(ang))
        p.setPen(QPen(style.INK, 1))
        p.setBrush(style.VERMILLION)
        p.drawPolygon(QPolygonF([tip, out + side, out - side]))

    @staticmethod
    def _draw_arm(p: QPainter, d: DriveState, r: QRectF) -> None:
        style.swatch(p, r, style.PANEL)
        x = r.x() + r.width() * min(1.0, d.cylinder / max(1, d.max_cylinder))
        path = QPainterPath()
        path.addRoundedRect(QRectF(x - 6, r.y() - 5, 12, r.height() + 10), 3, 3)
        p.fillPath(path, style.ORANGE if d.state == "positioning" else style.INK)
        style.text(p, r.x(), r.y() + r.height(), f"arm at cylinder {d.cylinder:.0f}",
                   style.TEXT_PT - 2, colour=style.MUTED, w=r.width(),
                   align=Qt.AlignmentFlag.AlignHCenter)
