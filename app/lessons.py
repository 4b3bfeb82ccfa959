"""Guided lessons: load, validate and resolve them (no Qt).

A lesson (``resources/lessons/<name>.json``, format in docs/lessons.md and
``resources/schema/lesson.schema.json``) opens a case study and walks a
class through a few steps: change the drawing, run it, move the replay to a
moment of the run, bring a view forward, highlight a component or a part of
a view, and explain it in two or three sentences. It ends with a question
the class can answer from the screen and, one click later, the answer.

Everything a step names is checked when the lesson is loaded, against the
scenario the lesson opens as the earlier steps have changed it: a missing
component, property, value, view or moment is a :class:`LessonError` with
the file and step, never a silent skip. Whether the run really contains the
moment (a cache miss in a run that had none) needs the run:
:func:`check_runs` runs every run step headless and resolves its moments
(the tests and ``zperflab lessons --check`` do that).

The player (``ui.lessons``) drives the window; this module only says what
each step's state is: :meth:`Lesson.scenario_at`, :meth:`Lesson.run_needed`,
:func:`find_moment`.
"""
from __future__ import annotations

import copy
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from models import experiments

from models.drawing import components, documents
from models.engine import trace_vocab as V
from models.core.params import ParamError, shorten, show_value
from models.drawing.scenario import Node, Link, Scenario, ScenarioError

LESSONS = Path(__file__).resolve().parent.parent / "resources" / "lessons"

#: Views a step can bring forward (the main window's tabs).
VIEWS = ("canvas", "charts", "animation", "history", "sweep", "compare")
#: Parts of a view a step can bring forward or highlight, by view. Chart
#: titles depend on the run, so the charts view's parts are checked by
#: :func:`check_runs` (and the player), not at load.
PARTS = {
    "canvas": ("Components", "Properties", "Results"),
    "animation": ("Track reads", "Cache staging", "SRB/TCB switches", "Activity"),
}
#: Side panels: a part that can be highlighted on any view (the last, of a
#: drawing imported from RMF).
DOCKS = ("Components", "Properties", "Results", "Imported from RMF")
#: Moments a step can move the replay to.
MOMENTS = ("start", "end", "event", "first_miss", "tape_change", "switch_burst", "miss_storm")
#: Trace kinds (docs/trace.md) an ``event`` moment can name.
TRACE_KINDS = V.KINDS
#: Bins across a run used to find a burst (as the scrubber's markers do).
BURST_BINS = 300


class LessonError(ValueError):
    """A lesson that cannot be used; ``str()`` is one line naming file and step."""


@dataclass(frozen=True)
class Step:
    """One click of a lesson. ``kind`` is ``step``, ``question`` or ``answer``."""

    caption: str
    set: dict = field(default_factory=dict)
    add: tuple = ()
    remove: tuple = ()
    link: tuple = ()
    run: bool = False
    view: str | None = None
    part: str | None = None
    moment: dict | None = None
    play: float | None = None
    highlight: dict | None = None
    key: bool = False
    kind: str = "step"
    #: The step's claims about its run, as written (see app.lesson_figures).
    claims: tuple = ()
    #: The title of the step's drawing (what the window, the history and
    #: exports call it) when the case's title no longer says what runs.
    title: str | None = None
    #: Calibrate the drawing to RMF after the step's other changes ("Calibrate
    #: to RMF": a drawing imported from RMF reports only).
    calibrate: bool = False

    @property
    def changes(self) -> bool:
        """True when the step changes the drawing."""
        return bool(self.set or self.add or self.remove or self.link or self.calibrate)


