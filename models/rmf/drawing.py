"""From RMF reports to a drawing: a version-2 scenario of your own system.

:func:`build` turns the chosen interval of an :class:`~models.rmf.RmfSystem`
into a :class:`~models.drawing.scenario.Scenario` of experiment ``custom``:

* processors from the CPU report (a general CP card per CP, a zIIP card
  per zIIP) and one CPU workload whose demand is the engines' measured
  busy;
* channel groups from the Channel Path Activity report, one per protocol
  (zHPF where most of a CHPID's operations are zHPF), the CHPIDs as member
  names; which CHPID reaches which control unit is not in RMF: every group
  reaches every unit (an assumption, stated);
* a DS8000 control unit per cache subsystem (SSID), with the cache size of
  its header;
* storage groups as the device report groups them, the volsers as member
  names, a group spanning several units split per unit;
* RAID ranks from the ESS report (every group of the drive type striped
  over all of them), else the group's own ranks, one per
  :data:`VOLUMES_PER_RANK` volumes (stated);
* per storage group a dataset and one I/O workload fitted to what was
  measured (:mod:`models.rmf.fit`).

Every value not read is an assumption naming the file and line it would
have come from; they, the interval and the measured figures by canvas label
(:mod:`models.rmf.measured`) go in ``scenario.imported``, which the file
keeps. Qt-free; docs/rmf-drawing.md.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field

from models.drawing.elements import Link, Node
from models.drawing.scenario import Scenario
from models.io.geometry import MODELS
from models.rmf import measured as measured_mod
from models.rmf import fitcheck, layout, others, runlength
from models.rmf.fit import (EXCERPT_VOLUMES, MIN_IO_RATE, FitError, GroupMeasure, WorkloadFit,
                            device_read_share, fit_workload, idle, measure_group, measure_unit)
from models.rmf.reader import no_volumes
from models.rmf.records import Assumption, CacheUnit, Interval, RmfSystem, Volume

#: Volumes per RAID rank when the ESS report does not give the ranks.
VOLUMES_PER_RANK = 8
#: Cache of a control unit the reports do not size (the model's default).
DEFAULT_CACHE_MB = 64 * 1024
#: Largest cache a control unit card takes (its parameter's maximum).
MAX_CACHE_MB = 1024 * 1024
#: Simulated seconds each imported workload runs (a model choice).
RUN_S = 2.0
#: At most how many check runs refine a workload's fit on the model itself
#: (``build(refine_s=...)``, ``import-rmf --refine``; models.rmf.fitcheck.refine).
REFINE_RUNS = 3
#: CPU time of one transaction of the imported CPU workload (not in RMF).
TRAN_CPU_MS = 2.0
#: Volumes drawn for an excerpt, which names none (3390-54s, ~45 GB each).
EXCERPT_MODEL = "3390-54"
_REPLACED = frozenset(("channel paths", "processors", "ranks", "cache sizes and hit ratios"))
_COL = {"workload": 0.0, "dataset": 200.0, "volume": 400.0, "rank": 600.0,
        "control_unit": 800.0, "channel": 1000.0, "processor": 1200.0, "cpu_load": 1400.0}
_ROW = 130.0
#: Space between the rank cards drawn beside one storage group.
RANK_STEP = 170.0


@dataclass
class _Group:
    """A storage group's volumes behind one control unit: one card."""

    label: str
    sg: str
    unit: str                      # the control unit's label
    volumes: list[Volume] = field(default_factory=list)
    measure: GroupMeasure | None = None
    #: Volsers the cache report names, when no device report gives volumes.
    names: list[str] = field(default_factory=list)
    #: Other systems' I/O on the unit (models/rmf/others.py), not this system's.
    others: bool = False


