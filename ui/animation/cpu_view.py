"""SRB/TCB view: a lane per engine, the unit of work moving at every mode switch.

zIIP lanes come first, general CPs below. The unit of work sits in the lane
of the engine that ran its latest CPU slice, labelled with its mode (SRB or
TCB, from the latest switch row) and the cause of that switch (from
``meta["causes"]``). Recent CPU slices are drawn as bars up to the "now"
line; counters on the right add up switches (by cause) and CPU time per
engine type as the replay advances.

A "switch" here is what the run's figures and the charts count: an SRB→TCB
switch (the ``srb_to_tcb`` rows, as ``app.replay.series.switch_chart`` and
the ``srb_switches`` metric count them). The switch back to SRB mode is told
apart as "back to SRB", never added to the switches.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QPainter, QPen

from app.names import cause_title
from app.replay.data import ReplayData
from models.engine import trace_vocab as V
from ui.animation import style
from ui.animation.base import ReplayViewBase

#: CPU slices drawn behind the "now" line.
RECENT_SLICES = 40
#: Units of work drawn at most (a session model has one; a busy system more).
MAX_UNITS = 6
SWITCH_KINDS = (V.SRB_TO_TCB, V.TCB_TO_SRB)


@dataclass
class Unit:
    """Where one unit of work is: its lane, mode and the last switch's cause."""

    uow: int
    lane: str
    mode: str
    cause: str
    switched_at: float
    from_lane: str = ""


@dataclass
class CpuState:
    """What the SRB/TCB view shows at one time."""

    lanes: list[str]
    units: list[Unit]
    #: SRB→TCB switches so far (the run's ``srb_switches`` at the end).
    switches: int
    #: Switches back, TCB→SRB, so far.
    back: int
    #: SRB→TCB switches so far by cause (``meta["causes"]`` names).
    causes: dict[str, int]
    cpu_us: dict[str, int]
    slices: list[tuple[str, float, float]] = field(default_factory=list)
    window: tuple[float, float] = (0.0, 1e-6)


