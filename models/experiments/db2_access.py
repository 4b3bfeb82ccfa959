"""DB2 access-path experiments (case study E): skip-sequential list
prefetch, RUNSTATS table sampling and disorganized index scans."""
from __future__ import annotations

from models.db2 import runs
from models.experiments import Experiment
from models.experiments.common import device_param, protocol_param, table_pages_param
from models.core.params import Metric, Param, Schema

SKIP_SCHEMA = Schema((
    device_param("HDD15K"),
    protocol_param("zHPF"),
    Param("skip", "int", 17, unit="pages", min=2, max=1000, group="workload",
          label="Read 1 page in",
          help="Read one page in every k: list prefetch of every k-th page."),
    table_pages_param(2_000_000),
))

RUNSTATS_SCHEMA = Schema((
    Param("sampling_pct", "float", 50.0, unit="%", min=1.0, max=100.0, group="workload",
          label="Sampling",
          help="TABLESAMPLE percentage: the share of pages RUNSTATS reads."),
    device_param("HDD15K"),
    protocol_param("zHPF"),
    table_pages_param(8_000_000),
))

INDEX_SCHEMA = Schema((
    Param("db2_version", "choice", 10, choices=(9, 10), group="workload", label="DB2 version",
          help="DB2 9 reads a disorganized index with synchronous I/O; DB2 10 "
               "uses list prefetch."),
    device_param("HDD15K"),
    protocol_param("zHPF"),
    Param("pct_read", "float", 10.0, unit="%", min=0.1, max=100.0, group="workload",
          label="Share of the index read",
          help="Share of the index the scan reads."),
    Param("index_tracks", "int", 28000, unit="tracks", min=10, max=10_000_000,
          group="dataset", label="Index size", help="Size of the index in 3390 tracks."),
    Param("cache", "choice", "cold", choices=("cold", "warm"), group="control_unit",
          label="Cache at the start",
          help="cold: nothing of the index is in the control unit cache at the start."),
    Param("disorganization", "float", 100.0, unit="%", min=0.0, max=100.0, group="dataset",
          label="Disorganization",
          help="Share of leaf pages that page splits moved out of key order. 100 "
               "(the published set-up) scatters every leaf; 0 is a freshly "
               "reorganized index, read with dynamic prefetch."),
))

_THROUGHPUT = Metric("throughput_mb_s", "MB/s", "Pages read per second, in MB/s",
                     label="Throughput")
_ELAPSED = Metric("elapsed_s", "s", "Elapsed time of the scan", label="Elapsed time")
_IO_MS = Metric("io_ms", "ms", "Mean response time of the scan's prefetch I/Os (of its "
                "synchronous reads when it has none)", label="Prefetch I/O time")
_TRACKS_STAGED = Metric("tracks_staged", "tracks", "Tracks staged into the control unit cache",
                         label="Tracks staged")

_CACHE_METRICS = (
    Metric("cache_hit_ratio", "", "Control unit read hit ratio", label="Read hit ratio"),
)

EXPERIMENTS = [
    Experiment(
        "db2_skip_sequential", "DB2 skip-sequential list prefetch",
        "List prefetch of every k-th page of a table space, cold cache.",
        SKIP_SCHEMA,
        (_THROUGHPUT, *_CACHE_METRICS,
         Metric("cache_misses", "", "Control unit read misses", label="Read misses"),
         Metric("disk_bytes_per_req", "bytes", "Bytes read from disk per disk request",
                label="Disk bytes per request"),
         _TRACKS_STAGED, _IO_MS,
         _ELAPSED),
        runs.run_skip_sequential),
    Experiment(
        "db2_runstats_sampling", "RUNSTATS table sampling",
        "Dense skip-sequential: RUNSTATS samples a share of a large table's pages.",
        RUNSTATS_SCHEMA,
        (_ELAPSED, _THROUGHPUT,
         Metric("seq_staged_track_pct", "%", "Share of tracks staged by sequential prestage",
                label="Tracks staged sequentially"), *_CACHE_METRICS),
        runs.run_runstats_sampling),
    Experiment(
        "db2_index_scan", "Disorganized index scan",
        "Scan part of a disorganized index from a cold cache.",
        INDEX_SCHEMA,
        (_THROUGHPUT, _ELAPSED,
         *_CACHE_METRICS, _IO_MS, _TRACKS_STAGED),
        runs.run_index_scan),
]