@dataclass
class Lesson:
    """A loaded, checked lesson. ``steps`` ends with the question and the answer."""

    name: str
    title: str
    teaches: str
    case: str
    steps: list[Step]
    order: int = 100
    path: str = ""
    #: The scenario (as plain data) at each step, after its changes.
    _states: list[dict] = field(default_factory=list, repr=False)
    #: The drawing as the lesson opens it (plain data).
    _opened: dict = field(default_factory=dict, repr=False)
    #: Each step's placeholders, by their text (app.lesson_figures.Figure).
    figures: list[dict] = field(default_factory=list, repr=False)
    #: Every step's claims (app.lesson_figures.Claim), in step order.
    claims: list = field(default_factory=list, repr=False)
    #: The calibrating step whose calibration each step's drawing carries
    #: (None: none); ``_states`` hold the drawings without it.
    _calibrated_at: list = field(default_factory=list, repr=False)
    #: Calibration's entries by calibrating step, made when first asked for:
    #: it runs the model, which loading a lesson (the start page) must not.
    _calibrations: dict = field(default_factory=dict, repr=False)

    def run_steps(self) -> list[int]:
        """The 0-based indices of the steps that run."""
        return [i for i, s in enumerate(self.steps) if s.run]

    def scenario_at(self, index: int) -> Scenario:
        """The drawing at step ``index`` (0-based), after that step's changes."""
        return Scenario.from_dict(self.document_at(index))

    def experiment_at(self, index: int) -> str | None:
        """The experiment step ``index``'s drawing runs (without calibrating it)."""
        return self._states[index]["experiment"]

    def opened_document(self) -> dict:
        """The drawing the lesson opens, before any step's changes."""
        return copy.deepcopy(self._opened)

    def document_at(self, index: int) -> dict:
        """:meth:`scenario_at` as plain data (compare with a scenario's ``to_dict``).

        After a ``"calibrate"`` step, the calibrated quantities that step's
        calibration set, on the cards of the same labels (:func:`calibration`).
        """
        state = copy.deepcopy(self._states[index])
        at = self._calibrated_at[index] if self._calibrated_at else None
        if at is None:
            return state
        from app.run_names import as_calibrated
        return as_calibrated(state, {"imported": {"calibrated": self.calibration(at)}})

    def calibration(self, index: int) -> list[dict]:
        """The entries of calibrating step ``index``'s drawing (the model's
        own run of it, as Calibrate to RMF makes them), made once.

        Raises
        ------
        LessonError
            The drawing cannot be calibrated (the reason, with the step).
        """
        if index not in self._calibrations:
            from models.rmf.calibrate import CalibrationError, calibrate

            sc = Scenario.from_dict(copy.deepcopy(self._states[index]))
            try:
                self._calibrations[index] = calibrate(sc, experiments.run_experiment)
            except CalibrationError as exc:
                raise _error(os.path.basename(self.path) or self.name, index,
                             f"cannot calibrate: {exc}") from None
        return copy.deepcopy(self._calibrations[index])

    def run_needed(self, index: int) -> int | None:
        """The step whose run step ``index`` shows (``None``: no run on screen).

        A run stays on screen until a later step changes the drawing.
        """
        for j in range(index, -1, -1):
            if self.steps[j].run:
                return j
            if self.steps[j].changes:
                return None
        return None

    def view_at(self, index: int) -> str:
        """The view in front at step ``index`` (the last one a step named)."""
        for j in range(index, -1, -1):
            if self.steps[j].view:
                return self.steps[j].view
        return "canvas"

    def part_at(self, index: int) -> str | None:
        """The part of the view brought forward at step ``index``."""
        view = self.view_at(index)
        for j in range(index, -1, -1):
            # A step that named another view ends the search: its part is that
            # view's (a canvas step after a chart's kept the chart's name).
            if self.steps[j].view and self.steps[j].view != view:
                break
            if self.steps[j].part:
                return self.steps[j].part
        return None

    def moment_at(self, index: int) -> dict | None:
        """The replay moment of step ``index`` (kept until the next run or moment)."""
        run = self.run_needed(index)
        if run is None:
            return None
        for j in range(index, run - 1, -1):
            if self.steps[j].moment:
                return self.steps[j].moment
        return None

    def key_step(self) -> int:
        """The step that shows the mechanism (``key: true``, else the first run)."""
        for i, s in enumerate(self.steps):
            if s.key:
                return i
        for i, s in enumerate(self.steps):
            if s.run:
                return i
        return 0


def _error(where: str, index: int | None, text: str) -> LessonError:
    at = f"{where}: step {index + 1}" if index is not None else where
    return LessonError(f"{at}: {text}")


def _by_label(sc: Scenario) -> dict[str, Node]:
    return {n.label: n for n in sc.nodes.values()}


def _known(sc: Scenario) -> str:
    return shorten(", ".join(sorted(n.label for n in sc.nodes.values())), 200)


