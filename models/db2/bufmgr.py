"""The DB2 buffer manager as processes: an application thread and prefetch
engines reading through the I/O subsystem.

The application thread walks a :class:`~models.db2.access.ReadPlan` read by
read. A synchronous read stops it for the whole I/O. A prefetch read is done
by one of the prefetch engines (two, as DB2 typically runs them for one
scan), which work ahead of the application by at most ``ahead`` reads, so a
scan is I/O bound when the engines cannot keep up and CPU bound when they
can. A prefetch read never starts before a synchronous read ahead of it in
the plan has finished: DB2 learns which pages to prefetch from what the
application reads (a DB2 10 index scan's list comes from the non-leaf page
it has just read synchronously; DB2 9's dynamic prefetch from the getpage
that turns the detector on), so every synchronous read drains the
pipeline. Every getpage and every synchronous I/O costs the application class 2
CPU; every prefetch I/O costs its engine CPU before it starts (models.db2.cpu).

With a trace, CPU slices are recorded as ``cpu_busy`` rows (docs/trace.md):
the application thread on ``CP0`` (unit of work 0), the prefetch engines on
``zIIP0`` (DB2 10 runs prefetch engines as zIIP-eligible SRBs; unit of work
1 + engine number). The I/O model records the I/Os themselves.

One event per read and per CPU slice: the page-level work happens inside the
I/O model, so a full-scale scan stays a few events per I/O.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from models.engine import trace_vocab as V
from models.db2 import cpu
from models.db2.access import MODE_NAMES, SYNC, ReadPlan
from models.engine import Engine

#: Prefetch engines working for one scan (DB2 runs two prefetch I/Os of a
#: scan in parallel; DB2 10 Performance Topics, "list prefetch").
PREFETCH_ENGINES = 2
#: How many reads beyond the application's current one the engines may
#: start: the buffer pool share a scan's prefetch may fill before the
#: application catches up.
PREFETCH_AHEAD = 4


@dataclass
class ScanStats:
    """What the scan counted: getpages, I/Os by mode, response-time parts."""

    getpages: int = 0
    pages_read: int = 0
    ios_by_mode: list = field(default_factory=lambda: [0, 0, 0, 0])
    pages_by_mode: list = field(default_factory=lambda: [0, 0, 0, 0])
    io_s: list = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0])   # IOSQ, PEND, DISC, CONN
    resp_s_by_mode: list = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0])
    class2_cpu_s: float = 0.0
    prefetch_cpu_s: float = 0.0
    wait_s: float = 0.0            # application time waiting for prefetch
    elapsed_s: float = 0.0

    @property
    def ios(self) -> int:
        return sum(self.ios_by_mode)

    @property
    def io_ms(self) -> float:
        """Mean response time of the scan's I/Os, ms."""
        return 1000.0 * sum(self.io_s) / self.ios if self.ios else 0.0

    @property
    def prefetch_io_ms(self) -> float:
        """Mean response time of the scan's prefetch I/Os (sequential, dynamic,
        list), ms; of its synchronous reads when it has no prefetch I/O.

        DB2's accounting keeps the two apart (wait per synchronous read, wait
        per prefetch I/O), and the LPO works on list prefetch I/Os only: a DB2
        10 index scan's synchronous reads of non-leaf pages are not in it.
        """
        n = sum(self.ios_by_mode[1:])
        if not n:
            return self.io_ms
        return 1000.0 * sum(self.resp_s_by_mode[1:]) / n

    def part_ms(self, i: int) -> float:
        """Mean IOSQ (0), PEND (1), DISC (2) or CONN (3) per I/O, ms."""
        return 1000.0 * self.io_s[i] / self.ios if self.ios else 0.0

    def mode_rows(self) -> tuple:
        return tuple((MODE_NAMES[m], self.ios_by_mode[m], self.pages_by_mode[m],
                      1000.0 * self.resp_s_by_mode[m] / self.ios_by_mode[m])
                     for m in range(len(MODE_NAMES)) if self.ios_by_mode[m])


