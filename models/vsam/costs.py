"""Per-operation costs of CICS file control, VSAM, SMSVSAM, the coupling
facility, the System Logger and the DASD behind them: one documented place.

Every figure is a global with physical meaning and a source; none is tuned to
one experiment or one mix. The VSAM/CICS models read them from here. Reads
and CI writes use the shared I/O subsystem (``models/io``);
``DASD_FAST_WRITE_MS`` is left for log stream staging writes, and ``MIPS`` belongs with the
processor model (``models/cpu``); see docs/model-vsam.md.

Sources
-------
* CICS path lengths in thousands of instructions: CICS TS for z/OS 5.4
  Performance Guide, "File control API costs" (READ 3.0K, READ UPDATE 3.1K
  or 5.5K recoverable, REWRITE 10.2K/10.4K and WRITE 12.9K/14.9K *including*
  one VSAM I/O, a VSAM I/O 9.5K for a KSDS).
* CPU speed: a z13/z14-class general CP runs roughly 1,500 MIPS (IBM LSPR
  single-engine capacity ratings), i.e. 1.5K instructions per microsecond.
* Coupling facility synchronous service times over ICA SR / internal links:
  lock requests ~5 µs, 4 KB cache reads ~8 µs and writes ~10 µs (IBM
  "Coupling Facility Configuration Options" white paper, z13–z15 era; RMF CF
  activity reports of that period). Sync requests spin the issuing CPU.
* DS8000 DASD fast write (cache + NVS) of one 4 KB record ~0.25 ms (IBM
  DS8000 performance redbooks, SG24-8318; typical RMF device reports). Reads
  are timed by the shared I/O model (models/io, docs/model-io.md).
* System Logger IXGWRITE path ~15K instructions (z/OS MVS Setting Up a
  Sysplex, logger performance notes); staging data set writes are DASD fast
  writes.
* SMSVSAM RLS request path: an RLS request costs several times the CPU of an
  LSR request (cross-memory PC into the SMSVSAM server, lock and buffer
  management; IBM SG24-6105 "VSAM Demystified", RLS chapter, and the CICS
  Performance Guide note that RLS costs more CPU than function shipping).
  We take 12K instructions: an estimate, flagged as such in the docs.
"""
from __future__ import annotations

#: Instructions per microsecond of one general CP (≈1,500 MIPS, IBM LSPR).
MIPS = 1500.0

#: Instructions of one VSAM I/O (start, interrupt, completion), KSDS.
VSAM_IO_KI = 9.5

#: CICS file control + VSAM path per request, thousands of instructions,
#: excluding VSAM I/O. REWRITE and WRITE figures from the guide include one
#: I/O, so VSAM_IO_KI is taken off them. ``_rec`` adds the before image put
#: into the log buffer for a recoverable file. DELETE costs like REWRITE; a
#: browse READNEXT is taken as half a READ (no index search) — an estimate.
PATH_KI = {
    "read": 3.0, "read_update": 3.1, "update": 10.2 - VSAM_IO_KI,
    "add": 12.9 - VSAM_IO_KI, "delete": 10.2 - VSAM_IO_KI, "browse": 1.5,
}
PATH_REC_KI = {
    "read": 3.0, "read_update": 5.5, "update": 10.4 - VSAM_IO_KI,
    "add": 14.9 - VSAM_IO_KI, "delete": 10.4 - VSAM_IO_KI, "browse": 1.5,
}

#: Extra SMSVSAM server path per RLS request (estimate, see module notes).
RLS_PATH_KI = 12.0

#: CICS task attach, EXEC interface, terminal or MRO input and output and a
#: little application logic per transaction (CICS Performance Guide: a small
#: transaction's overhead is tens of thousands of instructions).
TASK_KI = 60.0

#: Syncpoint processing for a unit of work that changed recoverable resources
#: (CICS Performance Guide, "Syncpointing": two-phase commit bookkeeping).
SYNCPOINT_KI = 15.0

#: MRO function shipping of one request from an application-owning region to
#: the file-owning region and back (both sides, IRC cross-memory), estimate
#: from the CICS Performance Guide's "MRO function shipping" costs.
MRO_SHIP_KI = 30.0

#: Synchronous CF service times, microseconds (spin the issuing CPU).
CF_LOCK_US = 5.0          # obtain or release a record lock (IXLLOCK)
CF_UNLOCK_BATCH_US = 6.0  # batch unlock of a unit of work's locks at commit
CF_CACHE_READ_US = 8.0    # read a 4 KB CI from an RLS cache structure
CF_CACHE_WRITE_US = 10.0  # write a 4 KB CI (and cross-invalidate other copies)
CF_LOG_WRITE_US = 10.0    # System Logger write of a log block to a CF list structure

#: System Logger IXGWRITE path, thousands of instructions.
LOGGER_KI = 15.0

#: DS8000 DASD fast write of one 4 KB record (cache + NVS), milliseconds: the
#: log stream staging writes (CI reads and writes go through models.io).
DASD_FAST_WRITE_MS = 0.25

#: Concurrent I/Os one volume accepts (base plus HyperPAV aliases in use).
VOLUME_EXPOSURES = 8

#: Control unit cache given to this volume, GB (the I/O model's default
#: share). It starts warm (production steady state), so only files larger
#: than this see read misses on the back-end drives.
CU_CACHE_GB = 64.0

#: Back-end drive behind the volume (models.io.devices profiles).
BACKEND_DEVICE = "HDD15K"


def cpu_s(kilo_instructions: float) -> float:
    """Seconds of one CP to run ``kilo_instructions`` thousand instructions.

    Parameters
    ----------
    kilo_instructions : float
        Path length in thousands of instructions.

    Returns
    -------
    float
        CPU seconds at :data:`MIPS`.
    """
    return kilo_instructions * 1000.0 / MIPS * 1e-6