def apply_changes(sc: Scenario, step: Step, where: str = "lesson", index: int | None = None) -> None:
    """Apply ``step``'s set/add/remove to ``sc``, refusing any missing name.

    The player does the same through the editor's undo commands; this is
    the check and the reference for what a step's drawing is.
    """
    labels = _by_label(sc)
    for label in step.remove:
        if label not in labels:
            raise _error(where, index, f"'remove' names no component {label!r}; the "
                                       f"canvas has {_known(sc)}")
        sc.remove_node(labels[label].id)
    labels = _by_label(sc)
    for item in step.add:
        try:
            kind = components.kind(item["kind"])
        except (KeyError, ValueError):
            raise _error(where, index, f"'add' names no component kind "
                                       f"{show_value(item['kind'])}") from None
        if item["label"] in labels:
            raise _error(where, index, f"'add': a component is already called {item['label']!r}")
        node = sc.add_node(Node(sc.new_id(), kind.key, item["label"], float(item.get("x", 0)),
                                float(item.get("y", 0))))
        labels[node.label] = node
        for other in item.get("links", ()):
            if other not in labels:
                raise _error(where, index, f"'add' links {item['label']!r} to no component "
                                           f"{other!r}; the canvas has {_known(sc)}")
            why = sc.link_refusal(node.id, labels[other].id)
            if why:
                raise _error(where, index, f"'add' cannot link {item['label']!r} to "
                                           f"{other!r}: {why}")
            sc.add_link(Link(sc.new_id("l"), node.id, labels[other].id))
        for key, value in item.get("properties", {}).items():
            _set(sc, node, key, value, where, index)
    for pair in step.link:
        a, b = pair
        for x in (a, b):
            if x not in labels:
                raise _error(where, index, f"'link' names no component {x!r}; the canvas has "
                                           f"{_known(sc)}")
        why = sc.link_refusal(labels[a].id, labels[b].id)
        if why:
            raise _error(where, index, f"'link' cannot link {a!r} to {b!r}: {why}")
        sc.add_link(Link(sc.new_id("l"), labels[a].id, labels[b].id))
    for label, props in step.set.items():
        if label not in labels:
            raise _error(where, index, f"'set' names no component {label!r}; the canvas "
                                       f"has {_known(sc)}")
        for key, value in props.items():
            _set(sc, labels[label], key, value, where, index)


def _set(sc: Scenario, node: Node, key: str, value: Any, where: str, index: int | None) -> None:
    param = sc.param(key, node.category)
    if param is None:
        offered = ", ".join(p.name for p in sc.params_for(node.id)) or "none"
        raise _error(where, index, f"{node.label!r} has no property {key!r}; it offers "
                                   f"{shorten(offered, 200)}")
    if sc.fixed_by_kind(node.id, key):
        raise _error(where, index, f"{node.label!r} fixes {key!r} by its kind")
    try:
        value = param.coerce(value)
    except ParamError as exc:
        raise _error(where, index, f"{node.label!r} {key}: {exc}") from None
    # As the editor does (the player sets through it): an experiment's parameter
    # is one value for every component of the category; a component's own
    # property (a storage group's volumes, a control unit's cache) is its own.
    scope = sc.of_category(node.category) if sc.is_shared(node.id, key) else [node]
    for other in scope:
        if not sc.fixed_by_kind(other.id, key):
            sc.set_property(other.id, key, value)


def _step(raw: dict, kind: str = "step") -> Step:
    return Step(caption=raw["caption"].strip(), set=dict(raw.get("set", {})),
                add=tuple(raw.get("add", ())), remove=tuple(raw.get("remove", ())),
                link=tuple(tuple(p) for p in raw.get("link", ())),
                run=bool(raw.get("run", False)), view=raw.get("view"), part=raw.get("part"),
                moment=raw.get("moment"), play=raw.get("play"), highlight=raw.get("highlight"),
                key=bool(raw.get("key", False)), kind=kind,
                claims=tuple(raw.get("claims", ())), title=raw.get("title"),
                calibrate=bool(raw.get("calibrate", False)))


