"""Experiment ``db2_io``: one DB2 I/O of N pages (case study E)."""
from __future__ import annotations

from models.experiments import Experiment
from models.experiments.common import device_param, protocol_param
from models.params import Metric, Param, Schema

DB2_IO_SCHEMA = Schema((
    Param("pages", "int", 32, unit="pages", min=1, max=64, group="workload",
          help="4 KB pages in the I/O: up to 32 for list or sequential "
               "prefetch, 64 for utilities."),
    Param("layout", "choice", "discontiguous", choices=("contiguous", "discontiguous"),
          group="dataset",
          help="contiguous: consecutive pages (Read Track Data on FICON); "
               "discontiguous: a page list, one Locate Record domain each on FICON."),
    protocol_param("zHPF", lpo=False),
    Param("channel", "choice", "FEx8S", choices=("FEx8", "FEx8S"), group="channel",
          help="FICON Express 8 (zHPF splits a 32-page list into two I/Os: "
               "22-address limit) or FICON Express 8S (all 32 in one)."),
    Param("cache", "choice", "resident", choices=("resident", "cold"), group="control_unit",
          help="resident: every page is in the control unit cache; cold: "
               "every page is a miss staged from disk."),
    device_param("HDD15K"),
))

EXPERIMENTS = [
    Experiment(
        "db2_io", "One DB2 I/O",
        "One DB2 read I/O of N pages through a channel and a DS8000-style "
        "control unit, split into PEND, DISC and CONN time.",
        DB2_IO_SCHEMA,
        (Metric("io_ms", "ms", "I/O response time"),
         Metric("pend_ms", "ms", "Channel and control unit start"),
         Metric("disc_ms", "ms", "Disconnected: seek, rotation, staging"),
         Metric("conn_ms", "ms", "Connected: data transfer")),
        None),
]
