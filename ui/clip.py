"""Animation clips: the real replay views rendered frame by frame, offscreen.

A clip is what the animation tab shows between two replay times, played at
a chosen speed. :class:`ClipStage` is a hidden widget holding a fresh view of
the same class as the one on screen (track reads, cache staging, SRB/TCB
switches, activity), fed by its own :class:`~ui.animation.ReplayController`
over the *same* :class:`~ui.animation.ReplayData`: each frame is a
``controller.seek(t)`` and a ``QWidget.render`` into a ``QImage``. Nothing
is drawn twice by different code, and the user's own view, time and window
size are not touched while a clip is written.

Under the view the stage shows the view's caption, the time read-out with
the clip speed ("t = 1.250 ms of 61.098 s · slowed 100×") and the run's
scrubber with its markers, so a slide says where in the run it is.

The image is laid out at ``size / scale`` and drawn at ``scale`` device
pixels per layout pixel (:func:`default_scale`: at least 1024×640 layout
pixels, at most 1280 wide), so a 1920×1080 clip has the screen's
proportions with text 1.5× as large, sharp on a projector, and an 800×450
GIF is the 1024×640-ish layout drawn smaller rather than a squeezed one.

:func:`render_clips` writes a clip headless (tests, command line);
:class:`ClipExport` does the same from the window a few frames at a time on
the GUI thread (widgets can only be drawn there), with progress and Cancel.
Encoding is :mod:`app.clip_encode` (imageio/ffmpeg for MP4, Pillow for GIF).
"""
from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field

import numpy as np
from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from app import atomic, clip_encode
from models.core.run import Cancelled
from ui.animation import style
from ui.animation.controller import READABLE, READABLE_MS, ReplayController
from app.replay.data import ReplayData
from ui.animation.timeline import ScrubBar

#: Layout width the views were designed for: wider clips scale up instead.
LAYOUT_WIDTH = 1280
#: Smallest layout the views read well in (the window's minimum, 1024×640).
MIN_LAYOUT = (1024, 640)
#: Frames spread over a clip that a GIF's one palette is made from.
PALETTE_SAMPLES = 8
#: Wall-clock time the exporter draws frames for before it lets the window
#: repaint and take a Cancel click (ms).
SLICE_MS = 60


def default_scale(size: tuple[int, int]) -> float:
    """Device pixels per layout pixel for a clip of ``size``.

    The views need about 1024×640 layout pixels (the window's own minimum):
    a smaller clip is that layout drawn smaller (800×450 → 0.70). Above
    1280 wide the layout stays 1280 wide and is drawn larger, as long as it
    keeps 640 in height (1920×1080 → 1.5, text 1.5× as large).
    """
    w, h = size
    small = min(w / MIN_LAYOUT[0], h / MIN_LAYOUT[1])
    if small < 1:
        return small
    return min(max(1.0, w / LAYOUT_WIDTH), h / MIN_LAYOUT[1])


def speed_text(speed: float) -> str:
    """How a clip's speed reads on a slide: "slowed 100×", "real time", "10× faster"."""
    if speed == READABLE:
        return "as fast as readable"
    if speed == 1:
        return "real time"
    if speed < 1:
        return f"slowed {1 / speed:,.0f}×"
    return f"{speed:g}× faster"