def from_document(doc: Any, where: str = "lesson") -> Lesson:
    """Check a lesson document and build the :class:`Lesson`; :class:`LessonError` if bad."""
    try:
        documents.check_schema(doc, "lesson", where)
    except documents.InputError as exc:
        raise LessonError(str(exc)) from None
    sc = open_case(doc["case"], where)
    steps = [_step(s) for s in doc["steps"]]
    steps.append(Step(caption=doc["question"], kind="question"))
    steps.append(Step(caption=doc["answer"], kind="answer"))
    lesson = Lesson(doc["name"], doc["title"], doc["teaches"], doc["case"], steps,
                    order=doc.get("order", 100), path=where)
    lesson._opened = sc.to_dict()
    named = named_drawings(doc["case"])
    titled: dict[tuple, str] = {}       # drawings a step has titled, by what they run
    title = lesson._opened["title"]
    calibrated_at = None
    for i, step in enumerate(steps):
        apply_changes(sc, step, where, i)
        if step.calibrate:
            if not (sc.imported or {}).get("measured"):
                raise _error(where, i, "calibrates a drawing that carries no RMF measurements "
                                       "(open a drawing imported from RMF, such as rmf_sysa)")
            calibrated_at = i
        lesson._calibrated_at.append(calibrated_at)
        _check_names(lesson, sc, step, where, i)
        state = sc.to_dict()
        shape = run_shape(state)
        if step.title:
            title = titled[shape] = step.title.strip()
        elif step.changes or i == 0:
            title = titled.get(shape) or _title_of(state, named, lesson._opened["title"])
        state["title"] = title
        lesson._states.append(state)
    for i, step in enumerate(steps):
        _bind_figures(lesson, step, where, i)
    return lesson


def _bind_figures(lesson: Lesson, step: Step, where: str, i: int) -> None:
    """Parse the step's placeholders and claims; a metric the step's
    experiment does not have is an error now (report cells need the run)."""
    from app import lesson_figures as F

    runs = {j for j in lesson.run_steps() if j <= i}
    here = lesson.run_needed(i)
    found: dict = {}
    try:
        for text in F.fields(step.caption):
            found[text] = F.parse_figure(text, here, runs)
        claims = [F.parse_claim(raw, i, runs) for raw in step.claims]
    except F.FigureError as exc:
        raise _error(where, i, str(exc)) from None
    if step.claims and not step.run:
        raise _error(where, i, "states claims but does not run: claims belong to a step "
                               "with \"run\": true")
    for fig in [*found.values(), *(c.figure for c in claims)]:
        for ref in (fig.left, fig.right):
            if ref is None or ref.report is not None:
                continue
            exp = experiments.get(lesson.experiment_at(ref.step))
            known = [m.name for m in exp.metrics]
            if ref.metric not in known and ref.metric not in F.DERIVED:
                raise _error(where, i, f"{{{fig.text}}}: the run of step {ref.step + 1} has no "
                                       f"metric {ref.metric!r}; metrics: "
                                       f"{', '.join([*known, *F.DERIVED])}")
    lesson.figures.append(found)
    lesson.claims.extend(claims)


def open_case(case: str, where: str = "lesson") -> Scenario:
    """The drawing a lesson opens: a case study, a built-in example (the
    drawing imported from RMF, ``rmf_sysa``), or ``whatif:NAME`` (the what-if
    study's before drawing)."""
    from app import scenario_io
    from models.studies import whatif

    if case.startswith("whatif:"):
        name = case.removeprefix("whatif:")
        if name not in whatif.names():
            raise LessonError(f"{where}: 'case' names no what-if study {name!r}; studies: "
                              f"{', '.join(whatif.names())}")
        return whatif.study(name).load()[0]
    if case not in scenario_io.case_names() and case not in scenario_io.example_names():
        raise LessonError(f"{where}: 'case' names no case study {case!r}; case studies: "
                          f"{', '.join(scenario_io.case_names())}; examples: "
                          f"{', '.join(scenario_io.example_names())}; or whatif:NAME")
    return scenario_io.load_case(case)


def named_drawings(case: str) -> tuple[list[tuple[tuple, str]], str]:
    """The drawings of ``case`` that have a title of their own, as
    ``(run_shape, title)``, and the title of a drawing that is none of them.

    A what-if study's before and after drawings, and the study's title for a
    drawing between them; a case study or an example has none (its title
    names the case, not one configuration of it: ``([], "")``).
    """
    from models.studies import whatif

    if not case.startswith("whatif:"):
        return [], ""
    st = whatif.study(case.removeprefix("whatif:"))
    before, after = st.documents()
    return [(run_shape(before), before["title"]), (run_shape(after), after["title"])], st.title


def run_shape(doc: dict) -> tuple:
    """What a drawing runs: experiment, components and links by label (not
    ids, positions or title)."""
    names = {n["id"]: n["label"] for n in doc["nodes"]}
    return (doc["experiment"],
            tuple(sorted((n["kind"], n["label"], tuple(sorted(n["properties"].items())))
                         for n in doc["nodes"])),
            tuple(sorted(tuple(sorted((names[ln["source"]], names[ln["target"]])))
                         for ln in doc["links"])))


