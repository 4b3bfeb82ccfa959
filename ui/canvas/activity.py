"""The canvas shows the run: cards tinted by how busy their components are.

Right after a run, and whenever the replay stands at its start, each card
shows its component's whole-run figure: the busy (or utilisation) percentage
the results table shows for it (``RunResult.components``), the same number.
A card whose component has no such figure shows none.

Once the replay is scrubbed or played, the cards show that moment instead,
and the canvas says so in words ("at 3.2 s of 12.8 s, busy over the last
100 ms"), not only in a tooltip:

Trace component names are the components' canvas labels (a volume labelled
``DB2V01`` is ``"DB2V01"`` in the trace), so :class:`CanvasTint` matches
the two by name. At every replay time ``t`` of the
:class:`~ui.animation.controller.ReplayController` each matched card gets a
:class:`Tint`: the share of the recent past (a window of
``WINDOW_SHARE`` of the run, sampled at ``SAMPLES`` times up to ``t``) in
which :func:`~app.replay.activity.component_activity` says the component
was doing something (any state but idle). Like every replay picture it is a
function of ``t`` alone, so scrubbing back shows what playing showed.

Cards whose label names no traced component stay as they are, and so does
every card when no run is loaded or the scenario was edited after the run
(positions aside: moving a card does not change what the run did).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

import numpy as np
from PySide6.QtCore import QObject

from app.names import format_number
from app.replay.activity import Activity, component_activity
from ui.animation.style import fmt_time

if TYPE_CHECKING:
    from ui.animation.controller import ReplayController
    from app.replay.data import ReplayData
    from app.document import Document
    from ui.canvas.scene import CanvasScene

#: The busy share looks back over this fraction of the whole run.
WINDOW_SHARE = 0.02
#: Times sampled in that window (one sample only at the very start of the run).
SAMPLES = 32
#: Roles a busy share means something for: there is work in progress or not.
#: (A control unit's trace has requests but no busy time; its activity is a
#: hit ratio, which is not "how busy", so it is not tinted.)
BUSY_ROLES = frozenset(("engine", "channel", "volume", "drive", "tape", "buffer",
                        "coupling facility"))

ActivityFn = Callable[["ReplayData", str, float], Activity]


#: A component's whole-run busy figure in ``RunResult.components`` (percent).
WHOLE_RUN_FIGURES = ("busy_pct", "utilization_pct")


@dataclass(frozen=True)
class Tint:
    """What a card shows: ``level`` 0–1 busy, and a tooltip line.
    ``whole``: a whole-run figure (else a moment of the replay).
    ``drives``: 0–1 busy of the drives behind a storage group or a volume
    (its own ranks), set only where they are busier than the volumes."""

    level: float
    text: str
    whole: bool = False
    drives: float | None = None
    #: The second badge's word: "ranks" (a storage group's), "drives" (a volume's).
    drives_word: str = "ranks"

    @property
    def badge(self) -> str:
        """The percentage in the card's corner: whole numbers, and never
        "100 %" or "0 %" for a share that is not exactly that."""
        return _pct_badge(self.level)

    @property
    def drives_badge(self) -> str:
        """The second badge ("ranks 81 %"), or '' when there is none."""
        return "" if self.drives is None else f"{self.drives_word} {_pct_badge(self.drives)}"

    @property
    def hottest(self) -> float:
        """The busier of the two figures: the card's ring and fill follow it."""
        return max(self.level, self.drives or 0.0)


def _pct_badge(share: float) -> str:
    pct = 100 * share
    if 0 < pct < 1:
        return "<1 %"
    if 99 < pct < 100:
        return "99 %"
    return f"{pct:.0f} %"


def whole_run_tints(scenario, result) -> dict[str, Tint]:
    """Node id → :class:`Tint` of each component the results table gives a
    busy figure (the same number, whole run); a storage group (or volume)
    whose own ranks' drives are busier than it also gets those."""
    comps = getattr(result, "components", None) or {}
    out = {}
    for nid, node in scenario.nodes.items():
        figures = comps.get(node.label, {})
        key = next((k for k in WHOLE_RUN_FIGURES if k in figures), None)
        if key is None:
            continue
        level = _share(figures[key])
        drives = _share(figures["rank_busy_pct"]) if "rank_busy_pct" in figures else None
        if drives is not None and (drives <= level or _pct_badge(drives) == _pct_badge(level)):
            drives = None
        out[nid] = Tint(level, busy_words(node.category, figures), whole=True, drives=drives,
                        drives_word="ranks" if "members" in figures else "drives")
    return out