class _Builder:
    def __init__(self, system: RmfSystem):
        self.system = system
        self.iv: Interval = system.interval
        self.file = system.files[0] if system.files else "input"
        self.sc = Scenario("custom", f"Imported from RMF: {self._title()}")
        # The reader's stand-ins for a missing report are the drawing's to
        # choose: these are replaced by what the drawing states it drew.
        self.assumed: list[Assumption] = [a for a in system.assumptions
                                          if a.what not in _REPLACED]
        self.rows = dict.fromkeys(_COL, 0)

    def _title(self) -> str:
        iv = self.iv
        return f"{iv.system or 'system ?'}, {iv.label}"

    # ---- helpers ------------------------------------------------------------------
    def assume(self, what: str, value, why: str, src=None, report: str | None = None) -> None:
        if src is None and report is not None:
            src = self.iv.sources.get(report)
        file = src.file if src is not None else self.file
        line = src.line if src is not None else None
        self.assumed.append(Assumption(what, value, why, file, line))

    def node(self, kind: str, label: str, column: str, props: dict | None = None) -> Node:
        y = self.rows[column] * _ROW
        self.rows[column] += 1
        return self.sc.add_node(Node(self.sc.new_id("n"), kind, label, _COL[column], y,
                                     dict(props or {})))

    def link(self, a: Node, b: Node) -> None:
        if self.sc.link_between(a.id, b.id) is None:
            self.sc.add_link(Link(self.sc.new_id("l"), a.id, b.id))

    # ---- the parts ------------------------------------------------------------------
    def processors(self) -> list[Node]:
        engines = [e for e in self.iv.engines if e.type in ("CP", "zIIP")]
        others = sorted({e.type for e in self.iv.engines} - {"CP", "zIIP"})
        if others:
            self.assume("engines of type " + ", ".join(others), "not drawn",
                        "the model runs general CPs and zIIPs only", report="CPU")
        if not engines:
            self.assume("processors", "one general CP", "no CPU report: a channel needs a "
                        "processor to start its I/O", report="CPU")
            return [self.node("cpu_cp", "CP 0", "processor")]
        return [self.node("cpu_cp" if e.type == "CP" else "cpu_ziip", f"{e.type} {e.number}",
                          "processor") for e in engines]

    def cpu_busy(self) -> dict[str, float]:
        """Engine-seconds per second of the general CPs and of the zIIPs."""
        engines = [e for e in self.iv.engines if e.type in ("CP", "zIIP")]
        return {t: sum((e.busy_pct or 0.0) for e in engines if e.type == t) / 100
                for t in ("CP", "zIIP")}

    def cpu_workload(self, cpus: list[Node], run_s: float = RUN_S) -> None:
        busy = self.cpu_busy()
        demand = busy["CP"] + busy["zIIP"]
        if demand <= 0:
            return
        wl = self.node("wl_cpu", "CPU work (RMF)", "cpu_load", {
            "cpu_demand": round(demand, 4),
            "ziip_pct": round(100 * busy["zIIP"] / demand, 2),
            "tran_cpu_ms": TRAN_CPU_MS, "duration_s": run_s})
        for c in cpus:
            self.link(wl, c)
        self.assume("CPU work", f"{demand:.3f} engine-seconds per second, "
                    f"{busy['zIIP'] / demand:.0%} zIIP eligible, {TRAN_CPU_MS:g} ms per "
                    "transaction", "the CPU report gives each engine's busy, not the work "
                    "behind it: one CPU workload keeps the engines as busy as measured",
                    report="CPU")

    def channels(self, cpus: list[Node]) -> list[Node]:
        ficon = [c for c in self.iv.channels.values() if c.type.upper().startswith("FC")
                 or c.ficon_rate is not None or c.zhpf_rate is not None]
        offline = [c.chpid for c in ficon if (c.status or "").upper() == "OFFLINE"]
        idle = [c.chpid for c in ficon if c.chpid not in offline and _idle(c)]
        chans = [c for c in ficon if c.chpid not in offline and c.chpid not in idle]
        others = sorted(set(self.iv.channels) - {c.chpid for c in ficon})
        for names, why in ((others, "not FICON: they carry no DASD I/O"),
                           (offline, "offline in the interval"),
                           (idle, "idle: no FICON or zHPF operation and no utilisation in the "
                                  "interval, so they reach none of the measured devices")):
            if names:
                self.assume("CHPIDs " + ", ".join(names), "not drawn", why, report="CHAN")
        by: dict[str, list] = {}
        for c in chans:
            by.setdefault("zHPF" if (c.zhpf_share or 0.0) >= 0.5 else "FICON", []).append(c)
        out = []
        if not by:
            self.assume("channel paths", "a zHPF group of 4 CHPIDs", "no FICON channel in the "
                        "Channel Path Activity report (or no such report)", report="CHAN")
            out.append(self.node("chg_zhpf", "zHPF CHPIDs", "channel", {"count": 4}))
        for proto, cs in by.items():
            out.append(self.node("chg_zhpf" if proto == "zHPF" else "chg_ficon",
                                 f"{proto} CHPIDs", "channel",
                                 {"count": len(cs), "names": ",".join(c.chpid for c in cs)}))
        if chans:
            self.assume("channel generation", "FICON Express8S", "the report's GEN column is "
                        "not mapped to a FICON Express generation", report="CHAN")
        self.assume("which CHPIDs reach which control unit", "every channel group reaches "
                    "every control unit", "RMF's Channel Path Activity does not say which "
                    "control units a CHPID reaches (the I/O configuration does)",
                    report="CHAN")
        for card in out:
            for cpu in cpus:
                self.link(card, cpu)
        return out

    def units(self) -> dict[str, tuple[Node, CacheUnit | None]]:
        out = {}
        for key, u in self.iv.cache_units.items():
            label = f"SSID {u.ssid}" if u.ssid and u.ssid != "?" else "Control unit"
            mb = u.cache_mb
            if mb is None:
                mb = DEFAULT_CACHE_MB
                self.assume(f"cache of {label}", f"{mb / 1024:g} GB", "the cache report "
                            "has no SUBSYSTEM STORAGE CONFIGURED line for it", u.source)
            out[key] = (self.node("cu_ds8000", label, "control_unit",
                                  {"cache_gb": round(min(mb, MAX_CACHE_MB) / 1024, 6)}), u)
        return out

    def unit_of(self, v: Volume, units: dict) -> str:
        for key, (_, u) in units.items():
            if u is not None and v.volser in u.volumes:
                return key
        key = f"LCU {v.lcu or '?'}"
        if key not in units:
            self.assume(f"control unit of LCU {v.lcu or '?'}", f"one of "
                        f"{DEFAULT_CACHE_MB // 1024} GB cache", "its volumes have no row in "
                        "the cache report", v.source)
            units[key] = (self.node("cu_ds8000", key, "control_unit",
                                    {"cache_gb": DEFAULT_CACHE_MB / 1024}), None)
        return key

    def device(self) -> tuple[str, list]:
        """The storage group kind and the ESS report's ranks of that drive type."""
        ranks = list(self.iv.ranks.values())
        if not ranks:
            self.assume("drive type", "HDD 15K", "no ESS report: the ranks' drives are not "
                        "given", report="ESS")
            self.assume("RAID ranks", f"each storage group's own, one per {VOLUMES_PER_RANK} "
                        "volumes (RAID-5 7+P)", "no ESS report: the ranks are not given",
                        report="ESS")
            return "sg_hdd15k", []
        kinds = ["sg_ssd" if r.ssd else "sg_hdd10k" if (r.rpm or 15) < 12 else "sg_hdd15k"
                 for r in ranks]
        kind = max(set(kinds), key=kinds.count)
        if len(set(kinds)) > 1:
            self.assume("drive type of every storage group", kind[3:].upper(), "the ESS "
                        "report mixes drive types and RMF does not say which volumes are on "
                        "which rank: the most common type", report="ESS")
        return kind, [r for r, k in zip(ranks, kinds) if k == kind]

    def rank_cards(self, groups: list[_Group], ranks: list) -> dict[str, list[Node]]:
        """The ESS report's ranks as cards, shared out among the storage groups in
        proportion to their volumes (each group's beside it); fewer ranks than
        groups: the groups take them in turn."""
        if not ranks or not groups:
            return {}
        sizes = [max(1, len(g.volumes)) for g in groups]
        if len(ranks) >= len(groups):
            counts = _apportion(len(ranks), sizes)
            it = iter(ranks)
            mine = [[next(it) for _ in range(n)] for n in counts]
        else:
            mine = [[ranks[i % len(ranks)]] for i in range(len(groups))]
        cards: dict[str, Node] = {}
        out: dict[str, list[Node]] = {}
        for row, (g, rs) in enumerate(zip(groups, mine)):
            out[g.label] = []
            for j, r in enumerate(rs):
                if r.rank_id not in cards:
                    cards[r.rank_id] = self.sc.add_node(Node(
                        self.sc.new_id("n"), "vol_raid", f"Rank {r.rank_id}",
                        _COL["rank"] + RANK_STEP * j, row * _ROW, {}))
                out[g.label].append(cards[r.rank_id])
        shared = ("each storage group has its share of the ranks (by its volumes), drawn "
                  "beside it" if len(ranks) >= len(groups) else
                  "the storage groups take the ranks in turn")
        self.assume("which volumes are on which rank", f"{len(ranks)} ranks of the ESS "
                    f"report: {shared}", "RMF's rank statistics do not say which volumes "
                    "have extents on a rank", report="ESS")
        return out

    def groups(self, units: dict) -> list[_Group]:
        sgs = self.iv.storage_groups()
        out: list[_Group] = []
        for sg, vols in sorted(sgs.items(), key=lambda kv: -sum(v.rate for v in kv[1])):
            split: dict[tuple, list[Volume]] = {}
            for v in sorted(vols, key=lambda v: v.devnum):
                # no storage group: one group per unit and LCU (stated below)
                split.setdefault((self.unit_of(v, units), "" if sg else v.lcu or "?"),
                                 []).append(v)
            for (key, lcu), vs in split.items():
                ssid = units[key][1].ssid if units[key][1] is not None else key
                if not sg:
                    on_unit = [k for k in split if k[0] == key]
                    label = (f"SSID {ssid} volumes" if units[key][1] is not None
                             and len(on_unit) == 1 else f"LCU {lcu} volumes")
                else:
                    label = sg if len(split) == 1 else f"{sg}/{ssid}"
                out.append(_Group(label, sg, key, vs))
        loose = sgs.get("", [])
        if loose:
            by_ssid = any(g.label.startswith("SSID ") for g in out if not g.sg)
            self.assume(f"storage group of {len(loose)} volumes",
                        "one group per " + ("control unit (SSID)" if by_ssid else "LCU") +
                        ": " + ", ".join(g.label for g in out if not g.sg),
                        "the device report's Storage Group column is empty for them (volumes "
                        "SMS does not manage)", report="DEVICE")
        if out and any(len({g.unit for g in out if g.sg == sg}) > 1 for sg in sgs if sg):
            self.assume("storage groups over several control units", "one card per group "
                        "and unit", "a storage group card sits behind one control unit",
                        report="DEVICE")
        return out

    def excerpt_group(self, units: dict) -> list[_Group]:
        """Without a device report, each cache unit as one storage group: of
        the volumes its device overview names, else (an excerpt) of assumed
        volumes."""
        out = []
        for key, (node, u) in units.items():
            if u is None or u.activity is None:
                continue
            label = f"{node.label} volumes"
            try:
                m = measure_unit(u, name=label)
            except FitError as exc:
                if u.volumes:
                    self.assume(f"volumes of {node.label}", "not drawn", f"{exc}: no "
                                "workload to run on them", u.source)
                continue
            if u.volumes:
                self.assume(f"I/O rate of {label}", f"{m.io_rate:g} I/O per second, the "
                            "cache report's", "no device report: the cache report counts "
                            "every system's I/O to the unit, this system's share is not "
                            "given", u.source)
            out.append(_Group(label, "", key, [], m, names=sorted(u.volumes)))
        return out


