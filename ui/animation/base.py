"""Common ground of the replay views: data, time, state, caption.

A view is a plain QWidget painted with QPainter. On every time change it
asks its pure :meth:`ReplayViewBase.compute` for a small state object (what
is lit, where the unit of work is, the counters) and repaints from that state
only. Tests read ``view.state`` to check what the view shows against the
trace; nothing in a view re-runs or drives the model.
"""
from __future__ import annotations

from PySide6.QtCore import QEvent, QPointF
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from app.replay.data import ReplayData
from ui.animation import style


class ReplayViewBase(QWidget):
    """A view that draws the state of a replayed trace at time t.

    Subclasses set ``TITLE`` and ``CAPTION`` (one sentence for a student),
    implement :meth:`supports`, :meth:`compute` and :meth:`draw`.
    """

    TITLE = ""
    CAPTION = ""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.data: ReplayData | None = None
        self.t = 0.0
        self.state = None
        #: Lines drawn shortened ("Rank R1 dri…") and their full text, for tooltips.
        self.elided: list = []
        self.setMinimumSize(480, 240)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def caption_text(self) -> str:
        """The caption for the data shown (``CAPTION`` unless a view says more)."""
        return self.CAPTION

    @classmethod
    def supports(cls, data: ReplayData) -> bool:
        """True if ``data`` holds the rows this view animates."""
        raise NotImplementedError

    def set_data(self, data: ReplayData | None) -> None:
        """Show a new trace (None: nothing) at its first event."""
        self.data = data
        self.prepare(data)
        self.set_time(data.t0 if data is not None else 0.0)

    def prepare(self, data: ReplayData | None) -> None:
        """Build per-trace lookup tables once (override when needed)."""

    def set_time(self, t: float) -> None:
        """Recompute the state at ``t`` and repaint."""
        self.t = t
        self.state = self.compute(self.data, t) if self.data is not None else None
        self.update()

    def compute(self, data: ReplayData, t: float):
        """The state at ``t``: everything :meth:`draw` needs (override)."""
        raise NotImplementedError

    def draw(self, p: QPainter) -> None:
        """Paint ``self.state`` (override)."""
        raise NotImplementedError

    def paintEvent(self, event) -> None:  # noqa: N802  (Qt override)
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), style.BACKGROUND)
        style.elided = self.elided = []
        scale = style.SCALE
        try:
            # Presentation sizes where they fit; a view too short for its
            # layout at that scale steps back towards the desktop sizes.
            while style.SCALE > 1.0 and self.state is not None \
                    and self.min_height() > self.height():
                style.SCALE = max(1.0, round(style.SCALE - 0.1, 2))
            if self.state is None:
                style.text(p, 20, 20, f"{self.TITLE}: this run recorded nothing to show here.",
                           style.HEAD_PT, w=self.width() - 40)
            else:
                self.draw(p)
        finally:
            style.elided = None
            style.SCALE = scale
            p.end()

    def min_height(self) -> float:
        """The height the view's layout needs at the current :data:`style.SCALE`
        (0: it fits any height; a view whose rows cannot shrink says more)."""
        return 0.0

    def tooltip_at(self, pos: QPointF) -> str:
        """The full text of a line drawn shortened at ``pos`` ("" if none)."""
        for rect, full in reversed(self.elided):
            if rect.contains(pos):
                return full
        return ""

    def event(self, e) -> bool:
        if e.type() == QEvent.Type.ToolTip:
            tip = self.tooltip_at(QPointF(e.pos()))
            if tip:
                QToolTip.showText(e.globalPos(), tip, self)
            else:
                QToolTip.hideText()
                e.ignore()
            return True
        return super().event(e)
