"""The hardware and workload configuration a run simulates, built from the canvas.

A :class:`Configuration` is plain, immutable data (JSON round trip with
:meth:`Configuration.to_dict` / :meth:`Configuration.from_dict`): the
processors, channel paths, control units, RAID ranks, volumes, datasets,
tape drives and workloads drawn on a canvas, each under its canvas label,
with the links that matter to the model turned into named references
(a volume names its control unit and ranks, a channel path the control
units and tape drives it reaches). :func:`from_scenario` builds it from a
:class:`models.drawing.scenario.Scenario`; the models build their simulation from
it (``models.io.system`` for channels, control units, ranks and volumes,
``models.cpu`` for the processors, ``models.tape`` for the drives).

Nothing here runs a model: this module knows the shape of a configuration,
not its timing. The physical figures (link rates, drive timing, cache
behaviour) live with the models that use them.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from functools import cached_property
from types import MappingProxyType
from typing import Any, Iterable, Mapping

from models.drawing import components
from models.drawing.elements import id_order

#: Drive types a volume's kind implies (the rank behind it holds those drives).
VOLUME_DEVICES: Mapping[str, str] = MappingProxyType({
    "vol_hdd10k": "HDD10K", "vol_hdd15k": "HDD15K", "vol_ssd": "SSD", "vol_3390": "3390",
})
#: Channel protocol each channel kind implies.
CHANNEL_PROTOCOLS: Mapping[str, str] = MappingProxyType({
    "chan_ficon": "FICON", "chan_zhpf": "zHPF",
})
#: Processor type of each processor kind.
PROCESSOR_TYPES: Mapping[str, str] = MappingProxyType({"cpu_cp": "CP", "cpu_ziip": "zIIP"})

#: Defaults of the properties a component carries when the canvas sets none.
CHANNEL_GENERATION = "FEx8S"
CACHE_GB = 64.0
RAID = "7+P"
ALIASES = 0
VOLUME_MODEL = "3390-9"


def _props(value: Mapping | None) -> Mapping:
    return MappingProxyType(dict(value or {}))


@dataclass(frozen=True)
class Processor:
    """A general CP or a zIIP. ``speed`` is relative to the reference engine (1.0)."""

    name: str
    type: str                       # "CP" or "zIIP"
    speed: float = 1.0
    properties: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class ChannelPath:
    """A CHPID: FICON command mode or zHPF, on a FICON Express generation.

    ``control_units`` and ``tape_drives`` are what the path reaches;
    ``processors`` the processors that start I/O on it.
    """

    name: str
    protocol: str                   # "FICON" or "zHPF"
    generation: str = CHANNEL_GENERATION
    control_units: tuple[str, ...] = ()
    tape_drives: tuple[str, ...] = ()
    processors: tuple[str, ...] = ()
    properties: Mapping = field(default_factory=dict)
    group: str | None = None        # the channel group's canvas label, if drawn in one


@dataclass(frozen=True)
class ControlUnit:
    """A DS8000-style control unit: cache shared by all its volumes."""

    name: str
    cache_gb: float = CACHE_GB
    properties: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class Rank:
    """A RAID-5 rank. ``drive`` is the drive type its volumes' kinds agree on."""

    name: str
    drive: str
    raid: str = RAID
    properties: Mapping = field(default_factory=dict)
    group: str | None = None        # the storage group that brings it (its ``ranks``)


@dataclass(frozen=True)
class Volume:
    """An emulated 3390 volume behind one control unit.

    ``ranks`` are the ranks its extents live on (storage pool striping over
    several); empty means a rank of its own, named after the volume.
    ``aliases`` are PAV/HyperPAV aliases: each lets one more I/O to the
    volume start at once instead of queueing (IOSQ).
    """

    name: str
    device: str                     # HDD10K, HDD15K, SSD or 3390 (native)
    control_unit: str | None
    ranks: tuple[str, ...] = ()
    aliases: int = ALIASES
    model: str = VOLUME_MODEL
    properties: Mapping = field(default_factory=dict)
    group: str | None = None        # the storage group's canvas label, if drawn in one