def _title_of(state: dict, named: tuple[list[tuple[tuple, str]], str], opened: str) -> str:
    """A step's drawing's title when no step titles it: the title of the
    study's drawing it is (the after drawing once the steps have made it, so
    the results headline, the history and exports name what ran, not the
    drawing the lesson opened); the study's own title for a drawing that is
    neither; else as opened."""
    known, between = named
    if not known:
        return opened
    shape = run_shape(state)
    return next((title for drawn, title in known if drawn == shape), between)


def _check_names(lesson: Lesson, sc: Scenario, step: Step, where: str, i: int) -> None:
    labels = _by_label(sc)
    if step.run:
        problems = sc.issues()
        if problems:
            raise _error(where, i, f"runs a drawing that cannot run: {problems[0].message}")
    view = lesson.view_at(i)
    if step.part is not None:
        allowed = PARTS.get(view)
        if allowed is not None and step.part not in allowed + DOCKS:
            raise _error(where, i, f"the {view} view has no part {step.part!r}; parts: "
                                   f"{', '.join(allowed)}")
        if view == "charts" and lesson.run_needed(i) is None:
            raise _error(where, i, f"shows the chart {step.part!r} with no run on screen: "
                                   "add \"run\": true to this or an earlier step")
    if step.moment is not None:
        at = step.moment["at"]
        if lesson.run_needed(i) is None:
            raise _error(where, i, f"moves the replay to {at!r} with no run on screen: add "
                                   "\"run\": true to this or an earlier step")
        if at == "event":
            event = step.moment.get("event")
            if event not in TRACE_KINDS:
                raise _error(where, i, f"no trace event {show_value(event)}; events: "
                                       f"{', '.join(TRACE_KINDS)}")
        comp = step.moment.get("component")
        if comp is not None and not _traced_name(comp, labels):
            raise _error(where, i, f"the moment names no component {comp!r}; the canvas has "
                                   f"{_known(sc)}")
    if step.play is not None and lesson.run_needed(i) is None:
        raise _error(where, i, "plays the replay with no run on screen")
    hl = step.highlight or {}
    if "component" in hl and hl["component"] not in labels:
        raise _error(where, i, f"highlights no component {hl['component']!r}; the canvas has "
                               f"{_known(sc)}")
    if "part" in hl:
        part = hl["part"]
        allowed = PARTS.get(view, ())
        if part in VIEWS or part in DOCKS or part in allowed:
            return
        if view == "charts" and lesson.run_needed(i) is not None:
            return  # a chart title: checked against the run by check_runs
        raise _error(where, i, f"highlights no part {part!r} of the {view} view; parts: "
                               f"{', '.join(allowed + DOCKS)}")


def _traced_name(name: str, labels: dict) -> bool:
    """A trace component is a canvas label, or "<rank label> drive N"."""
    if name in labels:
        return True
    head, sep, tail = name.rpartition(" drive")
    return bool(sep) and head in labels


#: Checked lessons by (path, modification time, size): the start page and the
#: Lessons menu both list them at start-up; a changed file is read again.
_CACHE: dict[tuple, Lesson] = {}


def load(path: str | os.PathLike) -> Lesson:
    """Read and check one lesson file (a file unchanged since is not read again)."""
    try:
        info = os.stat(path)
        key = (os.fspath(path), info.st_mtime_ns, info.st_size)
    except OSError:
        key = None
    if key in _CACHE:
        return _CACHE[key]
    lesson = _load(path)
    if key is not None:
        _CACHE[key] = lesson
    return lesson


def _load(path: str | os.PathLike) -> Lesson:
    where = os.path.basename(os.fspath(path))
    try:
        doc = documents.read_json_file(path, "lesson", limit=1024 * 1024)
    except OSError as exc:
        raise LessonError(f"{where}: cannot read: {exc.strerror or exc}") from None
    except documents.InputError as exc:
        raise LessonError(f"{where}: {exc}") from None
    lesson = from_document(doc, where)
    stem = Path(path).name.removesuffix(".json")
    if lesson.name != stem:
        raise LessonError(f"{where}: 'name' is {lesson.name!r}; it must match the file name "
                          f"{stem!r}")
    lesson.path = os.fspath(path)
    return lesson