class CpuView(ReplayViewBase):
    """Lanes per engine; the unit of work moves between zIIP and CP lanes."""

    TITLE = "SRB/TCB switches"
    CAPTION = ("Work on a zIIP runs as an enclave SRB (Natural, DB2 prefetch); every "
               "operating-system service it needs (timer, I/O wait, GETMAIN, SVC, a 3GL "
               "call) makes it switch to TCB mode on a general CP and back, and each "
               "switch costs CPU.")

    @classmethod
    def supports(cls, data: ReplayData) -> bool:
        return data.has(V.CPU_BUSY, *SWITCH_KINDS)

    def prepare(self, data: ReplayData | None) -> None:
        self._units: dict[int, dict[str, np.ndarray]] = {}
        if data is None:
            return
        busy = data.rows(V.CPU_BUSY)
        switch = np.sort(np.concatenate([data.rows(k) for k in SWITCH_KINDS]))
        for uow in np.unique(data.a[busy])[:MAX_UNITS]:
            rows_b = busy[data.a[busy] == uow]
            rows_s = switch[data.a[switch] == uow]
            self._units[int(uow)] = {"busy": rows_b, "busy_t": data.t[rows_b],
                                     "switch": rows_s, "switch_t": data.t[rows_s]}
        # What the counters count: the SRB→TCB rows (the chart's and the run's switches).
        self._to_tcb_rows = data.rows(V.SRB_TO_TCB)

    def compute(self, data: ReplayData, t: float) -> CpuState:
        self._ziips = set(data.component_names("zIIP"))
        lanes = data.component_names("zIIP") + data.component_names("CP")
        units = [u for u in (self._unit_at(data, uow, t) for uow in self._units) if u]
        n_sw = data.count(V.SRB_TO_TCB, t)
        cause_ids = np.bincount(data.b[self._to_tcb_rows[:n_sw]]) if n_sw else np.zeros(0)
        causes = {data.meta_name("causes", i): int(c) for i, c in enumerate(cause_ids) if c}
        cpu = {lane: data.total(lane, V.CPU_BUSY, "b", t) for lane in lanes}
        return CpuState(lanes, units, n_sw, data.count(V.TCB_TO_SRB, t), causes, cpu,
                        *self._recent(data, t))

    def _is_ziip(self, lane: str) -> bool:
        """Whether a lane is a zIIP (as the model recorded it, whatever its label)."""
        ziips = getattr(self, "_ziips", None)
        return lane in ziips if ziips is not None else lane.startswith("zIIP")

    def _unit_at(self, data: ReplayData, uow: int, t: float) -> Unit | None:
        u = self._units[uow]
        ib = int(np.searchsorted(u["busy_t"], t, side="right")) - 1
        if ib < 0:
            return None
        lane = data.components[data.comp[u["busy"][ib]]]
        js = int(np.searchsorted(u["switch_t"], t, side="right")) - 1
        if js < 0:
            return Unit(uow, lane, "SRB" if self._is_ziip(lane) else "TCB", "", -1.0)
        row = u["switch"][js]
        mode = "TCB" if data.kinds[data.kind[row]] == V.SRB_TO_TCB else "SRB"
        return Unit(uow, lane, mode, data.meta_name("causes", int(data.b[row])),
                    float(data.t[row]), data.components[data.comp[row]])

    def _recent(self, data: ReplayData, t: float):
        rows = data.rows(V.CPU_BUSY)
        n = data.count(V.CPU_BUSY, t)
        recent = rows[max(0, n - RECENT_SLICES):n]
        if not len(recent):
            return [], (t - 1e-6, t)
        starts = data.t[recent]
        ends = starts + data.b[recent] * 1e-6
        slices = [(data.components[c], float(s), float(e))
                  for c, s, e in zip(data.comp[recent], starts, ends)]
        lo = float(starts[0])
        return slices, (lo, max(t, lo + 1e-6))

    # ---- drawing --------------------------------------------------------------
    LEGEND = [(style.GREEN, "SRB mode / zIIP CPU", None), (style.ORANGE, "TCB mode", None),
              (style.BLUE, "general-CP CPU", None)]

    def min_height(self) -> float:
        """The counters in their short form with the two most frequent causes
        of switches (the reason the work moves, which the lesson asks about)."""
        line, head = style.line_height(), style.line_height(style.HEAD_PT)
        step = max(style.px(22), line + 2)      # a row of causes (_draw_causes)
        return style.px(56) + 6 + head + 5 * line + 2 * 2 + 2 * step + 4 + 16

    def draw(self, p: QPainter) -> None:
        s = self.state
        w, h = self.width(), self.height()
        # (Narrow at presentation sizes: the tab already names the view.)
        titles = (self.TITLE + " — where the work runs, why it moves", self.TITLE)
        title = next((t for t in titles if style.width(t, style.HEAD_PT, True) + 2 <= w - 32),
                     titles[-1])
        style.text(p, 16, 8, title, style.HEAD_PT, bold=True, w=w - 32)
        short = self._short(h)
        panel_w = self._panel_width(s, short, w)
        panel_x = w - 16 - panel_w
        now_x = panel_x - 60
        # The legend sits under the lanes (left), so the counters keep the
        # whole height of the right-hand panel.
        legend_h = style.legend_height(self.LEGEND, now_x + 24)
        top = style.px(56)
        lane_h = min(style.px(110), (h - top - style.px(28) - legend_h - 8) / max(1, len(s.lanes)))
        rows = {lane: top + i * lane_h for i, lane in enumerate(s.lanes)}
        boxes = {k: self._unit_box(u, rows, lane_h, now_x, k)
                 for k, u in enumerate(s.units) if u.lane in rows}
        for lane, y in rows.items():
            # The lane's text stops short of the unit of work's box in it.
            room = min([b.x() - 8 for k, b in boxes.items() if s.units[k].lane == lane],
                       default=now_x) - 24
            self._draw_lane(p, lane, y, lane_h, now_x, room)
        self._draw_slices(p, s, rows, lane_h, now_x)
        for k, box in boxes.items():
            self._draw_unit(p, s.units[k], rows, lane_h, box)
        style.legend(p, 16, top + len(rows) * lane_h + style.px(28), self.LEGEND, w=now_x + 24)
        self._draw_counters(p, s, panel_x, top, panel_w, short)

    def _draw_lane(self, p: QPainter, lane: str, y: float, lane_h: float, now_x: float,
                   room: float) -> None:
        """A lane: its engine's name and what runs there, in ``room`` (the
        text sits above the CPU slices, in the lower half of the lane)."""
        ziip = self._is_ziip(lane)
        style.swatch(p, QRectF(16, y + 4, now_x - 16 + 40, lane_h - 8), style.PANEL)
        style.text(p, 24, y + 8, lane, style.HEAD_PT, bold=True,
                   colour=style.GREEN if ziip else style.BLUE, w=room)
        if lane_h >= style.px(60):     # room for a second line inside the lane
            texts = (("zIIP: enclave SRB work", "enclave SRB work") if ziip
                     else ("general CP: TCB work", "TCB work"))
            shown = next((t for t in texts if style.width(t) + 2 <= room), "")
            if shown:
                style.text(p, 24, y + style.px(34), shown, colour=style.MUTED, w=room)

    def _draw_slices(self, p, s: CpuState, rows, lane_h, now_x) -> None:
        lo, hi = s.window
        x0, scale = 250.0, (now_x - 250.0) / (hi - lo)
        p.setPen(Qt.PenStyle.NoPen)
        for lane, a, b in s.slices:
            if lane not in rows:
                continue
            xa, xb = x0 + (a - lo) * scale, min(now_x, x0 + (b - lo) * scale)
            p.setBrush(style.GREEN if self._is_ziip(lane) else style.BLUE)
            p.drawRect(QRectF(xa, rows[lane] + lane_h * 0.55, max(2.0, xb - xa), lane_h * 0.3))
        bottom = style.px(56) + len(rows) * lane_h
        p.setPen(QPen(style.INK, style.px(2), Qt.PenStyle.DashLine))
        p.drawLine(QPointF(now_x, style.px(50)), QPointF(now_x, bottom))
        style.text(p, now_x + 6, bottom, "now", colour=style.MUTED, w=50)
        style.text(p, 24, bottom, f"CPU slices over the last {style.fmt_time(hi - lo)}",
                   colour=style.MUTED, w=now_x - 32, align=Qt.AlignmentFlag.AlignRight)

    def _unit_box(self, unit: Unit, rows, lane_h, now_x, k: int) -> QRectF:
        """Where the card of unit ``k`` goes: in its lane, left of "now"."""
        line = style.line_height()
        two_lines = bool(unit.cause) and lane_h - 12 >= 2 * line + 8
        width = min(style.px(210 if two_lines or not unit.cause else 330), now_x - 110)
        return QRectF(now_x + 40 - width - k * 12, rows[unit.lane] + 6 + k * 4, width,
                      2 * line + 8 if two_lines else min(lane_h - 12, line + 8))

    def _draw_unit(self, p, unit: Unit, rows, lane_h, box: QRectF) -> None:
        y = box.y()
        line = style.line_height()
        two_lines = box.height() >= 2 * line + 8
        colour = style.GREEN if unit.mode == "SRB" else style.ORANGE
        style.swatch(p, box, colour, style.INK, 2)
        head = f"work {unit.uow}: {unit.mode} mode"
        why = f"for {cause_title(unit.cause)}" if unit.cause else ""
        if unit.from_lane in rows and unit.from_lane != unit.lane:
            # The last switch: an arrow from the lane the work left to this one.
            ya = rows[unit.from_lane] + lane_h / 2
            p.setPen(QPen(style.VERMILLION, style.px(4)))
            p.drawLine(QPointF(box.x() - 20, ya), QPointF(box.x() - 20, y + 10))
            p.drawLine(QPointF(box.x() - 20, y + 10), QPointF(box.x(), y + 10))
        if two_lines:
            arrow = "→ TCB" if unit.mode == "TCB" else "→ SRB"
            style.text(p, box.x() + 8, box.y() + 4, head, bold=True, w=box.width() - 12)
            style.text(p, box.x() + 8, box.y() + 4 + line, f"{arrow} {why}",
                       w=box.width() - 12)
        else:
            # A narrow lane area (1024 wide, presentation sizes): the mode
            # without "mode" before the cause is dropped.
            texts = ([f"{head} · {cause_title(unit.cause)}",
                      f"work {unit.uow}: {unit.mode} · {cause_title(unit.cause)}"]
                     if why else []) + [head]
            room = box.width() - 12
            shown = next((t for t in texts if style.width(t, bold=True) + 2 <= room), texts[-1])
            style.text(p, box.x() + 8, box.y() + (box.height() - line) / 2, shown, bold=True,
                       w=room)

    # ---- counters -------------------------------------------------------------
    #: The counters panel's width on the desktop; wider when its lines need it
    #: (presentation sizes, large counts), up to this share of the view.
    PANEL_W = 384
    PANEL_SHARE = 0.45

    def _short(self, h: float) -> bool:
        """1024×640: smaller headings, causes while they fit."""
        return h - 16 - style.px(56) < 330

    def _counter_lines(self, s: CpuState, short: bool) -> list[tuple]:
        """The panel's lines above the causes: (gap above, points, bold, colour,
        texts), ``texts`` the line's wordings, longest first (the first that
        fits the panel is drawn)."""
        big, head = (style.HEAD_PT, style.TEXT_PT) if short else (style.BIG_PT, style.HEAD_PT)
        gap = 2 if short else 10
        text, ink = style.TEXT_PT, style.INK
        ziip = sum(v for k, v in s.cpu_us.items() if self._is_ziip(k))
        gcp = sum(v for k, v in s.cpu_us.items() if not self._is_ziip(k))
        share = f"{100 * gcp / (ziip + gcp):.0f} %" if ziip + gcp else ""
        lines = [(0, big, True, ink, (f"Switches: {s.switches:,}",)),
                 (0, text, False, ink, (f"to TCB mode, {s.back:,} back to SRB",
                                        f"to TCB, {s.back:,} back")),
                 (gap, head, True, ink, ("CPU used so far",)),
                 (0, text, False, style.GREEN, (f"on zIIPs: {ziip:,} µs",))]
        general = f"on general CPs: {gcp:,} µs"
        if short and share:     # one line less
            lines.append((0, text, False, style.BLUE,
                          (f"{general} ({share} of it)", f"{general} ({share})", general)))
        else:
            lines.append((0, text, False, style.BLUE, (general,)))
            if share:
                lines.append((0, text, False, ink, (f"share on general CPs: {share}",)))
        lines.append((gap, head, True, ink, ("Switches by cause",)))
        return lines

    def _panel_width(self, s: CpuState, short: bool, w: float) -> float:
        """Wide enough for the longest wording of each line and for the
        causes' titles beside their counts, within :attr:`PANEL_SHARE` of ``w``."""
        need = max(style.width(texts[0], pts, bold)
                   for _, pts, bold, _, texts in self._counter_lines(s, short))
        if s.causes:
            need = max(need, max(style.width(cause_title(c)) for c in s.causes)
                       + 2 + style.px(12) + style.width(f"{max(s.causes.values()):,}")
                       + style.px(60))
        return min(max(float(self.PANEL_W), need + style.px(24)), self.PANEL_SHARE * w)

    def _draw_counters(self, p, s: CpuState, x: float, y: float, panel_w: float,
                       short: bool) -> None:
        bottom = self.height() - 16
        style.swatch(p, QRectF(x, y, panel_w, bottom - y), style.PANEL)
        inner = panel_w - style.px(24)
        x += style.px(12)
        y += 6
        for gap, pts, bold, colour, texts in self._counter_lines(s, short):
            line = next((t for t in texts if style.width(t, pts, bold) + 2 <= inner), texts[-1])
            y += gap + style.text(p, x, y + gap, line, pts, bold=bold, colour=colour, w=inner)
        self._draw_causes(p, s, x, y, inner, bottom, short)

    def _draw_causes(self, p, s: CpuState, x, y, inner, bottom, short: bool) -> None:
        """The causes, most frequent first, as many as fit: title, bar, count."""
        top = max(s.causes.values(), default=1)
        ranked = sorted(s.causes.items(), key=lambda kv: -kv[1])
        step = max(style.px(22 if short else 26), style.line_height() + 2)
        fit = max(0, int((bottom - 4 - y) // step))
        shown = ranked[:min(8, fit if len(ranked) <= fit else max(0, fit - 1))]
        count_w = style.width(f"{top:,}") + style.px(12)
        # (+2: the painter's hinted metrics may round a title a pixel wider.)
        label_w = min(max((style.width(cause_title(c)) + 2 for c, _ in shown), default=0.0),
                      inner - count_w)
        bar_x, bar_w = x + label_w + style.px(6), inner - label_w - style.px(6)
        for cause, n in shown:
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(style.ORANGE)
            p.drawRect(QRectF(bar_x, y + 4, bar_w * n / top, step - 8))
            style.text(p, x, y, cause_title(cause), w=label_w)
            style.text(p, bar_x + style.px(6), y, f"{n:,}", w=bar_w - style.px(6))
            y += step
        if len(shown) < len(ranked):
            rest = sum(n for _, n in ranked[len(shown):])
            style.text(p, x, y, f"{len(ranked) - len(shown)} more causes: {rest:,} switches",
                       colour=style.MUTED, w=inner)
