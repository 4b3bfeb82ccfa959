"""The canvas component registry and the topology rules between components.

Each :class:`ComponentKind` is one entry of the palette: a registry key (the
value carried by drag and drop and stored in scenario files), a label, the
category it belongs to (which is also the ``group`` of the experiment
parameters it carries, see :mod:`models.core.params`), an icon name and the
parameter values the kind itself implies (an SSD volume implies
``device=SSD``).

:func:`link_refusal` says in one human sentence why two components cannot be
linked, or returns ``None`` when they can. The rules follow the real I/O
path: processor ↔ channel ↔ control unit ↔ volume ↔ dataset, a volume lives
on a RAID rank, a workload uses datasets (or runs on a processor when it
does no I/O of its own), and a tape drive hangs off a channel.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping

#: Categories in palette order, with the heading the palette shows.
CATEGORIES: Mapping[str, str] = MappingProxyType({
    "workload": "Workloads",
    "processor": "Processors",
    "channel": "Channels",
    "control_unit": "Control units",
    "volume": "Volumes",
    "rank": "RAID ranks",
    "tape": "Tape drives",
    "coupling": "Coupling facilities",
    "dataset": "Datasets",
})


@dataclass(frozen=True)
class ComponentKind:
    """One kind of component the palette offers.

    Parameters
    ----------
    key : str
        Registry key (drag-and-drop payload, scenario files).
    label : str
        Name shown under the icon.
    category : str
        One of :data:`CATEGORIES`; equals the ``group`` of the experiment
        parameters this component carries.
    help : str
        Tooltip: what the component is and what it teaches.
    implies : Mapping
        Parameter values fixed by the kind (e.g. ``{"device": "SSD"}``).
    experiments : tuple of str
        For workloads: the experiments it can drive, the first being the one
        chosen when it is dropped onto a scenario without one.
    general : str
        For the general workloads a user puts on their own configuration:
        ``"io"`` (drives the datasets it is linked to) or ``"cpu"`` (runs on
        the processors it is linked to); empty for a case study's workload.
        A scenario may hold several general workloads (a mixed system), each
        with its own values (:attr:`carries`); a case study has one workload.
    carries : tuple of str
        For general workloads: the workload parameters each component of the
        kind carries itself (the inspector shows these and no others).
    member : str
        For a group (a storage group, a channel group): the registry key of
        one of its members. The card stands for ``count`` such components,
        each simulated on its own (:func:`models.drawing.config.from_scenario`
        expands it); empty for a single component.
    """

    key: str
    label: str
    category: str
    help: str
    implies: Mapping = field(default_factory=dict)
    experiments: tuple[str, ...] = ()
    general: str = ""
    carries: tuple[str, ...] = ()
    member: str = ""

    @property
    def is_group(self) -> bool:
        """Whether one card of this kind stands for several components."""
        return bool(self.member)

    @property
    def icon(self) -> str:
        """File stem of the SVG icon in ``resources/icons``."""
        return self.key


def _k(key, label, category, help, implies=None, experiments=(), general="", carries=(),
       member=""):
    return ComponentKind(key, label, category, help,
                         MappingProxyType(dict(implies or {})), tuple(experiments),
                         general, tuple(carries), member)


def _storage_group(dev: str, drive: str) -> ComponentKind:
    """The storage group of the 3390 volume kind ``vol_<dev>`` (drive type ``drive``)."""
    member = f"vol_{dev}"
    on = drive if drive == "SSD" else f"HDD {drive[3:]}"
    what = "solid-state drives" if drive == "SSD" else f"{drive[3:]} RPM disks"
    return _k(f"sg_{dev}", f"Storage group on {on}", "volume",
              f"An SMS storage group: N emulated 3390 volumes on {what}, drawn as one card. "
              "Each volume has its own queue, aliases and rank; the group's volumes spread "
              "over the ranks it is linked to.",
              implies={"device": drive}, member=member)


#: Parameters of the general workloads (declared in models/workloads/params.py).
IO_WORKLOAD_PARAMS = ("arrival", "io_rate", "users", "think_ms", "read_pct", "pages_per_io",
                      "seq_pct", "working_set_mb", "skew", "duration_s", "other_system")
CPU_WORKLOAD_PARAMS = ("cpu_demand", "ziip_pct", "tran_cpu_ms", "duration_s")


_KINDS = (
    _k("wl_program_fetch", "Program fetch loop", "workload",
       "A batch program that LOADs and DELETEs a module from a STEPLIB over "
       "and over: a directory search and the module text on every LOAD.",
       experiments=("program_fetch", "library_space")),
    _k("wl_db2", "DB2 query or utility", "workload",
       "DB2 reading pages: synchronous reads, sequential or list prefetch "
       "(up to 32 pages per I/O), index scans and RUNSTATS sampling.",
       experiments=("db2_index_scan", "db2_io", "db2_skip_sequential",
                    "db2_runstats_sampling")),
    _k("wl_cics", "CICS transactions", "workload",
       "CICS transactions making VSAM file requests, with local shared "
       "resources (LSR) or record level sharing (RLS).",
       experiments=("vsam_rls",)),
    _k("wl_natural", "Natural session", "workload",
       "Natural running as an enclave SRB on a zIIP; every operating-system "
       "service switches it to TCB mode on a general CP and back.",
       experiments=("natural_ziip",)),
    _k("wl_spxtape", "SPTAPE / SPXTAPE", "workload",
       "z/VM spool dump or load: SPTAPE one file and one page at a time, "
       "SPXTAPE reading ahead across spool volumes into real storage.",
       experiments=("spool_dump", "spool_load")),
    _k("wl_io", "I/O workload", "workload",
       "Any application's I/O against the datasets it is linked to: an I/O rate "
       "(open) or users with think time (closed), a read/write mix, a transfer "
       "size, a sequential share and a working set with a skew. The cache hit "
       "ratio comes out of the control unit's cache, never typed in.",
       experiments=("custom",), general="io", carries=IO_WORKLOAD_PARAMS),
    _k("wl_cpu", "CPU workload", "workload",
       "Transactions that need CPU: a demand in CPU seconds per second with a "
       "zIIP-eligible share, on the processors it is linked to.",
       experiments=("custom",), general="cpu", carries=CPU_WORKLOAD_PARAMS),
    _k("cpu_cp", "General CP", "processor",
       "A general-purpose processor: runs TCB and SRB work, and every "
       "SRB→TCB switch of zIIP work."),
    _k("cpu_ziip", "zIIP", "processor",
       "A z Integrated Information Processor: runs enclave SRB work only, "
       "at a lower software cost than a general CP."),
    _k("chan_ficon", "FICON channel", "channel",
       "FICON command mode: a channel program of CCWs; a discontiguous page "
       "costs a Locate Record and a Read, one domain at a time.",
       implies={"protocol": "FICON"}),
    _k("chan_zhpf", "zHPF channel", "channel",
       "High Performance FICON (transport mode): one TCW carries the whole "
       "address list of an I/O.", implies={"protocol": "zHPF"}),
    _k("chg_ficon", "FICON channel group", "channel",
       "N FICON CHPIDs of one type drawn as one card: each is its own path, "
       "and I/O to the control units they reach is spread over all of them.",
       implies={"protocol": "FICON"}, member="chan_ficon"),
    _k("chg_zhpf", "zHPF channel group", "channel",
       "N zHPF CHPIDs of one type drawn as one card: each is its own path, "
       "and I/O to the control units they reach is spread over all of them.",
       implies={"protocol": "zHPF"}, member="chan_zhpf"),
    _k("cu_ds8000", "DS8000 control unit", "control_unit",
       "A DS8000-style storage control unit: cache in 4 KB slots, record, "
       "partial-track or full-track staging, sequential detection."),
    _k("vol_hdd10k", "3390 on HDD 10K", "volume",
       "An emulated 3390 volume on 10K RPM disks: ~3.8 ms seek and 3 ms "
       "rotational latency on every miss.", implies={"device": "HDD10K"}),
    _k("vol_hdd15k", "3390 on HDD 15K", "volume",
       "An emulated 3390 volume on 15K RPM disks: ~3.3 ms seek and 2 ms "
       "rotational latency on every miss.", implies={"device": "HDD15K"}),
    _k("vol_ssd", "3390 on SSD", "volume",
       "An emulated 3390 volume on solid-state drives: no seek, no rotation; "
       "gains most from parallel requests.", implies={"device": "SSD"}),
    _k("vol_3390", "3390 (native)", "volume",
       "An original 3390 drive: 4,224 RPM, 14.2 ms per turn and a 9.5 ms "
       "average seek. Every page I/O waits for the track to come round.",
       implies={"device": "3390"}),
    *(_storage_group(dev, drive) for dev, drive in (("hdd10k", "HDD10K"), ("hdd15k", "HDD15K"),
                                                    ("ssd", "SSD"))),
    _k("vol_raid", "RAID rank", "rank",
       "A RAID-5 rank of 8 drives (7+P or 6+P+S) under the volumes linked to "
       "it: their tracks stripe over its drives, so requests issued together "
       "seek in parallel, and volumes on one rank compete for its drives."),
    _k("cf_icf", "Coupling facility", "coupling",
       "A coupling facility: holds the VSAM RLS lock and cache structures "
       "shared by every system. Each request is synchronous: the CP spins "
       "for the tens of microseconds until the answer comes back."),
    _k("tape_3490", "3490 tape drive", "tape",
       "A 3 MB/s class cartridge drive on a 4.5 MB/s channel; a cartridge "
       "change takes about a minute."),
    _k("ds_pds", "PDS load library", "dataset",
       "Partitioned dataset: 256-byte keyed directory blocks searched from "
       "the start, module text in blocks up to BLKSIZE.",
       implies={"library": "PDS"}),
    _k("ds_pdse", "PDSE load library", "dataset",
       "Partitioned dataset extended: 4 KB pages and an indexed directory, "
       "whatever BLKSIZE says.", implies={"library": "PDSE"}),
    _k("ds_seq", "Sequential dataset", "dataset",
       "A sequential dataset (SYSPRINT, a log): blocks written or read in "
       "order, one channel program per block or chain of blocks."),
    _k("ds_log", "Log staging data set", "dataset",
       "System Logger staging data sets: every log stream write (a CICS "
       "force) is also written here, a DASD fast write into the control "
       "unit's cache and NVS."),
    _k("ds_vsam_ksds", "VSAM KSDS", "dataset",
       "A key-sequenced VSAM file shared by CICS regions (LSR or RLS)."),
    _k("ds_db2_ts", "DB2 table space", "dataset",
       "A DB2 table space in 4 KB pages, 12 pages per 3390 track."),
    _k("ds_db2_ix", "DB2 index", "dataset",
       "A DB2 index in 4 KB pages; a disorganized index is read in a "
       "scattered page order."),
    _k("ds_spool", "Spool files", "dataset",
       "z/VM spool files: 4 KB pages spread over the spool volumes."),
    _k("ds_spool_ckpt", "Spool checkpoint", "dataset",
       "The z/VM spool checkpoint area: SPTAPE and SPXTAPE record every file "
       "they open and close there, one page I/O each."),
)

#: All component kinds by registry key, in palette order.
KINDS: Mapping[str, ComponentKind] = MappingProxyType({k.key: k for k in _KINDS})

# Which categories may be linked, with the name of the relationship. The
# order inside a pair does not matter: links are drawn with an arrow but the
# rule is about the two ends.
_ALLOWED = {
    frozenset(("processor", "channel")): "the processor starts I/O on the channel",
    frozenset(("channel", "control_unit")): "the channel reaches the control unit",
    frozenset(("control_unit", "volume")): "the control unit serves the volume",
    frozenset(("volume", "dataset")): "the dataset lives on the volume",
    frozenset(("volume", "rank")): "the volume's tracks live on the rank's drives",
    frozenset(("workload", "dataset")): "the workload reads the dataset",
    frozenset(("workload", "processor")): "the workload runs on the processor",
    frozenset(("channel", "tape")): "the tape drive is attached to the channel",
    frozenset(("processor", "coupling")): "the processor reaches the coupling facility "
                                          "over its coupling links",
}

# Why the most tempting wrong links are wrong: what a student should learn.
_WHY_NOT = {
    frozenset(("workload", "volume")): "a workload reads datasets, not volumes: "
                                       "put a dataset on the volume and link the workload to it",
    frozenset(("processor", "control_unit")): "a processor reaches a control unit only "
                                              "through a channel",
    frozenset(("processor", "volume")): "a processor reaches a volume only through a "
                                        "channel and a control unit",
    frozenset(("channel", "volume")): "a channel reaches a volume only through its "
                                      "control unit",
    frozenset(("channel", "dataset")): "a dataset lives on a volume behind a control unit, "
                                       "not on a channel",
    frozenset(("control_unit", "dataset")): "a dataset lives on a volume: link the dataset "
                                            "to a volume behind the control unit",
    frozenset(("control_unit", "tape")): "a 3490 tape drive attaches to a channel, not to a "
                                         "DASD control unit",
    frozenset(("workload", "channel")): "a workload does I/O through its datasets; the "
                                        "processor drives the channel",
    frozenset(("workload", "tape")): "the tape drive is reached through a channel; link the "
                                     "tape drive to a channel",
    frozenset(("control_unit", "rank")): "a rank holds volumes: link the rank to the volumes "
                                         "that live on it",
    frozenset(("dataset", "rank")): "a dataset lives on a volume: link the rank to the volume",
    frozenset(("workload", "coupling")): "a workload reaches the coupling facility through "
                                         "its processor: link the facility to a processor",
    frozenset(("channel", "coupling")): "a coupling facility is reached over coupling links "
                                        "from a processor, not over a FICON channel",
}


def kind(key: str) -> ComponentKind:
    """The kind registered as ``key``; ``KeyError`` naming the known keys if none."""
    try:
        return KINDS[key]
    except KeyError:
        raise KeyError(f"unknown component kind '{key}'; known: {', '.join(KINDS)}") from None


def link_reason(a: str, b: str) -> str | None:
    """What a link between two categories means, or ``None`` if not allowed."""
    return _ALLOWED.get(frozenset((a, b)))


def link_refusal(kind_a: str, kind_b: str) -> str | None:
    """Why components of these kinds cannot be linked, or ``None`` if they can.

    Parameters
    ----------
    kind_a, kind_b : str
        Registry keys of the two ends.

    Returns
    -------
    str or None
        One sentence for a tooltip or status bar.
    """
    ka, kb = kind(kind_a), kind(kind_b)
    ca, cb = ka.category, kb.category
    if link_reason(ca, cb) is not None:
        return None
    if ca == cb:
        return (f"two {CATEGORIES[ca].lower()} cannot be linked to each other: "
                f"each links to its neighbours on the I/O path")
    why = _WHY_NOT.get(frozenset((ca, cb)))
    if why is None:
        why = (f"a {ka.label} and a {kb.label} are not neighbours on the path "
               "processor ↔ channel ↔ control unit ↔ volume ↔ dataset")
    return f"Cannot link {ka.label} to {kb.label}: {why}."


def neighbours_of(category: str) -> list[str]:
    """Categories a component of ``category`` may be linked to."""
    out = []
    for pair in _ALLOWED:
        if category in pair:
            other = set(pair) - {category}
            out.append(other.pop() if other else category)
    return [c for c in CATEGORIES if c in out]