@dataclass(frozen=True)
class Dataset:
    """A dataset placed on one or more volumes (in link order)."""

    name: str
    kind: str
    volumes: tuple[str, ...] = ()
    properties: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class TapeDrive:
    """A 3490 tape drive on one or more channel paths."""

    name: str
    channels: tuple[str, ...] = ()
    properties: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class CouplingFacility:
    """A coupling facility (lock and cache structures), reached from ``processors``."""

    name: str
    processors: tuple[str, ...] = ()
    properties: Mapping = field(default_factory=dict)


@dataclass(frozen=True)
class Workload:
    """A workload: the datasets it uses and the processors it runs on."""

    name: str
    kind: str
    datasets: tuple[str, ...] = ()
    processors: tuple[str, ...] = ()
    properties: Mapping = field(default_factory=dict)


_SECTIONS = (("processors", Processor), ("channels", ChannelPath),
             ("control_units", ControlUnit), ("ranks", Rank), ("volumes", Volume),
             ("datasets", Dataset), ("tape_drives", TapeDrive),
             ("coupling_facilities", CouplingFacility), ("workloads", Workload))


@dataclass(frozen=True)
class Configuration:
    """Everything on the canvas that a run simulates, by canvas label."""

    processors: tuple[Processor, ...] = ()
    channels: tuple[ChannelPath, ...] = ()
    control_units: tuple[ControlUnit, ...] = ()
    ranks: tuple[Rank, ...] = ()
    volumes: tuple[Volume, ...] = ()
    datasets: tuple[Dataset, ...] = ()
    tape_drives: tuple[TapeDrive, ...] = ()
    coupling_facilities: tuple[CouplingFacility, ...] = ()
    workloads: tuple[Workload, ...] = ()

    # ---- look-ups ----------------------------------------------------------
    @cached_property
    def _by_name(self) -> dict[str, dict[str, Any]]:
        """Each section's items by canvas name, filled on first look-up (a
        scan of a thousand volumes per look-up was 4 % of a Large shop run)."""
        return {}

    def _find(self, section: str, name: str):
        index = self._by_name.get(section)
        if index is None:
            index = self._by_name[section] = {}
            for item in getattr(self, section):
                index.setdefault(item.name, item)     # the first of a name, as a scan
        item = index.get(name)
        if item is None:
            raise KeyError(f"no {section[:-1].replace('_', ' ')} called '{name}'")
        return item

    def processor(self, name: str) -> Processor:
        return self._find("processors", name)

    def channel(self, name: str) -> ChannelPath:
        return self._find("channels", name)

    def control_unit(self, name: str) -> ControlUnit:
        return self._find("control_units", name)

    def rank(self, name: str) -> Rank:
        return self._find("ranks", name)

    def volume(self, name: str) -> Volume:
        return self._find("volumes", name)

    def dataset(self, name: str) -> Dataset:
        return self._find("datasets", name)

    def workload(self, name: str | None = None) -> Workload:
        """The workload called ``name`` (or the only one)."""
        if name is None:
            if len(self.workloads) != 1:
                raise KeyError(f"{len(self.workloads)} workloads: name the one wanted")
            return self.workloads[0]
        return self._find("workloads", name)

    def paths_to(self, control_unit: str) -> tuple[ChannelPath, ...]:
        """Channel paths that reach ``control_unit``, in canvas order."""
        return tuple(c for c in self.channels if control_unit in c.control_units)

    def volumes_of(self, dataset: str) -> tuple[Volume, ...]:
        """The volumes a dataset lives on, in its placement order."""
        return tuple(self.volume(v) for v in self.dataset(dataset).volumes)

    def volumes_on(self, control_unit: str) -> tuple[Volume, ...]:
        return tuple(v for v in self.volumes if v.control_unit == control_unit)

    def workload_volumes(self, workload: str | None = None) -> tuple[Volume, ...]:
        """Every volume holding a dataset of the workload, first use first."""
        seen: dict[str, Volume] = {}
        for ds in self.workload(workload).datasets:
            for v in self.volumes_of(ds):
                seen.setdefault(v.name, v)
        return tuple(seen.values())

    def processors_of(self, type_: str | None = None,
                      workload: str | None = None) -> tuple[Processor, ...]:
        """Processors (of one type) the workload runs on; all of them when the
        workload names none (it then runs wherever the system dispatches it)."""
        names = set(self.workload(workload).processors) if self.workloads else set()
        pool = [p for p in self.processors if not names or p.name in names]
        return tuple(p for p in pool if type_ is None or p.type == type_)

    def tape_drives_reached(self) -> tuple[TapeDrive, ...]:
        """Tape drives on a channel path that a processor drives."""
        live = {c.name for c in self.channels if c.processors}
        return tuple(d for d in self.tape_drives if live & set(d.channels))

    def component_names(self) -> list[str]:
        """Every component's canvas label, in section order."""
        return [item.name for section, _ in _SECTIONS for item in getattr(self, section)]

    # ---- plain data ----------------------------------------------------------
    def to_dict(self) -> dict:
        """JSON-ready data (tuples as lists, property mappings as objects)."""
        out = {}
        for section, _ in _SECTIONS:
            items = []
            for item in getattr(self, section):
                d = asdict(item) if not _has_mapping(item) else _item_dict(item)
                items.append(d)
            out[section] = items
        return out

    @classmethod
    def from_dict(cls, data: Mapping) -> "Configuration":
        """Inverse of :meth:`to_dict`; ``ValueError`` on a malformed object."""
        if not isinstance(data, Mapping):
            raise ValueError("a configuration is a JSON object")
        kw = {}
        for section, klass in _SECTIONS:
            raw = data.get(section, [])
            if not isinstance(raw, list):
                raise ValueError(f"configuration '{section}' must be a list")
            kw[section] = tuple(_item_from(klass, r, section) for r in raw)
        return cls(**kw)


