"""DB2 CPU costs: class 2 (the application thread) and prefetch engines.

Set once here, used by every DB2 experiment. They are orders of magnitude for
a zEC12-class processor, not fitted to any published run:

* a getpage (find the page in the buffer pool, latch, release): about a
  microsecond (IBM DB2 10 for z/OS Performance Topics, SG24-7942, buffer
  pool chapters quote getpage costs of a microsecond or two);
* a synchronous read costs the application thread the I/O start, the
  suspend and resume, and the I/O interrupt: about 15 µs;
* a prefetch I/O costs a prefetch engine (a DBM1 SRB) about 20 µs to start
  and complete, plus about a microsecond per page to register the page in
  the buffer pool.

So list prefetch of 32 discontiguous pages costs ~52 µs against ~480 µs for
32 synchronous reads: several times less, as IBM describes.
"""
from __future__ import annotations

GETPAGE_US = 1.0
SYNC_IO_US = 15.0
PREFETCH_IO_US = 20.0
PREFETCH_PAGE_US = 1.0

US = 1e-6


def class2_cpu_s(getpages: int, sync_reads: int) -> float:
    """Application-thread CPU seconds for ``getpages`` and ``sync_reads``."""
    return (getpages * GETPAGE_US + sync_reads * SYNC_IO_US) * US


def prefetch_cpu_s(pages: int) -> float:
    """Prefetch engine CPU seconds for one prefetch I/O of ``pages`` pages."""
    return (PREFETCH_IO_US + pages * PREFETCH_PAGE_US) * US