def load_all(folder: str | os.PathLike | None = None) -> list[Lesson]:
    """Every lesson in ``folder`` (default: the bundled ones), tour first."""
    folder = Path(folder) if folder is not None else LESSONS
    out = [load(p) for p in sorted(folder.glob("*.json"))]
    return sorted(out, key=lambda lesson: (lesson.order, lesson.name))


def names(folder: str | os.PathLike | None = None) -> list[str]:
    return [lesson.name for lesson in load_all(folder)]


def get(name: str, folder: str | os.PathLike | None = None) -> Lesson:
    """The lesson called ``name``; :class:`LessonError` naming the known ones if none."""
    folder = Path(folder) if folder is not None else LESSONS
    path = folder / f"{name}.json"
    if not name or not name.replace("_", "").isalnum() or not path.is_file():
        known = ", ".join(names(folder))
        raise LessonError(f"no lesson called {shorten(name, 40)!r}; lessons: {known}")
    return load(path)


# ---- moments ------------------------------------------------------------
def find_moment(trace, moment: dict) -> float | None:
    """The replay time of ``moment`` in ``trace`` (``None`` if the run has none).

    ``start``/``end``: the first/last event; ``event``: the ``nth`` (from 1)
    row of that kind (of ``component``, if named); ``first_miss``: the first
    cache miss; ``tape_change``: the ``nth`` cartridge change; ``switch_burst``
    and ``miss_storm``: the start of the busiest stretch (1/300 of the run) of
    SRB/TCB switches or cache misses.
    """
    if trace is None or not len(trace):
        return None
    cols = trace.columns()
    t = cols["t"]
    at = moment["at"]
    if at == "start":
        return float(t.min())
    if at == "end":
        return float(t.max())
    kinds = {"first_miss": (V.CACHE_MISS,), "tape_change": (V.TAPE_CHANGE_START,),
             "switch_burst": V.SWITCH_KINDS, "miss_storm": (V.CACHE_MISS,),
             "event": (moment.get("event"),)}[at]
    ids = [trace.kinds.index(k) for k in kinds if k in trace.kinds]
    mask = np.isin(cols["kind"], ids)
    comp = moment.get("component")
    if comp is not None:
        if comp not in trace.components:
            return None
        mask &= cols["comp"] == trace.components.index(comp)
    times = np.sort(t[mask])
    if not len(times):
        return None
    if at in ("switch_burst", "miss_storm"):
        t0, t1 = float(t.min()), float(t.max())
        edges = t0 + max(t1 - t0, 1e-12) * np.arange(BURST_BINS + 1) / BURST_BINS
        counts, _ = np.histogram(times, bins=edges)
        return float(edges[int(np.argmax(counts))])
    nth = int(moment.get("nth", 1))
    return float(times[nth - 1]) if nth <= len(times) else None


def describe_moment(moment: dict) -> str:
    """How a moment is named after "no" ("no first cache miss", "no tape
    cartridge change on TAPE2")."""
    at = moment["at"]
    nth = int(moment.get("nth", 1))
    text = {"start": "start of the run", "end": "end of the run",
            "first_miss": "first cache miss", "tape_change": "tape cartridge change",
            "switch_burst": "burst of SRB/TCB switches",
            "miss_storm": "storm of cache misses"}.get(at)
    if text is None:
        event = str(moment.get("event", "")).replace("_", " ")
        text = f"{event} event" if nth == 1 else f"{event} event number {nth}"
    elif at == "tape_change" and nth > 1:
        text += f" number {nth}"
    if moment.get("component"):
        text += f" on {moment['component']}"
    return text


def run_all(lesson: Lesson, seed: int = experiments.DEFAULT_SEED) -> tuple[dict, list[str]]:
    """Run every run step headless: (step index → result, problems)."""
    from app import lesson_figures

    results, problems = {}, []
    for i in lesson.run_steps():
        try:
            results[i] = lesson_figures.run_step(lesson, i, seed)
        except LessonError as exc:
            problems.append(str(exc))
        except (ScenarioError, ParamError, ValueError) as exc:
            problems.append(f"{lesson.name}: step {i + 1}: the run fails: {exc}")
    return results, problems


