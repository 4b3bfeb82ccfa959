"""Experiments ``program_fetch`` and ``library_space`` (case study A).

The models live in :mod:`models.loadlib` (docs/model-fetch.md).
"""
from __future__ import annotations

from models.experiments import Experiment
from models.experiments.common import device_param
from models.loadlib.runs import run_library_space, run_program_fetch
from models.core.params import Metric, Param, Schema
from models.core.run import RunResult

MODULES = ("IEFBR14", "ARCCTL", "CSQLINK", "CSQUDMSG")

PROGRAM_FETCH_SCHEMA = Schema((
    Param("library", "choice", "PDS", choices=("PDS", "PDSE"), group="dataset",
          label="Library type", help="PDS: a directory of 256-byte keyed blocks searched from the "
               "start, module text in blocks of up to BLKSIZE. PDSE: 4 KB pages "
               "and an indexed directory, whatever BLKSIZE says."),
    Param("blksize", "int", 32760, unit="bytes", min=256, max=32760, group="dataset",
          label="Block size", help="Largest module text block. Bigger blocks mean fewer I/Os for a "
               "big module; PDSE ignores it (pages stay 4 KB)."),
    Param("members", "int", 2, min=1, max=100_000, group="dataset",
          label="Members in the library", help="Members in the library. A PDS directory holds about 7 load "
               "module entries per 256-byte block, so more members mean more "
               "blocks to search."),
    Param("member_position", "float", 0.5, min=0.0, max=1.0, group="dataset",
          label="Member's place in the directory", help="Where the module's directory entry sits: 0 first, 1 last. A "
               "PDS search passes every block before it."),
    Param("module", "choice", "IEFBR14", choices=MODULES, group="workload",
          label="Module", help="Module loaded: IEFBR14 (8 bytes), CSQLINK (424 bytes), "
               "CSQUDMSG (264 KB) or ARCCTL (about 4 MB)."),
    Param("module_bytes", "int", None, unit="bytes", min=1, max=16 * 1024 * 1024,
          optional=True, group="workload",
          label="Module size", help="Overrides the module's size (1 byte to 16 MB)."),
    Param("iterations", "int", 1000, min=1, max=1_000_000, group="workload",
          label="LOADs", help="How many LOAD/DELETE pairs the program issues."),
    Param("fetchopt", "choice", "NOPACK,NOPRIME",
          choices=("NOPACK,NOPRIME", "PACK,PRIME", "NOPACK,PRIME"), group="dataset",
          label="FETCHOPT", help="PDSE program objects: NOPACK,NOPRIME loads classes as they are "
               "needed; PACK,PRIME loads the whole object in one go."),
    Param("lla", "bool", False, group="workload",
          label="LLA/VLF", help="LLA/VLF keeps the directory (and staged modules) in storage, "
               "so a LOAD needs no directory I/O."),
    device_param("HDD15K", ("HDD10K", "HDD15K", "SSD", "3390")),
))

LIBRARY_SPACE_SCHEMA = Schema((
    Param("blksize", "int", 32760, unit="bytes", min=256, max=32760, group="dataset",
          label="Block size", help="Block size the members are copied at. 32760 fills a 3390 "
               "track best; the binder fills the rest with smaller blocks."),
    Param("contents", "sizes", "SYS1.LINKLIB", choices=("SYS1.LINKLIB",),
          min=1, max=16 * 1024 * 1024, group="dataset",
          label="Members copied", help="Members to copy: SYS1.LINKLIB is 3,500 member sizes "
               "drawn once from a log-normal distribution (median 12 KB, a long tail to a few "
               "MB), not a real library: no published list of LINKLIB member sizes was found. "
               "Or give a list of member sizes in bytes."),
))

#: Block sizes the library-space run also copies the members at, for the
#: "tracks used by block size" comparison: common load-library choices,
#: the study's 23440 (its tables' half-track-era size; 23476 would be the
#: 3380's half track), the largest half-track block of a 3390 (27998) and
#: the largest block (32760).
COMPARED_BLKSIZES = (3120, 6144, 8192, 16384, 23440, 27998, 32760)


def _run_library_space(params: dict, ctx) -> "RunResult":
    """The copy at ``blksize``, plus a table of the tracks the same members
    use at each of :data:`COMPARED_BLKSIZES` (the same layout arithmetic)."""
    import dataclasses

    from models.loadlib.layout import library_space
    from models.loadlib.linklib import linklib_sizes
    from models.core.run import Table

    result = run_library_space(params, ctx)
    contents = params["contents"]
    sizes = linklib_sizes() if contents == "SYS1.LINKLIB" else list(contents)
    rows = tuple((bs, library_space(sizes, bs).tracks)
                 for bs in sorted({*COMPARED_BLKSIZES, int(params["blksize"])}))
    table = Table("Tracks used by block size", ("block size bytes", "tracks used"), rows,
                  note="the same members copied at each block size")
    return dataclasses.replace(result, reports=(*result.reports, table))


EXPERIMENTS = [
    Experiment(
        "program_fetch", "Program fetch from a load library",
        "A program LOADs and DELETEs a module N times from a STEPLIB with no "
        "LLA: a directory search, then the module text, on every LOAD.",
        PROGRAM_FETCH_SCHEMA,
        (Metric("cpu_s", "s", label="CPU time", help="CPU time for all LOADs"),
         Metric("excps", "", label="EXCPs", help="EXCPs (channel programs) issued"),
         Metric("elapsed_s", "s", label="Elapsed time", help="Elapsed time of the job step"),
         Metric("directory_reads", "", label="Directory blocks read", help="Directory blocks read"),
         Metric("bytes_read", "bytes", label="Bytes read", help="Bytes read from the library")),
        run_program_fetch),
    Experiment(
        "library_space", "Library space by block size",
        "Copy a library's members at a block size and count the 3390 tracks.",
        LIBRARY_SPACE_SCHEMA,
        (Metric("tracks_used", "tracks", label="Tracks used", help="3390 tracks the copy occupies, directory included"),
         Metric("blocks", "", label="Blocks written", help="Physical blocks written: text, control, RLD, CESD, directory"),
         Metric("bytes", "bytes", label="Bytes written", help="Data bytes written in those blocks")),
        _run_library_space, does_io=False),
]
