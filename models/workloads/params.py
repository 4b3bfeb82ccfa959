"""Parameters of the general workloads, declared once.

Each I/O workload (``wl_io``) and CPU workload (``wl_cpu``) on a canvas
carries its own values of these (the component kinds name them in
:attr:`models.drawing.components.ComponentKind.carries`); a value a component does
not set is the default here. The command line's ``--set``, a sweep or a
comparison sets a value on every workload of the kind that carries it.
"""
from __future__ import annotations

from models.core.params import Param

IO_PARAMS = (
    Param("arrival", "choice", "open", choices=("open", "closed", "counted"),
          label="Arrivals",
          help="open: I/Os arrive at the I/O rate whatever the response time "
               "(Poisson: independent arrivals, as from many users); closed: a "
               "fixed number of users each issue an I/O, wait for it, think, "
               "and issue the next, so a slower system gets fewer I/Os; counted: "
               "exactly the I/O rate times the run length, each at a random time "
               "(open arrivals given their count, as in a measured RMF interval: "
               "an import uses it, so a quiet group's rate is not run-length noise)."),
    Param("io_rate", "float", 2000.0, unit="I/O/s", min=0.0001, max=200_000.0,
          label="I/O rate",
          help="Open arrivals: I/O requests per second the workload issues, "
               "spread over its datasets. Ignored when arrivals are closed."),
    Param("users", "int", 20, min=1, max=10_000, label="Users",
          help="Closed arrivals: concurrent users (or tasks), each with at most "
               "one I/O outstanding. Ignored when arrivals are open."),
    Param("think_ms", "float", 5.0, unit="ms", min=0.0, max=100_000.0, label="Think time",
          help="Closed arrivals: mean time a user spends between the end of one "
               "I/O and the start of the next (exponential). 0: back-to-back I/O."),
    Param("read_pct", "float", 75.0, unit="%", min=0.0, max=100.0, label="Reads",
          help="Share of the I/Os that read; the rest write (DASD fast write "
               "into cache and NVS, destaged to the rank later as RAID-5 small "
               "writes)."),
    Param("pages_per_io", "int", 1, unit="pages", min=1, max=32, label="Transfer size",
          help="4 KB records (pages) moved by one I/O, contiguous, 12 to a 3390 "
               "track. 1 is an OLTP-style random I/O; 32 a prefetch-sized one."),
    Param("seq_pct", "float", 0.0, unit="%", min=0.0, max=100.0, label="Sequential share",
          help="Share of the I/Os that continue a sequential pass through the "
               "working set (the control unit detects the stream and prestages "
               "ahead); the rest go to blocks chosen by the locality below."),
    Param("working_set_mb", "float", 2048.0, unit="MB", min=1.0, max=200_000.0,
          label="Working set",
          help="Data the workload references, spread evenly over its datasets "
               "(and a dataset over its volumes). Whether it fits in the control "
               "unit's cache decides the hit ratio, with the skew."),
    Param("skew", "float", 0.8, min=0.0, max=3.0, label="Skew (Zipf)",
          help="Locality of reference: block k of the working set is referenced "
               "in proportion to 1/k^skew (Zipf). 0: every block alike; 1: a few "
               "per cent of the blocks take half the references; larger: hotter."),
    Param("duration_s", "float", 2.0, unit="s", min=0.01, max=3600.0, label="Run length",
          help="Simulated seconds the workload runs. Longer runs give steadier "
               "figures and take longer (about 10 µs of CPU per I/O)."),
    Param("other_system", "bool", False, label="Another system's I/O",
          help="I/O that other systems drive to a shared control unit (an import "
               "from RMF draws it where the cache report counts more I/O than this "
               "system's device report). It uses the unit's cache and ranks, so it "
               "shows in the unit's cache figures; the run's headline figures (I/O "
               "rate, response, busiest volume) leave it out, as RMF's device "
               "report of this system does."),
)

CPU_PARAMS = (
    Param("cpu_demand", "float", 1.0, unit="CPU s/s", min=0.001, max=1000.0,
          label="CPU demand",
          help="CPU seconds the workload needs per second of elapsed time, on "
               "the reference engine (1.0 = one engine's worth; speed 2 engines "
               "need half). More than the engines can give and the queue grows."),
    Param("ziip_pct", "float", 50.0, unit="%", min=0.0, max=100.0, label="zIIP eligible",
          help="Share of each transaction's CPU that is zIIP-eligible enclave SRB "
               "work (DRDA, parallel query, XML parsing). It runs on a zIIP when one "
               "is linked, else on a general CP."),
    Param("tran_cpu_ms", "float", 2.0, unit="ms", min=0.01, max=10_000.0,
          label="CPU per transaction",
          help="CPU time of one transaction on the reference engine; transactions "
               "arrive at demand / this rate (Poisson). Decides how coarse the "
               "queueing is, not the total demand."),
)

#: Every general-workload parameter, in inspector order (duration once).
ALL = IO_PARAMS + tuple(p for p in CPU_PARAMS if p.name != "duration_s")
BY_NAME = {p.name: p for p in ALL}

#: Parameters a workload carries but uses only with one kind of arrivals.
_ONLY_WITH = {"io_rate": ("open", "counted"), "users": ("closed",), "think_ms": ("closed",)}


def applies(key: str, values: dict) -> bool:
    """Whether a workload with these ``values`` uses parameter ``key`` (an
    open workload ignores its users and think time, a closed one its I/O rate)."""
    arrival = _ONLY_WITH.get(key)
    return arrival is None or values.get("arrival", "open") in arrival