class BufferManager:
    """Runs read plans on ``engine`` through ``io``.

    Parameters
    ----------
    engine : Engine
    io : object
        ``yield from io.read(pages, mode)`` does one I/O and returns its
        ``(iosq, pend, disc, conn)`` in seconds (models.db2.iopath).
    prefetch_engines : int
    ahead : int
        Reads the engines may run ahead of the application.
    trace : Trace or None
        Where to record CPU slices; None records nothing.
    index_leaf : bool
        The pages are index leaf pages: each getpage also processes its keys
        (:data:`models.db2.cpu.INDEX_LEAF_US`).
    """

    def __init__(self, engine: Engine, io, prefetch_engines: int | None = None,
                 ahead: int | None = None, trace=None, index_leaf: bool = False):
        self.engine = engine
        self.index_leaf = index_leaf
        self.io = io
        self.stats = ScanStats()
        self._n_engines = PREFETCH_ENGINES if prefetch_engines is None else prefetch_engines
        self._ahead = PREFETCH_AHEAD if ahead is None else ahead
        self._reads: list = []        # [mode, pages, getpages, done event]
        self._source: Iterator | None = None
        self._exhausted = False
        self._consumed = 0            # reads the application has finished
        self._next_prefetch = 0       # next read index an engine looks at
        self._kick = engine.event()   # triggers when the application advances
        self._tr = trace
        if trace is not None:
            self._busy = trace.kind(V.CPU_BUSY)
            self._cp, self._ziip = trace.component("CP0"), trace.component("zIIP0")

    # -- feeding reads ------------------------------------------------------
    def _reads_of(self, plans: Iterable[ReadPlan]) -> Iterator[list]:
        for plan in plans:
            starts, modes, gets = plan.starts.tolist(), plan.modes.tolist(), plan.getpages.tolist()
            pages = plan.pages
            for i, mode in enumerate(modes):
                done = None if mode == SYNC else self.engine.event()
                yield [mode, pages[starts[i]:starts[i + 1]], gets[i], done]

    def _fill(self, upto: int) -> None:
        """Pull reads from the plans until index ``upto`` exists (or none are left)."""
        reads, src = self._reads, self._source
        while len(reads) <= upto and not self._exhausted:
            try:
                reads.append(next(src))
            except StopIteration:
                self._exhausted = True

    # -- processes ----------------------------------------------------------
    def scan(self, plans: Iterable[ReadPlan],
             progress: Callable[[int], None] | None = None):
        """Start the scan; returns the application-thread process.

        ``progress(reads_done)`` is called every 64 reads.
        """
        self._source = self._reads_of(plans)
        for k in range(self._n_engines):
            self.engine.process(self._prefetch_engine(k + 1), f"prefetch{k}")
        return self.engine.process(self._application(progress), "application")

    def _application(self, progress):
        st, eng, io = self.stats, self.engine, self.io
        i = 0
        while True:
            self._fill(i)
            if i >= len(self._reads):
                break
            mode, pages, gets, done = self._reads[i]
            if mode == SYNC:
                times = yield from io.read(pages, SYNC)
                self._count_io(SYNC, len(pages), times)
                cpu_s = cpu.class2_cpu_s(gets, 1, self.index_leaf)
            else:
                t0 = eng.now
                yield done
                st.wait_s += eng.now - t0
                cpu_s = cpu.class2_cpu_s(gets, 0, self.index_leaf)
            st.getpages += gets
            st.class2_cpu_s += cpu_s
            if self._tr is not None:
                self._tr.record(eng.now, self._cp, self._busy, 0,
                                self._tr.whole(self._cp, cpu_s * 1e6))
            yield cpu_s
            self._reads[i] = None      # free the page array once consumed
            i += 1
            self._consumed = i
            kick, self._kick = self._kick, eng.event()
            kick.succeed()
            if progress is not None and not i & 63:
                progress(i)
        st.elapsed_s = eng.now

    def _prefetch_engine(self, uow: int):
        eng, io, st = self.engine, self.io, self.stats
        while True:
            j = self._next_pending()
            if j is None:
                return
            if j >= self._consumed + self._ahead or self._sync_before(j):
                yield self._kick
                continue
            self._next_prefetch = j + 1
            mode, pages, _gets, done = self._reads[j]
            cpu_s = cpu.prefetch_cpu_s(len(pages))
            st.prefetch_cpu_s += cpu_s
            if self._tr is not None:
                self._tr.record(eng.now, self._ziip, self._busy, uow,
                                self._tr.whole(self._ziip, cpu_s * 1e6))
            yield cpu_s
            times = yield from io.read(pages, mode)
            self._count_io(mode, len(pages), times)
            done.succeed()

    def _sync_before(self, j: int) -> bool:
        """A synchronous read before read ``j`` is not finished by the
        application: read ``j`` is not yet known to DB2 (its trigger, e.g. the
        non-leaf page naming its pages, comes with that read)."""
        reads = self._reads
        return any(reads[k][0] == SYNC for k in range(self._consumed, j))

    def _next_pending(self) -> int | None:
        """Index of the next prefetch read no engine has taken, or None."""
        j = self._next_prefetch
        while True:
            self._fill(j)
            if j >= len(self._reads):
                return None
            read = self._reads[j]
            if read is not None and read[0] != SYNC:
                self._next_prefetch = j
                return j
            j += 1

    def _count_io(self, mode: int, n_pages: int, times) -> None:
        st = self.stats
        st.ios_by_mode[mode] += 1
        st.pages_by_mode[mode] += n_pages
        st.pages_read += n_pages
        s = st.io_s
        s[0] += times[0]
        s[1] += times[1]
        s[2] += times[2]
        s[3] += times[3]
        st.resp_s_by_mode[mode] += times[0] + times[1] + times[2] + times[3]

