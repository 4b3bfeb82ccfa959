"""Hardware parameters as shorthand for edits of the drawn configuration.

The canvas is the configuration: what a run simulates is what is drawn. The
experiments' hardware parameters (``device``, ``protocol``, ``tape_drives``,
``spool_volumes``, ``gcps``, ``ziips``, a channel's ``channel`` generation,
a control unit's ``cache``, …) are kept as a shorthand for the command line,
the sweeps and the target files: :func:`apply` turns each into an edit of a
:class:`~models.drawing.scenario.Scenario` —

* a **kind** parameter swaps the kind of every component of its category
  (``device=SSD`` makes every volume a ``3390 on SSD``);
* a **count** parameter adds or removes components of one kind, each copy
  wired like the one it copies (``tape_drives=2`` draws a second drive on
  the same channel);
* any other parameter of a hardware category is set as a property on every
  component of that category;
* a key ``LABEL.property`` changes that one component in place
  (:func:`models.drawing.variants.apply_setting`: ``SGDB2.drive=SSD``), so a
  sweep can run one storage group on each drive type.

:func:`derive` reads the same parameters back from a drawing, so the
parameter values a run reports are the drawing's, whichever way it was made.
Component properties that every canvas offers whatever the experiment
(a volume's PAV aliases, a rank's RAID layout, a control unit's cache
size, a processor's speed, a channel's generation) are declared here too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from models.drawing import catalog, components
from models.drawing.config import CHANNEL_PROTOCOLS, VOLUME_DEVICES
from models.core.params import Param, ParamError
from models.drawing.elements import Link, Node, id_order

#: Categories whose parameters describe hardware (the rest: workload, dataset).
HARDWARE_GROUPS = frozenset(("processor", "channel", "control_unit", "volume", "rank", "tape"))


@dataclass(frozen=True)
class KindParam:
    """A parameter whose value is the kind of the components of ``category``."""

    category: str
    kinds: Mapping[str, str]                 # value -> registry key

    def value(self, kind: str) -> Any:
        for v, k in self.kinds.items():
            if k == kind:
                return v
        return None


@dataclass(frozen=True)
class CountParam:
    """A parameter whose value is how many components of ``kind`` are drawn."""

    kind: str
    holds: str | None = None                 # count only those linked to a dataset of this kind

    def counts(self, sc, node) -> bool:
        if node.kind != self.kind:
            return False
        return self.holds is None or any(m.kind == self.holds for m in sc.neighbours(node.id))


#: Parameters that are the drawing's structure, not a component's property.
STRUCTURAL: Mapping[str, Any] = MappingProxyType({
    "device": KindParam("volume", {v: k for k, v in VOLUME_DEVICES.items()}),
    "protocol": KindParam("channel", {v: k for k, v in CHANNEL_PROTOCOLS.items()}),
    "library": KindParam("dataset", {"PDS": "ds_pds", "PDSE": "ds_pdse"}),
    "tape_drives": CountParam("tape_3490"),
    "spool_volumes": CountParam("vol_3390", holds="ds_spool"),
    "gcps": CountParam("cpu_cp"),
    "ziips": CountParam("cpu_ziip"),
})

#: Properties a component of each category has on any canvas.
COMPONENT_PARAMS: Mapping[str, tuple[Param, ...]] = MappingProxyType({
    "processor": (
        Param("speed", "float", 1.0, min=0.1, max=10.0, group="processor", label="Speed",
              help="Engine speed relative to the reference engine the CPU costs are "
                   "measured on: 2 runs the same work in half the CPU time."),
    ),
    "channel": (
        Param("channel", "choice", "FEx8S", choices=("FEx8", "FEx8S"), group="channel",
              label="Channel generation",
              help="FICON Express 8 (zHPF splits a 32-page list into two I/Os: "
                   "22-address limit) or FICON Express 8S (all 32 in one). Both "
                   "run the link at 8 Gbit/s (800 MB/s)."),
    ),
    "control_unit": (
        Param("cache_gb", "float", 64.0, unit="GB", min=0.001, max=1024.0,
              group="control_unit", label="Cache size",
              help="Cache in the control unit, shared by all its volumes. A read "
                   "that finds its record in cache is a hit; staging a miss takes "
                   "a disk access."),
    ),
    "volume": (
        Param("aliases", "int", 0, min=0, max=255, group="volume", label="PAV aliases",
              help="HyperPAV aliases: each lets one more I/O to the volume start at "
                   "once. Without a free alias an I/O waits in z/OS (IOSQ)."),
    ),
    "rank": (
        Param("raid", "choice", "7+P", choices=("7+P", "6+P+S"), group="rank",
              label="RAID layout",
              help="RAID-5 over 8 drives: 7+P uses all eight, 6+P+S keeps a spare idle. "
                   "Every volume linked to the rank stripes its tracks over these drives."),
    ),
})


#: Properties of a group card (a storage group, a channel group), by category.
GROUP_PARAMS: Mapping[str, tuple[Param, ...]] = MappingProxyType({
    "volume": (
        Param("count", "int", 10, min=1, max=4096, group="volume", label="Volumes",
              help="How many 3390 volumes the storage group holds. Each is simulated "
                   "with its own queue (IOSQ), aliases and rank; a dataset on the group "
                   "spreads its blocks over all of them."),
        Param("names", "text", None, optional=True, group="volume", label="Volume serials",
              help="The volumes' serials, comma separated, as many as the group holds "
                   "(an import from RMF fills them in). Not set: the group's label "
                   "and a number, PRDSG001, PRDSG002, …"),
        Param("ranks", "int", 0, min=0, max=512, group="volume", label="Own RAID ranks",
              help="RAID ranks (8 drives each) the group's volumes stripe over when no "
                   "rank card is linked to it: named after the group, PRDSG-R01 …, with "
                   "volume i on rank i mod N. 0: each volume on a rank of its own, as a "
                   "single volume. Linked rank cards take precedence."),
        Param("conn_overhead_ms", "float", 0.0, unit="ms", min=0.0, max=10.0, group="volume",
              label="Connect overhead per I/O",
              help="The control unit's connected time per I/O beyond the channel program "
                   "and data transfer the model draws (protocol handling it does not "
                   "model). It adds to each I/O's CONN and keeps the volume busy. "
                   "Calibrate to RMF sets it from the device report's CONN."),
        Param("start_ms", "float", None, optional=True, unit="ms", min=0.01, max=5.0,
              group="volume", label="Start of an I/O (PEND)",
              help="Pending time of an I/O that finds a free path: the start through "
                   "channel, switch and host adapter, and the unit's command response. "
                   "Not set: 0.12 ms (docs/model-constants.md). Waits for a busy path "
                   "add to it. Calibrate to RMF sets it from the device report's PEND."),
        Param("write_disc_ms", "float", 0.0, unit="ms", min=0.0, max=20.0, group="volume",
              label="Remote copy per write",
              help="Time a write stays disconnected while the unit copies it to a "
                   "remote secondary (synchronous remote copy, Metro Mirror) before it "
                   "ends. It adds to each write's DISC and keeps the volume busy. "
                   "Calibrate to RMF sets it from the device report's DISC."),
        Param("aliases_in_use", "float", None, optional=True, min=0.0, max=255.0,
              group="volume", label="Aliases in use (average)",
              help="RMF reports a volume's busy per exposure: base plus the aliases "
                   "in use on average (the PAV column, 1.9H = 0.9 aliases). The model's "
                   "busy is divided the same way. Not set: the aliases drawn. The "
                   "Aliases property (what queues the I/O) stays as it is. Calibrate "
                   "to RMF reads it from the device report."),
        Param("reserved_pct", "float", 0.0, unit="%", min=0.0, max=100.0, group="volume",
              label="Reserved by this system",
              help="Share of time this system holds a RESERVE on the volumes (RMF's "
                   "% DEV RESV). z/OS counts it in the device's busy when no I/O is "
                   "active; it delays no I/O of this system. Calibrate to RMF reads "
                   "it from the device report."),
    ),
    "channel": (
        Param("count", "int", 4, min=1, max=256, group="channel", label="Channels",
              help="How many CHPIDs of this type the group holds. Each is its own path; "
                   "a control unit linked to the group is reached over all of them."),
        Param("names", "text", None, optional=True, group="channel", label="CHPIDs",
              help="The CHPIDs, comma separated, as many as the group holds (an import "
                   "from RMF fills them in). Not set: the group's label and a number."),
        Param("background_pct", "float", 0.0, unit="%", min=0.0, max=99.0, group="channel",
              label="Busy with work not drawn",
              help="Share of time each CHPID is busy with work the drawing lacks: other "
                   "systems' I/O on a shared channel, I/O to devices not drawn. It queues "
                   "with the drawn I/O, which waits for it as on a real shared channel. "
                   "Calibrate to RMF sets it from the Channel Path Activity report."),
    ),
})


def group_param(category: str, key: str) -> Param | None:
    """The group-card property ``key`` of ``category`` (``None`` if none)."""
    for p in GROUP_PARAMS.get(category, ()):
        if p.name == key:
            return p
    return None


def component_param(category: str, key: str) -> Param | None:
    """The component property ``key`` of ``category`` (``None`` if none)."""
    for p in COMPONENT_PARAMS.get(category, ()):
        if p.name == key:
            return p
    return None


def is_structural(key: str) -> bool:
    return key in STRUCTURAL


def is_count(key: str) -> bool:
    """Whether ``key`` is a count of drawn components (``tape_drives`` …)."""
    return isinstance(STRUCTURAL.get(key), CountParam)


# ---- shorthand -> drawing ---------------------------------------------------------
def apply(sc, overrides: Mapping[str, Any]) -> dict:
    """Edit ``sc`` for the hardware parameters in ``overrides``.

    Parameters
    ----------
    sc : Scenario
        Edited in place (its experiment decides which keys exist).
    overrides : mapping
        ``--set`` style values.

    Returns
    -------
    dict
        The overrides that are not hardware (workload and dataset
        parameters), for the run's parameter values.

    Raises
    ------
    ParamError
        A bad value, or a count the drawing cannot reach (nothing to copy).
    """
    from models.drawing import variants

    schema = catalog.experiment(sc.experiment).schema
    rest = {}
    for key, raw in overrides.items():
        if "." in key and key not in schema.names():
            # One component by its label (``SGDB2.drive``: a sweep's axis).
            variants.apply_setting(sc, f"{key}={raw}")
            continue
        param = schema[key] if key in schema.names() else None
        shape = STRUCTURAL.get(key)
        if param is None and isinstance(shape, KindParam):
            # A kind is drawable in any experiment whose drawing has one.
            value = _choice(key, raw, tuple(shape.kinds))
            _swap_kinds(sc, shape, value)
            continue
        if param is None:
            cat_param = next((component_param(c, key) for c in COMPONENT_PARAMS
                              if component_param(c, key) is not None), None)
            if cat_param is None:
                rest[key] = raw          # the schema reports the unknown key
                continue
            param = cat_param
        value = param.coerce(raw)
        if isinstance(shape, KindParam):
            _swap_kinds(sc, shape, value)
        elif isinstance(shape, CountParam):
            set_count(sc, shape, int(value), param)
        elif param.group in HARDWARE_GROUPS:
            nodes = sc.of_category(param.group)
            if not nodes:
                raise ParamError(f"'{param.title}' is set on a {param.group.replace('_', ' ')}, "
                                 "and the drawing has none")
            for n in nodes:
                n.properties[key] = value
        else:
            rest[key] = value
    return rest


def _choice(key: str, raw: Any, choices: tuple) -> Any:
    return Param(key, "choice", choices[0], choices=choices).coerce(raw)


def _swap_kinds(sc, shape: KindParam, value: Any) -> None:
    new = shape.kinds[value]
    # A group card (storage group) swaps to the group of the new kind.
    group_of = {k.member: k.key for k in components.KINDS.values() if k.is_group}
    for n in sc.of_category(shape.category):
        if n.kind in shape.kinds.values():
            n.kind = new
        elif components.kind(n.kind).member in shape.kinds.values():
            if new not in group_of:
                raise ParamError(f"{shape.category.replace('_', ' ')} groups come in no "
                                 f"{components.kind(new).label} kind: '{n.label}' cannot be one")
            n.kind = group_of[new]


def set_count(sc, shape: CountParam, count: int, param: Param) -> None:
    """Add or remove components of ``shape.kind`` until ``count`` are drawn.

    A copy is wired like the last one drawn (same neighbours) and labelled
    after it (``TAPE1`` → ``TAPE2``); removal takes the last ones first.
    """
    have = [n for n in sc.nodes.values() if shape.counts(sc, n)]
    have.sort(key=id_order)
    while len(have) > count:
        sc.remove_node(have.pop().id)
    if len(have) >= count:
        return
    if not have:
        raise ParamError(f"{param.name}={count}: the drawing has no "
                         f"{components.kind(shape.kind).label} to copy; draw one first")
    model = have[-1]
    used = {n.label for n in sc.nodes.values()}
    while len(have) < count:
        label = next_label(have[-1].label, used)
        used.add(label)
        node = Node(sc.new_id("n"), model.kind, label, model.x, have[-1].y + 110.0,
                    dict(model.properties))
        sc.add_node(node)
        for other in sc.neighbours(model.id):
            sc.add_link(Link(sc.new_id("l"), other.id, node.id))
        have.append(node)


_TAIL = re.compile(r"^(.*?)(\d+)$")


def next_label(label: str, used: set) -> str:
    """The next free label after ``label``: ``SPOOL4`` → ``SPOOL5``, ``CP 1`` →
    ``CP 2``; an unnumbered label gets `` 2``, `` 3`` …"""
    m = _TAIL.match(label)
    head, n = (m.group(1), int(m.group(2))) if m else (label + " ", 1)
    while True:
        n += 1
        candidate = f"{head}{n}"
        if candidate not in used:
            return candidate




# ---- drawing -> shorthand ---------------------------------------------------------
def derive(sc, param: Param) -> Any:
    """The value of a structural parameter as drawn (``None`` if not drawable)."""
    shape = STRUCTURAL.get(param.name)
    if isinstance(shape, CountParam):
        return sum(1 for n in sc.nodes.values() if shape.counts(sc, n))
    if isinstance(shape, KindParam):
        for n in _used_first(sc, shape.category):
            v = shape.value(components.kind(n.kind).member or n.kind)
            if v is not None and v in param.choices:
                return v
    return None


def _used_first(sc, category: str) -> list:
    """Components of ``category``, those on the workload's I/O path first."""
    nodes = sorted(sc.of_category(category), key=id_order)
    on_path = set()
    frontier = [n.id for n in sc.of_category("workload")]
    seen = set(frontier)
    while frontier:
        nxt = []
        for nid in frontier:
            for m in sc.neighbours(nid):
                if m.id not in seen and m.category != "processor":
                    seen.add(m.id)
                    nxt.append(m.id)
                    if m.category == category:
                        on_path.add(m.id)
        frontier = nxt
    return [n for n in nodes if n.id in on_path] + [n for n in nodes if n.id not in on_path]
