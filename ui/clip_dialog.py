"""Export ▸ Animation clip: which view, from when to when, how fast, which file.

:class:`ClipDialog` asks for the view (the tab in front by default), the
replay times the clip starts and ends at (default: from where the replay is
now, about eight seconds of clip), the speed (the replay's own by default),
the format (MP4, GIF or both), the pixel size and the frame rate. A line
under the fields says how long the clip will play and how many frames it
has, or, in one sentence, why it cannot be written; Save is off until the
clip can be written. :meth:`ClipDialog.plan` turns the answers into a
:class:`ui.clip.ClipPlan`.
"""
from __future__ import annotations

import re

from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout,
                               QLabel, QLineEdit, QVBoxLayout, QWidget)

from app import clip_encode
from ui.animation import style
from ui.animation.controller import READABLE, READABLE_MS, SPEEDS, speed_label
from ui.clip import ClipPlan, default_scale

#: Seconds of clip the default window gives at the chosen speed.
DEFAULT_CLIP_S = 8.0
#: Sizes offered: (width, height, what it is for). The first is the default.
SIZES = ((1280, 720, "16:9 slide"), (1920, 1080, "16:9, full HD"),
         (1024, 768, "4:3 projector"), (960, 540, "16:9, small file"),
         (800, 450, "small GIF"))
FORMATS = (("mp4", "MP4 video (slides, PowerPoint, browsers)"),
           ("gif", "GIF animation (plays anywhere, larger file)"),
           ("both", "MP4 and GIF"))

_UNITS = {"s": 1.0, "ms": 1e-3, "µs": 1e-6, "us": 1e-6, "ns": 1e-9}
_TIME = re.compile(r"^\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([a-zµ]*)\s*$")


def parse_time(text: str) -> float:
    """``"12.5 ms"`` → 0.0125; s, ms, µs (or us) and ns; a bare number is seconds."""
    m = _TIME.match(text.replace(",", ""))
    if not m or m.group(2) not in ("", *_UNITS):
        raise ValueError(f"'{text.strip()}' is not a time: type e.g. 52 ms, 1.5 s or 300 µs")
    return float(m.group(1)) * _UNITS.get(m.group(2) or "s")


def formats_of(choice: str) -> tuple[str, ...]:
    """The clip formats a Format choice writes ("both" → MP4 and GIF)."""
    return ("mp4", "gif") if choice == "both" else (choice,)


class _TimeEdit(QLineEdit):
    """A replay time typed with its unit; keeps the exact value it was given."""

    def __init__(self, t: float) -> None:
        super().__init__()
        self.set_time(t)

    def set_time(self, t: float) -> None:
        self._exact, self._shown = t, style.fmt_time(t)
        self.setText(self._shown)

    def typed(self) -> bool:
        """True once the text is not the value it was given."""
        return self.text() != self._shown

    def time(self) -> float:
        if not self.typed():
            return self._exact
        return parse_time(self.text())