def _has_mapping(item) -> bool:
    return any(isinstance(getattr(item, f.name), Mapping) for f in fields(item))


def _item_dict(item) -> dict:
    out = {}
    for f in fields(item):
        v = getattr(item, f.name)
        out[f.name] = dict(v) if isinstance(v, Mapping) else list(v) if isinstance(v, tuple) else v
    return out


def _item_from(klass, raw: Any, section: str):
    if not isinstance(raw, Mapping):
        raise ValueError(f"configuration '{section}' holds a non-object")
    names = {f.name for f in fields(klass)}
    unknown = set(raw) - names
    if unknown:
        raise ValueError(f"configuration '{section}': unknown field(s) {', '.join(sorted(unknown))}")
    kw = {}
    for k, v in raw.items():
        kw[k] = tuple(v) if isinstance(v, list) else _props(v) if isinstance(v, Mapping) else v
    try:
        return klass(**kw)
    except TypeError as exc:
        raise ValueError(f"configuration '{section}': {exc}") from None


# ---- from the canvas ------------------------------------------------------------
def member_names(label: str, count: int, names: str | None = None) -> tuple[str, ...]:
    """The names of a group card's members: ``names`` (comma separated) when
    given, else the group's label and a number (``PRDSG`` → ``PRDSG001`` …;
    a label of several words keeps them and a space before the number:
    ``zHPF CHPIDs`` → ``zHPF CHPIDs 01``, not ``zHPFCHPIDs01``).

    Raises
    ------
    ValueError
        ``names`` does not list ``count`` distinct names.
    """
    if names:
        out = tuple(x.strip() for x in str(names).split(",") if x.strip())
        if len(out) != count or len(set(out)) != count:
            raise ValueError(f"'{label}' holds {count} but lists {len(set(out))} distinct names")
        return out
    width = max(2, len(str(count)))
    head = " ".join(label.split())
    head += " " if " " in head else ""
    return tuple(f"{head}{i:0{width}d}" for i in range(1, count + 1))


def members_of(node) -> tuple[str, ...]:
    """A canvas component's simulated members: its own label, or a group's member names."""
    if not components.kind(node.kind).is_group:
        return (node.label,)
    count = int(node.properties.get("count", _GROUP_COUNT[node.category]))
    return member_names(node.label, count, node.properties.get("names"))