def _share(pct: float) -> float:
    return max(0.0, min(float(pct) / 100, 1.0))


def busy_words(category: str, figures) -> str:
    """The tooltip line of a card's whole-run busy: which busy it is.

    A volume's (and a storage group's) is the z/OS device busy, as RMF's
    % DEV UTIL; a rank's is its drives' busy; a channel's its utilisation.
    """
    pct = lambda k: f"{format_number(round(float(figures[k]), 1))} %"  # noqa: E731
    many = f" (mean of its {int(figures['members'])}, busiest {pct('max_busy_pct')})" \
        if "members" in figures and "max_busy_pct" in figures else ""
    if category == "volume" and "busy_pct" in figures:
        line = (f"device busy {pct('busy_pct')}{many}: z/OS device busy, as RMF's "
                "% DEV UTIL (DISC + CONN per exposure)")
        if "rank_busy_pct" in figures:
            most = (f", busiest rank {pct('max_rank_busy_pct')}"
                    if "max_rank_busy_pct" in figures else "")
            line += (f"<br>drives busy {pct('rank_busy_pct')}{most}: the drives of its own "
                     "ranks, mean over them (RMF's rank activity)")
    elif category == "rank" and "busy_pct" in figures:
        line = f"drives busy {pct('busy_pct')}: the rank's drives, mean over them"
    elif "utilization_pct" in figures:
        most = (f" (mean of its {int(figures['members'])}, busiest "
                f"{pct('max_utilization_pct')})" if "max_utilization_pct" in figures else "")
        line = f"utilisation {pct('utilization_pct')}{most}"
    else:
        line = f"busy {pct(next(k for k in WHOLE_RUN_FIGURES if k in figures))}{many}"
    return line + " over the whole run (as in the results table)"