class ClipDialog(QDialog):
    """Asks for the clip of ``replay`` (a :class:`ui.animation.ReplayView` with a run)."""

    def __init__(self, replay, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Animation clip")
        self.replay = replay
        data, ctl = replay.data, replay.controller
        self.view = QComboBox()
        for title, view in replay.views.items():
            self.view.addItem(title, type(view))
        current = replay.current_view()
        self.view.setCurrentIndex(max(0, self.view.findData(type(current))))
        self.speed = QComboBox()
        for s in SPEEDS + (READABLE,):
            self.speed.addItem(speed_label(s), s)
        self.speed.setCurrentIndex(max(0, self.speed.findData(ctl.speed)))
        self.speed.setToolTip("Simulated time per second of clip; 'as fast as readable' "
                              f"holds each event time {READABLE_MS} ms, as the replay does.")
        start = ctl.t if ctl.t < data.t1 else data.t0
        self.t_from = _TimeEdit(start)
        self.t_to = _TimeEdit(self._default_end(start))
        for w in (self.t_from, self.t_to):
            w.setToolTip(f"A replay time between {style.fmt_time(data.t0)} and "
                         f"{style.fmt_time(data.t1)}, e.g. 52 ms, 1.5 s or 300 µs.")
        self.format = QComboBox()
        for key, text in FORMATS:
            self.format.addItem(text, key)
        self.size = QComboBox()
        for w, h, what in SIZES:
            self.size.addItem(f"{w} × {h}  ({what})", f"{w}x{h}")
        self.fps = QComboBox()
        self.caption = QCheckBox("Caption, time and scrubber under the view")
        self.caption.setChecked(True)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setText("Save clip…")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)

        form = QFormLayout()
        form.addRow("View:", self.view)
        form.addRow("From:", self.t_from)
        form.addRow("To:", self.t_to)
        form.addRow("Speed:", self.speed)
        form.addRow("Format:", self.format)
        form.addRow("Size:", self.size)
        form.addRow("Frames per second:", self.fps)
        form.addRow("", self.caption)
        col = QVBoxLayout(self)
        col.addWidget(QLabel(f"The run replays from {style.fmt_time(data.t0)} to "
                             f"{style.fmt_time(data.t1)}; the clip shows the same replay."))
        col.addLayout(form)
        col.addWidget(self.summary)
        col.addWidget(self.buttons)

        self._fill_fps()
        self.format.currentIndexChanged.connect(self._on_format_changed)
        self.speed.currentIndexChanged.connect(self._on_speed_changed)
        for sig in (self.t_from.textChanged, self.t_to.textChanged, self.size.currentIndexChanged,
                    self.fps.currentIndexChanged, self.view.currentIndexChanged):
            sig.connect(self._update_summary)
        self._update_summary()

    # ---- defaults -----------------------------------------------------------
    def _default_end(self, start: float) -> float:
        """About DEFAULT_CLIP_S seconds of clip after ``start`` at the chosen speed."""
        data, speed = self.replay.data, self.speed.currentData()
        if speed == READABLE:
            t = start
            for _ in range(max(1, round(DEFAULT_CLIP_S * 1000 / READABLE_MS)) - 1):
                t = data.next_time(t)          # event times, not rows (many share one)
            return t
        return min(data.t1, start + DEFAULT_CLIP_S * speed)

    def _on_speed_changed(self, _index: int) -> None:
        if not self.t_to.typed():        # the end the user typed stays
            try:
                self.t_to.set_time(self._default_end(self.t_from.time()))
            except ValueError:
                pass
        self._update_summary()

    def _on_format_changed(self, _index: int) -> None:
        self._fill_fps()
        self._update_summary()

    def _fill_fps(self) -> None:
        """A GIF keeps its timing only at rates dividing 100; offer those then."""
        was = self.fps.currentData() or 25
        rates = (clip_encode.GIF_FPS if "gif" in formats_of(self.format.currentData())
                 else clip_encode.MP4_FPS)
        self.fps.blockSignals(True)
        self.fps.clear()
        for r in rates:
            self.fps.addItem(str(r), r)
        self.fps.setCurrentIndex(max(0, self.fps.findData(was if was in rates else 25)))
        self.fps.blockSignals(False)

    # ---- the answer -----------------------------------------------------------
    def plan(self, targets: dict | None = None) -> ClipPlan:
        """A :class:`ClipPlan` for the answers (ValueError: one line on what is wrong).

        ``targets`` maps format to file; without it, placeholder names (for
        checking the answers before a file is chosen).
        """
        data = self.replay.data
        t0, t1 = self.t_from.time(), self.t_to.time()
        for name, t in (("start", t0), ("end", t1)):
            if not data.t0 <= t <= data.t1:
                raise ValueError(f"the {name} {style.fmt_time(t)} is outside the run "
                                 f"({style.fmt_time(data.t0)} to {style.fmt_time(data.t1)})")
        if t1 <= t0:
            raise ValueError("the clip must end after it starts")
        size = tuple(int(x) for x in self.size.currentData().split("x"))
        if targets is None:
            targets = {fmt: f"clip.{fmt}" for fmt in formats_of(self.format.currentData())}
        return ClipPlan(self.view.currentData(), data, targets, t0, t1,
                        self.speed.currentData(), self.fps.currentData(),
                        size, default_scale(size),
                        self.caption.isChecked())

    def _update_summary(self, *_args) -> None:
        save = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        try:
            plan = self.plan()
        except ValueError as exc:           # ClipError is a ValueError
            text = str(exc)
            self.summary.setText(f"<span style='color:#B00020'>{text[:1].upper()}{text[1:]}."
                                 "</span>")
            save.setEnabled(False)
            return
        w, h = plan.size
        self.summary.setText(f"The clip plays {plan.seconds:.1f} s: {plan.frames:,} frames of "
                             f"{w} × {h} at {plan.fps:g} per second, replay time "
                             f"{style.fmt_time(plan.t0)} to {style.fmt_time(plan.t1)}.")
        save.setEnabled(True)
