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
from dataclasses import dataclass, replace

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath, QPen, QPolygonF

from app.replay.data import ReplayData
from models.engine import trace_vocab as V
from ui.animation import style
from ui.animation.base import ReplayViewBase

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
    flash: bool = False     # an SSD: no arm, no platter


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


def drive_type(data: ReplayData) -> str:
    """The drives' type (``SSD``, ``HDD15K`` …): the trace's own word when it
    records one (``meta["drive_types"]``), else the run's ``device`` parameter
    (:class:`~ui.animation.replay_view.ReplayView` puts it in ``meta``)."""
    types = data.meta.get("drive_types")
    if isinstance(types, dict) and types:
        kinds = set(types.values())
        return kinds.pop() if len(kinds) == 1 else "mixed"
    return str(data.meta.get("device") or "")


def _short_names(names: list[str]) -> tuple[str, list[str]]:
    """("Rank R1", ["drive 1", …]) for drives named "<rank> drive N"."""
    heads = {n.rsplit(" drive ", 1)[0] for n in names if " drive " in n}
    if len(heads) == 1 and all(" drive " in n for n in names):
        head = heads.pop()
        return head, [n[len(head) + 1:] for n in names]
    return "", list(names)


class TrackView(ReplayViewBase):
    """Rings of records per drive, lit as they pass under the head."""

    TITLE = "Track reads"
    CAPTION = ("A disk reads a record only when it passes under the head: first the arm "
               "seeks to the cylinder, then the platter turns to the record, then the "
               "records of the I/O light up one by one as they are read.")
    FLASH_CAPTION = ("An SSD has no arm and no platter: a stage reads the track's records "
                     "from flash after a fixed access time, and the drives of the rank "
                     "(and the lanes inside each) read in parallel.")

    @classmethod
    def supports(cls, data: ReplayData) -> bool:
        return data.has(V.TRACK_READ, V.SEEK)

    def prepare(self, data: ReplayData | None) -> None:
        self._max_cyl: dict[str, int] = {}
        self._rpt: dict[str, int] = {}
        self._flash = False
        if data is None:
            return
        self._flash = drive_type(data) == "SSD"
        # The control unit as the model named it (its canvas label).
        self._cu = data.first_of_role("CU", "CU")
        for drv in self._drives(data):
            seeks = data.rows_of(drv, V.SEEK)
            self._max_cyl[drv] = int(max(data.a[seeks].max(initial=0), data.b[seeks].max(initial=0), 1))
            reads = data.rows_of(drv, V.TRACK_READ)
            self._rpt[drv] = int(data.b[reads].max(initial=1))
        self._volume = next((v for v in data.component_names("VOL")
                             if len(data.rows_of(v, V.IO_START))), None)

    @staticmethod
    def _drives(data: ReplayData) -> list[str]:
        return data.component_names("DRV")[:MAX_DRIVES]

    def caption_text(self) -> str:
        return self.FLASH_CAPTION if self._flash else self.CAPTION

    def compute(self, data: ReplayData, t: float) -> TrackState:
        drives = [self._drive_at(data, d, t) for d in self._drives(data)]
        if self._flash:
            drives = [replace(d, flash=True, state={"positioning": "flash access"}.get(d.state, d.state))
                      for d in drives]
        io_id, done, pages = self._pages_at(data, t)
        return TrackState(drives, io_id, done, pages)

    def _records_on(self, data: ReplayData, drv: str) -> int:
        per = data.meta.get("records_per_track")
        return int(per) if isinstance(per, int) and per >= self._rpt[drv] else self._rpt[drv]

    def _drive_at(self, data: ReplayData, drv: str, t: float) -> DriveState:
        n = self._records_on(data, drv)
        seek = data.last_of(drv, V.SEEK, t)
        read = data.last_of(drv, V.TRACK_READ, t)
        nxt = data.next_of(drv, V.TRACK_READ, t)
        if seek > read and nxt >= 0:
            return self._positioning(data, drv, seek, nxt, t, n)
        if seek >= 0:
            cyl = float(data.b[seek])
        else:   # before its first seek the arm rests where that seek starts
            first = data.next_of(drv, V.SEEK, t)
            cyl = float(data.a[first]) if first >= 0 else 0.0
        if read < 0:
            return DriveState(drv, "idle", -1, n, (), 0.0, cyl, self._max_cyl[drv])
        track = int(data.a[read])
        lit = self._lit(data, drv, track, max(seek, 0), t)
        head, state = float(data.b[read]), "idle"
        next_seek = data.next_of(drv, V.SEEK, t)
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
        rows = data.rows_of(drv, V.TRACK_READ)
        n = data.count_of(drv, V.TRACK_READ, t)
        recent = rows[max(0, n - PASS_WINDOW):n]
        recent = recent[(recent > seek_row) & (data.a[recent] == track)]
        return tuple(int(r) for r in data.b[recent])

    def _pages_at(self, data: ReplayData, t: float) -> tuple[int, bool, list[Page]]:
        vol = self._volume
        start = data.last_of(vol, V.IO_START, t) if vol else -1
        if start < 0:
            return -1, False, []
        io_id, t_start = int(data.a[start]), data.t[start]
        end = self._end_of(data, vol, io_id, t_start)
        t_end = data.t[end] if end >= 0 else data.t1
        rows = []
        for kind in (V.CACHE_HIT, V.CACHE_MISS, V.CACHE_WAIT):
            times = data.times_of(self._cu, kind)
            lo = int(np.searchsorted(times, t_start, side="left"))
            hi = int(np.searchsorted(times, t_end, side="right"))
            rows.append(data.rows_of(self._cu, kind)[lo:min(hi, lo + MAX_PAGES)])
        # Other I/Os (DB2 runs two list prefetches at once) hit the same
        # control unit meanwhile: keep the first ``pages`` requests the
        # io_start row says this I/O carries, so the count is the I/O's own.
        own = int(data.b[start]) if data.b[start] > 0 else MAX_PAGES
        rows = np.sort(np.concatenate(rows))[:min(own, MAX_PAGES)]
        staged = data.rows_of(self._cu, V.STAGE)
        stage_t = data.times_of(self._cu, V.STAGE)
        s_lo = int(np.searchsorted(stage_t, t_start, side="left"))
        s_hi = int(np.searchsorted(stage_t, t, side="right"))
        staged_tracks = set(data.a[staged[s_lo:s_hi]].tolist())
        hit = data.kinds.index(V.CACHE_HIT) if V.CACHE_HIT in data.kinds else -1
        pages = []
        for r in rows:
            if data.b[r] < 1:
                continue          # a wait on a held stage names no record
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
        rows = data.rows_of(vol, V.IO_END)
        i = int(np.searchsorted(data.times_of(vol, V.IO_END), t_start, side="left"))
        for r in rows[i:i + 64]:
            if data.a[r] == io_id:
                return int(r)
        return -1

    # ---- drawing --------------------------------------------------------------
    #: Height of a drive's two text lines and the head marker above its ring,
    #: and of the arm gauge below it (px).
    TOP_PX, BOTTOM_PX = 64, 42
    #: Below this width a drive's text is the short form ("drive 3 · seek").
    NARROW_PX = 190

    def min_height(self) -> float:
        """Heading, the I/O's pages, the rank line, one row of drives with a
        ring of at least 14 px radius, and the legend."""
        s = self.state
        pages = style.px(54.0) if s.io_id >= 0 else 0.0
        drives = style.px(self.TOP_PX + self.BOTTOM_PX) + 2.24 * 14
        return (16 + style.line_height(style.HEAD_PT) + pages + style.line_height()
                + drives + 12 + self._legend(None, 16, 0, self.width() - 32, measure=True))

    def draw(self, p: QPainter) -> None:
        s = self.state
        w, h = self.width(), self.height()
        head = ("Flash reads — an SSD has no arm and no platter" if self._flash
                else self.TITLE + " — records light up as they pass under the head")
        y = 8 + style.text(p, 16, 8, head, style.HEAD_PT, bold=True, w=w - 32) + 4
        y += self._draw_pages(p, s, 16, y, w - 32)
        legend_h = self._legend(p, 16, h, w - 32, measure=True)
        rank, names = _short_names([d.name for d in s.drives])
        if rank:
            y += style.text(p, 16, y, f"{rank}: {len(names)} drive{'s' * (len(names) != 1)}",
                            bold=True)
        n = max(1, len(s.drives))
        room = h - y - legend_h - 8
        # Two rows of four when each ring still gets a useful size; else one
        # row of eight rather than labels running over the gauges above.
        rows = 2 if n > 4 and room / 2 >= style.px(self.TOP_PX + self.BOTTOM_PX) + 70 else 1
        cols = math.ceil(n / rows)
        cw, ch = (w - 32) / cols, room / rows
        for i, d in enumerate(s.drives):
            box = QRectF(16 + (i % cols) * cw, y + (i // cols) * ch, cw, ch)
            self._draw_drive(p, d, names[i], box)
        self._legend(p, 16, h - legend_h - 4, w - 32)

    def _legend(self, p: QPainter, x: float, y: float, w: float, measure: bool = False) -> float:
        items = self._legend_items()
        if measure:
            return style.legend_height(items, w)
        return style.legend(p, x, y, items, w=w)

    def _legend_items(self) -> list:
        items = [(style.BLUE, "record read in this pass", None)]
        if self._flash:
            items.append((style.ORANGE, "record being read from flash", None))
        else:
            items += [(style.ORANGE, "record the drive is positioning to", None),
                      (style.INK, "head", None)]
        items += [(style.GREEN, "page: cache hit", None),
                  (style.VERMILLION, "page: miss, waiting", None),
                  (style.SKY, "page: staged after a miss", None),
                  (style.EMPTY, "not read yet", None)]
        return items

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
            style.swatch(p, QRectF(x + i * bw, y + style.px(26), bw - 3, style.px(20)),
                         colours[pg.status])
        return style.px(54.0)

    def _draw_drive(self, p: QPainter, d: DriveState, name: str, box: QRectF) -> None:
        top, bottom = style.px(self.TOP_PX), style.px(self.BOTTOM_PX)
        r = max(8.0, min(box.width() * 0.3, (box.height() - top - bottom) / 2.24))
        c = QPointF(box.center().x(), box.y() + top + 1.12 * r)
        busy = d.state in ("positioning", "flash access")
        narrow = box.width() < style.px(self.NARROW_PX)
        state = {"positioning": "seeks", "flash access": "flash", "reading": "read"}.get(
            d.state, d.state) if narrow else d.state
        label = f"{name}{' · ' if narrow else ': '}{state}"
        pt = style.TEXT_PT - (2 if narrow else 1)
        # Eight drives at 1024 px: "drive 4 · seeks" whole, a point or two
        # smaller (with a margin: the drawn text elides at the box's width).
        while style.width(label, pt, bold=True) > box.width() - 4 and pt > 7:
            pt -= 1
        style.text(p, box.x(), box.y() + 2, label, pt, bold=True, w=box.width(),
                   align=Qt.AlignmentFlag.AlignHCenter, colour=style.ORANGE if busy else style.INK)
        where = ("nothing read yet" if not narrow else "—") if d.track < 0 else f"track {d.track}"
        if not d.flash and not narrow:
            where += f" · cyl {d.cylinder:.0f}"
        if d.state == "positioning" and not narrow:
            where += f" · rec {d.target} in {style.fmt_time(d.wait_s)}"
        lines = [where]
        if style.width(where, style.TEXT_PT - 2) > box.width() and " · rec " in where:
            # Too wide for the ring's column: the target record goes on a line
            # of its own (there is room above the ring), rather than cut off.
            lines = where.split(" · rec ")
            lines[1] = "rec " + lines[1]
        for k, line in enumerate(lines):
            style.text(p, box.x(), box.y() + style.px(22 + 17 * k), line, style.TEXT_PT - 2,
                       w=box.width(), align=Qt.AlignmentFlag.AlignHCenter, colour=style.MUTED)
        if d.flash:
            self._draw_flash(p, d, QRectF(c.x() - 1.1 * r, c.y() - 1.1 * r, 2.2 * r, 2.2 * r))
            return
        lit = set(d.lit)
        slot = 360.0 / max(1, d.records)
        pen_w = max(4.0, r * 0.24)
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
        self._draw_head(p, c, r + pen_w / 2 + 2, 90 - d.head * slot, style.px(18))
        gauge_w = min(box.width() - 20, 220)
        # Below the reach of the head marker (18 px outside the ring).
        self._draw_arm(p, d, QRectF(c.x() - gauge_w / 2, c.y() + r + pen_w / 2 + style.px(24),
                                    gauge_w, style.px(10)))

    @staticmethod
    def _draw_flash(p: QPainter, d: DriveState, r: QRectF) -> None:
        """A flash package: one cell per record of the track, lit as read."""
        n = max(1, d.records)
        cols = math.ceil(math.sqrt(n))
        rows = math.ceil(n / cols)
        cw, ch = r.width() / cols, r.height() / rows
        lit = set(d.lit)
        for rec in range(1, n + 1):
            i = rec - 1
            colour = style.BLUE if rec in lit else style.EMPTY
            if d.state == "flash access" and rec == d.target:
                colour = style.ORANGE
            style.swatch(p, QRectF(r.x() + (i % cols) * cw + 1, r.y() + (i // cols) * ch + 1,
                                   cw - 2, ch - 2), colour)

    @staticmethod
    def _draw_head(p: QPainter, c: QPointF, radius: float, deg: float, length: float = 18) -> None:
        ang = math.radians(deg)
        tip = QPointF(c.x() + radius * math.cos(ang), c.y() - radius * math.sin(ang))
        out = QPointF(c.x() + (radius + length) * math.cos(ang),
                      c.y() - (radius + length) * math.sin(ang))
        half = 7 * length / 18
        side = QPointF(-half * math.sin(ang), -half * math.cos(ang))
        p.setPen(QPen(style.INK, 1))
        # Black, not the vermillion of a page that missed: two meanings, two colours.
        p.setBrush(style.INK)
        p.drawPolygon(QPolygonF([tip, out + side, out - side]))

    @staticmethod
    def _draw_arm(p: QPainter, d: DriveState, r: QRectF) -> None:
        """The arm gauge: where the arm is between the first and last cylinder
        (the cylinder number is in the text above the ring)."""
        style.swatch(p, r, style.PANEL)
        x = r.x() + r.width() * min(1.0, d.cylinder / max(1, d.max_cylinder))
        path = QPainterPath()
        path.addRoundedRect(QRectF(x - 6, r.y() - 5, 12, r.height() + 10), 3, 3)
        p.fillPath(path, style.ORANGE if d.state == "positioning" else style.INK)