def short_time(t: float) -> str:
    """A time as a person reads it on a canvas: three figures at most (3.2 s, 100 ms)."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if abs(t) >= scale or unit == "µs":
            return f"{format_number(float(f'{t / scale:.3g}'))} {unit}"
    return f"{t} s"


def moment_note(t: float, t0: float, t1: float, window: float) -> str:
    """What the canvas says while it shows a moment of the replay."""
    span = t - max(t0, t - window)
    at = f"at {short_time(t - t0)} of {short_time(t1 - t0)}"
    return f"{at}, busy over the last {short_time(span)}" if span > 0 else at


#: What the canvas says while it shows the whole run's figures.
WHOLE_RUN_NOTE = "whole run: busy as in the results table"


def activity_of(data: "ReplayData", name: str) -> ActivityFn | None:
    """How to ask what component ``name`` is doing (None: it has no busy share).

    :func:`~app.replay.activity.component_activity`, which knows a
    component by the role the model recorded (channel paths included).
    """
    fn = component_activity
    return fn if fn(data, name, data.t0).role in BUSY_ROLES else None


def busy_share(data: "ReplayData", name: str, t: float, window: float,
               activity: ActivityFn = component_activity) -> float:
    """Share of the ``window`` seconds up to ``t`` in which component ``name`` was not idle.

    Parameters
    ----------
    data : ReplayData
        The run's trace.
    name : str
        A trace component.
    t : float
        Replay time (s).
    window : float
        How far to look back (s); clipped at the start of the trace.
    activity : callable
        ``activity(data, name, t) -> Activity`` (see :func:`activity_of`).

    Returns
    -------
    float
        0 (idle at every sample) to 1 (busy at every sample).
    """
    start = max(data.t0, t - window)
    # The middle of each of SAMPLES equal slices, so a regular rhythm of
    # busy and idle is not sampled in step with itself.
    times = start + (np.arange(SAMPLES) + 0.5) * ((t - start) / SAMPLES) if t > start else (t,)
    busy = sum(activity(data, name, float(s)).state != "idle" for s in times)
    return busy / len(times)


class CanvasTint(QObject):
    """Follows a replay clock and tints the scene's cards (see the module docstring).

    Parameters
    ----------
    scene : CanvasScene
        The canvas to tint.
    controller : ReplayController
        The replay clock of the animation view.
    document : app.document.Document, optional
        The document whose run is replayed: it says whether that run is
        still the drawing's (:meth:`~app.document.Document.run_is_stale`).
        Without it, the run is taken to be of the scenario on the canvas.
    """

    def __init__(self, scene: "CanvasScene", controller: "ReplayController",
                 document: "Document | None" = None,
                 parent: QObject | None = None) -> None:
        super().__init__(parent if parent is not None else scene)
        self.scene, self.controller = scene, controller
        self.document = document
        #: Node id → (trace component, its activity function) of the cards tinted.
        self.matched: dict[str, tuple[str, ActivityFn]] = {}
        controller.data_changed.connect(self._on_controller_data_changed)
        controller.time_changed.connect(self._on_controller_time_changed)
        # After every batch of edits but a move, and when a scenario is opened.
        controller.playing_changed.connect(self._on_controller_playing_changed)
        if document is not None:
            document.changed.connect(self._on_document_changed)
        else:
            scene.issues_changed.connect(self._on_scene_issues_changed)
        self._on_controller_data_changed()

    @property
    def stale(self) -> bool:
        """True when the scenario on the canvas is not the one the run ran from."""
        if self.controller.data is None and not _traced(self._document_result()):
            # (A big run's replay is built when its tab opens: until then its
            # cards show the whole run's figures, as after any run.)
            return True
        return self.document is not None and self.document.run_is_stale()

    def _document_result(self):
        return self.document.result if self.document is not None else None

    def _on_controller_data_changed(self) -> None:
        self._rematch()

    def _on_scene_issues_changed(self, _issues) -> None:
        self._rematch()

    def _on_document_changed(self, change) -> None:
        if (change.scenario and not change.moved_only) or change.run:
            self._rematch()

    def _on_controller_playing_changed(self, _playing: bool) -> None:
        self._on_controller_time_changed(self.controller.t)

    def _rematch(self) -> None:
        data = self.controller.data
        self.matched = {}
        if data is not None and not self.stale:
            traced = set(data.components)
            drives = data.component_names("DRV")
            for nid, node in self.scene.scenario.nodes.items():
                fn = activity_of(data, node.label) if node.label in traced else None
                if fn is not None:
                    self.matched[nid] = ((node.label,), fn)
                elif node.category == "rank":
                    # A rank is as busy as its drives are on average.
                    mine = tuple(d for d in drives if d.startswith(f"{node.label} drive "))
                    fn = activity_of(data, mine[0]) if mine else None
                    if fn is not None:
                        self.matched[nid] = (mine, fn)
        self._on_controller_time_changed(self.controller.t)

    def _result(self):
        if self.document is None or self.stale:
            return None
        return self.document.result

    def showing_moment(self) -> bool:
        """True while the replay is played or away from its start."""
        data = self.controller.data
        return data is not None and (self.controller.playing or self.controller.t > data.t0)

    def _on_controller_time_changed(self, t: float) -> None:
        data = self.controller.data
        result = self._result()
        whole = whole_run_tints(self.scene.scenario, result) if result is not None else {}
        self.scene.whole_run_activity = whole
        if not self.showing_moment():
            self.scene.set_activity(whole, WHOLE_RUN_NOTE if whole else "")
            return
        if not self.matched or data is None:
            self.scene.set_activity({})
            return
        window = WINDOW_SHARE * (data.t1 - data.t0)
        tints = {}
        for nid, (names, activity) in self.matched.items():
            level = sum(busy_share(data, n, t, window, activity) for n in names) / len(names)
            now = (activity(data, names[0], t).text if len(names) == 1
                   else f"{len(names)} drives, "
                        f"{sum(activity(data, n, t).state != 'idle' for n in names)} busy")
            span = t - max(data.t0, t - window)
            over = f" (over the last {fmt_time(span)})" if span > 0 else ""
            tints[nid] = Tint(level, f"busy {100 * level:.0f} % at t={fmt_time(t)}{over}; now: {now}")
        self.scene.set_activity(tints, moment_note(t, data.t0, data.t1, window))


def _traced(result) -> bool:
    """Whether ``result`` carries trace rows (what the replay would show)."""
    trace = getattr(result, "trace", None)
    return trace is not None and len(trace) > 0


def tint_during_replay(scene: "CanvasScene", replay_view,
                       document: "Document | None" = None) -> CanvasTint | None:
    """A :class:`CanvasTint` following ``replay_view``'s clock (None without a replay view)."""
    if replay_view is None:
        return None
    return CanvasTint(scene, replay_view.controller, document)