def own_ranks(node) -> tuple[str, ...]:
    """The ranks a storage group brings with it (its ``ranks`` property), by name."""
    if not components.kind(node.kind).is_group or node.category != "volume":
        return ()
    n = int(node.properties.get("ranks", 0) or 0)
    width = max(2, len(str(n)))
    # Named as the members are: the label's words kept (``DB2 Vols-R01``).
    head = " ".join(node.label.split())
    return tuple(f"{head}-R{j:0{width}d}" for j in range(1, n + 1))


#: Members of a group card whose count is not set (the property's default).
_GROUP_COUNT = {"volume": 10, "channel": 4}


def from_scenario(sc) -> Configuration:
    """The configuration drawn on a :class:`models.drawing.scenario.Scenario`.

    Components are taken in canvas order (by id); references between them
    follow the links. A group card (a storage group, a channel group) gives
    one record per member, named by :func:`member_names`: a storage group's
    volumes go round the ranks it is linked to (volume ``i`` on rank
    ``i mod k``), and whatever is linked to a group is linked to every
    member. Wiring problems are the scenario's to report
    (:meth:`Scenario.issues`): this function takes the drawing as it is.
    """
    nodes = sorted(sc.nodes.values(), key=id_order)
    label = {n.id: members_of(n) for n in nodes}
    adj: dict[str, list] = {n.id: [] for n in nodes}
    for ln in sorted(sc.links.values(), key=id_order):
        adj[ln.source].append(sc.nodes[ln.target])
        adj[ln.target].append(sc.nodes[ln.source])

    def near(node, category: str) -> tuple[str, ...]:
        return tuple(name for m in adj[node.id] if m.category == category for name in label[m.id])

    out: dict[str, list] = {s: [] for s, _ in _SECTIONS}
    for n in nodes:
        cat = n.category
        props = _props(n.properties)
        group = n.label if components.kind(n.kind).is_group else None
        if cat == "processor":
            out["processors"].append(Processor(n.label, PROCESSOR_TYPES[n.kind],
                                               float(n.properties.get("speed", 1.0)), props))
        elif cat == "channel":
            for name in label[n.id]:
                out["channels"].append(ChannelPath(
                    name, CHANNEL_PROTOCOLS[_member_kind(n.kind)],
                    str(n.properties.get("channel", CHANNEL_GENERATION)),
                    near(n, "control_unit"), near(n, "tape"), near(n, "processor"), props,
                    group))
        elif cat == "control_unit":
            out["control_units"].append(ControlUnit(
                n.label, float(n.properties.get("cache_gb", CACHE_GB)), props))
        elif cat == "rank":
            devices = [VOLUME_DEVICES[_member_kind(m.kind)] for m in adj[n.id]
                       if _member_kind(m.kind) in VOLUME_DEVICES]
            out["ranks"].append(Rank(n.label, devices[0] if devices else "HDD15K",
                                     str(n.properties.get("raid", RAID)), props))
        elif cat == "volume":
            cus = near(n, "control_unit")
            ranks = near(n, "rank")
            if group and not ranks and own_ranks(n):
                ranks = own_ranks(n)
                for r in ranks:
                    out["ranks"].append(Rank(r, VOLUME_DEVICES[_member_kind(n.kind)],
                                             RAID, _props({}), group))
            for i, name in enumerate(label[n.id]):
                out["volumes"].append(Volume(
                    name, VOLUME_DEVICES[_member_kind(n.kind)], cus[0] if cus else None,
                    (ranks[i % len(ranks)],) if group and ranks else ranks,
                    int(n.properties.get("aliases", ALIASES)),
                    str(n.properties.get("model", VOLUME_MODEL)), props, group))
        elif cat == "dataset":
            out["datasets"].append(Dataset(n.label, n.kind, near(n, "volume"), props))
        elif cat == "tape":
            out["tape_drives"].append(TapeDrive(n.label, near(n, "channel"), props))
        elif cat == "coupling":
            out["coupling_facilities"].append(CouplingFacility(n.label, near(n, "processor"),
                                                               props))
        elif cat == "workload":
            out["workloads"].append(Workload(n.label, n.kind, near(n, "dataset"),
                                             near(n, "processor"), props))
        else:                                  # pragma: no cover - registry and here agree
            raise ValueError(f"no configuration section for {components.CATEGORIES.get(cat, cat)}")
    return Configuration(**{k: tuple(v) for k, v in out.items()})



