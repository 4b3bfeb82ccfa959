"""System Logger log streams for CICS: DFHLOG (the system log, backout) and
a forward-recovery log stream (LOG(ALL) after-images).

Records are buffered; a *force* hardens everything buffered so far, so one
write can cover several tasks (group commit). CICS defers a forced write by
the log defer interval ``LGDFINT`` (IBM, *CICS TS 5.4 Performance Guide*,
"Logging", https://www.ibm.com/docs/en/SSGMCP_5.4.0/tuning/dfht3ld.html:
"The log is not written out immediately but is deferred using an internal
algorithm. The first forced write to the log sets the clock ticking for the
deferred log flush. Subsequent transactions requesting log forces will put
their data in the buffer and suspend until the original deferred time has
expired."): the first force on a stream starts the interval, later forces
join it, and when it ends one write hardens everything buffered by then.
Writes to one stream are serial. A force costs the IXGWRITE path on the caller's CPU, a CF list
structure write for a CF-based stream, and a staging data set write (DASD
fast write) when the stream is duplexed to staging data sets or DASD-only.
Costs: :mod:`models.vsam.costs`.
"""
from __future__ import annotations

from models.cics.coupling import LOG_WRITE, CouplingFacility
from models.engine import Resource
from models.vsam import costs

#: The log defer interval, milliseconds: CICS TS's default (SIT ``LGDFINT``),
#: IBM, *CICS TS 5.4 Performance Guide*, "The log defer interval (LGDFINT)",
#: https://www.ibm.com/support/knowledgecenter/SSGMCP_5.4.0/tuning/dfht3z3.html:
#: "Performance evaluations of typical CICS transaction workloads have shown
#: that a value of 5 milliseconds gives the best balance between response
#: time and central processor cost". Read at call time; 0 writes at once.
LGDFINT_MS = 5.0


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
    volume : VolumeIO or None
        The drawn volume holding the staging data sets: a staging write is a
        DASD fast write through the I/O model (channel path, control unit
        cache and NVS). ``None``: a fixed fast-write time
        (``costs.DASD_FAST_WRITE_MS``).
    """

    def __init__(self, engine, name: str, cf: CouplingFacility | None, staging: bool = True,
                 volume=None, first_page: int = 0, pages: int = 12 * 1500):
        self.engine = engine
        self.name = name
        self.cf = cf
        self.staging = staging
        self.volume = volume
        # The stream's staging data set: a ring of 4 KB records on the volume.
        self._first, self._pages, self._next = first_page, pages, 0
        self.writer = Resource(engine, 1, name)
        self.buffered = 0      # sequence number of the newest buffered record
        self.hardened = 0      # every record up to this one is on the stream
        self.records = 0
        self.writes = 0
        self.write_time = 0.0
        self._flush = None     # the pending deferred flush (an Event), if any

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
        if LGDFINT_MS > 0:
            while self.hardened < upto:
                if self._flush is None:       # the first force starts the clock
                    self._flush = self.engine.event()
                    self.engine.process(self._deferred(self._flush, task),
                                        f"{self.name}.defer")
                yield self._flush
        else:
            yield self.writer
            if self.hardened < upto:          # nobody else's write covered us
                yield from self._harden(task, self.buffered)
            self.writer.release()
        if tcb is not None:
            yield tcb
        dt = self.engine.now - t0
        self.write_time += dt
        task.log_time += dt

    def _deferred(self, flush, task):
        """Wait out the defer interval, then write what is buffered by then
        (the CF request is counted to ``task``, whose force started it)."""
        yield LGDFINT_MS / 1000.0
        self._flush = None                    # later forces start a new interval
        target = self.buffered
        yield self.writer
        if self.hardened < target:
            yield from self._harden(task, target)
        self.writer.release()
        flush.succeed()

    def _harden(self, task, target):
        """Write what is buffered up to ``target`` (the writer held); the CF
        request is counted to ``task``."""
        if self.cf is not None:
            task.cf_calls += 1
        yield from self._write()
        self.hardened = target
        self.writes += 1

    def _write(self):
        """The CF list structure write, then the staging data set write."""
        if self.cf is not None:
            yield self.cf.request(LOG_WRITE)
        if self.staging or self.cf is None:
            if self.volume is None:
                yield costs.DASD_FAST_WRITE_MS / 1000.0
            else:
                page = self._first + self._next
                self._next = (self._next + 1) % self._pages
                yield from self.volume.write_pages((page,))
