"""System Logger log streams for CICS: DFHLOG (the system log, backout) and
a forward-recovery log stream (LOG(ALL) after-images).

Records are buffered; a *force* hardens everything buffered so far, so one
write can cover several tasks (group commit). Writes to one stream are
serial. A force costs the IXGWRITE path on the caller's CPU, a CF list
structure write for a CF-based stream, and a staging data set write (DASD
fast write) when the stream is duplexed to staging data sets or DASD-only.
Costs: :mod:`models.vsam.costs`.
"""
from __future__ import annotations

from models.cics.coupling import LOG_WRITE, CouplingFacility
from models.engine import Resource
from models.vsam import costs


class LogStream:
    """One log stream.

    Parameters
    ----------
    engine : Engine
    name : str
    cf : CouplingFacility or None
        The CF holding the stream's list structure; ``None`` for DASD-only.
    staging : bool
        Every write also goes to a staging data set on DASD.
    """

    def __init__(self, engine, name: str, cf: CouplingFacility | None, staging: bool = True):
        self.engine = engine
        self.name = name
        self.cf = cf
        self.staging = staging
        self.writer = Resource(engine, 1, name)
        self.buffered = 0      # sequence number of the newest buffered record
        self.hardened = 0      # every record up to this one is on the stream
        self.records = 0
        self.writes = 0
        self.write_time = 0.0

    def put(self) -> int:
        """Buffer one record (its CPU is in the caller's path); its number."""
        self.records += 1
        self.buffered += 1
        return self.buffered

    def force(self, task, upto: int):
        """Harden records up to ``upto`` (a sub-generator of ``task``)."""
        if self.hardened >= upto:
            return
        t0 = self.engine.now
        yield costs.cpu_s(costs.LOGGER_KI)
        tcb = task.tcb
        if tcb is not None:
            tcb.release()
        yield self.writer
        if self.hardened < upto:          # nobody else's write covered us
            target = self.buffered
            if self.cf is not None:
                task.cf_calls += 1
            yield self._write_s()
            self.hardened = target
            self.writes += 1
        self.writer.release()
        if tcb is not None:
            yield tcb
        dt = self.engine.now - t0
        self.write_time += dt
        task.log_time += dt

    def _write_s(self) -> float:
        t = 0.0
        if self.cf is not None:
            t += self.cf.request(LOG_WRITE)
        if self.staging or self.cf is None:
            t += costs.DASD_FAST_WRITE_MS / 1000.0
        return t