@dataclass
class ClipPlan:
    """Everything a clip needs, decided before the first frame.

    ``view_cls`` is a replay view class (``type(replay_view.current_view())``);
    ``targets`` maps a format ("mp4", "gif") to its file; ``speed`` is a
    factor of simulated time or :data:`READABLE`.
    """

    view_cls: type
    data: ReplayData
    targets: dict
    t0: float
    t1: float
    speed: float
    fps: float = 25
    size: tuple[int, int] = (1280, 720)
    scale: float | None = None
    caption: bool = True
    times: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        for fmt in self.targets:
            clip_encode.check(fmt, self.fps, self.size)
        if self.scale is None:
            self.scale = default_scale(self.size)
        self.times = clip_encode.frame_times(self.t0, self.t1, self.speed, self.fps,
                                             self.data.t, READABLE_MS / 1000)

    @property
    def frames(self) -> int:
        return len(self.times)

    @property
    def seconds(self) -> float:
        return self.frames / self.fps

    def palette_frames(self, stage: "ClipStage") -> list | None:
        """For a GIF: :data:`PALETTE_SAMPLES` frames spread over the clip (None: no GIF)."""
        if "gif" not in self.targets:
            return None
        picks = np.unique(np.linspace(0, self.frames - 1, min(self.frames, PALETTE_SAMPLES))
                          .round().astype(int))
        return [rgb_array(stage.frame(float(self.times[k]), self.size, self.scale))
                for k in picks]


class ClipStage(QWidget):
    """A hidden replay view (plus caption, time and scrubber) to render clip frames from."""

    def __init__(self, view_cls: type, data: ReplayData, speed: float = READABLE,
                 caption: bool = True, parent: QWidget | None = None):
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
        self.setAutoFillBackground(True)
        pal = self.palette()
        pal.setColor(QPalette.ColorRole.Window, style.BACKGROUND)
        pal.setColor(QPalette.ColorRole.WindowText, QColor("#000000"))
        self.setPalette(pal)
        self.speed = speed
        self.controller = ReplayController(self)
        self.view = view_cls()
        col = QVBoxLayout(self)
        # The view alone fills the frame; with the caption, a margin as on screen.
        col.setContentsMargins(*(4,) * 4 if caption else (0,) * 4)
        col.addWidget(self.view, 1)
        self.caption = self.readout = self.scrub = None
        if caption:
            self.caption = QLabel()
            self.caption.setWordWrap(True)
            self.caption.setFont(style.font(style.TEXT_PT + 1))
            self.readout = QLabel()
            self.readout.setFont(style.font(style.TEXT_PT))
            self.readout.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            self.scrub = ScrubBar(self.controller)
            self.scrub.setMaximumHeight(self.scrub.minimumHeight())
            for w in (self.caption, self.readout, self.scrub):
                col.addWidget(w)
        self.controller.set_data(data)
        self.view.set_data(data)
        if self.caption is not None:     # a view's caption depends on the data it shows
            self.caption.setText(self.view.caption_text())
        self.controller.time_changed.connect(self._on_controller_time_changed)
        self._on_controller_time_changed(self.controller.t)

    def _on_controller_time_changed(self, t: float) -> None:
        self.view.set_time(t)
        if self.readout is not None and self.controller.data is not None:
            self.readout.setText(f"t = {style.fmt_time(t)} of "
                                 f"{style.fmt_time(self.controller.data.t1)}   ·   "
                                 f"{speed_text(self.speed)}")

    def frame(self, t: float, size: tuple[int, int], scale: float = 1.0) -> QImage:
        """The stage at replay time ``t`` as a ``size`` image (``scale`` device px per px)."""
        w, h = size
        logical = (max(1, round(w / scale)), max(1, round(h / scale)))
        if (self.width(), self.height()) != logical or not self.isVisible():
            self.resize(*logical)
            self.show()          # hidden from the screen; lays the widgets out
        self.controller.seek(t)
        if self.view.t != self.controller.t:     # seek() is silent when t is unchanged
            self._on_controller_time_changed(self.controller.t)
        image = QImage(w, h, QImage.Format.Format_RGB32)
        image.setDevicePixelRatio(scale)
        image.fill(style.BACKGROUND)
        self.render(image)
        return image


def rgb_array(image: QImage) -> np.ndarray:
    """A QImage as an ``(h, w, 3)`` uint8 RGB array (a copy)."""
    img = image.convertToFormat(QImage.Format.Format_RGB888)
    w, h, stride = img.width(), img.height(), img.bytesPerLine()
    buf = np.frombuffer(img.constBits(), dtype=np.uint8, count=stride * h)
    return buf.reshape(h, stride)[:, : w * 3].reshape(h, w, 3).copy()


