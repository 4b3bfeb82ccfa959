"""ReplayView: the replay timeline with every view the run's trace supports.

``set_result(result)`` takes a finished :class:`~models.core.run.RunResult`,
sorts and indexes its trace once (:class:`~app.replay.data.ReplayData`)
and offers, as tabs, the views that trace can animate: track reads, cache
staging, SRB/TCB switches, and the activity strip. A one-sentence caption
under the tabs explains the mechanism of the view in front. Only the view in
front is recomputed when the replay time moves, so a big trace replays
smoothly whichever view is open.
"""
from __future__ import annotations

from PySide6.QtWidgets import QLabel, QTabWidget, QVBoxLayout, QWidget

from app.replay.data import ReplayData
from models import experiments
from ui.animation import style
from ui.animation.activity_view import ActivityView
from ui.animation.cache_view import CacheView
from ui.animation.controller import ReplayController
from ui.animation.cpu_view import CpuView
from ui.animation.timeline import TimelineWidget
from ui.animation.track_view import TrackView

#: Views offered, in tab order.
VIEW_CLASSES = (TrackView, CacheView, CpuView, ActivityView)


def _title(experiment: str) -> str:
    try:
        return experiments.get(experiment).title
    except (KeyError, ValueError):
        return "this run"


class ReplayView(QWidget):
    """Timeline + the views a run's trace supports + a caption."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.controller = ReplayController(self)
        self.data: ReplayData | None = None
        self.tabs = QTabWidget()
        self.tabs.setFont(style.font(style.TEXT_PT))
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setFont(style.font(style.TEXT_PT + 1))
        self.note = QLabel()
        self.note.setFont(style.font(style.TEXT_PT - 1))
        self.timeline = TimelineWidget(self.controller)
        col = QVBoxLayout(self)
        col.setContentsMargins(4, 4, 4, 4)
        col.addWidget(self.tabs, 1)
        col.addWidget(self.caption)
        col.addWidget(self.note)
        col.addWidget(self.timeline)
        self.views: dict[str, object] = {}
        self.tabs.currentChanged.connect(self._on_tabs_current_changed)
        self.controller.time_changed.connect(self._on_controller_time_changed)
        self.set_result(None)

    def set_result(self, result) -> None:
        """Replay ``result``'s trace (None or a run without a trace: say so)."""
        trace = getattr(result, "trace", None)
        self.data = ReplayData(trace) if trace is not None and len(trace) else None
        if self.data is not None and "device" in (getattr(result, "params", None) or {}):
            # The drive type a view draws (a disk's arm and platter, or flash).
            self.data.meta.setdefault("device", result.params["device"])
        self.tabs.blockSignals(True)
        self._drop_views()
        if self.data is not None:
            for cls in VIEW_CLASSES:
                if cls.supports(self.data):
                    view = cls()
                    view.set_data(self.data)
                    self.views[cls.TITLE] = view
                    self.tabs.addTab(view, cls.TITLE)
        self.tabs.blockSignals(False)
        self.note.setText(self._note(result))
        self.controller.set_data(self.data)
        self._on_tabs_current_changed(self.tabs.currentIndex())

    def _drop_views(self) -> None:
        # QTabWidget.clear() only takes the tabs away: the views stay its
        # children, each with the last run's trace. Delete them, so the window
        # keeps no run it no longer shows (issue #29).
        old = [self.tabs.widget(i) for i in range(self.tabs.count())]
        self.tabs.clear()
        for view in old:
            view.setParent(None)
            view.deleteLater()
        self.views = {}

    def _note(self, result) -> str:
        if result is None:
            return "Run an experiment to replay what happened inside it."
        if self.data is None and hasattr(result, "seeds"):
            return (f"{result.n} replications of {_title(result.experiment)} keep no trace to "
                    "replay: run once (F5) to replay what happened inside a run.")
        if self.data is None:
            return "This run recorded no trace: run it with tracing on to replay it."
        kept = f"{len(self.data):,} events of {_title(result.experiment)}"
        if self.data.since is not None:
            # A long run records its trace over the end only, the part the ring keeps.
            kept = (f"The replay shows the newest {len(self.data):,} events of "
                    f"{_title(result.experiment)}, from {style.fmt_time(self.data.t0)} to "
                    f"{style.fmt_time(self.data.t1)}: to bound memory and time, the run recorded "
                    f"its trace from {style.fmt_time(self.data.since)} on only, so the replay "
                    "starts later than the run (the results cover the whole run)")
        elif self.data.dropped:
            # A long run keeps the newest events only (a bounded trace): say which part.
            total = len(self.data) + self.data.dropped
            kept = (f"The replay shows the newest {len(self.data):,} of {total:,} events of "
                    f"{_title(result.experiment)}, from {style.fmt_time(self.data.t0)} to "
                    f"{style.fmt_time(self.data.t1)}: the {self.data.dropped:,} oldest were dropped "
                    "to bound memory, so the replay starts later than the run (the results "
                    "cover the whole run)")
        return kept + "."

    def current_view(self):
        """The view in front (None when there is no trace)."""
        return self.tabs.currentWidget()

    def _on_tabs_current_changed(self, index: int) -> None:
        view = self.tabs.widget(index) if index >= 0 else None
        self.caption.setText(view.caption_text() if view is not None else "")
        if view is not None:
            view.set_time(self.controller.t)

    def _on_controller_time_changed(self, t: float) -> None:
        view = self.current_view()
        if view is not None:
            view.set_time(t)