# ---- which cards take part ------------------------------------------------------
#: The neighbours a component in use puts in use: the I/O path down from a
#: workload (its datasets, their volumes, the volumes' control units and
#: ranks, the channels to those units, the processors driving them).
_USES = {"workload": ("dataset", "processor"), "dataset": ("volume",),
         "volume": ("control_unit", "rank"), "control_unit": ("channel",),
         "channel": ("processor",), "tape": ("channel",)}
#: Why a card of each category takes no part, as a card's warning says it.
_IDLE_WHY = {
    "dataset": "no workload uses this dataset",
    "volume": "no dataset a workload uses is on it",
    "rank": "no volume in use is on this rank",
    "control_unit": "it serves no volume in use",
    "channel": "it reaches no control unit or tape drive in use",
    "processor": "no workload runs on it and it drives no channel in use",
    "tape": "the experiment writes no tape, or no channel in use reaches the drive",
    "coupling": "only the CICS VSAM case uses a coupling facility, reached from a "
                "processor in use",
    "workload": "the experiment does not run it",
}


def idle_cards(sc) -> dict[str, str]:
    """The cards of a drawing that take no part in its run, each with why.

    A card takes part when a workload reaches it along the I/O path (a
    workload's datasets, the volumes they are on, those volumes' control
    units and ranks, the channels reaching those units, the processors
    driving those channels or running a workload); a tape drive when the
    experiment writes tape and a channel with a processor reaches it; a
    coupling facility when the experiment models one (the CICS VSAM case)
    and a processor in use reaches it. Anything else is simulated without work,
    or not at all: a storage group dropped beside the others and linked to
    nothing does not change the run, and the card says so.

    Parameters
    ----------
    sc : Scenario

    Returns
    -------
    dict
        ``{node id: one sentence}`` in canvas order; empty when the drawing
        has no experiment or no workload (then nothing runs, and its issues
        say why).
    """
    if sc.experiment is None or not sc.of_category("workload"):
        return {}
    uses_tape, uses_cf = _run_uses(sc)
    used = {n.id for n in sc.of_category("workload")}
    if uses_tape:
        used |= {t.id for t in sc.of_category("tape")
                 if any(sc.neighbours(c.id, "processor") for c in sc.neighbours(t.id, "channel"))}
    frontier = list(used)
    while frontier:
        nxt = []
        for nid in frontier:
            for other in sc.neighbours(nid):
                if other.id not in used and other.category in _USES.get(
                        sc.nodes[nid].category, ()):
                    used.add(other.id)
                    nxt.append(other.id)
        frontier = nxt
    if uses_cf:
        used |= {cf.id for cf in sc.of_category("coupling")
                 if any(p.id in used for p in sc.neighbours(cf.id, "processor"))}
    return {n.id: _IDLE_WHY.get(n.category, "no workload reaches it")
            for n in sorted(sc.nodes.values(), key=id_order) if n.id not in used}


def _run_uses(sc) -> tuple[bool, bool]:
    """(the experiment writes tape, it models a coupling facility): the CICS
    case keeps its log streams there under LSR too, its locks under RLS."""
    from models.drawing import catalog

    schema = catalog.experiment(sc.experiment).schema
    tape = any(p.group == "tape" for p in schema.params)
    cf = "mode" in schema.names() and "RLS" in schema["mode"].choices
    return tape, cf


def _member_kind(key: str) -> str:
    """The kind of one member of a group kind (the kind itself otherwise)."""
    return components.kind(key).member or key


def names(items: Iterable) -> list[str]:
    """Canvas labels of configuration items."""
    return [i.name for i in items]