def render_clips(plan: ClipPlan, progress=None, cancel=None) -> list:
    """Write ``plan``'s clips now (blocking; needs a QApplication). Returns ClipInfo's."""
    stage = ClipStage(plan.view_cls, plan.data, plan.speed, plan.caption)
    try:
        palette = plan.palette_frames(stage)
        frames = (rgb_array(stage.frame(t, plan.size, plan.scale)) for t in plan.times)
        return clip_encode.write_clips(plan.targets, frames, plan.fps, plan.size,
                                       total=plan.frames, progress=progress, cancel=cancel,
                                       palette_frames=palette)
    finally:
        stage.close()
        stage.deleteLater()


class ClipExport(QObject):
    """Writes a :class:`ClipPlan` from the event loop, a slice of frames at a time.

    Signals: ``progressed(float)``, ``succeeded(list)`` of
    :class:`~app.clip_encode.ClipInfo`, ``failed(str)`` (one line),
    ``cancelled()``, and ``done()`` after any of them. :meth:`cancel` stops
    at the next frame; no file is then written.
    """

    progressed = Signal(float)
    succeeded = Signal(list)
    failed = Signal(str)
    cancelled = Signal()
    done = Signal()

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self.running = False
        self._cancel = False
        self._plan = None
        self._stage = None
        self._writers: list = []
        self._k = 0

    def start(self, plan: ClipPlan) -> bool:
        """Begin writing ``plan``; False (nothing started) if a clip is being written."""
        if self.running:
            return False
        stage = ClipStage(plan.view_cls, plan.data, plan.speed, plan.caption)
        try:
            palette = plan.palette_frames(stage)
            writers = [clip_encode.ClipWriter(path, fmt, plan.fps, plan.size, palette)
                       for fmt, path in plan.targets.items()]
        except (clip_encode.ClipError, OSError) as exc:
            stage.close()
            stage.deleteLater()
            self.failed.emit(str(exc))
            self.done.emit()
            return False
        self.running, self._cancel, self._plan, self._k = True, False, plan, 0
        self._writers, self._stage = writers, stage
        QTimer.singleShot(0, self._on_slice)
        return True

    def cancel(self) -> None:
        """Stop at the next frame; nothing is written."""
        self._cancel = True

    def stop(self) -> None:
        """Abandon a clip now (window closing): the temporary files are removed."""
        if self.running:
            self._finish(self.cancelled.emit)

    def _on_slice(self) -> None:
        if not self.running:        # stopped while this slice was queued
            return
        plan = self._plan
        end = time.perf_counter() + SLICE_MS / 1000
        try:
            while self._k < plan.frames and time.perf_counter() < end:
                if self._cancel:
                    raise Cancelled()
                frame = rgb_array(self._stage.frame(float(plan.times[self._k]), plan.size,
                                                    plan.scale))
                for wr in self._writers:
                    wr.add(frame)
                self._k += 1
            if self._cancel:
                raise Cancelled()
            if self._k < plan.frames:
                self.progressed.emit(self._k / plan.frames)
                QTimer.singleShot(0, self._on_slice)
                return
            infos = [wr.finish() for wr in self._writers]
        except Cancelled:
            self._finish(self.cancelled.emit)
        except (clip_encode.ClipError, atomic.WriteError, OSError) as exc:
            message = str(exc)
            self._finish(lambda: self.failed.emit(message))
        except Exception as exc:  # a bug must reach the user, not stop the loop silently
            traceback.print_exc()
            message = f"{type(exc).__name__}: {exc}"
            self._finish(lambda: self.failed.emit(message))
        else:
            self.progressed.emit(1.0)
            self._finish(lambda: self.succeeded.emit(infos))

    def _finish(self, report) -> None:
        for wr in self._writers:
            wr.abort()           # a no-op for a finished clip
        self._writers = []
        if self._stage is not None:
            self._stage.close()
            self._stage.deleteLater()
            self._stage = None
        self.running = False
        report()
        self.done.emit()