def build(system: RmfSystem, refine_s: float = 0.0, run_s: float | None = None) -> Scenario:
    """The drawing of the chosen interval (module docstring), ``imported`` filled in.

    Parameters
    ----------
    system : RmfSystem
        What :func:`models.rmf.read_reports` read.
    refine_s : float
        Simulated seconds of each run of the model that checks a fitted
        workload and moves its working set until the model gives the measured
        read hit ratio (:func:`models.rmf.fitcheck.refine`; a few seconds per
        storage group at a large cache). 0, the default, keeps the closed form
        of :mod:`models.rmf.cachefit`, which takes the sequential reads' hits
        from the model's own detection and staging (:mod:`models.rmf.seqfit`).
    run_s : float or None
        Simulated seconds each imported workload runs (its fit expects them);
        None: long enough for the least busy drawn group
        (:func:`models.rmf.runlength.choose`), stated as an assumption.

    Returns
    -------
    Scenario
        Experiment ``custom``, runnable; ``scenario.imported`` holds the
        source, the interval, the assumptions and the measured figures.
    """
    b = _Builder(system)
    _check_device(b)
    cpus = b.processors()
    chans = b.channels(cpus)
    units = b.units()
    kind, ranks = b.device()
    groups = b.groups(units) if b.iv.volumes else b.excerpt_group(units)
    if not groups:
        b.assume("storage groups", "none drawn", "no volumes in a device report and no "
                 "cache activity to stand for them", report="DEVICE")
    # The volumes run the protocol of the first path to their unit (every
    # channel group reaches every unit, in this order): zHPF has the LPO.
    lpo = bool(chans) and chans[0].kind == "chg_zhpf"
    _measure(b, groups)
    if b.iv.volumes:
        _other_systems(b, groups, units)
    chosen = _run_length(b, groups) if run_s is None else None
    run_s = chosen.seconds if chosen is not None else run_s
    fits = _fit(b, groups, units, refine_s, lpo, run_s)
    if any(g.volumes for g in groups):
        b.assume("PAV aliases of each storage group", "the most exposures in use of its "
                 "volumes (PAV column, rounded up) minus the base", "the device report gives "
                 "the average exposures in use, not the aliases defined (a HyperPAV pool is "
                 "shared by the LCU)", report="DEVICE")
    if groups:
        b.assume("run length", f"{run_s:g} s per workload", chosen.why(b.iv.length_s)
                 if chosen is not None else "a model choice: the figures are rates, and the "
                 f"interval was {_seconds(b.iv.length_s)}", report="DEVICE")
    rank_cards = b.rank_cards(groups, ranks)
    for g in groups:
        _draw_group(b, g, kind, rank_cards.get(g.label, []), units, fits.get(g.label), run_s)
    for node, _ in units.values():
        for ch in chans:
            b.link(node, ch)
    b.cpu_workload(cpus, run_s)
    _make_room(b.sc, max((len(v) for v in rank_cards.values()), default=1))
    b.sc.imported = {
        "source": list(system.files),
        "interval": {"number": b.iv.number, "start": b.iv.start, "length_s": b.iv.length_s,
                     "system": b.iv.system, "reports": sorted(b.iv.reports),
                     "reason": system.reason},
        "assumptions": [_plain(a) for a in b.assumed],
        **measured_mod.collect(b.iv, {g.label: [v.volser for v in g.volumes] or g.names
                                      for g in groups},
                               {n.label: u for n, u in units.values()},
                               {ch.label: ch.properties.get("names", "") for ch in chans},
                               _unit_lcus(groups, units)),
    }
    if system.skipped:
        b.sc.imported["skipped"] = list(system.skipped)
    return b.sc