def check_runs(lesson: Lesson, seed: int = experiments.DEFAULT_SEED,
               results: dict | None = None) -> list[str]:
    """Run every run step headless and resolve its moments, the charts it
    names (titled as the window titles that run's charts,
    :mod:`app.lesson_charts`) and the figures its captions name.
    ``results`` (from :func:`run_all`) saves running again.

    Returns one line per problem (empty: the lesson works as written).
    """
    from app import lesson_charts, lesson_figures

    problems: list[str] = []
    if results is None:
        results, problems = run_all(lesson, seed)
    result, ran = None, 0
    for i, step in enumerate(lesson.steps):
        if step.run:
            result, ran = results.get(i), i
        moment = step.moment
        if moment is not None and result is not None and find_moment(result.trace, moment) is None:
            problems.append(f"{lesson.name}: step {i + 1}: the run has no "
                            f"{describe_moment(moment)}")
        if lesson.view_at(i) == "charts" and result is not None:
            titles = lesson_charts.titles(lesson, ran, result)
            for part in dict.fromkeys((step.part, (step.highlight or {}).get("part"))):
                if (part and part not in DOCKS and part not in VIEWS
                        and not any(lesson_charts.names(part, t) for t in titles)):
                    problems.append(f"{lesson.name}: step {i + 1}: no chart {part!r}; this "
                                    f"run's charts: {', '.join(titles)}")
        for fig in lesson.figures[i].values():
            if all(s in results for s in fig.steps):
                try:
                    fig.value(results)
                except lesson_figures.FigureError as exc:
                    problems.append(f"{lesson.name}: step {i + 1}: {{{fig.text}}}: {exc}")
    problems += _hit_ratio_problems(lesson, results)
    for i in lesson_figures.unclaimed(lesson):
        problems.append(f"{lesson.name}: step {i + 1}: runs but states no claim about its run")
    return problems


# ---- what the replay shows at a moment -----------------------------------
#: Replay views that show the hit ratio so far (hits and misses up to the
#: replay time), and the metrics that are a run's hit ratio.
HIT_RATIO_PARTS = ("Cache staging", "Activity")
HIT_RATIO_METRICS = ("cache_hit_ratio", "read_hit_ratio")
#: How far the hit ratio so far may be from the run's when a caption states
#: the run's beside it: the views write it with two decimals.
HIT_RATIO_SLACK = 0.01


def shown_hit_ratio(trace, t: float) -> float | None:
    """The hit ratio the Cache staging and Activity views show at replay time
    ``t``: the control unit's hits (``cache_hit`` + ``cache_wait``) over hits
    and misses up to ``t``, counted as the run's statistics count
    (docs/trace.md); ``None`` before the first."""
    from app.replay.data import ReplayData

    data = ReplayData(trace)
    cu = data.first_of_role("CU", "CU")
    hits = data.count_of(cu, V.CACHE_HIT, t) + data.count_of(cu, V.CACHE_WAIT, t)
    misses = data.count_of(cu, V.CACHE_MISS, t)
    return hits / (hits + misses) if hits + misses else None


def _is_hit_ratio(ref) -> bool:
    if ref.report is not None:
        return any("hit ratio" in cell.lower() for cell in ref.report)
    return ref.metric in HIT_RATIO_METRICS


def _hit_ratio_problems(lesson: Lesson, results: dict) -> list[str]:
    """One line per step whose caption states its run's hit ratio while the
    view in front shows the hit ratio so far at a moment that differs from it
    (one truth on screen: the class reads both)."""
    problems = []
    for i in range(len(lesson.steps)):
        run, moment = lesson.run_needed(i), lesson.moment_at(i)
        if (run not in results or moment is None or lesson.view_at(i) != "animation"
                or lesson.part_at(i) not in HIT_RATIO_PARTS):
            continue
        stated = [f for f in lesson.figures[i].values() if f.right is None
                  and f.left.step == run and _is_hit_ratio(f.left)]
        t = find_moment(results[run].trace, moment) if stated else None
        for fig in stated if t is not None else ():
            shown, run_value = shown_hit_ratio(results[run].trace, t), fig.value(results)
            if shown is None or abs(shown - run_value) > HIT_RATIO_SLACK:
                so_far = "no reads yet" if shown is None else f"{shown:.2f}"
                problems.append(
                    f"{lesson.name}: step {i + 1}: the caption states the run's hit ratio "
                    f"{{{fig.text}}} = {run_value:.4f}, but the {lesson.part_at(i)} view "
                    f"shows {so_far} so far at the {describe_moment(moment)}: choose a "
                    "later moment or attribute the figure to the run")
    return problems
