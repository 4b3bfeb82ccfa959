"""The scenario drawn on the canvas, as plain data that announces its changes.

A :class:`Scenario` holds components (:class:`Node`: a registry key from
:mod:`models.drawing.components`, a label, a position and parameter values) and the
links between them, plus the experiment it runs. Every change goes through a
method that tells the listeners (plain-Python :class:`Callbacks` lists, no
Qt): ``node_added``, ``node_removed``, ``link_added``, ``link_removed``,
``property_changed``, ``moved``, ``label_changed``, ``kind_changed``,
``experiment_changed``.
The canvas scene listens and draws; undo commands call these methods.

:meth:`Scenario.issues` says what stops the scenario from running, attached
to the component concerned; :meth:`Scenario.run_request` turns a runnable
scenario into ``(experiment name, parameter overrides)`` for
:func:`models.experiments.run_experiment` — the one path every run takes.
"""
from __future__ import annotations

import json
import math
from contextlib import contextmanager
from typing import Any, Callable, Iterable

from models.drawing import catalog, components, config, hardware
from models.drawing.elements import Issue, Link, Node, id_number, id_order
from models.core.params import Param, ParamError, shorten, show_value

# Categories on the I/O path, from the workload's dataset to the processor.
_IO_GROUPS = frozenset(("dataset", "volume", "control_unit", "channel"))
_PATH = (("dataset", "volume", "the dataset needs a volume: link it to a 3390 volume"),
         ("volume", "control_unit", "the volume needs a control unit: link it to a DS8000 control unit"),
         ("control_unit", "channel", "the control unit needs a channel: link it to a FICON or zHPF channel"),
         ("channel", "processor", "the channel needs a processor: link it to a general CP or zIIP"))


#: Largest canvas coordinate a loaded component may have (NaN fails the test too).
MAX_COORDINATE = 1e9


class ScenarioError(ValueError):
    """A scenario that cannot be built, loaded or run. ``str()`` is one line."""


class Callbacks:
    """A list of plain-Python listeners for one kind of change."""

    def __init__(self) -> None:
        self._fns: list[Callable[..., None]] = []

    def connect(self, fn: Callable[..., None]) -> None:
        self._fns.append(fn)

    def disconnect(self, fn: Callable[..., None]) -> None:
        self._fns.remove(fn)

    def emit(self, *args: Any) -> None:
        for fn in list(self._fns):
            fn(*args)

    def clear(self) -> None:
        """Drop every listener (their owner is closing)."""
        self._fns.clear()


