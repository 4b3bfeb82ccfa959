"""Experiments ``spool_dump`` and ``spool_load`` (case study C)."""
from __future__ import annotations

from models.experiments import Experiment
from models.core.params import Metric, Param, Schema
from models.core.run import RunContext, RunResult

SPOOL_SCHEMA = Schema((
    Param("program", "choice", "SPXTAPE", choices=("SPTAPE", "SPXTAPE"), group="workload",
          label="Program", help="SPTAPE: one file, one page, one volume, one drive at a time, a "
               "tape mark per file. SPXTAPE: reads ahead on all volumes, "
               "buffers in storage, writes 32 KB blocks to several drives."),
    Param("tape_drives", "int", 1, min=1, max=16, group="tape",
          label="Tape drives", help="3490 drives used (SPTAPE uses 1). With two or more, one is "
               "written while another has its cartridge changed."),
    Param("spool_volumes", "int", 4, min=1, max=64, group="volume",
          label="Spool volumes", help="3390 spool volumes the files are spread over."),
    Param("files", "int", 34000, min=1, max=1_000_000, group="dataset",
          label="Spool files", help="Spool files to dump or load."),
    Param("pages", "int", 353000, unit="pages", min=1, max=100_000_000, group="dataset",
          label="Spool pages", help="Total 4 KB spool pages in those files (at least one per file)."),
    Param("placement", "choice", "even", choices=("even", "restored"), group="dataset",
          label="File placement", help="even: blocks spread across volumes. restored: as left by "
               "restoring from SPTAPE tapes, an unfavourable layout."),
    Param("tape_change_s", "float", 60.0, unit="s", min=0.0, max=3600.0, group="tape",
          label="Cartridge change time", help="Rewind, unload and mount of one cartridge."),
    Param("real_storage_mb", "float", 1024.0, unit="MB", min=1.0, max=1_048_576.0,
          group="processor",
          label="Real storage", help="System real storage. SPXTAPE buffers pages in a share of what "
               "the rest of the system leaves free, so it reads on through a "
               "tape change until that is full."),
    Param("other_storage_mb", "float", 0.0, unit="MB", min=0.0, max=1_048_576.0,
          group="processor",
          label="Storage used by other work", help="Real storage held by other work running beside the dump (a "
               "concurrent workload's working sets). 0: a dedicated system, "
               "as measured. More leaves SPXTAPE less to buffer in."),
    Param("background_cpu_util", "float", 0.0, min=0.0, max=0.95, group="processor",
          label="Other work on the processor", help="Share of the processors busy with other work; it delays "
               "dispatch of the dump."),
))

_METRICS = (
    Metric("elapsed_s", "s", label="Elapsed time", help="Elapsed time"),
    Metric("tape_change_s", "s", label="Tape change time", help="Time spent changing cartridges"),
    Metric("system_idle_s", "s", label="Idle during tape changes", help="Time nothing moved because of a tape change"),
    Metric("overlap_pct", "%", label="Tape change overlapped", help="Share of tape-change time overlapped with useful work"),
    Metric("tapes", "", label="Cartridges", help="Cartridges used"),
    Metric("cpu_s", "s", label="CPU time", help="Processor time"),
    Metric("pages_per_s", "pages/s", label="Page rate", help="Pages moved per second"),
)



def run_spool(name: str, params: dict, ctx: RunContext) -> RunResult:
    """Run a dump or load with SPTAPE or SPXTAPE (models/spool, models/tape).

    Parameters
    ----------
    name : str
        ``spool_dump`` or ``spool_load``.
    params : dict
        Resolved parameters of :data:`SPOOL_SCHEMA`.
    ctx : RunContext

    Returns
    -------
    RunResult
        The seven metrics, volume, drive and CPU tables, and the trace.
    """
    from models.spool import program    # deferred: keeps the registry import light

    out = program.run(params, ctx, load=(name == "spool_load"))
    return RunResult(experiment=name, params=params, seed=ctx.seed,
                     metrics=program.metrics(out), reports=program.tables(out),
                     trace=ctx.trace, notes=tuple(out.notes),
                     components=program.component_figures(out))


EXPERIMENTS = [
    Experiment("spool_dump", "z/VM spool dump to tape",
               "Dump spool files from 3390 spool volumes to 3490 tapes.",
               SPOOL_SCHEMA, _METRICS, lambda p, c: run_spool("spool_dump", p, c)),
    Experiment("spool_load", "z/VM spool load from tape",
               "Load spool files from 3490 tapes back onto spool volumes.",
               SPOOL_SCHEMA, _METRICS, lambda p, c: run_spool("spool_load", p, c)),
]
