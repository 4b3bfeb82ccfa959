"""The replay clock: play, pause, step and scrub over a finished run's trace.

:class:`ReplayController` owns one number, the replay time ``t``, and says
when it changes (``time_changed``). Views compute everything they draw from
``t`` and the trace (see :mod:`app.replay.data`), so a step back or a jump
of the scrubber shows exactly what playing forward would have shown.

Speeds are factors of real (simulated) time, from 1/1000× to 1000×, or
"as fast as readable": one event time per ``READABLE_MS`` of wall clock, so
each record, hit or switch stays on screen long enough to be read.
"""
from __future__ import annotations

import time

from PySide6.QtCore import QObject, QTimer, Signal

from app.replay.data import ReplayData

#: Speed factors offered (simulated seconds per wall-clock second).
SPEEDS = (0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0)
#: The "as fast as readable" speed: a marker value, not a factor.
READABLE = 0.0
#: Wall-clock milliseconds each event time stays on screen at READABLE speed.
READABLE_MS = 350
#: Timer period while playing (ms): 60 frames per second.
FRAME_MS = 16


def speed_label(speed: float) -> str:
    """How a speed is shown: "1/100×", "10×" or "as fast as readable"."""
    if speed == READABLE:
        return "as fast as readable"
    if speed < 1:
        return f"1/{round(1 / speed)}×"
    return f"{speed:g}×"


class ReplayController(QObject):
    """Replay time over one run's :class:`ReplayData`.

    Signals
    -------
    time_changed(float)
        The replay time moved (play, step, scrub or a new trace).
    playing_changed(bool)
        Playback started or stopped.
    data_changed()
        A new trace was loaded.
    """

    time_changed = Signal(float)
    playing_changed = Signal(bool)
    data_changed = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.data: ReplayData | None = None
        self._t = 0.0
        self._speed = READABLE
        self._timer = QTimer(self)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self._on_timer_timeout)
        self._wall = 0.0
        self._since_step = 0.0

    # ---- state ------------------------------------------------------------
    @property
    def t(self) -> float:
        """The replay time (s)."""
        return self._t

    @property
    def speed(self) -> float:
        """Speed factor, or :data:`READABLE`."""
        return self._speed

    @property
    def playing(self) -> bool:
        return self._timer.isActive()

    def set_data(self, data: ReplayData | None) -> None:
        """Replay ``data`` from its first event (None: nothing to replay)."""
        self.pause()
        self.data = data
        self._t = data.t0 if data is not None else 0.0
        self.data_changed.emit()
        self.time_changed.emit(self._t)

    def set_speed(self, speed: float) -> None:
        """Set a factor from :data:`SPEEDS` (or any positive one) or :data:`READABLE`."""
        if speed < 0:
            raise ValueError(f"speed must be positive or READABLE, not {speed}")
        self._speed = float(speed)

    # ---- moves --------------------------------------------------------------
    def seek(self, t: float) -> None:
        """Jump to time ``t`` (clamped to the run)."""
        if self.data is None:
            return
        t = min(max(float(t), self.data.t0), self.data.t1)
        if t != self._t:
            self._t = t
            self.time_changed.emit(t)

    def step_forward(self) -> None:
        """Go to the next event time (all events at that time apply together)."""
        if self.data is not None:
            self.seek(self.data.next_time(self._t))

    def step_back(self) -> None:
        """Go back to the previous event time."""
        if self.data is not None:
            self.seek(self.data.prev_time(self._t))

    def play(self) -> None:
        """Start playing from the current time (from the start if at the end)."""
        if self.data is None or not len(self.data) or self.playing:
            return
        if self._t >= self.data.t1:
            self.seek(self.data.t0)
        self._wall = time.perf_counter()
        self._since_step = 0.0
        self._timer.start()
        self.playing_changed.emit(True)

    def pause(self) -> None:
        """Stop playing; the time stays where it is."""
        if self._timer.isActive():
            self._timer.stop()
            self.playing_changed.emit(False)

    def toggle(self) -> None:
        """Play if paused, pause if playing."""
        self.pause() if self.playing else self.play()

    def advance(self, wall_s: float) -> None:
        """Move time on as ``wall_s`` seconds of wall clock at the current speed.

        The timer calls this every frame; the benchmark and tests call it
        directly to play without waiting.
        """
        if self.data is None:
            return
        if self._speed == READABLE:
            self._since_step += wall_s
            if self._since_step * 1000 >= READABLE_MS:
                self._since_step = 0.0
                self.step_forward()
        else:
            self.seek(self._t + wall_s * self._speed)
        if self._t >= self.data.t1:
            self.pause()

    def _on_timer_timeout(self) -> None:
        now = time.perf_counter()
        wall, self._wall = now - self._wall, now
        self.advance(wall)
