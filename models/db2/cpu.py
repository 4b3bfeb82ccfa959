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

An index scan also processes every key of each leaf page it reads
(``INDEX_LEAF_US``): a 4 KB leaf of a typical index holds a few hundred
entries (key + RID; ~300 for a 10-byte key), and evaluating one against the
scan's range and passing its RID on takes on the order of a hundred
instructions, so ~30,000–45,000 instructions per leaf, ~20–30 µs on a
zEC12 engine (~1,500 MIPS). 25 µs is taken. It caps a scan at ~160 MB/s
of leaf pages on one thread, which matters once I/O is fast (SSD with
zHPF); the getpage itself (1 µs) was all the model charged before.
"""
from __future__ import annotations

GETPAGE_US = 1.0
SYNC_IO_US = 15.0
PREFETCH_IO_US = 20.0
PREFETCH_PAGE_US = 1.0
INDEX_LEAF_US = 25.0

US = 1e-6


def class2_cpu_s(getpages: int, sync_reads: int, index_leaf: bool = False) -> float:
    """Application-thread CPU seconds for ``getpages`` and ``sync_reads``;
    ``index_leaf``: the pages are index leaf pages whose keys the scan processes."""
    per_page = GETPAGE_US + (INDEX_LEAF_US if index_leaf else 0.0)
    return (getpages * per_page + sync_reads * SYNC_IO_US) * US


def prefetch_cpu_s(pages: int) -> float:
    """Prefetch engine CPU seconds for one prefetch I/O of ``pages`` pages."""
    return (PREFETCH_IO_US + pages * PREFETCH_PAGE_US) * US