def _unit_lcus(groups: list[_Group], units: dict) -> dict[str, set]:
    """Each control unit card's LCUs (of the volumes drawn behind it)."""
    out: dict[str, set] = {}
    for g in groups:
        out.setdefault(units[g.unit][0].label, set()).update(
            v.lcu for v in g.volumes if v.lcu)
    return out


def _idle(c) -> bool:
    """A CHPID with no operation and no utilisation in the interval."""
    return not any((x or 0.0) > 0 for x in (c.ficon_rate, c.zhpf_rate, c.busy_pct,
                                             c.part_busy_pct))


def _check_device(b: _Builder) -> None:
    """A device report that gives no volume to draw is refused; offline
    devices (no volume) are stated as not drawn."""
    iv = b.iv
    refused = no_volumes(iv, b.system.files or [b.file])
    if refused is not None:
        raise refused
    if iv.offline:
        b.assume("devices " + ", ".join(d for d, _, _ in iv.offline), "not drawn",
                 "offline: the device report lists them with no volume and no figures",
                 iv.offline[0][2])


def _seconds(length: float | None) -> str:
    return f"{length:g} s" if length else "not given"


def _plain(a: Assumption) -> dict:
    value = a.value if isinstance(a.value, (int, float, str, bool)) or a.value is None \
        else str(a.value)
    return {"what": a.what, "value": value, "why": a.why, "file": a.file, "line": a.line}