class Scenario:
    """Components, links and the chosen experiment, with change callbacks."""

    # The change callbacks, made in __init__ (see the module docstring).
    node_added: Callbacks
    node_removed: Callbacks
    link_added: Callbacks
    link_removed: Callbacks
    property_changed: Callbacks
    moved: Callbacks
    label_changed: Callbacks
    kind_changed: Callbacks
    experiment_changed: Callbacks
    batch_finished: Callbacks

    def __init__(self, experiment: str | None = None, title: str = "") -> None:
        self.experiment = experiment
        self.title = title
        #: What an import from RMF read and assumed, and the measured figures
        #: (plain JSON data, ``"imported"`` in the file; None: drawn by hand).
        self.imported: dict | None = None
        self.nodes: dict[str, Node] = {}
        self.links: dict[str, Link] = {}
        # Per component: {other component id: link id}, in link order, so
        # look-ups along links cost the component's links, not all of them.
        self._adj: dict[str, dict[str, str]] = {}
        self._next = 1
        # How many components carry each label: labels must stay unique, and
        # checking a drawing of 20,000 components must not cost n² steps.
        self._labels: dict[str, int] = {}
        for name in ("node_added", "node_removed", "link_added", "link_removed",
                     "property_changed", "moved", "label_changed", "kind_changed",
                     "experiment_changed", "batch_finished"):
            setattr(self, name, Callbacks())

    # ---- ids -----------------------------------------------------------
    def new_id(self, prefix: str = "n") -> str:
        """A fresh id (``n7``, ``l8``) never used in this scenario."""
        while True:
            candidate = f"{prefix}{self._next}"
            self._next += 1
            if candidate not in self.nodes and candidate not in self.links:
                return candidate

    def _note_id(self, ident: str) -> None:
        number = id_number(ident)
        if number is not None:
            self._next = max(self._next, number + 1)

    # ---- edits ---------------------------------------------------------
    def add_node(self, node: Node) -> Node:
        """Add ``node`` (its id must be new) and announce ``node_added``."""
        components.kind(node.kind)
        if node.id in self.nodes:
            raise ScenarioError(f"component id '{node.id}' is already used")
        self._check_label_free(node.label)
        self.nodes[node.id] = node
        self._labels[node.label] = self._labels.get(node.label, 0) + 1
        self._note_id(node.id)
        self.node_added.emit(node)
        return node

    def remove_node(self, node_id: str) -> tuple[Node, list[Link]]:
        """Remove a component and its links; returns both for undo."""
        node = self.nodes[node_id]
        gone = [self.links[lid] for lid in self._adj.get(node_id, {}).values()]
        gone.sort(key=id_order)
        for ln in gone:
            self.remove_link(ln.id)
        del self.nodes[node_id]
        self._forget_label(node.label)
        self._adj.pop(node_id, None)
        self.node_removed.emit(node)
        return node, gone

    def link_refusal(self, source: str, target: str) -> str | None:
        """Why ``source`` cannot be linked to ``target`` (``None`` if it can)."""
        if source == target:
            return "A component cannot be linked to itself."
        a, b = self.nodes[source], self.nodes[target]
        if self.link_between(source, target) is not None:
            return f"{a.label} and {b.label} are already linked."
        return components.link_refusal(a.kind, b.kind)

    def add_link(self, link: Link) -> Link:
        """Add a legal link; :class:`ScenarioError` with the reason if not."""
        if link.source not in self.nodes or link.target not in self.nodes:
            raise ScenarioError(f"link '{link.id}' joins a component that does not exist")
        if link.id in self.links:
            raise ScenarioError(f"link id '{link.id}' is already used")
        why = self.link_refusal(link.source, link.target)
        if why:
            raise ScenarioError(why)
        self.links[link.id] = link
        self._adj.setdefault(link.source, {})[link.target] = link.id
        self._adj.setdefault(link.target, {})[link.source] = link.id
        self._note_id(link.id)
        self.link_added.emit(link)
        return link

    def remove_link(self, link_id: str) -> Link:
        link = self.links.pop(link_id)
        self._adj.get(link.source, {}).pop(link.target, None)
        self._adj.get(link.target, {}).pop(link.source, None)
        self.link_removed.emit(link)
        return link

    def move_node(self, node_id: str, x: float, y: float) -> None:
        node = self.nodes[node_id]
        if not (math.isfinite(x) and math.isfinite(y)):
            raise ScenarioError(f"position ({x}, {y}) is not a finite point")
        node.x, node.y = float(x), float(y)
        self.moved.emit(node)

    def set_label(self, node_id: str, label: str) -> None:
        label = label.strip()
        if not label:
            raise ScenarioError("a component needs a label")
        self._check_label_free(label, node_id)
        self._forget_label(self.nodes[node_id].label)
        self.nodes[node_id].label = label
        self._labels[label] = self._labels.get(label, 0) + 1
        self.label_changed.emit(self.nodes[node_id])

    def set_kind(self, node_id: str, key: str) -> str:
        """Make a component another kind of its category, in place; returns the old key.

        Label, position, properties and links are kept (links stay legal:
        the rules are between categories). Announces ``kind_changed(node,
        old_key)``. :mod:`models.drawing.variants` says which kinds a
        component may become and in which words.

        Raises
        ------
        ScenarioError
            ``key`` is of another category, or a group kind for a single
            component (or the other way round).
        """
        node = self.nodes[node_id]
        old, new = components.kind(node.kind), components.kind(key)
        if new.category != old.category or new.is_group != old.is_group:
            raise ScenarioError(f"{shorten(node.label)} is a {old.label} and cannot become a "
                                f"{new.label}: only a kind of the same sort keeps its links")
        node.kind = key
        self.kind_changed.emit(node, old.key)
        return old.key

    def set_property(self, node_id: str, key: str, value: Any) -> None:
        """Set (or with ``None`` unset) a parameter value on one component.

        The value must be acceptable to the experiment's parameter of that
        name (checked with :meth:`models.core.params.Param.coerce`); nothing is
        clamped. Raises :class:`~models.core.params.ParamError` otherwise.
        """
        node = self.nodes[node_id]
        if value is None:
            node.properties.pop(key, None)
        else:
            param = self.param(key, node.category)
            node.properties[key] = param.coerce(value) if param is not None else value
        self.property_changed.emit(node, key, node.properties.get(key))

    def set_experiment(self, name: str | None) -> None:
        if name is not None:
            catalog.experiment(name)
        self.experiment = name
        self.experiment_changed.emit(name)

    def label_taken(self, label: str, node_id: str | None = None) -> bool:
        """Whether another component than ``node_id`` is labelled ``label``.

        Labels are compared as written, after trimming: they are the keys of
        every report, CSV and slide, so two components must never share one.
        """
        label = label.strip()
        mine = node_id is not None and node_id in self.nodes and self.nodes[node_id].label == label
        return self._labels.get(label, 0) > (1 if mine else 0)

    def _forget_label(self, label: str) -> None:
        left = self._labels.get(label, 0) - 1
        if left > 0:
            self._labels[label] = left
        else:
            self._labels.pop(label, None)

    def _check_label_free(self, label: str, node_id: str | None = None) -> None:
        if self.label_taken(label, node_id):
            raise ScenarioError(f"two components are labelled '{shorten(label)}': a label names "
                                "its component in every report, so each must be unique")

    # ---- batches of edits ------------------------------------------------
    _batch_depth = 0

    @contextmanager
    def batch(self):
        """Group many edits (a paste, undoing a large delete) for the listeners.

        Every edit inside still announces itself, and :attr:`in_batch` is
        true meanwhile; ``batch_finished`` is announced once when the
        outermost batch ends, so a listener can put off work that only needs
        the end state (checking :meth:`issues`) until then.
        """
        self._batch_depth += 1
        try:
            yield self
        finally:
            self._batch_depth -= 1
            if self._batch_depth == 0:
                self.batch_finished.emit()

    @property
    def in_batch(self) -> bool:
        """True inside :meth:`batch`."""
        return self._batch_depth > 0

    # ---- queries -------------------------------------------------------
    def link_between(self, a: str, b: str) -> Link | None:
        lid = self._adj.get(a, {}).get(b)
        return self.links[lid] if lid is not None else None

    def neighbours(self, node_id: str, category: str | None = None) -> list[Node]:
        """Components linked to ``node_id`` (of ``category``), in link order."""
        out = []
        for other in self._adj.get(node_id, {}):
            node = self.nodes[other]
            if category is None or node.category == category:
                out.append(node)
        return out

    def of_category(self, category: str) -> list[Node]:
        return [n for n in self.nodes.values() if n.category == category]

    def param(self, key: str, category: str | None = None) -> Param | None:
        """The parameter called ``key``: the experiment's, else a component
        property (of ``category``, or of any category) that every canvas
        offers (:data:`models.drawing.hardware.COMPONENT_PARAMS`). ``None`` if none."""
        if self.experiment is not None:
            schema = catalog.experiment(self.experiment).schema
            if key in schema.names():
                return schema[key]
        cats = (category,) if category is not None else tuple(hardware.COMPONENT_PARAMS)
        for cat in cats:
            p = hardware.component_param(cat, key)
            if p is not None:
                return p
        for cat in (category,) if category is not None else tuple(hardware.GROUP_PARAMS):
            p = hardware.group_param(cat, key)
            if p is not None:
                return p
        return None

    def params_for(self, node_id: str) -> list[Param]:
        """What the inspector edits on this component: the experiment's
        parameters of its category, then its category's component
        properties. Counts are drawn, not typed: ``tape_drives``, ``gcps`` …
        are left out (a kind's value, ``device``, shows fixed)."""
        node = self.nodes[node_id]
        cat = node.category
        # A general workload shows the parameters of its own kind only.
        mine = components.kind(node.kind).carries
        out: list[Param] = []
        if self.experiment is not None:
            out = [p for p in catalog.experiment(self.experiment).schema.params
                   if p.group == cat and not hardware.is_count(p.name)
                   and (not mine or p.name in mine)]
        have = {p.name for p in out}
        out += [p for p in hardware.COMPONENT_PARAMS.get(cat, ()) if p.name not in have]
        if components.kind(node.kind).is_group:
            out = [*hardware.GROUP_PARAMS.get(cat, ()), *out]
        return out

    def is_shared(self, node_id: str, key: str) -> bool:
        """Whether ``key`` has one value for every component of this one's
        category: an experiment's parameter is modelled once per run, unless
        the component's kind carries its own (a general workload). A
        component property every canvas offers (a volume's aliases, a
        control unit's cache) is each component's own."""
        if self.experiment is None:
            return False
        if key not in catalog.experiment(self.experiment).schema.names():
            return False
        return key not in components.kind(self.nodes[node_id].kind).carries

    def own_value(self, node: Node, key: str) -> Any:
        """What this component itself says about ``key`` (set value or its kind's)."""
        if key in node.properties:
            return node.properties[key]
        return components.kind(node.kind).implies.get(key)

    def fixed_by_kind(self, node_id: str, key: str) -> bool:
        """True when the component's kind decides ``key`` (an SSD is an SSD)."""
        return key in components.kind(self.nodes[node_id].kind).implies

    def value_for(self, node_id: str, param: Param) -> Any:
        """The value the inspector shows for ``param`` on this component.

        Its own value, else (for a value the category shares, an experiment
        parameter modelled once per run) the first one another component of
        the category sets, else the default. A component's own property (a
        group's count and serials, a volume's aliases) never comes from
        another card: the run does not take it from there either.
        """
        own = self.own_value(self.nodes[node_id], param.name)
        if own is not None:
            return own
        if not self.is_shared(node_id, param.name):
            return param.default
        for other in self.of_category(param.group):
            v = self.own_value(other, param.name)
            if v is not None:
                return v
        return param.default

    # ---- can it run? ---------------------------------------------------
    def issues(self) -> list[Issue]:
        """Everything that stops a run, each attached to a component where possible."""
        if self.experiment is None:
            return [Issue(None, "Choose an experiment, or drop a workload onto the canvas.")]
        exp = catalog.experiment(self.experiment)
        out = self._workload_issues(exp)
        work = self._workload()
        groups = {p.group for p in exp.schema.params}
        out += self._general_issues()
        if work is not None and not components.kind(work.kind).general:
            if groups & _IO_GROUPS:
                out += self._path_issues(work, whole=exp.does_io)
            elif not self.neighbours(work.id, "processor"):
                out.append(Issue(work.id, "the workload needs a processor: link it to a zIIP or general CP"))
            if "tape" in groups:
                out += self._tape_issues(work)
        out += self._value_issues(exp)
        out += self._rank_issues()
        out += self._group_issues(exp)
        out += self._coupling_issues(exp)
        return out

    def _coupling_issues(self, exp) -> list[Issue]:
        """Record level sharing keeps its locks and cache in a coupling facility."""
        out = [Issue(cf.id, "the coupling facility needs a processor: link it to a general CP")
               for cf in self.of_category("coupling") if not self.neighbours(cf.id, "processor")]
        if "mode" in exp.schema.names() and "RLS" in exp.schema["mode"].choices:
            mode = self.parameters_safe().get("mode", exp.schema["mode"].default)
            reached = [cf for cf in self.of_category("coupling")
                       if self.neighbours(cf.id, "processor")]
            if mode == "RLS" and not reached:
                work = self._workload()
                out.append(Issue(work.id if work else None,
                                 "RLS keeps its locks and cache in a coupling facility: drag "
                                 "one onto the canvas and link it to a general CP"))
        if "log" in exp.schema.names():
            # Every log stream write (a force) also goes to a staging data set.
            work = self._workload()
            if work is not None and not any(d.kind == "ds_log" for d in
                                            self.neighbours(work.id, "dataset")):
                out.append(Issue(work.id, "CICS log streams write staging data sets on DASD: "
                                          "link the workload to a log staging data set on a "
                                          "volume"))
        return out

    def parameters_safe(self) -> dict:
        """:meth:`parameters`, leaving out values that do not check (issues say why)."""
        try:
            return self.parameters()
        except ParamError:
            return {}

    def _rank_issues(self) -> list[Issue]:
        """A rank holds one type of drive: its volumes' kinds must agree."""
        out = []
        for rank in self.of_category("rank"):
            kinds = {components.kind(n.kind).member or n.kind
                     for n in self.neighbours(rank.id, "volume")}
            if len(kinds) > 1:
                shown = ", ".join(sorted(components.kind(k).label for k in kinds))
                out.append(Issue(rank.id, f"one rank holds one type of drive, but its volumes "
                                          f"are {shown}: put them on ranks of their own, or "
                                          "change the rank's drive type for all of them"))
            if "vol_3390" in kinds:
                out.append(Issue(rank.id, "a native 3390 is a drive of its own, not a volume "
                                          "on a RAID rank: remove the link"))
        return out

    def _group_issues(self, exp) -> list[Issue]:
        """Group cards: their member names must be listed right and be names
        of their own, and the experiment must simulate every member."""
        out: list[Issue] = []
        groups = [n for n in self.nodes.values() if components.kind(n.kind).is_group]
        if not groups:
            return out
        if not getattr(exp, "draws_groups", False):
            return [Issue(g.id, f"'{exp.title}' models one component of each kind: draw the "
                                "group's members one by one, or run it as your own system")
                    for g in groups]
        seen = {n.label: n for n in self.nodes.values()}
        for g in groups:
            try:
                names = config.members_of(g) + config.own_ranks(g)
            except ValueError as exc:
                out.append(Issue(g.id, str(exc)))
                continue
            for name in names:
                other = seen.get(name)
                if other is not None and other.id != g.id:
                    out.append(Issue(g.id, f"its member '{name}' has the name of "
                                           f"{other.label if other.label != name else 'a component'}"
                                           ": names are keys of every report, so each must be unique"))
                    break
                seen[name] = g
        return out

    def _workload(self) -> Node | None:
        loads = self.of_category("workload")
        return loads[0] if len(loads) == 1 else None

    def _workload_issues(self, exp) -> list[Issue]:
        loads = self.of_category("workload")
        if not loads:
            return [Issue(None, f"'{exp.title}' needs a workload: drag one from the palette.")]
        # A case study models one workload; general workloads (I/O, CPU) may
        # share a configuration: a mixed system.
        if len(loads) > 1 and not all(components.kind(n.kind).general for n in loads):
            return [Issue(n.id, "only one workload per scenario: remove the others") for n in loads]
        out = []
        for n in loads:
            k = components.kind(n.kind)
            if exp.name not in k.experiments:
                out.append(Issue(n.id, f"a {k.label} cannot drive '{exp.title}'"))
        return out

    def _general_issues(self) -> list[Issue]:
        """General workloads: an I/O workload needs the whole I/O path from its
        datasets to a processor, a CPU workload a general CP to run on."""
        out: list[Issue] = []
        for work in self.of_category("workload"):
            general = components.kind(work.kind).general
            if general == "io":
                out += self._path_issues(work)
            elif general == "cpu":
                cpus = self.neighbours(work.id, "processor")
                if not any(n.kind == "cpu_cp" for n in cpus):
                    out.append(Issue(work.id, "the CPU workload needs a general CP to run on "
                                              "(zIIPs run only its eligible part): link it to one"))
        return out

    def _path_issues(self, work: Node, whole: bool = True) -> list[Issue]:
        """Missing links on the I/O path (only dataset → volume unless ``whole``)."""
        datasets = self.neighbours(work.id, "dataset")
        if not datasets:
            return [Issue(work.id, "the workload needs a dataset on a volume: link it to a dataset")]
        out: list[Issue] = []
        frontier = datasets
        for here, there, message in (_PATH if whole else _PATH[:1]):
            reached: dict[str, Node] = {}
            for node in frontier:
                nxt = self.neighbours(node.id, there)
                if not nxt:
                    out.append(Issue(node.id, message))
                reached.update({n.id: n for n in nxt})
            frontier = list(reached.values())
        return out

    def _tape_issues(self, work: Node) -> list[Issue]:
        drives = self.of_category("tape")
        if not drives:
            return [Issue(work.id, "the workload writes to tape: add a 3490 tape drive on a channel")]
        out = []
        for d in drives:
            chans = self.neighbours(d.id, "channel")
            if not chans:
                out.append(Issue(d.id, "the tape drive needs a channel: link it to a FICON channel"))
            for c in chans:
                if not self.neighbours(c.id, "processor"):
                    out.append(Issue(c.id, "the channel needs a processor: link it to a general CP or zIIP"))
        return out

    def _value_issues(self, exp) -> list[Issue]:
        out = []
        for p in exp.schema.params:
            if hardware.is_count(p.name):
                n = hardware.derive(self, p)
                try:
                    p.coerce(n)
                except ParamError:
                    what = components.kind(hardware.STRUCTURAL[p.name].kind).label
                    lo, hi = int(p.min or 0), int(p.max or 0)
                    out.append(Issue(None, f"'{exp.title}' runs on {lo}–{hi} of {what}, "
                                           f"and {n} are drawn"))
                continue
            seen: dict[Any, tuple[Any, Node]] = {}
            for node in self.of_category(p.group):
                v = self.own_value(node, p.name)
                if v is not None and p.name in components.kind(node.kind).carries:
                    # Each general workload carries its own value: no need to agree.
                    try:
                        p.coerce(v)
                    except ParamError as exc:
                        out.append(Issue(node.id, str(exc)))
                    continue
                if v is None:
                    continue
                try:
                    v = p.coerce(v)
                except ParamError as exc:
                    out.append(Issue(node.id, str(exc)))
                    continue
                # A mix or a size list is a dict or list: compared by its JSON.
                same = json.dumps(v, sort_keys=True) if isinstance(v, (dict, list)) else v
                seen.setdefault(same, (v, node))
            if len(seen) > 1:
                shown = " vs ".join(f"{v} ({n.label})" for v, n in seen.values())
                for _, node in seen.values():
                    out.append(Issue(node.id, f"'{p.title}' differs: {shown}; "
                                              "the experiment models one value"))
        return out

    def parameters(self) -> dict:
        """The experiment's parameter values as drawn.

        A structural parameter (a count or a kind, :mod:`models.drawing.hardware`)
        is read from the drawing; any other from the first component of its
        category that sets it. Values set nowhere are left to the
        experiment's defaults.
        """
        exp = catalog.experiment(self.experiment)
        out = {}
        for p in exp.schema.params:
            if hardware.is_count(p.name):
                out[p.name] = p.coerce(hardware.derive(self, p))
                continue
            for node in self.of_category(p.group):
                v = self.own_value(node, p.name)
                if v is not None:
                    out[p.name] = p.coerce(v)
                    break
        return out

    def run_request(self) -> tuple[str, dict]:
        """``(experiment, parameter values as drawn)`` of a runnable scenario.

        The run itself takes the drawing (``run_experiment(..., scenario=)``);
        these values are what the sweep and compare views start from.

        Raises
        ------
        ScenarioError
            The scenario cannot run yet; the message lists what is missing.
        """
        problems = self.issues()
        if problems:
            raise ScenarioError("; ".join(_where(self, i) for i in problems))
        return self.experiment, self.parameters()

    def copy(self) -> "Scenario":
        """An independent copy (no listeners)."""
        return Scenario.from_dict(self.to_dict())

    # ---- plain data ----------------------------------------------------
    def to_dict(self) -> dict:
        """The scenario as JSON-ready data (see docs/scenario-format.md)."""
        out = {
            "experiment": self.experiment,
            "title": self.title,
            # Sorted by id so that undoing a delete gives back the same data.
            "nodes": [{"id": n.id, "kind": n.kind, "label": n.label, "x": n.x, "y": n.y,
                       "properties": dict(n.properties)}
                      for n in sorted(self.nodes.values(), key=id_order)],
            "links": [{"id": ln.id, "source": ln.source, "target": ln.target}
                      for ln in sorted(self.links.values(), key=id_order)],
        }
        if self.imported is not None:
            out["imported"] = json.loads(json.dumps(self.imported))
        return out

    @classmethod
    def from_dict(cls, data: Any) -> "Scenario":
        """Build a scenario from :meth:`to_dict` data; :class:`ScenarioError` if bad."""
        if not isinstance(data, dict):
            raise ScenarioError("the scenario is not a JSON object")
        exp = data.get("experiment")
        if exp is not None and not isinstance(exp, str):
            raise ScenarioError(f"'experiment' must be an experiment name or null, not "
                                f"{show_value(exp)}")
        if exp is not None:
            try:
                catalog.experiment(exp)
            except ParamError as exc:
                raise ScenarioError(str(exc)) from None
        title = data.get("title", "")
        if not isinstance(title, str):
            raise ScenarioError("'title' must be text")
        sc = cls(exp, title)
        imported = data.get("imported")
        if imported is not None and not isinstance(imported, dict):
            raise ScenarioError("'imported' must be an object (what an RMF import read)")
        sc.imported = json.loads(json.dumps(imported)) if imported is not None else None
        for raw in _list(data, "nodes"):
            sc.add_node(_node_from(raw, sc))
        for raw in _list(data, "links"):
            if not isinstance(raw, dict) or not all(isinstance(raw.get(k), str)
                                                    for k in ("id", "source", "target")):
                raise ScenarioError(f"bad link {show_value(raw)}: needs text 'id', 'source' and "
                                    "'target'")
            sc.add_link(Link(raw["id"], raw["source"], raw["target"]))
        return sc


