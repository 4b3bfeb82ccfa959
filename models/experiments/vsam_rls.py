"""Experiment ``vsam_rls``: CICS VSAM file requests under LSR or RLS (case study B)."""
from __future__ import annotations

from models.experiments import Experiment
from models.params import Metric, Param, Schema

REQUEST_TYPES = ("read", "read_update", "update", "add", "delete", "browse")

VSAM_SCHEMA = Schema((
    Param("mode", "choice", "RLS", choices=("LSR", "RLS"), group="dataset",
          help="LSR: one CICS region owns the file with local buffers. RLS: "
               "record level sharing through SMSVSAM, with coupling facility "
               "locks and caches."),
    Param("mix", "mix", {"read": 69, "read_update": 10, "update": 9, "add": 11,
                         "delete": 1, "browse": 0},
          unit="%", choices=REQUEST_TYPES, group="workload",
          help="Percentages of each file request type."),
    Param("requests_per_tran", "int", 6, min=1, max=1000, group="workload",
          help="File requests per transaction."),
    Param("log", "choice", "UNDO", choices=("NONE", "UNDO", "ALL"), group="dataset",
          help="Recovery logging: NONE, UNDO (backout to DFHLOG) or ALL (also "
               "forward-recovery journaling)."),
    Param("threadsafe", "bool", False, group="workload",
          help="Threadsafe transactions: CICS does not record RLS file wait "
               "time for them, though the time is still spent."),
    Param("transactions", "int", 10000, min=1, max=10_000_000, group="workload",
          help="Transactions to run."),
    Param("regions", "int", 1, min=1, max=32, group="processor",
          help="CICS regions sharing the file (RLS lets several update it)."),
))

EXPERIMENTS = [
    Experiment(
        "vsam_rls", "CICS VSAM with and without RLS",
        "CICS transactions issue VSAM file requests under LSR or RLS.",
        VSAM_SCHEMA,
        (Metric("file_resp_ms", "ms", "Mean file request service time"),
         Metric("tran_resp_ms", "ms", "Mean transaction response time"),
         Metric("file_wait_ms", "ms", "File wait time as CICS reports it"),
         Metric("cf_requests", "", "Coupling facility requests")),
        None),
]
