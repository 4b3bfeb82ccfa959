"""The trace vocabulary, defined once: event kinds, I/O phases and component roles.

Every model that records a trace (:class:`models.engine.trace.Trace`) and
every reader of one (the replay analysis in :mod:`app.replay`, the charts,
the animation views) names kinds, phases and roles with these constants, so
a writer and a reader cannot drift apart by a typo. :meth:`Trace.kind
<models.engine.trace.Trace.kind>` refuses a kind that is not listed here, and
:meth:`Trace.component <models.engine.trace.Trace.component>` a role.
What each kind's payload ``a`` and ``b`` mean is in docs/trace.md.
"""
from __future__ import annotations

# ---- event kinds -----------------------------------------------------------------
IO_START = "io_start"            #: volume; a = I/O id, b = pages or records in it
IO_END = "io_end"                #: volume; a = I/O id
IO_PHASE = "io_phase"            #: volume; a = I/O id, b = phase (:data:`PHASES` index)
SEEK = "seek"                    #: drive; a = from cylinder, b = to cylinder
TRACK_READ = "track_read"        #: drive; a = track, b = record (1-based)
CACHE_HIT = "cache_hit"          #: control unit; a = track, b = record
CACHE_MISS = "cache_miss"        #: control unit; a = track, b = record (0: a held stage)
#: control unit; a = track, b = record: another record the same disconnect
#: waits for, a hit when it transfers on the reconnect (one miss per disconnect)
CACHE_WAIT = "cache_wait"
STAGE = "stage"                  #: control unit; a = track, b = staging mode
EVICT = "evict"                  #: control unit; a = track, b = slots freed
CHANNEL_BUSY = "channel_busy"    #: channel path; a = I/O id, b = microseconds
SRB_TO_TCB = "srb_to_tcb"        #: engine left; a = unit of work, b = cause index
TCB_TO_SRB = "tcb_to_srb"        #: engine left; a = unit of work, b = cause index
CPU_BUSY = "cpu_busy"            #: engine; a = unit of work, b = microseconds of CPU
TAPE_WRITE = "tape_write"        #: tape drive; a = bytes, b = file number
TAPE_READ = "tape_read"          #: tape drive; a = bytes, b = file number
TAPE_MARK = "tape_mark"          #: tape drive; a = file number
TAPE_CHANGE_START = "tape_change_start"  #: tape drive; a = cartridge number
TAPE_CHANGE_END = "tape_change_end"      #: tape drive; a = cartridge number
BUFFER_LEVEL = "buffer_level"    #: buffer; a = pages buffered, b = capacity
VOLUME_READ = "volume_read"      #: volume; a = pages, b = file number
VOLUME_WRITE = "volume_write"    #: volume; a = pages, b = file number (a load writing spool pages)
CF_REQUEST = "cf_request"        #: coupling facility; a = request type, b = microseconds
LOCK_WAIT = "lock_wait"          #: coupling facility; a = record id, b = microseconds

#: Every kind a trace may hold.
KINDS = (IO_START, IO_END, IO_PHASE, SEEK, TRACK_READ, CACHE_HIT, CACHE_MISS, CACHE_WAIT,
         STAGE, EVICT,
         CHANNEL_BUSY, SRB_TO_TCB, TCB_TO_SRB, CPU_BUSY, TAPE_WRITE, TAPE_READ, TAPE_MARK,
         TAPE_CHANGE_START, TAPE_CHANGE_END, BUFFER_LEVEL, VOLUME_READ, VOLUME_WRITE, CF_REQUEST, LOCK_WAIT)
#: The CPU mode switches (the CPU view draws them).
SWITCH_KINDS = (SRB_TO_TCB, TCB_TO_SRB)

# ---- I/O response-time phases (the ``b`` of an ``io_phase`` row) ----------------
IOSQ, PEND, DISC, CONN = 0, 1, 2, 3
#: Phase names by number, as the charts and the replay label them.
PHASES = ("IOSQ", "PEND", "DISC", "CONN")

# ---- component roles (``trace.meta["roles"]``) ------------------------------------
#: What a traced component is, for the replay views: zIIP and general CP
#: engines, volumes, drives, control units, channel paths, tape drives,
#: buffers, coupling facilities.
ROLES = ("zIIP", "CP", "VOL", "DRV", "CU", "CHP", "TAPE", "BUF", "CF")
ZIIP, CP, VOL, DRV, CU, CHP, TAPE, BUF, CF = ROLES
