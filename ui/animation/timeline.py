"""The replay timeline: transport buttons, speed, and a scrubber with markers.

The scrubber spans the whole run. Its grey relief is the number of trace
events per slice of time (where the run was busy); coloured ticks mark
notable moments from :func:`app.replay.data.markers` (tape changes,
cache-miss storms, SRB/TCB switch bursts). Clicking or dragging on it moves
the replay time; the controller does the rest.
"""
from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QStyle,
                               QVBoxLayout, QWidget)

from app.replay.data import markers
from ui.animation import style
from ui.animation.controller import READABLE, SPEEDS, ReplayController, speed_label

#: Columns of the event-density relief drawn under the scrubber.
DENSITY_BINS = 400
MARKER_COLOURS = {"tape": style.BLUE, "miss": style.VERMILLION, "switch": style.PURPLE}
MARKER_NAMES = {"tape": "tape change", "miss": "cache-miss storm", "switch": "switch burst"}


class ScrubBar(QWidget):
    """The run as a bar: density relief, markers, and the playhead."""

    def __init__(self, controller: ReplayController, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        self.setMinimumHeight(54)
        self.setMouseTracking(False)
        self.markers = []
        self._density = np.zeros(0)
        controller.data_changed.connect(self._on_controller_data_changed)
        controller.time_changed.connect(self.update)

    def _on_controller_data_changed(self) -> None:
        data = self.controller.data
        if data is None or not len(data):
            self.markers, self._density = [], np.zeros(0)
        else:
            self.markers = markers(data)
            span = max(data.t1 - data.t0, 1e-12)
            counts, _ = np.histogram(data.t, bins=DENSITY_BINS, range=(data.t0, data.t0 + span))
            self._density = np.sqrt(counts / max(1, counts.max()))
        self.setToolTip(self._tooltip())
        self.update()

    def _tooltip(self) -> str:
        kinds = sorted({m.kind for m in self.markers})
        if not kinds:
            return "Click or drag to move the replay time. No bursts or tape changes in this run."
        return "Click or drag to move the replay time. Marks: " + ", ".join(
            MARKER_NAMES[k] for k in kinds)

    def x_of(self, t: float) -> float:
        data = self.controller.data
        if data is None or data.t1 <= data.t0:
            return 8.0
        return 8 + (self.width() - 16) * (t - data.t0) / (data.t1 - data.t0)

    def t_of(self, x: float) -> float:
        data = self.controller.data
        if data is None:
            return 0.0
        frac = min(1.0, max(0.0, (x - 8) / max(1.0, self.width() - 16)))
        return data.t0 + frac * (data.t1 - data.t0)

    def paintEvent(self, event) -> None:  # noqa: N802  (Qt override)
        p = QPainter(self)
        w, h = self.width(), self.height()
        p.fillRect(0, 0, w, h, style.PANEL)
        n = len(self._density)
        if n:
            bw = (w - 16) / n
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(QColor("#BBBBBB"))
            for i in np.flatnonzero(self._density):
                bh = (h - 20) * self._density[i]
                p.drawRect(QRectF(8 + i * bw, h - 6 - bh, max(bw, 1.0), bh))
        for m in self.markers:
            x = self.x_of(m.t)
            p.setPen(QPen(MARKER_COLOURS.get(m.kind, style.INK), style.px(3)))
            p.drawLine(int(x), 2, int(x), 14)
        x = self.x_of(self.controller.t)
        p.setPen(QPen(style.INK, style.px(3)))
        p.drawLine(int(x), 0, int(x), h)
        p.end()

    def mousePressEvent(self, event) -> None:  # noqa: N802
        self.controller.seek(self.t_of(event.position().x()))

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if event.buttons() & Qt.MouseButton.LeftButton:
            self.controller.seek(self.t_of(event.position().x()))


class TimelineWidget(QWidget):
    """Step back, play/pause, step forward, speed, time read-out and scrubber."""

    def __init__(self, controller: ReplayController, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = controller
        # Qt's own media icons: "⏸" is not in DejaVu Sans and drew a missing-glyph box.
        icon = self.style().standardIcon
        self.back = QPushButton(icon(QStyle.StandardPixmap.SP_MediaSeekBackward), "Step back")
        self.play = QPushButton(icon(QStyle.StandardPixmap.SP_MediaPlay), "Play")
        self.forward = QPushButton(icon(QStyle.StandardPixmap.SP_MediaSeekForward), "Step")
        self.back.setToolTip("Back to the event before this moment")
        self.play.setToolTip("Play the run's replay from this moment at the chosen speed")
        self.forward.setToolTip("On to the next event of the run")
        self.speed = QComboBox()
        for s in SPEEDS + (READABLE,):
            self.speed.addItem(speed_label(s), s)
        self.speed.setCurrentIndex(self.speed.findData(controller.speed))
        self.speed.setToolTip("Replay speed as a multiple of simulated time; "
                              "'as fast as readable' shows one event time at a step.")
        self.readout = QLabel()
        # Long read-outs must not widen the window: let the label clip.
        self.readout.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.scrub = ScrubBar(controller)
        for wdg in (self.back, self.play, self.forward, self.speed, self.readout):
            wdg.setFont(style.font(style.TEXT_PT))
        self._lay_out()
        self.back.clicked.connect(controller.step_back)
        self.forward.clicked.connect(controller.step_forward)
        self.play.clicked.connect(controller.toggle)
        self.speed.currentIndexChanged.connect(self._on_speed_changed)
        controller.time_changed.connect(self._on_controller_time_changed)
        controller.playing_changed.connect(self._on_controller_playing_changed)
        self._on_controller_time_changed(controller.t)

    def _lay_out(self) -> None:
        """Buttons and read-out on top, the scrubber, then a hint and the marker legend."""
        row = QHBoxLayout()
        for wdg in (self.back, self.play, self.forward, QLabel("Speed:"), self.speed):
            row.addWidget(wdg)
        row.addWidget(self.readout, 1)
        self.legend = QLabel(" ".join(
            f"<span style='color:{MARKER_COLOURS[k].name()}'>▮</span> {MARKER_NAMES[k]}"
            for k in MARKER_NAMES))
        self.legend.setFont(style.font(style.TEXT_PT - 2))
        col = QVBoxLayout(self)
        col.setContentsMargins(6, 4, 6, 4)
        col.addLayout(row)
        col.addWidget(self.scrub)
        self.hint = hint = QLabel(
            "Click or drag on the bar to move in time; grey relief = events per moment.")
        hint.setFont(style.font(style.TEXT_PT - 2))
        # May wrap: at 2× scale this line alone held the page 935 px wide,
        # and the page scrolled sideways once a vertical scroll bar appeared.
        hint.setWordWrap(True)
        under = QHBoxLayout()
        under.addWidget(hint, 1)
        under.addWidget(self.legend)
        col.addLayout(under)

    def _on_speed_changed(self, index: int) -> None:
        self.controller.set_speed(self.speed.itemData(index))

    def _on_controller_playing_changed(self, playing: bool) -> None:
        pixmap = QStyle.StandardPixmap.SP_MediaPause if playing else QStyle.StandardPixmap.SP_MediaPlay
        self.play.setIcon(self.style().standardIcon(pixmap))
        self.play.setText("Pause" if playing else "Play")
        self.play.setToolTip("Stop the replay at this moment" if playing else
                             "Play the run's replay from this moment at the chosen speed")

    def _on_controller_time_changed(self, t: float) -> None:
        data = self.controller.data
        if data is None or not len(data):
            self._readout = None
            self.readout.setText("No trace: run an experiment to replay it.")
            return
        self._readout = (f"t = {style.fmt_time(t)} of {style.fmt_time(data.t1)}",
                         f"event {data.upto(t):,} of {len(data):,}")
        self._fit_readout()

    def _fit_readout(self) -> None:
        """Time and event number; where both do not fit (1024 px), the time
        alone, with both in the tooltip, rather than a number cut in half."""
        parts = getattr(self, "_readout", None)
        if parts is None:
            return
        one = "   ·   ".join(parts)
        fits = self.readout.fontMetrics().horizontalAdvance(one) <= self.readout.width()
        self.readout.setText(one if fits else parts[0])
        self.readout.setToolTip("" if fits else one)

    def resizeEvent(self, event) -> None:  # noqa: N802  (Qt override)
        super().resizeEvent(event)
        self._fit_readout()