def _other_systems(b: _Builder, groups: list[_Group], units: dict) -> None:
    """Other systems' I/O on each shared unit, as a group of its own (stated)."""
    own = {}
    for key in units:
        mine = [g for g in groups if g.unit == key and g.volumes]
        rate = sum(v.rate for g in mine for v in g.volumes)
        reads = sum(sum(v.rate for v in g.volumes) * (device_read_share(b.iv, g.volumes) or 0.0)
                    for g in mine)
        # this system's sequential reads as its workloads will make them
        seq = sum(g.measure.io_rate * g.measure.read_share * g.measure.seq_share
                  for g in mine if g.measure is not None)
        own[key] = (rate, reads, seq)
    found, not_drawn = others.find({k: u for k, (_, u) in units.items()}, own)
    for o in found:
        groups.append(_Group(o.label, "", o.unit, [], o.measure, others=True))
        b.assume(f"I/O of other systems to {units[o.unit][0].label}",
                 f"{o.label}, {o.measure.io_rate:g} I/O per second", o.why,
                 units[o.unit][1].source if units[o.unit][1] else None)
    for line in not_drawn:
        b.assume("I/O of other systems", "not drawn", line, report="CACHE")


def _measure(b: _Builder, groups: list[_Group]) -> None:
    """Each group's measure for its workload (an idle group gets none, stated)."""
    for g in groups:
        rate = sum(v.rate for v in g.volumes)
        if g.volumes and idle(rate):
            b.assume(f"I/O workload of {g.label}", "none", f"{rate:g} I/O per second in "
                     f"{b.iv.label}, below the {MIN_IO_RATE:g} a workload runs at: the group "
                     "is drawn idle", g.volumes[0].source)
            continue
        if g.measure is None:
            try:
                g.measure = _named(measure_group(_only(b.iv, g), g.sg), g.label)
            except FitError as exc:
                b.assume(f"I/O workload of {g.label}", "the device report's rate, default "
                         "mix", str(exc), g.volumes[0].source if g.volumes else None)