def _list(data: dict, key: str) -> Iterable:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise ScenarioError(f"'{key}' must be a list")
    return value


def _node_from(raw: Any, sc: Scenario) -> Node:
    if not isinstance(raw, dict):
        raise ScenarioError(f"bad component {show_value(raw)}: not an object")
    ident, key, label = raw.get("id"), raw.get("kind"), raw.get("label")
    if not all(isinstance(v, str) and v for v in (ident, key, label)):
        raise ScenarioError(f"bad component {show_value(raw)}: needs text 'id', 'kind' and "
                            "'label'")
    if key not in components.KINDS:
        raise ScenarioError(f"component '{shorten(label)}' has unknown kind '{shorten(key)}'")
    x, y = raw.get("x", 0.0), raw.get("y", 0.0)
    # Exact comparison first: a 400-digit integer must not reach float().
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool)
               and -MAX_COORDINATE <= v <= MAX_COORDINATE for v in (x, y)):
        raise ScenarioError(f"component '{shorten(label)}' has a bad position "
                            f"({show_value(x)}, {show_value(y)}): numbers within ±1e9")
    props = raw.get("properties", {})
    if not isinstance(props, dict):
        raise ScenarioError(f"component '{shorten(label)}': 'properties' must be an object")
    checked = {}
    category = components.kind(key).category
    for k, v in props.items():
        param = sc.param(k, category)
        try:
            checked[k] = param.coerce(v) if param is not None else v
        except ParamError as exc:
            raise ScenarioError(f"component '{shorten(label)}': {exc}") from None
    return Node(ident, key, label, float(x), float(y), checked)


def _where(sc: Scenario, issue: Issue) -> str:
    if issue.node is None or issue.node not in sc.nodes:
        return issue.message
    return f"{sc.nodes[issue.node].label}: {issue.message}"