def _run_length(b: _Builder, groups: list[_Group]) -> runlength.RunLength:
    """The run length for the drawn workloads' rates (models.rmf.runlength)."""
    rates = {g.label: g.measure.io_rate if g.measure is not None else
             sum(v.rate for v in g.volumes) for g in groups}
    rates = {k: r for k, r in rates.items() if not idle(r)}
    busy = b.cpu_busy()
    return runlength.choose(rates, 1000 * (busy["CP"] + busy["zIIP"]) / TRAN_CPU_MS)


def _fit(b: _Builder, groups: list[_Group], units: dict, refine_s: float = 0.0,
         lpo: bool = True, run_s: float = RUN_S) -> dict:
    """Fit each group's workload as the model will warm it: an equal share of
    its unit's cache and of the unit's part of the warm page limit; its
    sequential reads on its volumes, with or without the LPO (``lpo``)."""
    from models.workloads import system as wsys
    slots = {key: int(float(units[key][0].properties["cache_gb"]) * 2**30 // 4096)
             for key in {g.unit for g in groups if g.measure is not None}}
    limit = wsys.warm_limits(slots)
    sharing = {key: sum(1 for g in groups if g.unit == key and g.measure) for key in slots}
    out: dict[str, tuple[GroupMeasure, WorkloadFit | None]] = {}
    for g in groups:
        m = g.measure
        if m is None:
            continue
        if g.others and not m.read_share:
            out[g.label] = (m, None)        # writes only: no read hit ratio to fit
            continue
        budget = wsys.warm_share(slots[g.unit], limit[g.unit], sharing[g.unit])
        cache_mb = slots[g.unit] * 4096 / 2**20 / sharing[g.unit]
        try:
            fit = fit_workload(m, cache_mb, warm_pages=budget,
                               volumes=len(g.volumes) or len(g.names) or EXCERPT_VOLUMES, lpo=lpo,
                               run_s=run_s)
        except FitError as exc:
            b.assume(f"working set and skew of {g.label}", "the workload's defaults",
                     str(exc), g.volumes[0].source if g.volumes else None)
            out[g.label] = (m, None)
            continue
        if refine_s > 0:
            # The closed form leaves out what timing decides (prestages in
            # flight, a miss's wait reordering a volume's reads, warm blocks
            # pushed out), so the model itself checks the fit.
            closed, first = fit.working_set_mb, fit.predicted_hit_ratio
            fit, got = fitcheck.refine(fit, refine_s, volumes=len(g.volumes) or len(g.names) or None,
                                       runs=REFINE_RUNS)
            moved = (f"the closed form's {closed:,.0f} MB (predicting {first:.3f}) moved"
                     if fit.working_set_mb != closed else "the closed form's, kept")
            b.assume(f"working set of {g.label}", f"{fit.working_set_mb:,.0f} MB",
                     f"checked on the model's own {refine_s:g} s runs, which gave a read hit "
                     f"ratio of {got.request_hit_ratio:.3f} (measured "
                     f"{fit.measured_hit_ratio:.3f}): {moved}",
                     g.volumes[0].source if g.volumes else None)
        b.assumed.extend(fit.assumptions)
        out[g.label] = (m, fit)
    return out


def _named(m: GroupMeasure, label: str) -> GroupMeasure:
    """The measure under its card's label (a group split over units is two cards)."""
    if m.name == label:
        return m
    said = [dataclasses.replace(a, what=a.what.replace(f"of {m.name}", f"of {label}"))
            for a in m.assumptions]
    return dataclasses.replace(m, name=label, assumptions=said)


def _only(iv: Interval, g: _Group) -> Interval:
    """The interval with only this card's volumes in its storage group (a
    group split over units is measured per unit)."""
    keep = {v.volser for v in g.volumes}
    view = Interval(iv.number, iv.system, iv.start, iv.length_s,
                    {k: v for k, v in iv.volumes.items()
                     if (v.storage_group or "") != g.sg or k in keep},
                    iv.cache_units, iv.channels, iv.engines, iv.ranks, iv.reports)
    return view


def _draw_group(b: _Builder, g: _Group, kind: str, rank_cards: list, units: dict,
                fitted, run_s: float = RUN_S) -> None:
    m, fit = fitted if fitted else (g.measure, None)
    props: dict = {}
    if g.volumes:
        props["count"] = len(g.volumes)
        props["names"] = ",".join(v.volser for v in g.volumes)
        pav = [v.pav for v in g.volumes if v.pav is not None]
        props["aliases"] = max(0, min(255, max((math.ceil(p - 1e-9) - 1 for p in pav),
                                               default=0)))
        props["model"] = _model(g.volumes)
    elif g.names:
        props.update(count=len(g.names), names=",".join(g.names), model="3390-9", aliases=0)
        b.assume(g.label, f"the cache report's {len(g.names)} as 3390-9s "
                 "without aliases", "no device report: the volumes' models and PAV aliases "
                 "are not given", units[g.unit][1].source if units[g.unit][1] else None)
    else:
        ws = fit.working_set_mb if fit else 2048.0
        props["count"] = max(EXCERPT_VOLUMES, math.ceil(ws * 1.1 / 40_000))
        props["model"] = EXCERPT_MODEL
        props["aliases"] = 8
        b.assume(f"volumes of {g.label}", f"{props['count']} 3390-54s with 8 aliases",
                 "other systems' volumes are not in this system's device report: enough "
                 "for the fitted working set" if g.others else
                 "the excerpt names no volumes: enough for the fitted working set",
                 units[g.unit][1].source if units[g.unit][1] else None)
    if not rank_cards:
        props["ranks"] = max(1, math.ceil(props["count"] / VOLUMES_PER_RANK))
    sg = b.node(kind, g.label, "volume", props)
    for r in rank_cards:
        b.link(sg, r)
    b.link(sg, units[g.unit][0])
    ds = b.node("ds_vsam_ksds", f"{g.label} data", "dataset")
    b.link(ds, sg)
    if fit:
        values = fit.values()
    elif m:
        values = {"arrival": "counted", "io_rate": round(m.io_rate, 3),
                  "read_pct": round(100 * m.read_share, 2),
                  "seq_pct": round(100 * m.seq_share, 2),
                  "pages_per_io": max(1, min(32, round(m.bytes_per_read / 4096)))}
        if not m.read_share:
            # Writes only: nothing to warm for; the pages its writes reach in the run.
            values["working_set_mb"] = max(1.0, round(m.io_rate * run_s * 4096 / 2**20, 1))
    elif idle(sum(v.rate for v in g.volumes)):
        return                                  # idle in the interval: said in _fit
    else:
        rate = round(sum(v.rate for v in g.volumes), 3)
        # No cache reads to fit a working set to: the blocks it can reach in
        # the run (one page an I/O), so that it warms no more of its unit's
        # cache than it could use (models.workloads.system.warm_shares).
        touched = max(1.0, round(rate * run_s * 4096 / 2**20, 1))
        values = {"arrival": "counted", "io_rate": rate, "working_set_mb": touched}
        share = device_read_share(b.iv, g.volumes)
        if share is not None:
            values["read_pct"] = round(100 * share, 2)
        b.assume(f"working set of {g.label}", f"{touched:g} MB", "the cache report gives "
                 "it no read requests to fit: the pages its I/O reaches in the run "
                 f"({rate:g} I/O per second for {run_s:g} s, one page each)",
                 g.volumes[0].source if g.volumes else None)
    values["duration_s"] = run_s
    if g.others:
        values["other_system"] = True
    wl = b.node("wl_io", f"{g.label} I/O", "workload", values)
    wl.y = ds.y                 # beside its dataset, past the idle groups' rows
    b.link(wl, ds)


def _apportion(total: int, sizes: list[int]) -> list[int]:
    """``total`` split in proportion to ``sizes``, each at least 1 (largest remainder)."""
    n = len(sizes)
    extra = total - n
    weight = sum(sizes)
    exact = [extra * s / weight for s in sizes]
    counts = [1 + int(e) for e in exact]
    order = sorted(range(n), key=lambda i: -(exact[i] - int(exact[i])))
    for i in order[:total - sum(counts)]:
        counts[i] += 1
    return counts


def _make_room(sc: Scenario, ranks_per_row: int) -> None:
    """Move the columns right of the ranks over, past the widest row of ranks,
    and the rows below a card that takes no part in the run down, past its note."""
    shift = RANK_STEP * max(0, ranks_per_row - 1)
    if shift:
        for n in sc.nodes.values():
            if n.x > _COL["rank"] and n.category != "rank":
                n.x += shift
    layout.leave_room_for_notes(sc)


def _model(vols: list[Volume]) -> str:
    """The 3390 model of most of the volumes (by their cylinders)."""
    picks = []
    for v in vols:
        if v.cylinders:
            picks.append(min(MODELS, key=lambda k: abs(MODELS[k] - v.cylinders)))
    return max(set(picks), key=picks.count) if picks else "3390-9"
